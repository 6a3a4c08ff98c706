// Planning a collective: which phases (dimension, collective type, algorithm, members) each chunk runs.
//
// Pure data, no events (docs/research/astra-multidim-collectives.md has the ASTRA-sim rules we follow):
// - Over the whole system a collective is decomposed over the logical dimensions, one per entry of the
//   system's *-implementation list for that collective. Dimensions of size 1 or not involved are skipped;
//   ALL_GATHER walks the dimensions in reverse; ALL_REDUCE is one ALL_REDUCE per dimension (baseline) or,
//   with localBWAware, REDUCE_SCATTER up the dimensions, ALL_REDUCE on the last and ALL_GATHER back down
//   (those all-gathers run anticlockwise).
// - A communicator group as large as the system is planned the same way with every dimension involved; a
//   smaller group is one ring over its ranks in the group file's order, always with the ring algorithm,
//   whose packets take ASTRA-sim's fixed 10 ns local path instead of the endpoint delay.
// - Each phase waits in its dimension's queue (queue d for dimension d; a group's ring uses queue 0).
#pragma once

#include "core/config/config_types.h"
#include "core/system/collectives/phase_algorithm.h"

#include <memory>
#include <vector>

namespace astrolabe {

struct PhaseSpec {
    PhaseType type = PhaseType::AllReduce;
    uint32_t queue = 0; // also the logical dimension
    config::AlgorithmChoice algorithm;
    PhaseMembers members;
    uint32_t my_index = 0;
    bool clockwise = true;
    bool local = false; // a communicator-group ring: fixed 10 ns per packet instead of the endpoint delay
};

// The logical dimensions collectives run over: the network's dimension sizes and strides.
struct LogicalTopology {
    std::vector<uint32_t> sizes;
    std::vector<uint32_t> strides;
    uint32_t npus = 1;
    uint32_t index_in_dim(uint32_t npu, size_t d) const { return (npu / strides[d]) % sizes[d]; }
};
// From the network config: dimension 0 varies fastest (ASTRA-sim's NPU numbering, as NetworkTopology).
LogicalTopology make_logical_topology(const config::NetworkConfig& net);

struct PlanRequest {
    PhaseType type = PhaseType::AllReduce;
    uint32_t npu = 0;
    const std::vector<uint32_t>* group = nullptr; // null = whole system
    uint8_t involved_dims = 0xff;                 // whole-system collectives only
};

// The algorithms a collective of `type` uses per logical dimension: the system's list, or `ring` on every
// network dimension when the list was not given.
std::vector<config::AlgorithmChoice> implementations(PhaseType type, const config::SystemConfig& sys,
                                                     const LogicalTopology& topo);

// The phases each chunk of the collective runs; empty when there is nobody to talk to.
std::vector<PhaseSpec> plan_collective(const PlanRequest& req, const config::SystemConfig& sys,
                                       const LogicalTopology& topo);

// Builds the algorithm object of one phase for a chunk of `data_size` bytes. `min_tree` picks the tree of
// a doubleBinaryTree phase. `recycled`, a finished phase of the same stream, is restarted in place when
// both are ring/direct phases (no allocation per chunk), else dropped.
// When `spec` is a ring/direct phase, restarts `ring` as that phase for a chunk of `data_size` bytes and
// returns true; else leaves it alone and returns false.
bool restart_as_ring(RingPhase& ring, const PhaseSpec& spec, uint64_t data_size);

std::unique_ptr<PhaseAlgorithm> make_phase_algorithm(const PhaseSpec& spec, uint64_t data_size, bool min_tree,
                                                     std::unique_ptr<PhaseAlgorithm> recycled = nullptr);

} // namespace astrolabe

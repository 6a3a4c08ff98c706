// A hardware description (and an NCCL choice) mapped onto the configs the normal engine runs.
//
// The engine knows ASTRA-sim's building blocks: dimensions of Ring/Switch links with a bandwidth and a
// per-hop latency, and per-dimension ring/direct algorithms with chunking. Every NCCL choice maps onto one
// Switch dimension over all ranks whose bandwidth is the choice's bus bandwidth; the ring algorithm then
// sends the 2(n-1) (or n-1) messages of size/n one after another, so time = latency + bus bytes / bus
// bandwidth. The tuner's figures carry the algorithm's physics: NVLS's in-switch reduction, a tree's
// in-node chain and network stage (the slower one sets the bus bandwidth), their step latencies.
// All-to-all: direct, one message of size/n to every peer at once on a link of busbw / (n-1).
// Latencies are spread over the messages in sequence so their sum is the choice's latency.
#pragma once

#include "core/config/config_types.h"
#include "core/config/hardware_types.h"
#include "core/hardware/nccl_model.h"
#include "core/trace/trace_types.h"

namespace astrolabe::hardware {

struct MappedCollective {
    config::NetworkConfig network;
    config::SystemConfig system;
    trace::CollectiveType type = trace::CollectiveType::AllReduce;
    uint64_t comm_size = 0; // the trace's comm_size for nccl-tests' `bytes` (all-gather: one rank's part)
};

// The one Switch dimension over `ranks` on which the engine's engine_algorithm(op) gives `choice`'s time
// for `op`: latency + bus bytes / bus bandwidth (the latency spread over the ring's messages, two hops each).
config::NetworkDim engine_dim(CollOp op, uint32_t ranks, const NcclChoice& choice);
// The engine's algorithm engine_dim is made for: direct for all-to-all, ring for the others.
config::AlgorithmChoice engine_algorithm(CollOp op);

// The configs that run one collective of `bytes` (nccl-tests' size column) with `choice`.
MappedCollective map_collective(const config::HardwareConfig& hw, CollOp op, uint64_t bytes,
                                const NcclChoice& choice);

// Network and system configs for whole workloads on this hardware (`run --hardware`): two Switch dimensions
// (NVLink, the GPU's share of the NICs). Collectives are timed one by one by collective_links.h; these
// links carry the workload's own sends and receives, and every collective under the congestion and flow
// models, at the bandwidth NCCL reaches for a large all-reduce.
struct MappedSystem {
    config::NetworkConfig network;
    config::SystemConfig system;
    NcclChoice choice;
};
MappedSystem map_system(const config::HardwareConfig& hw);

trace::CollectiveType trace_collective(CollOp op);

} // namespace astrolabe::hardware

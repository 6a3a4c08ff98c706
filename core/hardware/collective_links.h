// A training step on a described system: every collective timed as NCCL would run it.
//
// `run --hardware` gives the engine a CollectiveLinks function (core/system/collectives/collective_link.h).
// For each collective of the run it finds the group's shape on the system (how many of its GPUs share a
// node, how many nodes it spans), asks the tuner (nccl_model.h) for NCCL's algorithm, protocol and
// channels for that operation and size on that shape, and returns the link on which the engine's ring
// gives that choice's time: the same link collective-perf runs on (hardware_mapping.h engine_dim), so a
// collective in a run takes what `collective-perf` prints for its op, size and group.
#pragma once

#include "core/config/hardware_types.h"
#include "core/hardware/nccl_model.h"
#include "core/system/collectives/collective_link.h"

namespace astrolabe::hardware {

// Where a group's GPUs sit: ranks are numbered node by node (rank r on node r / gpus_per_node).
struct GroupShape {
    uint32_t ranks = 0;
    uint32_t nodes = 0;         // nodes with at least one member
    uint32_t gpus_per_node = 0; // members on the fullest of them
    bool regular = true;        // every node it touches holds gpus_per_node members
};
GroupShape group_shape(const config::HardwareConfig& hw, const PhaseMembers& members);

// The system a group's communicator sees: its GPUs per node and its nodes. Each GPU keeps its share of
// its node's NICs (a data-parallel group with one GPU per node runs over that GPU's NICs, not the whole
// node's), and NVLink SHARP needs two GPUs of the group on a node.
config::HardwareConfig group_system(const config::HardwareConfig& hw, const GroupShape& shape);

// The links function of `run --hardware` (collective_link.h).
CollectiveLinks collective_links(const config::HardwareConfig& hw);

} // namespace astrolabe::hardware

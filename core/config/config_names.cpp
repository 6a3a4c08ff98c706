// Names of the config enums, as the input files spell them.
#include "core/config/config_types.h"

namespace astrolabe::config {

const char* topology_name(Topology t) {
    switch (t) {
    case Topology::Ring:
        return "Ring";
    case Topology::FullyConnected:
        return "FullyConnected";
    case Topology::Switch:
        return "Switch";
    }
    return "?";
}

const char* algorithm_name(CollectiveAlgorithm a) {
    switch (a) {
    case CollectiveAlgorithm::Ring:
        return "ring";
    case CollectiveAlgorithm::Direct:
        return "direct";
    case CollectiveAlgorithm::HalvingDoubling:
        return "halvingDoubling";
    case CollectiveAlgorithm::DoubleBinaryTree:
        return "doubleBinaryTree";
    }
    return "?";
}

const char* scheduling_policy_name(SchedulingPolicy p) {
    switch (p) {
    case SchedulingPolicy::LIFO:
        return "LIFO";
    case SchedulingPolicy::FIFO:
        return "FIFO";
    case SchedulingPolicy::EXPLICIT:
        return "EXPLICIT";
    }
    return "?";
}

const char* optimization_name(CollectiveOptimization o) {
    return o == CollectiveOptimization::Baseline ? "baseline" : "localBWAware";
}

const char* memory_type_name(MemoryType t) {
    switch (t) {
    case MemoryType::NoExpansion:
        return "NO_MEMORY_EXPANSION";
    case MemoryType::PerNodeExpansion:
        return "PER_NODE_MEMORY_EXPANSION";
    case MemoryType::PerNpuExpansion:
        return "PER_NPU_MEMORY_EXPANSION";
    case MemoryType::Pool:
        return "MEMORY_POOL";
    }
    return "?";
}

} // namespace astrolabe::config

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

const char* implementation_key(int kind) {
    static const char* const kKeys[kCollectiveKinds] = {
        "all-reduce-implementation", "all-gather-implementation", "reduce-scatter-implementation",
        "all-to-all-implementation"};
    return kind >= 0 && kind < kCollectiveKinds ? kKeys[kind] : "?";
}

const char* custom_implementation_key(int kind) {
    static const char* const kKeys[kCollectiveKinds] = {
        "all-reduce-implementation-custom", "all-gather-implementation-custom",
        "reduce-scatter-implementation-custom", "all-to-all-implementation-custom"};
    return kind >= 0 && kind < kCollectiveKinds ? kKeys[kind] : "?";
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
    case MemoryType::Local:
        return "LOCAL_MEMORY";
    }
    return "?";
}

} // namespace astrolabe::config

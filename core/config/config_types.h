// Typed, validated configuration: ASTRA-sim's analytical network YAML, system JSON, remote-memory JSON and
// communicator-group JSON, read unchanged. Defaults live here (the same defaults ASTRA-sim applies).
//
// Units as the files give them: network bandwidth in GB/s where 1 GB = 2^30 bytes (ASTRA-sim's analytical
// backend), latency in ns; local-mem-bw and remote-mem-bw in GB/s where 1 GB = 10^9 bytes; peak-perf in
// TFLOPS (10^12 op/s).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace astrolabe::config {

// [SECTION] network
enum class Topology : uint8_t { Ring, FullyConnected, Switch };
const char* topology_name(Topology t);

struct NetworkDim {
    Topology topology = Topology::Ring;
    uint32_t npus = 0;
    double bandwidth_gbps = 0; // GB/s, 1 GB = 2^30 bytes
    double latency_ns = 0;     // per hop
};

struct NetworkConfig {
    std::vector<NetworkDim> dims;
    uint64_t npus() const {
        uint64_t n = 1;
        for (const auto& d : dims) n *= d.npus;
        return dims.empty() ? 0 : n;
    }
};

// [SECTION] system
enum class CollectiveAlgorithm : uint8_t { Ring, Direct, HalvingDoubling, DoubleBinaryTree };
const char* algorithm_name(CollectiveAlgorithm a);

struct AlgorithmChoice {
    CollectiveAlgorithm algorithm = CollectiveAlgorithm::Ring;
    int window = -1; // "directK": at most K peers at once; -1 = all
};

enum class SchedulingPolicy : uint8_t { LIFO, FIFO, EXPLICIT };
enum class CollectiveOptimization : uint8_t { Baseline, LocalBWAware };

struct SystemConfig {
    SchedulingPolicy scheduling_policy = SchedulingPolicy::LIFO;
    uint32_t endpoint_delay_ns = 10;      // per packet handled by a collective (ASTRA-sim's default 10)
    uint32_t active_chunks_per_dimension = 1;
    uint32_t preferred_dataset_splits = 1;
    CollectiveOptimization collective_optimization = CollectiveOptimization::Baseline;
    // One algorithm per logical dimension; the list length is the number of logical dimensions.
    std::vector<AlgorithmChoice> all_reduce{{}}, all_gather{{}}, reduce_scatter{{}}, all_to_all{{}};
    // ET prefixes of custom (send/recv) collective implementations, by collective; empty = none.
    std::string all_reduce_custom, all_gather_custom, reduce_scatter_custom, all_to_all_custom;
    double local_mem_bw_gbps = 0; // GB/s, 1 GB = 10^9 bytes; 0 = no local-memory cost
    bool roofline_enabled = false;
    double peak_perf_tflops = 0;
    bool replay_only = false;
    bool track_local_mem = false; // ASTRA-sim's local-memory tracking: refused (see docs)
    std::vector<std::string> warnings; // unknown or ignored keys, one line each
};

// [SECTION] remote memory
enum class MemoryType : uint8_t { NoExpansion, PerNodeExpansion, PerNpuExpansion, Pool };
const char* memory_type_name(MemoryType t);

struct MemoryConfig {
    MemoryType type = MemoryType::NoExpansion;
    uint64_t latency_ns = 0;
    uint64_t bandwidth_gbps = 0; // GB/s, 1 GB = 10^9 bytes (ASTRA-sim reads it as an integer)
    uint32_t num_nodes = 1;
    uint32_t npus_per_node = 1;
    std::vector<std::string> warnings;
};

// [SECTION] communicator groups
struct CommGroup {
    std::string id;              // the JSON key, e.g. "5"; pg_name refers to it
    std::vector<uint32_t> ranks; // in file order (the order defines ring positions)
};

struct CommGroups {
    std::vector<CommGroup> groups; // in ascending numeric id order
    const CommGroup* find(const std::string& id) const {
        for (const auto& g : groups)
            if (g.id == id) return &g;
        return nullptr;
    }
};

} // namespace astrolabe::config

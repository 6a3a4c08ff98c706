// Typed, validated configuration: ASTRA-sim's analytical network YAML, system JSON, remote-memory JSON and
// communicator-group JSON, read unchanged. Defaults live here (ASTRA-sim's where it has one).
//
// Units as the files give them: network bandwidth in GB/s where 1 GB = 2^30 bytes (ASTRA-sim's analytical
// backend), latency in ns per hop; local-mem-bw and remote-mem-bw in GB/s where 1 GB = 10^9 bytes;
// peak-perf in TFLOPS (10^12 operations per second).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace astrolabe::config {

// [SECTION] network
// Every enum of this file is spelled by one table in spellings.h (name_of, parse_name).
enum class Topology : uint8_t { Ring, FullyConnected, Switch };

struct NetworkDim {
    Topology topology = Topology::Ring;
    uint32_t npus = 1;
    double bandwidth_gbps = 0; // GB/s, 1 GB = 2^30 bytes
    double latency_ns = 0;     // per hop
};

struct NetworkConfig {
    std::vector<NetworkDim> dims;
    std::vector<std::string> warnings;
    // The product of the dimensions' NPU counts; saturates at UINT64_MAX (the parsers refuse any product
    // above 2^24, so only a hand-built config can reach it).
    uint64_t npus() const {
        uint64_t n = 1;
        for (const auto& d : dims)
            n = d.npus && n > UINT64_MAX / d.npus ? UINT64_MAX : n * d.npus;
        return dims.empty() ? 0 : n;
    }
};

// [SECTION] system
enum class CollectiveAlgorithm : uint8_t { Ring, Direct, HalvingDoubling, DoubleBinaryTree };

struct AlgorithmChoice {
    CollectiveAlgorithm algorithm = CollectiveAlgorithm::Ring;
    int32_t window = -1; // "directK": at most K peers at once; -1 = all
    bool operator==(const AlgorithmChoice& o) const { return algorithm == o.algorithm && window == o.window; }
};

enum class SchedulingPolicy : uint8_t { LIFO, FIFO, EXPLICIT };
enum class CollectiveOptimization : uint8_t { Baseline, LocalBWAware };

// The four collectives ASTRA-sim's system layer implements, in the order of its *-implementation keys.
enum class CollectiveKind : uint8_t { AllReduce, AllGather, ReduceScatter, AllToAll };
constexpr int kCollectiveKinds = 4;
// The system-JSON keys of a kind's algorithm list ("all-reduce-implementation", ...) and of its custom
// implementation ("all-reduce-implementation-custom", ...); `kind` is a CollectiveKind value.
const char* implementation_key(int kind);
const char* custom_implementation_key(int kind);

// Astrolabe's extension for heterogeneous and straggling NPUs (system key `npu-overrides`): the NPUs listed
// get their own compute and memory figures; everything left out keeps the system-wide value.
struct NpuOverride {
    std::vector<uint32_t> npus;   // ranks, as listed ("npus": [..] or "npus": "a-b")
    double peak_perf_tflops = 0;  // roofline peak; 0 = the system's peak-perf
    double local_mem_bw_gbps = 0; // roofline memory bandwidth; 0 = the system's local-mem-bw
    double compute_slowdown = 1;  // every GPU compute node of these NPUs takes this many times longer
};

struct SystemConfig {
    SchedulingPolicy scheduling_policy = SchedulingPolicy::LIFO;
    uint32_t endpoint_delay_ns = 10; // per packet a collective handles
    uint32_t active_chunks_per_dimension = 1;
    uint32_t preferred_dataset_splits = 1;
    CollectiveOptimization collective_optimization = CollectiveOptimization::Baseline;
    // One algorithm per logical dimension, indexed by CollectiveKind. Empty = the key was absent (then the
    // simulation uses `ring` on every network dimension).
    std::vector<AlgorithmChoice> implementation[kCollectiveKinds];
    // ET prefix of a custom (send/recv) implementation, indexed by CollectiveKind; empty = none.
    std::string custom_implementation[kCollectiveKinds];
    double local_mem_bw_gbps = 0; // GB/s, 1 GB = 10^9 bytes; 0 = absent
    bool roofline_enabled = false;
    double peak_perf_tflops = 0;
    bool replay_only = false;
    // Set by a hardware description (core/hardware/hardware_mapping.h), never read from a system file:
    // the roofline's memory roof is the GPU's HBM while collectives pay no local-memory cost (NCCL's
    // figures include the reduction), and a COMP node without num_ops or tensor_size replays its trace
    // duration instead of being refused (a converted trace on real hardware).
    double roofline_mem_bw_gbps = 0; // 0 = local-mem-bw
    bool roofline_or_duration = false;
    std::vector<NpuOverride> npu_overrides; // in file order; a later entry wins for an NPU listed twice
    std::vector<std::string> warnings;      // unknown keys and keys that have no effect, one line each
};

// [SECTION] systolic array (the `systolic` compute model; core/compute/systolic.h)
// Which operand stays in the array: output (os), weight (ws) or input (is) stationary.
enum class Dataflow : uint8_t { OutputStationary, WeightStationary, InputStationary };

struct SystolicConfig {
    uint32_t rows = 128;
    uint32_t cols = 128;
    Dataflow dataflow = Dataflow::WeightStationary;
    double clock_ghz = 1.0;
};

// [SECTION] model choices (the run's `network_model` and `compute_model`)
// Analytical: ASTRA-sim's analytical backend (no contention); Congestion: per-link queues; Flow: max-min
// fair sharing of the links between concurrent flows.
enum class NetworkModel : uint8_t { Analytical, Congestion, Flow };
// FromSystem: the system config's roofline-enabled decides between Trace and Roofline.
enum class ComputeModel : uint8_t { FromSystem, Trace, Roofline, Systolic };

// [SECTION] remote memory
// Local: an Astrolabe extension (not ASTRA-sim's): MEM nodes use each NPU's own local memory (HBM).
enum class MemoryType : uint8_t { NoExpansion, PerNodeExpansion, PerNpuExpansion, Pool, Local };

// How a shared remote memory (per node or pool) serves concurrent accesses.
//   Fifo: ASTRA-sim's model, one access at a time, first come first served (latency included).
//   Fair: Astrolabe's option `bandwidth-sharing: "fair"`: every access in flight gets an equal share of
//         the bandwidth, and the latency is a fixed delay that overlaps with the others.
enum class MemorySharing : uint8_t { Fifo, Fair };

struct MemoryConfig {
    MemoryType type = MemoryType::NoExpansion;
    MemorySharing sharing = MemorySharing::Fifo;
    uint64_t latency_ns = 0;
    uint64_t bandwidth_gbps = 0; // GB/s, 1 GB = 10^9 bytes; an integer, as ASTRA-sim reads it
    uint32_t num_nodes = 1;
    uint32_t npus_per_node = 1;
    std::vector<std::string> warnings;
};

// [SECTION] communicator groups
struct CommGroup {
    uint32_t id = 0;             // the JSON key; pg_name refers to it
    std::vector<uint32_t> ranks; // in file order (the order defines ring positions)
};

struct CommGroups {
    std::vector<CommGroup> groups; // in ascending id order
    const CommGroup* find(uint32_t id) const {
        for (const auto& g : groups)
            if (g.id == id) return &g;
        return nullptr;
    }
};

} // namespace astrolabe::config

#include "bench/asym_workload.h"

#include <string>

namespace astrolabe::bench {

namespace {
// Odd multipliers, coprime to the prime 4099: each phase permutes the ranks' compute times differently.
constexpr uint64_t kMultipliers[3] = {2654435761u % 4099u, 40503u, 9973u};
constexpr uint64_t kSizes[3] = {1u << 20, 256u << 10, 1u << 20};
} // namespace

uint64_t asym_compute_us(uint32_t rank, uint32_t phase) {
    return 20 + (static_cast<uint64_t>(rank) * kMultipliers[phase % 3]) % 4099;
}

trace::Trace asym_trace(uint32_t rank) {
    trace::Trace t;
    t.source = "asym." + std::to_string(rank) + ".et";
    t.metadata.version = "0.0.4";
    uint64_t id = 0;
    int64_t prev = -1;
    for (uint32_t phase = 0; phase < 3; ++phase) {
        trace::Node c;
        c.id = id++;
        c.name = "compute_" + std::to_string(phase);
        c.type = trace::NodeType::Comp;
        c.raw_type = static_cast<uint32_t>(c.type);
        c.duration_micros = asym_compute_us(rank, phase);
        if (prev >= 0) c.data_deps.push_back(static_cast<uint64_t>(prev));
        prev = static_cast<int64_t>(c.id);
        t.nodes.push_back(std::move(c));

        trace::Node n;
        n.id = id++;
        n.name = "all_reduce_" + std::to_string(phase);
        n.type = trace::NodeType::CommColl;
        n.raw_type = static_cast<uint32_t>(n.type);
        n.comm_type = static_cast<uint64_t>(trace::CollectiveType::AllReduce);
        n.comm_size = kSizes[phase];
        n.data_deps.push_back(static_cast<uint64_t>(prev));
        prev = static_cast<int64_t>(n.id);
        t.nodes.push_back(std::move(n));
    }
    return t;
}

} // namespace astrolabe::bench

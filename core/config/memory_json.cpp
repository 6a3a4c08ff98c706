// ASTRA-sim's remote-memory JSON -> MemoryConfig.
#include "core/config/config_parse.h"
#include "core/config/json_read.h"
#include "core/config/spellings.h"

#include <cmath>

namespace astrolabe::config {

namespace detail {

Result<MemoryConfig> memory_from_json(const json& j, const std::string& source) {
    if (Status st = require_object(j, source, "memory configuration"); !st.is_ok()) return st;
    MemoryConfig mem;
    Status problems;
    Fields f(j, source, problems);

    std::string type;
    if (!f.has("memory-type"))
        f.problem("memory-type", "is missing; one of NO_MEMORY_EXPANSION, PER_NODE_MEMORY_EXPANSION, "
                                 "PER_NPU_MEMORY_EXPANSION, MEMORY_POOL, LOCAL_MEMORY was expected");
    f.read_string("memory-type", type);
    if (!type.empty() && !parse_name(type, mem.type))
        f.problem("memory-type",
                  "is \"" + type + "\"; one of " + expected_choice(spellings<MemoryType>(), type));

    // LOCAL_MEMORY (ours): each NPU's own memory serves its MEM nodes, latency + bytes / bandwidth, and
    // NPUs never wait for each other. Its keys say "local" so they cannot be mistaken for a remote pool's.
    if (mem.type == MemoryType::Local) {
        f.read_uint("local-mem-latency", mem.latency_ns, 0, uint64_t(1) << 40);
        if (!f.has("local-mem-bw"))
            f.problem("local-mem-bw", "is missing; LOCAL_MEMORY needs the local memory bandwidth in GB/s");
        f.read_uint("local-mem-bw", mem.bandwidth_gbps, 1, uint64_t(1) << 40);
        for (const char* k : {"remote-mem-latency", "remote-mem-bw", "num-nodes", "num-npus-per-node"})
            if (f.has(k))
                f.problem(k, "does not apply to LOCAL_MEMORY (use local-mem-latency and local-mem-bw)");
    }

    if (mem.type != MemoryType::Local)
        f.read_uint("remote-mem-latency", mem.latency_ns, 0, uint64_t(1) << 40);
    if (mem.type != MemoryType::Local && f.has("remote-mem-bw")) {
        const json& v = f.at("remote-mem-bw");
        double bw = 0;
        f.read_double("remote-mem-bw", bw, 0, true);
        if (bw > 1e9) // beyond any memory system, and beyond what an integer of GB/s holds without overflow
            f.problem("remote-mem-bw", "is " + v.dump() + "; at most 1e9 GB/s was expected");
        else if (bw >= 1) {
            // ASTRA-sim reads this key into an integer; keep its truncation so results match.
            mem.bandwidth_gbps = static_cast<uint64_t>(bw);
            if (bw != std::floor(bw))
                mem.warnings.push_back(source + ": remote-mem-bw: " + v.dump() + " is truncated to " +
                                       std::to_string(mem.bandwidth_gbps) + " GB/s, as ASTRA-sim does");
        } else if (v.is_number() && bw > 0) {
            f.problem("remote-mem-bw",
                      "is " + v.dump() +
                          "; ASTRA-sim reads it as an integer, so at least 1 GB/s was expected");
        }
    }
    f.read_uint32("num-nodes", mem.num_nodes, 1, 1u << 24);
    f.read_uint32("num-npus-per-node", mem.npus_per_node, 1, 1u << 24);
    if (mem.type != MemoryType::NoExpansion && mem.type != MemoryType::Local && !f.has("remote-mem-bw"))
        f.problem("remote-mem-bw", "is missing; " + type + " needs the remote memory bandwidth in GB/s");

    std::string sharing;
    f.read_string("bandwidth-sharing", sharing);
    if (sharing == "fair")
        mem.sharing = MemorySharing::Fair;
    else if (!sharing.empty() && sharing != "fifo")
        f.problem("bandwidth-sharing",
                  "is \"" + sharing + "\"; \"fifo\" (ASTRA-sim's) or \"fair\" was expected");

    static const char* const kKnown[] = {"memory-type",       "remote-mem-latency", "remote-mem-bw",
                                         "num-nodes",         "num-npus-per-node",  "bandwidth-sharing",
                                         "local-mem-latency", "local-mem-bw"};
    for (auto it = j.begin(); it != j.end(); ++it) {
        bool known = false;
        for (const char* k : kKnown)
            known = known || it.key() == k;
        if (!known) mem.warnings.push_back(source + ": " + it.key() + ": unknown key (ignored)");
    }
    if (!problems.is_ok()) return problems;
    return mem;
}

} // namespace detail

Result<MemoryConfig> parse_memory_json(std::string_view text, const std::string& source) {
    auto j = detail::parse_json_text(text, source);
    if (!j) return j.status();
    return detail::memory_from_json(j.value(), source);
}

} // namespace astrolabe::config

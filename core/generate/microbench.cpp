#include "core/generate/microbench.h"

#include <cctype>

namespace astrolabe::generate {

Status check(const MicrobenchParams& p) {
    Status problems;
    if (p.npus < 1 || p.npus > (1u << 24))
        problems.add("npus: " + std::to_string(p.npus) + "; 1..16777216 was expected");
    if (p.repeat < 1 || p.repeat > 1000000)
        problems.add("repeat: " + std::to_string(p.repeat) + "; 1..1000000 was expected");
    if (p.bytes == 0 && p.collective != trace::CollectiveType::Barrier)
        problems.add("size: 0; a positive byte count was expected");
    return problems;
}

trace::Trace microbench_trace(const MicrobenchParams& p, uint32_t rank) {
    trace::Trace t;
    t.source = "microbench." + std::to_string(rank) + ".et";
    t.metadata.version = "0.0.4";
    uint64_t id = 0;
    int64_t prev = -1;
    for (uint32_t r = 0; r < p.repeat; ++r) {
        if (p.compute_us > 0) {
            trace::Node c;
            c.id = id++;
            c.name = "compute_" + std::to_string(r);
            c.type = trace::NodeType::Comp;
            c.raw_type = static_cast<uint32_t>(c.type);
            c.duration_micros = p.compute_us;
            if (prev >= 0) c.data_deps.push_back(static_cast<uint64_t>(prev));
            prev = static_cast<int64_t>(c.id);
            t.nodes.push_back(std::move(c));
        }
        trace::Node n;
        n.id = id++;
        n.name = std::string(trace::collective_type_name(p.collective)) + "_" + std::to_string(r);
        n.type = trace::NodeType::CommColl;
        n.raw_type = static_cast<uint32_t>(n.type);
        n.comm_type = static_cast<uint64_t>(p.collective);
        n.comm_size = p.bytes;
        if (prev >= 0) n.data_deps.push_back(static_cast<uint64_t>(prev));
        prev = static_cast<int64_t>(n.id);
        t.nodes.push_back(std::move(n));
    }
    return t;
}

bool parse_size(const std::string& text, uint64_t& bytes) {
    size_t i = 0;
    uint64_t v = 0;
    while (i < text.size() && std::isdigit(static_cast<unsigned char>(text[i]))) {
        if (v > (UINT64_MAX - 9) / 10) return false;
        v = v * 10 + uint64_t(text[i++] - '0');
    }
    if (i == 0) return false;
    std::string unit = text.substr(i);
    uint64_t mult = 1;
    if (unit.empty() || unit == "B")
        mult = 1;
    else if (unit == "KiB")
        mult = 1ull << 10;
    else if (unit == "MiB")
        mult = 1ull << 20;
    else if (unit == "GiB")
        mult = 1ull << 30;
    else if (unit == "KB")
        mult = 1000ull;
    else if (unit == "MB")
        mult = 1000000ull;
    else if (unit == "GB")
        mult = 1000000000ull;
    else
        return false;
    if (v > UINT64_MAX / mult) return false;
    bytes = v * mult;
    return true;
}

} // namespace astrolabe::generate

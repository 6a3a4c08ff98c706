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

Status apply_params(MicrobenchParams& p, const std::vector<std::pair<std::string, std::string>>& named) {
    Status problems;
    auto whole = [](const std::string& s, uint64_t max, uint64_t& out) {
        if (s.empty() || s.size() > 19) return false;
        uint64_t v = 0;
        for (char c : s) {
            if (!std::isdigit(static_cast<unsigned char>(c))) return false;
            v = v * 10 + uint64_t(c - '0');
        }
        if (v > max) return false;
        out = v;
        return true;
    };
    for (const auto& kv : named) {
        const std::string& k = kv.first;
        const std::string& v = kv.second;
        uint64_t n = 0;
        if (k == "collective") {
            std::string up = v;
            for (auto& ch : up)
                ch = static_cast<char>(std::toupper(static_cast<unsigned char>(ch)));
            if (auto t = trace::collective_type_from_name(up))
                p.collective = *t;
            else
                problems.add("collective: '" + v +
                             "' is not a Chakra collective type (all_reduce, all_gather, ...)");
        } else if (k == "size") {
            if (!parse_size(v, p.bytes))
                problems.add("size: '" + v + "'; a byte count such as 1048576 or 1MiB was expected");
        } else if (k == "npus") {
            if (whole(v, UINT32_MAX, n))
                p.npus = static_cast<uint32_t>(n);
            else
                problems.add("npus: '" + v + "'; a positive integer was expected");
        } else if (k == "repeat") {
            if (whole(v, UINT32_MAX, n))
                p.repeat = static_cast<uint32_t>(n);
            else
                problems.add("repeat: '" + v + "'; a positive integer was expected");
        } else if (k == "compute-us") {
            if (!whole(v, UINT64_MAX / 1000000, p.compute_us))
                problems.add("compute-us: '" + v + "'; a whole number of microseconds was expected");
        } else {
            problems.add(k + ": unknown microbench parameter; collective, size, npus, repeat or compute-us "
                             "was expected");
        }
    }
    return problems;
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

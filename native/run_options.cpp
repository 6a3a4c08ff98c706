#include "native/run_options.h"

#include "native/suggest.h"

#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <set>

namespace astrolabe::cli {

Status check_run_choices(const Args& a) {
    Status problems;
    auto check = [&](const char* flag, const std::vector<std::string>& choices) {
        if (a.has(flag)) problems.merge(check_choice(std::string("--") + flag, a.get(flag), choices));
    };
    check("network-model", {"analytical", "congestion", "flow"});
    check("compute-model", {"system", "trace", "roofline", "systolic"});
    check("symmetry", {"on", "off"});
    check("systolic-dataflow", {"os", "ws", "is"});
    return problems;
}

bool parse_time_ns(const std::string& s, TimeNs& out) {
    size_t unit = s.find_first_not_of("0123456789.");
    std::string number = s.substr(0, unit), suffix = unit == std::string::npos ? "" : s.substr(unit);
    if (number.empty() || number.find('.') != number.rfind('.')) return false;
    double scale = suffix.empty() || suffix == "ns" ? 1
                   : suffix == "us"                 ? 1e3
                   : suffix == "ms"                 ? 1e6
                   : suffix == "s"                  ? 1e9
                                                    : 0;
    if (scale == 0) return false;
    double v = std::strtod(number.c_str(), nullptr) * scale;
    if (!(v >= 0) || v > 1.8e19) return false;
    out = static_cast<TimeNs>(std::llround(v));
    return true;
}

Result<TimelineFilter> timeline_filter(const Args& a) {
    TimelineFilter f;
    Status problems;
    for (const char* k : {"timeline-npus", "timeline-window"})
        if (a.has(k) && !a.has("timeline"))
            problems.add(std::string("--") + k + ": needs --timeline FILE (it narrows what that file holds)");
    if (a.has("timeline-npus")) {
        const std::string v = a.get("timeline-npus");
        const size_t dash = v.find('-');
        const std::string lo = v.substr(0, dash), hi = dash == std::string::npos ? lo : v.substr(dash + 1);
        auto whole = [](const std::string& t) {
            return !t.empty() && t.size() <= 9 && t.find_first_not_of("0123456789") == std::string::npos;
        };
        if (!whole(lo) || !whole(hi) || std::stoul(lo) > std::stoul(hi))
            problems.add("--timeline-npus: '" + v + "'; an NPU range A-B (A <= B) or one NPU A was expected");
        else
            f.first_npu = static_cast<uint32_t>(std::stoul(lo)),
            f.last_npu = static_cast<uint32_t>(std::stoul(hi));
    }
    if (a.has("timeline-window")) {
        const std::string v = a.get("timeline-window");
        const size_t colon = v.find(':');
        bool ok = colon != std::string::npos;
        if (ok) {
            const std::string t0 = v.substr(0, colon), t1 = v.substr(colon + 1);
            ok = (t0.empty() || parse_time_ns(t0, f.from_ns)) && (t1.empty() || parse_time_ns(t1, f.to_ns)) &&
                 f.from_ns <= f.to_ns;
        }
        if (!ok)
            problems.add("--timeline-window: '" + v +
                         "'; T0:T1 with T0 <= T1 was expected, each in ns or with a unit (10ms:12ms, 1.5s:)");
    }
    if (!problems.is_ok()) return problems;
    return f;
}

std::string explain_trace_problems(const Status& problems, const Args& a) {
    const std::string kUndefined = "is not defined; pass the communicator-group file";
    const std::string kHead = "communicator group ";
    std::set<unsigned long> groups;
    std::string first_file, out;
    size_t folded = 0;
    for (const auto& p : problems.problems()) {
        const size_t at = p.find(kUndefined);
        const size_t g = p.rfind(kHead, at);
        if (at == std::string::npos || g == std::string::npos || a.has("comm-groups")) {
            out += (out.empty() ? "" : "\n") + p;
            continue;
        }
        groups.insert(std::strtoul(p.c_str() + g + kHead.size(), nullptr, 10));
        if (first_file.empty()) first_file = p.substr(0, p.find(':'));
        ++folded;
    }
    if (folded == 0) return problems.message();
    std::string ids;
    for (unsigned long id : groups)
        ids += (ids.empty() ? "" : ", ") + std::to_string(id);
    std::string line = first_file + " (and the other traces): collectives use communicator group" +
                       (groups.size() > 1 ? "s " : " ") + ids + ", which no --comm-groups file defines";
    const std::string beside = a.get("workload") + ".json";
    std::error_code ec;
    if (!a.get("workload").empty() && std::filesystem::is_regular_file(beside, ec))
        line += "; add --comm-groups " + beside +
                " (the groups file `astrolabe generate` wrote beside the traces)";
    else
        line += "; pass the communicator-group file that defines them with --comm-groups G.json";
    // The fold replaces the per-node lines and the "(stopped reading traces ...)" marker they caused.
    std::string kept;
    size_t start = 0;
    while (start <= out.size() && !out.empty()) {
        size_t end = out.find('\n', start);
        std::string l = out.substr(start, end == std::string::npos ? std::string::npos : end - start);
        if (l.rfind("(stopped reading traces", 0) != 0) kept += (kept.empty() ? "" : "\n") + l;
        if (end == std::string::npos) break;
        start = end + 1;
    }
    return kept.empty() ? line : line + "\n" + kept;
}

std::string format_bytes(size_t bytes) {
    char buf[32];
    if (bytes >= 1000000)
        std::snprintf(buf, sizeof buf, "%.1f MB", double(bytes) / 1e6);
    else if (bytes >= 1000)
        std::snprintf(buf, sizeof buf, "%.1f kB", double(bytes) / 1e3);
    else
        std::snprintf(buf, sizeof buf, "%zu bytes", bytes);
    return buf;
}

} // namespace astrolabe::cli

#include "core/report/warnings.h"

#include <algorithm>
#include <map>

namespace astrolabe {

namespace {

// Sorted by text (std::map), then bounded: the listed entries do not depend on the order warnings arrived.
std::vector<WarningCount> to_list(const std::map<std::string, uint64_t>& counts) {
    std::vector<WarningCount> out;
    out.reserve(std::min(counts.size(), kMaxListedWarnings + 1));
    uint64_t left_out = 0, left_out_count = 0;
    for (const auto& [message, count] : counts) {
        if (out.size() < kMaxListedWarnings) {
            out.push_back({message, count});
        } else {
            ++left_out;
            left_out_count += count;
        }
    }
    if (left_out)
        out.push_back(
            {"(" + std::to_string(left_out) + " more distinct warnings not listed)", left_out_count});
    return out;
}

void add_load(const std::vector<std::string>& load, std::map<std::string, uint64_t>& counts) {
    for (const auto& w : load)
        ++counts[w];
}

} // namespace

std::vector<WarningCount> count_warnings(const std::vector<std::string>& load) {
    std::map<std::string, uint64_t> counts;
    add_load(load, counts);
    return to_list(counts);
}

std::vector<WarningCount> collect_warnings(const std::vector<std::string>& load, const RunResult& r) {
    std::map<std::string, uint64_t> counts;
    add_load(load, counts);
    // A modelling note is an approximation the run made (a collective timed as another one, a node timed
    // without the data it needs): the user must hear about it, counted per node issue as in `notes`.
    for (const auto& [message, count] : r.stats.notes)
        counts[message] += count;
    // ASTRA-sim lets a send complete without its receive; the result is then not what the trace meant.
    if (!r.unreceived.empty())
        counts["messages sent but never received (see unreceived_messages)"] += r.unreceived.size();
    return to_list(counts);
}

} // namespace astrolabe

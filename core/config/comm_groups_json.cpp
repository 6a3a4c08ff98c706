// Communicator-group JSON ({"<group id>": [rank, ...]}) -> CommGroups.
#include "core/config/config_parse.h"
#include "core/config/json_read.h"

#include <algorithm>

namespace astrolabe::config {

namespace detail {

Result<CommGroups> comm_groups_from_json(const json& j, const std::string& source, uint64_t npus) {
    if (!j.is_object())
        return Status::error(source + ": the communicator groups are " + describe(j) +
                             "; a JSON object {\"<group id>\": [rank, ...]} was expected");
    CommGroups out;
    Status problems;
    for (auto it = j.begin(); it != j.end(); ++it) {
        const std::string& key = it.key();
        std::string where = source + ": \"" + key + "\": ";
        uint64_t id = 0;
        bool id_ok = !key.empty() && key.size() <= 9;
        for (char c : key)
            id_ok = id_ok && c >= '0' && c <= '9';
        if (id_ok) id = std::stoull(key);
        if (!id_ok || id == 0) {
            problems.add(where +
                         "a group id must be a positive decimal integer (it is what pg_name refers to)");
            continue;
        }
        const json& v = it.value();
        if (!v.is_array() || v.empty()) {
            problems.add(where + "is " + describe(v) + "; a non-empty list of NPU ranks was expected");
            continue;
        }
        CommGroup g;
        g.id = static_cast<uint32_t>(id);
        std::vector<bool> seen;
        for (size_t i = 0; i < v.size(); ++i) {
            const json& r = v[i];
            if (!(r.is_number_unsigned() || (r.is_number_integer() && r.get<int64_t>() >= 0)) ||
                r.get<uint64_t>() > UINT32_MAX) {
                problems.add(where + "entry " + std::to_string(i) + " is " + describe(r) +
                             "; an NPU rank was expected");
                continue;
            }
            auto rank = r.get<uint32_t>();
            if (npus > 0 && rank >= npus) {
                problems.add(where + "rank " + std::to_string(rank) + " does not exist; the network has " +
                             std::to_string(npus) + " NPUs (ranks 0.." + std::to_string(npus - 1) + ")");
                continue;
            }
            if (rank >= seen.size()) seen.resize(rank + 1, false);
            if (seen[rank]) {
                problems.add(where + "rank " + std::to_string(rank) + " is listed twice");
                continue;
            }
            seen[rank] = true;
            g.ranks.push_back(rank);
        }
        out.groups.push_back(std::move(g));
    }
    std::sort(out.groups.begin(), out.groups.end(),
              [](const CommGroup& a, const CommGroup& b) { return a.id < b.id; });
    for (size_t i = 1; i < out.groups.size(); ++i)
        if (out.groups[i].id == out.groups[i - 1].id)
            problems.add(source + ": group " + std::to_string(out.groups[i].id) +
                         " is defined twice (keys that differ only by leading zeros name the same group)");
    if (!problems.is_ok()) return problems;
    return out;
}

} // namespace detail

Result<CommGroups> parse_comm_groups_json(std::string_view text, const std::string& source, uint64_t npus) {
    auto j = detail::parse_json_text(text, source);
    if (!j) return j.status();
    return detail::comm_groups_from_json(j.value(), source, npus);
}

} // namespace astrolabe::config

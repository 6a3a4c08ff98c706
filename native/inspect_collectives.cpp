// `astrolabe inspect P --collectives [--comm-groups G] [--against Q] [--json]`: each rank's collectives as
// a multiset of (type, group size, comm_size) with counts, its sends and receives by size and its num_ops
// (core/trace/collective_profile.h); ranks with equal profiles are printed once. With --against, the same
// for a second set Q and, rank by rank, what differs (Q is taken as the expected one).
#include "native/inspect_collectives.h"
#include "core/config/config_parse.h"
#include "core/trace/collective_profile.h"
#include "core/trace/trace_reader.h"
#include "host/files.h"
#include "native/commands.h"

#include <cstdio>
#include <filesystem>
#include <map>

namespace astrolabe::cli {

namespace {

// The comm-group file of a workload when none is named: STAGE and `generate` both write `<P>.json` next to
// the traces (STAGE's `workload.json` for the prefix `D/workload`); a directory's `workload.json` too.
std::string default_groups(const std::string& workload) {
    std::error_code ec;
    for (const std::string& p : {workload + ".json", workload + "/workload.json"})
        if (std::filesystem::is_regular_file(p, ec)) return p;
    return std::string();
}

// Every rank's profile of the set `workload`; the group sizes from `groups_path` ("" = unknown: 0).
Result<std::vector<trace::RankProfile>> profile_set(const std::string& workload,
                                                    const std::string& groups_path) {
    auto src = host::FileTraceSource::open(workload);
    if (!src.is_ok()) return src.status();
    host::FileTraceSource& files = src.value();
    int64_t count = files.count();
    std::error_code ec;
    if (count < 0) {
        count = 0;
        while (count < INT32_MAX && std::filesystem::exists(files.path_of(static_cast<uint32_t>(count)), ec))
            ++count;
    }
    if (count == 0)
        return Status::error(workload + ": no trace files found (expected " + workload + ".0.et)");
    std::map<std::string, uint32_t> sizes;
    if (!groups_path.empty()) {
        auto text = host::read_file(groups_path, "comm groups");
        if (!text.is_ok()) return text.status();
        auto groups = config::parse_comm_groups_json(text.value(), groups_path, static_cast<uint64_t>(count));
        if (!groups.is_ok()) return groups.status();
        for (const auto& g : groups.value().groups)
            sizes[std::to_string(g.id)] = static_cast<uint32_t>(g.ranks.size());
    }
    const trace::GroupSizeFn size_of = [&sizes](const std::string& pg) -> uint32_t {
        auto it = sizes.find(pg);
        return it == sizes.end() ? 0 : it->second;
    };
    std::vector<trace::RankProfile> out;
    std::string bytes, name;
    for (int64_t r = 0; r < count; ++r) {
        Status st = files.read(static_cast<uint32_t>(r), bytes, name);
        if (!st.is_ok()) return st;
        auto t = trace::decode_trace(bytes, name);
        if (!t.is_ok()) return t.status();
        out.push_back(trace::profile_of(t.value(), size_of));
    }
    return out;
}

} // namespace

int inspect_collectives(const std::string& workload, const Args& a) {
    const std::string groups = a.has("comm-groups") ? a.get("comm-groups") : default_groups(workload);
    auto mine = profile_set(workload, groups);
    if (!mine.is_ok()) return fail("inspect: " + mine.status().message());
    if (!a.has("against")) {
        std::string out = a.has("json")
                              ? trace::profiles_json(mine.value(), workload)
                              : "workload     " + workload + "\ncomm groups  " +
                                    (groups.empty() ? "none found (group sizes shown as 0)" : groups) + "\n" +
                                    trace::profiles_text(mine.value());
        std::fwrite(out.data(), 1, out.size(), stdout);
        return 0;
    }
    const std::string other = a.get("against");
    auto theirs = profile_set(other, default_groups(other));
    if (!theirs.is_ok()) return fail("inspect: --against: " + theirs.status().message());
    const auto& e = theirs.value();
    const auto& m = mine.value();
    if (e.size() != m.size())
        return fail("inspect: --against: " + other + " has " + std::to_string(e.size()) + " ranks, " +
                    workload + " has " + std::to_string(m.size()));
    uint32_t differing = 0;
    for (uint32_t r = 0; r < m.size(); ++r) {
        auto lines = trace::profile_diff(e[r], m[r]);
        if (lines.empty()) continue;
        ++differing;
        std::printf("rank %u: %zu differences\n", r, lines.size());
        for (const auto& l : lines)
            std::printf("  %s\n", l.c_str());
    }
    std::printf("%u of %zu ranks differ from %s\n", differing, m.size(), other.c_str());
    return differing ? 1 : 0;
}

} // namespace astrolabe::cli

// What one rank's trace communicates, as a multiset: every collective as (type, group size, comm_size) with
// its count, point-to-point sends and receives by size, and the compute num_ops total. Two traces with the
// same profile move the same data through the same kinds of groups, whatever their node ids, pg_name
// numbering or compute-node grouping; this is how generated traces are compared with STAGE's, and the
// difference names the collective that differs. Sizes are comm_size as written (elements or bytes).
#pragma once

#include "core/trace/trace_types.h"

#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <tuple>
#include <vector>

namespace astrolabe::trace {

struct CollectiveKey {
    CollectiveType type = CollectiveType::AllReduce;
    uint32_t group_size = 0; // ranks of the pg_name group; 0 when the group is unknown (whole system)
    uint64_t size = 0;       // comm_size
    bool operator<(const CollectiveKey& o) const {
        return std::tie(type, group_size, size) < std::tie(o.type, o.group_size, o.size);
    }
    bool operator==(const CollectiveKey& o) const {
        return type == o.type && group_size == o.group_size && size == o.size;
    }
};

struct RankProfile {
    std::map<CollectiveKey, uint64_t> collectives; // -> count
    std::map<uint64_t, uint64_t> sends, recvs;     // comm_size -> count
    uint64_t num_ops = 0;                          // compute num_ops summed
    bool operator==(const RankProfile& o) const {
        return collectives == o.collectives && sends == o.sends && recvs == o.recvs && num_ops == o.num_ops;
    }
    bool operator!=(const RankProfile& o) const { return !(*this == o); }
    // comm_size summed per collective type (etstat's coll_bytes), and over sends / receives.
    uint64_t collective_total(CollectiveType t) const;
    uint64_t send_total() const;
    uint64_t recv_total() const;
};

// `group_size(pg_name)` gives the members of a group ("" or an unknown name: return 0).
using GroupSizeFn = std::function<uint32_t(const std::string& pg_name)>;
RankProfile profile_of(const Trace& t, const GroupSizeFn& group_size);

// "ALL_GATHER group 4 size 524288"
std::string describe(const CollectiveKey& k);

// One line per difference, `expected` first: "ALL_REDUCE group 4 size 12582912: count 8, expected 16",
// "num_ops 12, expected 13", ...; empty when the profiles are equal.
std::vector<std::string> profile_diff(const RankProfile& expected, const RankProfile& actual);

// Ranks with equal profiles, grouped in order of their first rank.
struct ProfileClass {
    std::vector<uint32_t> ranks;
    RankProfile profile;
};
std::vector<ProfileClass> group_profiles(const std::vector<RankProfile>& per_rank);

// The classes as JSON (schema "astrolabe.collectives/1"), deterministic; `source` is recorded as given:
// {"schema": ..., "source": ..., "npus": N, "classes": [{"ranks": [..], "num_ops": N,
//   "collectives": [["ALL_GATHER", group, size, count], ...], "sends": [[size, count]], "recvs": [...]}]}
std::string profiles_json(const std::vector<RankProfile>& per_rank, const std::string& source);
// The same as text, one block per class, for `astrolabe inspect --collectives`.
std::string profiles_text(const std::vector<RankProfile>& per_rank);

} // namespace astrolabe::trace

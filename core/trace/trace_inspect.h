// What a Chakra trace set holds, and what looks wrong in it: the analysis behind `astrolabe inspect`,
// streamed file by file (a set is never held in memory whole), so any front end can show it.
//
// Per node: counts by type, collective and point-to-point sizes, compute durations and op counts,
// attribute names and kinds, comm groups. Per file: duplicate ids, dependencies on absent ids, cycles.
// Over the set: sends and receives that cannot match (the simulator's rule: same src, dst, folded tag and
// size). Problems are aggregated by kind (one line per kind, with a count and the first place). Printing
// the summary is the front end's business.
#pragma once

#include "core/base/status.h"
#include "core/trace/trace_types.h"

#include <algorithm>
#include <array>
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace astrolabe::trace {

struct InspectTally {
    uint64_t count = 0;
    uint64_t bytes = 0;
    void add(uint64_t b) { ++count, bytes += b; }
};

struct InspectRange {
    uint64_t min = UINT64_MAX;
    uint64_t max = 0;
    void add(uint64_t v) { min = std::min(min, v), max = std::max(max, v); }
    uint64_t lo() const { return min == UINT64_MAX ? 0 : min; }
};

struct InspectedFile {
    std::string path;
    uint64_t bytes = 0;
    uint64_t nodes = 0;
    std::array<uint64_t, kNodeTypeCount> by_type{};
    std::map<uint64_t, uint64_t> coll_bytes; // comm_type (kNoCommType when absent) -> comm_size summed
    uint64_t send_bytes = 0, recv_bytes = 0, num_ops = 0;
};

// One kind of problem, aggregated over nodes and files so a 1024-NPU set prints one line, not 1024.
struct InspectNote {
    std::string what;
    uint64_t nodes = 0;
    uint64_t files = 0;
    std::string first; // "<file>, node <id>"
    std::string last_file;
    const char* unit = "node"; // what `nodes` counts
};

constexpr uint64_t kNoCommType = UINT64_MAX;

// "ALL_REDUCE", "(no comm_type)" or "comm_type 12": how reports name a key of the collective tallies.
std::string collective_label(uint64_t comm_type);

// pg_name values in numeric order when they are numbers ("2" before "10"), then text.
struct GroupNameOrder {
    bool operator()(const std::string& a, const std::string& b) const {
        bool na = !a.empty() && a.find_first_not_of("0123456789") == std::string::npos;
        bool nb = !b.empty() && b.find_first_not_of("0123456789") == std::string::npos;
        if (na != nb) return na;
        if (na && a.size() != b.size()) return a.size() < b.size();
        return a < b;
    }
};

struct TraceSummary {
    std::vector<InspectedFile> files; // in the order added
    uint64_t total_bytes = 0;
    InspectRange nodes_per_file;
    std::array<uint64_t, kNodeTypeCount> type_total{};
    std::array<InspectRange, kNodeTypeCount> per_type{};
    std::map<std::string, uint64_t> versions, schemas, meta_attrs;
    std::map<uint64_t, InspectTally> collectives;
    uint64_t host_collectives = 0;
    InspectTally sends, recvs, loads, stores, compute;
    uint64_t host_compute = 0, with_duration = 0, duration_us = 0, with_num_ops = 0, num_ops = 0;
    uint64_t data_deps = 0, ctrl_deps = 0, roots = 0, max_fan_in = 0;
    std::map<std::string, std::pair<uint64_t, std::map<std::string, uint64_t>>>
        attrs; // name -> (count, kinds)
    std::map<std::string, uint64_t, GroupNameOrder> groups;
    std::vector<InspectNote> notes; // problems, in the order first seen
};

class TraceInspector {
public:
    // `ranks_known`: the files are ranks 0..N-1 of one set (a prefix or a directory), not one file whose
    // rank is unknown, so a peer equal to the file's position really is the node's own rank.
    explicit TraceInspector(bool ranks_known);
    ~TraceInspector();

    // One file of the set: wire bytes (.et, gzip accepted) or, when `path` ends in .json, Chakra's JSON
    // form (trace_json.h), validated and then inspected as its wire form. Problems that stop the file from
    // being read go to `errors`; what looks wrong in a readable file goes to the summary's notes.
    void add_file(uint32_t rank, const std::string& path, std::string bytes, Status& errors);
    // After the last file: the checks over the whole set.
    void finish();
    const TraceSummary& summary() const;

private:
    class Walker;
    std::unique_ptr<Walker> walker_;
};

} // namespace astrolabe::trace

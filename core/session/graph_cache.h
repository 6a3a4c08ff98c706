// Built graphs that outlive one run: a generated workload's ranks are retargeted copies of one model rank
// per pipeline stage (TraceSource::model_rank), so a run makes each rank's graph a thin copy of its
// model's (a pointer and the peer maps, WorkloadGraph::model) instead of generating, encoding, decoding
// and building its trace, and a search that keeps the trace source between points (only network or
// collective knobs changed) builds no graph at all after the first point.
#pragma once

#include "core/system/scheduling/workload_graph.h"

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

namespace astrolabe {

class GraphCache {
public:
    // Keeps the graphs only when they were built the same way: with the options `key` names
    // (graph_cache_key) and the same communicator groups (collectives store a group's index in the table).
    void prepare(const std::string& key, const GroupTable& groups);
    const WorkloadGraph* find(uint32_t model) const { return share(model).get(); }
    std::shared_ptr<const WorkloadGraph> share(uint32_t model) const; // null when not kept
    void keep(uint32_t model, WorkloadGraph g);
    size_t size() const { return graphs_.size(); }

private:
    std::string key_;
    std::vector<GroupTable::Group> groups_;
    // Shared: the graphs retargeted from a model point at it (WorkloadGraph::model) and may outlive the
    // cache's own copy.
    std::unordered_map<uint32_t, std::shared_ptr<const WorkloadGraph>> graphs_;
};

// What a graph depends on besides its trace and the groups: the options that change what is read and kept.
std::string graph_cache_key(const GraphBuildOptions& opt, bool read_names, bool read_io);

// `rank`'s graph as a copy of its model's: every send/recv peer moved by (rank - model) and every
// collective's group index replaced by the index of group moved_group_id(its id), the group of `rank`
// standing where the model's stands. False (and `out` unspecified) when a moved peer or group falls
// outside the run (`npus`, the table) or leaves `rank` out, where the trace's own build would complain.
bool retarget_graph(const WorkloadGraph& model, uint32_t rank, uint32_t npus, const GroupTable& groups,
                    const std::function<int64_t(uint32_t)>& moved_group_id, WorkloadGraph& out);
// The same as a thin copy (WorkloadGraph::model): `out` holds only the model and the peer maps.
bool retarget_graph(const std::shared_ptr<const WorkloadGraph>& model, uint32_t rank, uint32_t npus,
                    const GroupTable& groups, const std::function<int64_t(uint32_t)>& moved_group_id,
                    WorkloadGraph& out);

} // namespace astrolabe

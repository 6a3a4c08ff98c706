#include "core/session/graph_cache.h"

#include <algorithm>

namespace astrolabe {

void GraphCache::prepare(const std::string& key, const GroupTable& groups) {
    auto same = [](const GroupTable::Group& a, const GroupTable::Group& b) {
        return a.id == b.id && a.ranks == b.ranks;
    };
    if (key == key_ &&
        std::equal(groups_.begin(), groups_.end(), groups.groups.begin(), groups.groups.end(), same))
        return;
    graphs_.clear();
    key_ = key;
    groups_ = groups.groups;
}

std::shared_ptr<const WorkloadGraph> GraphCache::share(uint32_t model) const {
    auto it = graphs_.find(model);
    return it == graphs_.end() ? nullptr : it->second;
}

void GraphCache::keep(uint32_t model, WorkloadGraph g) {
    graphs_[model] = std::make_shared<const WorkloadGraph>(std::move(g));
}

std::string graph_cache_key(const GraphBuildOptions& opt, bool read_names, bool read_io) {
    return std::to_string(opt.npus) + (opt.keep_names ? "n" : "-") + (opt.ignore_ctrl_deps ? "c" : "-") +
           (opt.roofline ? "r" : "-") + (opt.gemm_shapes ? "g" : "-") + (read_names ? "N" : "-") +
           (read_io ? "I" : "-") + std::to_string(opt.max_problems);
}

namespace {

// How `rank`'s peers follow from the model's: the shift of send/recv peers and, per group index the model
// uses, `rank`'s (WorkloadGraph::model_groups). False where retarget_graph refuses.
bool peer_maps(const WorkloadGraph& model, uint32_t rank, uint32_t npus, const GroupTable& groups,
               const std::function<int64_t(uint32_t)>& moved_group_id, int64_t& shift,
               std::vector<std::pair<uint32_t, uint32_t>>& group_map) {
    shift = int64_t(rank) - int64_t(model.rank);
    group_map.clear();
    if (shift == 0) return true;
    for (const GraphNode& n : model.nodes) {
        switch (n.kind) {
        case NodeKind::Send:
        case NodeKind::Recv: {
            const int64_t peer = int64_t(n.peer) + shift;
            if (peer < 0 || peer >= int64_t(npus)) return false;
            break;
        }
        case NodeKind::Collective: {
            if (n.peer == 0) break; // the whole system
            auto known = [&n](const std::pair<uint32_t, uint32_t>& m) { return m.first == n.peer; };
            if (std::any_of(group_map.begin(), group_map.end(), known)) break;
            const int64_t id = moved_group_id(groups.groups[n.peer].id);
            const int idx = id < 0 ? -1 : groups.find(static_cast<uint32_t>(id));
            if (idx <= 0) return false;
            const auto& ranks = groups.groups[static_cast<size_t>(idx)].ranks;
            if (std::find(ranks.begin(), ranks.end(), rank) == ranks.end()) return false;
            group_map.emplace_back(n.peer, static_cast<uint32_t>(idx));
            break;
        }
        default:
            break;
        }
    }
    return true;
}

} // namespace

bool retarget_graph(const WorkloadGraph& model, uint32_t rank, uint32_t npus, const GroupTable& groups,
                    const std::function<int64_t(uint32_t)>& moved_group_id, WorkloadGraph& out) {
    int64_t shift = 0;
    std::vector<std::pair<uint32_t, uint32_t>> group_map;
    if (!peer_maps(model, rank, npus, groups, moved_group_id, shift, group_map)) return false;
    // The full copy: the model's graph with every peer moved as a thin copy's.
    out = model;
    out.rank = rank;
    out.model = nullptr;
    out.model_shift = 0;
    out.model_groups.clear();
    for (GraphNode& n : out.nodes)
        n.peer = WorkloadGraph::mapped_peer(n, shift, group_map);
    return true;
}

bool retarget_graph(const std::shared_ptr<const WorkloadGraph>& model, uint32_t rank, uint32_t npus,
                    const GroupTable& groups, const std::function<int64_t(uint32_t)>& moved_group_id,
                    WorkloadGraph& out) {
    out = WorkloadGraph{};
    out.rank = rank;
    out.model = model;
    return peer_maps(*model, rank, npus, groups, moved_group_id, out.model_shift, out.model_groups);
}

} // namespace astrolabe

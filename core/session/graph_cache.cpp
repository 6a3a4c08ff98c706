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

bool retarget_graph(const WorkloadGraph& model, uint32_t rank, uint32_t npus, const GroupTable& groups,
                    const std::function<int64_t(uint32_t)>& moved_group_id, WorkloadGraph& out) {
    out = model;
    out.model = nullptr;
    out.model_shift = 0;
    out.model_groups.clear();
    out.rank = rank;
    if (rank == model.rank) return true;
    const int64_t shift = int64_t(rank) - int64_t(model.rank);
    out.model_shift = shift;
    std::unordered_map<uint32_t, uint32_t> group_index; // the model's group index -> rank's
    for (GraphNode& n : out.nodes) {
        switch (n.kind) {
        case NodeKind::Send:
        case NodeKind::Recv: {
            const int64_t peer = int64_t(n.peer) + shift;
            if (peer < 0 || peer >= int64_t(npus)) return false;
            n.peer = static_cast<uint32_t>(peer);
            break;
        }
        case NodeKind::Collective: {
            if (n.peer == 0) break; // the whole system
            auto it = group_index.find(n.peer);
            if (it == group_index.end()) {
                const int64_t id = moved_group_id(groups.groups[n.peer].id);
                const int idx = id < 0 ? -1 : groups.find(static_cast<uint32_t>(id));
                if (idx <= 0) return false;
                const auto& ranks = groups.groups[static_cast<size_t>(idx)].ranks;
                if (std::find(ranks.begin(), ranks.end(), rank) == ranks.end()) return false;
                it = group_index.emplace(n.peer, static_cast<uint32_t>(idx)).first;
            }
            n.peer = it->second;
            break;
        }
        default:
            break;
        }
    }
    out.model_groups.assign(group_index.begin(), group_index.end()); // WorkloadGraph::peer() reads them
    return true;
}

bool retarget_graph(const std::shared_ptr<const WorkloadGraph>& model, uint32_t rank, uint32_t npus,
                    const GroupTable& groups, const std::function<int64_t(uint32_t)>& moved_group_id,
                    WorkloadGraph& out) {
    if (!retarget_graph(*model, rank, npus, groups, moved_group_id, out)) return false;
    out.model = model;
    return true;
}

} // namespace astrolabe

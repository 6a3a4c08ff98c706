#include "core/system/scheduling/fast_ring_check.h"

#include "core/system/scheduling/engine_collective.h"
#include "core/system/scheduling/fast_ring.h"

#include <algorithm>
#include <functional>
#include <map>
#include <set>
#include <tuple>
#include <unordered_map>

namespace astrolabe {

namespace {

struct Issued {
    PhaseType type;
    uint64_t bytes;
    uint8_t dims;
    bool operator==(const Issued& o) const { return type == o.type && bytes == o.bytes && dims == o.dims; }
};

// What collective node `node` asks of the collective engine (engine_collective.h).
Issued issued_of(const GraphNode& node) {
    Issued it{};
    engine_collective(node.collective, node.bytes, it.type, it.bytes);
    it.dims = node.involved_dims;
    return it;
}

// Kahn's order of the graph (ties by index); shorter than the graph when it has a cycle.
std::vector<uint32_t> topological_order(const WorkloadGraph& rank_graph) {
    const WorkloadGraph& g = rank_graph.shape(); // edges only: a thin copy's are its model's
    const auto n = static_cast<uint32_t>(g.size());
    std::vector<uint32_t> indeg(n, 0), order;
    order.reserve(n);
    for (uint32_t c : g.children)
        ++indeg[c];
    for (uint32_t v = 0; v < n; ++v)
        if (indeg[v] == 0) order.push_back(v);
    for (size_t i = 0; i < order.size(); ++i)
        for (uint32_t e = g.nodes[order[i]].child_begin; e < g.child_end(order[i]); ++e)
            if (--indeg[g.children[e]] == 0) order.push_back(g.children[e]);
    return order;
}

} // namespace

bool totally_ordered(const WorkloadGraph& rank_graph, const std::vector<uint32_t>& nodes) {
    if (nodes.empty()) return true;
    const WorkloadGraph& g = rank_graph.shape(); // edges only: a thin copy's are its model's
    const auto n = static_cast<uint32_t>(g.size());
    const std::vector<uint32_t> order = topological_order(g);
    if (order.size() != n) return false;
    // Distinct parents and children per node (a trace may name a dependency twice).
    std::vector<std::vector<uint32_t>> parents(n), children(n);
    std::vector<uint32_t> mark(n, UINT32_MAX);
    for (uint32_t u = 0; u < n; ++u)
        for (uint32_t e = g.nodes[u].child_begin; e < g.child_end(u); ++e) {
            uint32_t c = g.children[e];
            if (mark[c] == u) continue;
            mark[c] = u;
            parents[c].push_back(u);
            children[u].push_back(c);
        }
    std::vector<bool> wanted(n, false);
    for (uint32_t v : nodes)
        wanted[v] = true;
    // v is ordered against all iff, in a topological order, every earlier node is an ancestor and every
    // later one a descendant. Every earlier node is an ancestor iff every earlier node with no child among
    // the earlier ones is a parent of v (follow children inside the prefix to such a node, then to v).
    // Count those "maximal" nodes as the prefix grows; the suffix is the mirror image (nodes with no
    // parent among the later ones must be children of v).
    auto sweep = [&](bool forward) {
        const auto& up = forward ? parents : children;
        std::vector<uint32_t> inside(n, 0); // per node of the region: its neighbours (down) in the region
        uint32_t extremal = 0;
        for (uint32_t i = 0; i < n; ++i) {
            uint32_t v = order[forward ? i : n - 1 - i];
            if (wanted[v]) {
                uint32_t hit = 0;
                for (uint32_t u : up[v])
                    hit += inside[u] == 0;
                if (hit != extremal) return false;
            }
            ++extremal;
            for (uint32_t u : up[v])
                if (inside[u]++ == 0) --extremal;
        }
        return true;
    };
    return sweep(true) && sweep(false);
}

namespace {

// Called with every distinct collective's phase (member 0's view) and template; false (with `why`) refuses.
using TemplateCheck = std::function<bool(const PhaseSpec&, const RingTemplate&, std::string&)>;

// Every collective a one-phase ring. `strict` (the congestion model): also no send or receive, every
// collective ordered against every other node of its NPU and the same collectives on every member.
bool applies(const std::vector<WorkloadGraph>& graphs, const GroupTable& groups,
             const config::SystemConfig& sys, const LogicalTopology& topo, const TemplateCheck& extra,
             bool strict, std::string& why) {
    if (sys.replay_only) {
        why = "replay-only: collectives are replayed";
        return false;
    }
    const auto npus = static_cast<uint32_t>(graphs.size());
    // Per group index, per member: the collectives it issues there, in its trace's (total) order.
    std::vector<std::vector<std::vector<Issued>>> issued(groups.groups.size());
    // Not strict: (group index, type, bytes, dims) -> an NPU that issues it.
    std::map<std::tuple<uint32_t, int, uint64_t, uint8_t>, uint32_t> distinct;
    bool any = false;
    std::vector<uint32_t> colls, checked;
    // The collectives `g` issues (into `colls`); false (with `why`, naming NPU r) on a node that refuses.
    auto scan = [&](const WorkloadGraph& g, uint32_t r) {
        colls.clear();
        for (uint32_t v = 0; v < g.size(); ++v) {
            const GraphNode& node = g.nodes[v];
            if (node.has(kCpuOp)) continue; // replayed on the CPU slot
            switch (node.kind) {
            case NodeKind::Send:
            case NodeKind::Recv:
                if (!strict) break;
                [[fallthrough]];
            case NodeKind::MemLoad:
            case NodeKind::MemStore:
                why =
                    std::string("NPU ") + std::to_string(r) + " has a " + node_kind_name(node.kind) + " node";
                return false;
            case NodeKind::Collective: {
                PhaseType type;
                uint64_t bytes;
                if (engine_collective(node.collective, node.bytes, type, bytes)) colls.push_back(v);
                break;
            }
            default:
                break;
            }
        }
        return true;
    };
    auto key_of = [](const GraphNode& node, uint32_t group) {
        const Issued it = issued_of(node);
        return std::make_tuple(group, static_cast<int>(it.type), it.bytes, it.dims);
    };
    // Not strict: per shape (WorkloadGraph::shape: the ranks of a pipeline stage share one), its first
    // collective node of each distinct (group, type, bytes, dims). A rank's collectives are its shape's
    // with its own groups (peer()), so a thousand ranks cost one scan a stage and a few keys each.
    std::unordered_map<const WorkloadGraph*, std::vector<uint32_t>> firsts;
    for (uint32_t r = 0; r < npus; ++r) {
        const WorkloadGraph& g = graphs[r];
        if (!strict) {
            // Only which collectives there are: the run's guard watches the rest (fast_ring_watch.h).
            const WorkloadGraph& shape = g.shape();
            if (shape.size() == 0) continue; // not simulated (a run of representatives), or empty
            auto f = firsts.find(&shape);
            if (f == firsts.end()) {
                if (!scan(shape, r)) return false;
                std::vector<uint32_t> keep;
                std::set<std::tuple<uint32_t, int, uint64_t, uint8_t>> seen;
                for (uint32_t v : colls)
                    if (seen.insert(key_of(shape.nodes[v], shape.nodes[v].peer)).second) keep.push_back(v);
                f = firsts.emplace(&shape, std::move(keep)).first;
            }
            if (f->second.empty()) continue;
            any = true;
            checked.clear();
            for (uint32_t v : f->second) {
                const uint32_t group = g.peer(v);
                const auto& ranks = groups.groups[group].ranks;
                if (!ranks.empty() && std::find(checked.begin(), checked.end(), group) == checked.end()) {
                    if (std::find(ranks.begin(), ranks.end(), r) == ranks.end()) {
                        why = "NPU " + std::to_string(r) + " issues a collective of a group it is not in";
                        return false;
                    }
                    checked.push_back(group);
                }
                distinct.emplace(key_of(shape.nodes[v], group), r);
            }
            continue;
        }
        if (!scan(g.shape(), r)) return false;
        if (colls.empty()) continue;
        any = true;
        if (!totally_ordered(g, colls)) {
            why = "NPU " + std::to_string(r) + " may run other nodes while a collective runs";
            return false;
        }
        // In a topological order; the collectives' relative order is the same in every one.
        std::vector<uint32_t> pos(g.size());
        std::vector<uint32_t> order = topological_order(g);
        for (uint32_t i = 0; i < order.size(); ++i)
            pos[order[i]] = i;
        std::sort(colls.begin(), colls.end(), [&](uint32_t a, uint32_t b) { return pos[a] < pos[b]; });
        for (uint32_t v : colls) {
            auto& per_member = issued[g.peer(v)];
            if (per_member.empty()) per_member.resize(npus);
            per_member[r].push_back(issued_of(g.shape().nodes[v]));
        }
    }
    if (!any) {
        why = "no collectives";
        return false;
    }
    auto one_ring = [&](const Issued& c, uint32_t npu, const std::vector<uint32_t>& ranks) {
        PlanRequest req{c.type, npu, ranks.empty() ? nullptr : &ranks, c.dims};
        std::vector<PhaseSpec> phases = plan_collective(req, sys, topo);
        if (phases.empty()) return true; // completes at once, in the collective engine
        if (phases.size() != 1) {
            why = "a collective runs over several dimensions";
            return false;
        }
        // The chunk size as CollectiveEngine::start computes it (with ASTRA-sim's tiny-collective guard).
        uint64_t splits = std::max<uint32_t>(1, sys.preferred_dataset_splits);
        uint64_t chunk = c.bytes / splits;
        if (c.type != PhaseType::AllGather && topo.npus > chunk) chunk = topo.npus;
        if (chunk == 0) return true; // an empty all-gather completes at once
        RingTemplate tpl;
        if (!ring_template(phases[0], chunk, sys.endpoint_delay_ns, sys.local_mem_bw_gbps, tpl, why))
            return false;
        return !extra || extra(phases[0], tpl, why);
    };
    for (size_t gi = 0; gi < issued.size(); ++gi) {
        if (issued[gi].empty()) continue;
        const auto& ranks = groups.groups[gi].ranks;
        std::vector<uint32_t> members = ranks;
        if (members.empty())
            for (uint32_t r = 0; r < npus; ++r)
                members.push_back(r);
        std::vector<bool> member(npus, false);
        for (uint32_t r : members)
            if (r < npus) member[r] = true;
        for (uint32_t r = 0; r < npus; ++r)
            if (!issued[gi][r].empty() && !member[r]) {
                why = "NPU " + std::to_string(r) + " issues a collective of a group it is not in";
                return false;
            }
        const auto& first = issued[gi][members[0]];
        for (uint32_t r : members)
            if (!(issued[gi][r] == first)) {
                why = "the members of group " + std::to_string(groups.groups[gi].id) +
                      " do not issue the same collectives";
                return false;
            }
        // Every distinct collective of the group: one ring phase whose packets form one chain.
        for (size_t i = 0; i < first.size(); ++i) {
            bool seen = false;
            for (size_t j = 0; j < i && !seen; ++j)
                seen = first[j] == first[i];
            if (!seen && !one_ring(first[i], members[0], ranks)) return false;
        }
    }
    for (const auto& [k, npu] : distinct) {
        const auto& ranks = groups.groups[std::get<0>(k)].ranks;
        Issued it{static_cast<PhaseType>(std::get<1>(k)), std::get<2>(k), std::get<3>(k)};
        if (!one_ring(it, npu, ranks)) return false;
    }
    return true;
}

} // namespace

bool fast_ring_applies(const std::vector<WorkloadGraph>& graphs, const GroupTable& groups,
                       const config::SystemConfig& sys, const LogicalTopology& topo, std::string& why,
                       TimeNs* max_stage) {
    TimeNs longest = 0;
    auto stages = [&longest](const PhaseSpec&, const RingTemplate& tpl, std::string&) {
        longest = std::max(longest, tpl.max_stage);
        return true;
    };
    const bool ok = applies(graphs, groups, sys, topo, stages, false, why);
    if (max_stage) *max_stage = longest;
    return ok;
}

bool fast_ring_congestion_applies(const std::vector<WorkloadGraph>& graphs, const GroupTable& groups,
                                  const config::SystemConfig& sys, const LogicalTopology& topo,
                                  CongestionNetwork& net, bool& queues, std::string& why) {
    queues = false;
    if (sys.active_chunks_per_dimension > 1) {
        why = "congestion model with more than one active chunk per dimension (an NPU's chunks share its "
              "links)";
        return false;
    }
    std::vector<TimeNs> stages, sers; // every template's last bundle stages; every message's serialisation
    auto one_hop = [&](const PhaseSpec& spec, const RingTemplate& tpl, std::string& why_not) {
        const uint32_t n = spec.members.size;
        TimeNs gap = kTimeNever; // the least bundle delay after a receive: the least time between two sends
        for (uint32_t k = 1; k <= tpl.sends(); ++k)
            gap = std::min(gap, tpl.delays[k]);
        stages.insert(stages.end(), tpl.last_stage.begin(), tpl.last_stage.end());
        for (uint32_t q = 0; q < n; ++q) {
            // Member 0's ring; on a multi-dimensional network every other line of the phase's dimension
            // is a translate of it with the same kind of links (routes are dimension-ordered).
            const uint32_t src = spec.members.npu(q),
                           dst = spec.members.npu(tpl.dir > 0 ? (q + 1) % n : (q + n - 1) % n);
            const uint32_t link = net.direct_link(src, dst);
            if (link == CongestionNetwork::kNoLink) {
                why_not = "congestion model: NPU " + std::to_string(src) + "'s ring sends to NPU " +
                          std::to_string(dst) + " cross more than one link";
                return false;
            }
            const TimeNs ser = net.serialisation_ns(link, tpl.message_bytes);
            if (sers.empty() || sers.back() != ser) sers.push_back(ser); // one per dimension, mostly
            queues = queues || gap <= ser;
        }
        return true;
    };
    if (!applies(graphs, groups, sys, topo, one_hop, true, why)) return false;
    if (!queues) return true;
    // Chunks may wait: the recurrence keeps each link's FIFO, and must know which of a send and a release
    // in the same ns runs first (the header comment).
    if (sys.endpoint_delay_ns == 0) {
        why = "congestion model: chunks may queue and endpoint-delay is 0 (sends share their ns with "
              "releases in an order the recurrence does not know)";
        return false;
    }
    std::sort(stages.begin(), stages.end());
    std::sort(sers.begin(), sers.end());
    for (TimeNs s : sers)
        if (std::binary_search(stages.begin(), stages.end(), s)) {
            why = "congestion model: chunks may queue and a link is busy " + std::to_string(s) +
                  " ns per chunk, as long as a bundle stage (a send may meet a release in the same ns in an "
                  "order the recurrence does not know)";
            return false;
        }
    return true;
}

} // namespace astrolabe

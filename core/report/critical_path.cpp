#include "core/report/critical_path.h"

#include <algorithm>
#include <map>
#include <tuple>

namespace astrolabe {

const char* critical_link_name(CriticalLink l) {
    switch (l) {
    case CriticalLink::Start:
        return "start";
    case CriticalLink::Dependency:
        return "dependency";
    case CriticalLink::Resource:
        return "resource";
    case CriticalLink::Peer:
        return "peer";
    }
    return "?";
}

bool CriticalPath::on_path(uint32_t npu, uint32_t node) const {
    for (const auto& s : steps)
        if (s.npu == npu && s.node == node) return true;
    return false;
}

namespace {

constexpr uint32_t kNone = UINT32_MAX;

// [SECTION] indexes over the timeline
struct Index {
    const std::vector<WorkloadGraph>& graphs;
    const std::vector<TimelineRecord>& recs;
    std::vector<std::vector<uint32_t>> record_of; // [npu][node] -> record, kNone when it did not run
    std::vector<std::vector<uint32_t>> parents;   // [npu] CSR built from children: offsets below
    std::vector<std::vector<uint32_t>> parent_begin;
    std::vector<std::vector<uint32_t>> by_end; // [npu] records sorted by end
    // Collectives: (npu, group index) -> records in issue order; and each record's ordinal in that list.
    std::map<std::pair<uint32_t, uint32_t>, std::vector<uint32_t>> collectives;
    std::vector<uint32_t> ordinal;
    // (group index, ordinal) -> the member's record that started last: who a collective waited for.
    std::map<std::pair<uint32_t, uint32_t>, uint32_t> latest_member;
    // Point to point: (sender, receiver, tag) -> sends / receives in issue order.
    std::map<std::tuple<uint32_t, uint32_t, uint32_t>, std::vector<uint32_t>> sends, recvs;

    Index(const std::vector<WorkloadGraph>& g, const std::vector<TimelineRecord>& r) : graphs(g), recs(r) {
        const size_t npus = graphs.size();
        record_of.resize(npus);
        parents.resize(npus);
        parent_begin.resize(npus);
        by_end.resize(npus);
        ordinal.assign(recs.size(), 0);
        for (size_t p = 0; p < npus; ++p) {
            const WorkloadGraph& wg = graphs[p].shape(); // edges only: a thin copy's are its model's
            record_of[p].assign(wg.size(), kNone);
            // Parents from the child lists (counting sort by child).
            std::vector<uint32_t> count(wg.size() + 1, 0);
            for (uint32_t c : wg.children)
                if (c < wg.size()) ++count[c + 1];
            for (size_t i = 0; i < wg.size(); ++i)
                count[i + 1] += count[i];
            parent_begin[p] = count;
            parents[p].assign(wg.children.size(), 0);
            std::vector<uint32_t> fill(count.begin(), count.end() - 1);
            for (uint32_t i = 0; i < wg.size(); ++i)
                for (uint32_t k = wg.nodes[i].child_begin; k < wg.child_end(i); ++k)
                    if (wg.children[k] < wg.size()) parents[p][fill[wg.children[k]]++] = i;
        }
        for (uint32_t i = 0; i < recs.size(); ++i) {
            const TimelineRecord& t = recs[i];
            if (t.npu >= npus || t.node >= graphs[t.npu].size()) continue;
            record_of[t.npu][t.node] = i;
            by_end[t.npu].push_back(i);
        }
        auto earlier = [&](uint32_t a, uint32_t b) {
            return std::tie(recs[a].start_ns, recs[a].node) < std::tie(recs[b].start_ns, recs[b].node);
        };
        for (auto& v : by_end)
            std::sort(v.begin(), v.end(), [&](uint32_t a, uint32_t b) {
                return std::tie(recs[a].end_ns, recs[a].node) < std::tie(recs[b].end_ns, recs[b].node);
            });
        for (uint32_t i = 0; i < recs.size(); ++i) {
            const TimelineRecord& t = recs[i];
            if (t.npu >= npus || t.node >= graphs[t.npu].size()) continue;
            const GraphNode n = graphs[t.npu].node(t.node);
            if (n.kind == NodeKind::Collective) collectives[{t.npu, n.peer}].push_back(i);
            if (n.kind == NodeKind::Send) sends[{t.npu, n.peer, n.tag}].push_back(i);
            if (n.kind == NodeKind::Recv) recvs[{n.peer, t.npu, n.tag}].push_back(i);
        }
        for (auto* m : {&sends, &recvs})
            for (auto& kv : *m)
                std::sort(kv.second.begin(), kv.second.end(), earlier);
        for (auto& kv : collectives) {
            std::sort(kv.second.begin(), kv.second.end(), earlier);
            for (uint32_t k = 0; k < kv.second.size(); ++k) {
                const uint32_t rec = kv.second[k];
                ordinal[rec] = k;
                // Ties: the lowest NPU (the maps iterate NPUs in order), so the choice is deterministic.
                auto [it, fresh] = latest_member.try_emplace({kv.first.second, k}, rec);
                if (!fresh && recs[rec].start_ns > recs[it->second].start_ns) it->second = rec;
            }
        }
    }

    GraphNode node_of(uint32_t rec) const { return graphs[recs[rec].npu].node(recs[rec].node); }
};

// [SECTION] one step back
// The record of the same collective on the member that started it last, when that is later than `rec`.
uint32_t last_member(const Index& ix, uint32_t rec) {
    auto it = ix.latest_member.find({ix.node_of(rec).peer, ix.ordinal[rec]});
    if (it == ix.latest_member.end() || ix.recs[it->second].start_ns <= ix.recs[rec].start_ns) return kNone;
    return it->second;
}

// The send a receive matched, when it started after the receive was posted.
uint32_t late_send(const Index& ix, uint32_t rec) {
    const TimelineRecord& t = ix.recs[rec];
    const GraphNode& n = ix.node_of(rec);
    auto r = ix.recvs.find({n.peer, t.npu, n.tag});
    auto s = ix.sends.find({n.peer, t.npu, n.tag});
    if (r == ix.recvs.end() || s == ix.sends.end()) return kNone;
    const size_t j =
        static_cast<size_t>(std::find(r->second.begin(), r->second.end(), rec) - r->second.begin());
    if (j >= s->second.size()) return kNone;
    const uint32_t send = s->second[j];
    return ix.recs[send].start_ns > t.start_ns ? send : kNone;
}

// What `rec` waited for on its own NPU: the parent that ended last, else the node that ended last before it
// started. kNone at the start of the run.
uint32_t local_predecessor(const Index& ix, uint32_t rec, CriticalLink& link) {
    const TimelineRecord& t = ix.recs[rec];
    uint32_t best = kNone;
    for (uint32_t k = ix.parent_begin[t.npu][t.node]; k < ix.parent_begin[t.npu][t.node + 1]; ++k) {
        const uint32_t r = ix.record_of[t.npu][ix.parents[t.npu][k]];
        if (r != kNone && ix.recs[r].end_ns <= t.start_ns &&
            (best == kNone || ix.recs[r].end_ns > ix.recs[best].end_ns))
            best = r;
    }
    link = CriticalLink::Dependency;
    if (best != kNone && ix.recs[best].end_ns == t.start_ns) return best;
    // The node that ended last at or before this one's start (not this one, not one starting later).
    const auto& v = ix.by_end[t.npu];
    auto it = std::upper_bound(v.begin(), v.end(), t.start_ns,
                               [&](TimeNs s, uint32_t r) { return s < ix.recs[r].end_ns; });
    while (it != v.begin()) {
        --it;
        const uint32_t r = *it;
        if (r == rec || ix.recs[r].start_ns >= t.start_ns) continue;
        if (best == kNone || ix.recs[r].end_ns > ix.recs[best].end_ns) {
            link = CriticalLink::Resource;
            return r;
        }
        break;
    }
    return best;
}

} // namespace

CriticalPath critical_path(const std::vector<WorkloadGraph>& graphs,
                           const std::vector<TimelineRecord>& timeline) {
    CriticalPath out;
    if (timeline.empty() || graphs.empty()) return out;
    Index ix(graphs, timeline);
    // The last node to end (ties: the lowest NPU, then node), which ends at the run's total time.
    uint32_t cur = kNone;
    for (uint32_t i = 0; i < timeline.size(); ++i) {
        const TimelineRecord& t = timeline[i];
        if (t.npu >= graphs.size() || t.node >= graphs[t.npu].size()) continue;
        if (cur == kNone) {
            cur = i;
            continue;
        }
        const TimelineRecord& c = timeline[cur];
        if (t.end_ns > c.end_ns ||
            (t.end_ns == c.end_ns && std::tie(t.npu, t.node) < std::tie(c.npu, c.node)))
            cur = i;
    }
    if (cur == kNone) return out;
    out.end_ns = timeline[cur].end_ns;
    std::vector<CriticalStep> back;
    std::vector<bool> seen(timeline.size(), false);
    CriticalLink how = CriticalLink::Start; // how `cur` leads to the step after it (set below)
    while (cur != kNone && !seen[cur]) {
        seen[cur] = true;
        const NodeKind kind = ix.node_of(cur).kind;
        const TimelineRecord& t = timeline[cur];
        back.push_back({t.npu, t.node, t.start_ns, t.end_ns, how});
        uint32_t next = kNone;
        // A collective held back by a later member: the path goes through that member's copy of it (and
        // what delayed that member) before this NPU's copy, which ends here.
        if (kind == NodeKind::Collective) next = last_member(ix, cur), how = CriticalLink::Peer;
        if (kind == NodeKind::Recv) next = late_send(ix, cur), how = CriticalLink::Peer;
        if (next != kNone && seen[next]) next = kNone;
        if (next == kNone) next = local_predecessor(ix, cur, how);
        if (next != kNone) back.back().link = how;
        cur = next;
    }
    // `link` was recorded on the later step; in time order each step says how it follows the one before.
    std::reverse(back.begin(), back.end());
    for (size_t i = 0; i < back.size(); ++i) {
        const CriticalStep& s = back[i];
        const TimeNs busy_from = i ? std::max(s.start_ns, back[i - 1].end_ns) : s.start_ns;
        const TimeNs d = s.end_ns > busy_from ? s.end_ns - busy_from : 0;
        if (i && s.start_ns > back[i - 1].end_ns) out.wait_ns += s.start_ns - back[i - 1].end_ns;
        switch (graphs[s.npu].shape().nodes[s.node].kind) {
        case NodeKind::Compute:
            out.compute_ns += d;
            break;
        case NodeKind::Collective:
        case NodeKind::Send:
        case NodeKind::Recv:
            out.communication_ns += d;
            break;
        case NodeKind::MemLoad:
        case NodeKind::MemStore:
            out.memory_ns += d;
            break;
        default:
            out.other_ns += d;
        }
    }
    if (!back.empty()) back.front().link = CriticalLink::Start;
    out.steps = std::move(back);
    if (!out.steps.empty() && out.steps.front().start_ns > 0) out.wait_ns += out.steps.front().start_ns;
    return out;
}

} // namespace astrolabe

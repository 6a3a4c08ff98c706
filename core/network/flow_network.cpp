#include "core/network/flow_network.h"

#include "core/base/assert.h"

#include <algorithm>

namespace astrolabe {

namespace {
enum Kind : uint32_t { kDrained = 1, kSolve = 2 };
uint64_t pack(uint32_t f, uint32_t version) {
    return uint64_t(f) | uint64_t(version) << 32;
}
} // namespace

FlowNetwork::FlowNetwork(const NetworkTopology& topo, Engine& engine) : fabric_(topo), engine_(engine) {
    grow_links();
}

void FlowNetwork::grow_links() {
    size_t old = state_.size();
    fabric_.grow();
    state_.resize(fabric_.links.links());
    for (size_t l = old; l < state_.size(); ++l)
        state_[l].capacity = fabric_.bytes_per_ns_of(static_cast<uint32_t>(l));
}

std::vector<LinkStats> FlowNetwork::link_stats() const {
    // Links still carrying flows (a run cut short) count their open busy period up to now.
    std::vector<LinkCounters> c = fabric_.counters;
    for (size_t l = 0; l < state_.size(); ++l)
        if (!state_[l].flows.empty()) c[l].busy_ns += engine_.now() - state_[l].busy_since;
    return fabric_.links.stats(c);
}

void FlowNetwork::send(uint32_t src, uint32_t dst, uint64_t bytes, const Callback& on_delivered) {
    if (begin_send(src, dst, bytes, engine_, on_delivered)) return;
    uint32_t f = flows_.acquire();
    Flow& fl = flows_[f];
    fabric_.links.route(src, dst, fl.route);
    if (fabric_.links.links() > state_.size()) grow_links();
    fl.latency_ns = 0;
    for (uint32_t l : fl.route)
        fl.latency_ns += fabric_.latency_ns_of(l);
    fl.remaining = static_cast<double>(bytes);
    fl.rate = 0;
    fl.updated = engine_.now();
    fl.on_delivered = on_delivered;
    fl.active = true;
    fl.version++;
    for (uint32_t l : fl.route)
        fabric_.counters[l].bytes += bytes;
    if (bytes == 0) {
        // Nothing to share: only the latency.
        fl.active = false;
        flows_.release(f);
        engine_.schedule_in(time_from_ns(fl.latency_ns), on_delivered);
        return;
    }
    attach(f);
    request_solve(flows_[f].route);
}

// Flows that start or drain in the same ns (a direct all-to-all starts hundreds at once) share one
// re-solve: the first change of a ns schedules it, as an event behind the ones already due now.
void FlowNetwork::request_solve(const std::vector<uint32_t>& links) {
    seed_.insert(seed_.end(), links.begin(), links.end());
    if (solve_pending_) return;
    solve_pending_ = true;
    engine_.schedule_in(0, Callback{this, kSolve, 0});
}

void FlowNetwork::attach(uint32_t f) {
    Flow& fl = flows_[f];
    fl.slot.resize(fl.route.size());
    for (uint32_t h = 0; h < fl.route.size(); ++h) {
        uint32_t l = fl.route[h];
        Link& link = state_[l];
        if (link.flows.empty()) link.busy_since = engine_.now();
        fl.slot[h] = static_cast<uint32_t>(link.flows.size());
        link.flows.push_back({f, h});
        fabric_.counters[l].peak_queue =
            std::max<uint64_t>(fabric_.counters[l].peak_queue, link.flows.size());
    }
}

void FlowNetwork::detach(uint32_t f) {
    // Swap-remove from every link's list in O(1) per hop; the moved entry's flow learns its new slot.
    const Flow& fl = flows_[f];
    for (uint32_t h = 0; h < fl.route.size(); ++h) {
        Link& link = state_[fl.route[h]];
        uint32_t i = fl.slot[h];
        SIM_ASSERT(i < link.flows.size() && link.flows[i].flow == f, "a flow left a link it was not on");
        link.flows[i] = link.flows.back();
        link.flows.pop_back();
        if (i < link.flows.size()) flows_[link.flows[i].flow].slot[link.flows[i].hop] = i;
        if (link.flows.empty()) fabric_.counters[fl.route[h]].busy_ns += engine_.now() - link.busy_since;
    }
}

// Re-solves the max-min rates of the component reachable from `seed_links` (the links of the flow that
// started or drained) and reschedules the drains whose rate changed.
void FlowNetwork::solve_from(const std::vector<uint32_t>& seed_links) {
    ++epoch_;
    comp_links_.clear();
    comp_flows_.clear();
    for (uint32_t l : seed_links)
        if (state_[l].mark != epoch_) {
            state_[l].mark = epoch_;
            comp_links_.push_back(l);
        }
    for (size_t i = 0; i < comp_links_.size(); ++i) {
        for (const LinkEntry& e : state_[comp_links_[i]].flows) {
            uint32_t f = e.flow;
            if (flows_[f].mark == epoch_) continue;
            flows_[f].mark = epoch_;
            comp_flows_.push_back(f);
            for (uint32_t l : flows_[f].route)
                if (state_[l].mark != epoch_) {
                    state_[l].mark = epoch_;
                    comp_links_.push_back(l);
                }
        }
    }
    const TimeNs now = engine_.now();
    problem_.clear();
    // A true share is at least the smallest capacity over the most flows on a link; a share of ~0 can only
    // be rounding. Keep it positive so every flow drains.
    problem_.min_share = 1e-9;
    for (uint32_t l : comp_links_)
        state_[l].local = problem_.add_link(state_[l].capacity);
    for (uint32_t f : comp_flows_) {
        Flow& fl = flows_[f];
        fl.remaining -= fl.rate * static_cast<double>(now - fl.updated);
        fl.updated = now;
        problem_.begin_flow();
        for (uint32_t l : fl.route)
            problem_.add_hop(state_[l].local);
    }
    const std::vector<double>& rate = solver_.solve(problem_);
    for (size_t i = 0; i < comp_flows_.size(); ++i) {
        Flow& fl = flows_[comp_flows_[i]];
        // An unchanged rate keeps its pending drain (a new flow's old rate is 0, so it always schedules).
        if (rate[i] == fl.rate) continue;
        fl.rate = rate[i];
        schedule_drain(comp_flows_[i]);
    }
}

void FlowNetwork::schedule_drain(uint32_t f) {
    Flow& fl = flows_[f];
    fl.version++;
    SIM_ASSERT(fl.rate > 0, "an active flow got no bandwidth");
    // The drain event fires at the whole ns the last byte leaves (truncated, like every cost here); the
    // fraction is kept so the delivery lands at floor(exact drain time + latency).
    double t = std::max(0.0, fl.remaining) / fl.rate;
    const TimeNs dt = time_from_ns(t);
    fl.drain_frac = t - static_cast<double>(dt);
    engine_.schedule_in(dt, Callback{this, kDrained, pack(f, fl.version)});
}

void FlowNetwork::on_event(uint32_t kind, uint64_t arg) {
    if (kind == kSolve) {
        solve_pending_ = false;
        solve_seed_.swap(seed_);
        seed_.clear();
        solve_from(solve_seed_);
        return;
    }
    SIM_ASSERT(kind == kDrained, "unknown flow-network event");
    auto f = static_cast<uint32_t>(arg);
    auto version = static_cast<uint32_t>(arg >> 32);
    if (f >= flows_.size() || !flows_[f].active || flows_[f].version != version) return; // stale
    Flow& fl = flows_[f];
    fl.active = false;
    fl.remaining = 0;
    fl.rate = 0;
    detach(f);
    engine_.schedule_in(time_from_ns(fl.drain_frac + fl.latency_ns), fl.on_delivered);
    flows_.release(f);
    // The bandwidth it held goes to the flows it shared links with.
    request_solve(fl.route);
}

} // namespace astrolabe

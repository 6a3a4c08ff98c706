// The flow network: messages are fluid flows that share link bandwidth max-min fairly (physically sound:
// concurrent traffic can never beat a link's capacity), cut-through with a latency per hop.
//
// Maths. Links l have capacities c_l (bytes/ns = GB/s * 2^30 / 1e9 of their dimension). Each active flow f
// uses the links of its route R_f (link_topology.h, dimension-ordered) and gets its max-min fair rate r_f
// (maxmin.h: the pure solver, progressive filling, with its own worked examples). Rates only change when a
// flow starts or drains, and only inside the connected component (flows linked through shared links) of that
// flow, so a change re-solves that component, not the network; all changes of one ns share one re-solve.
// Between changes a flow's remaining bytes fall linearly: remaining -= r_f * dt. A flow of B bytes sent at t0
// over hops h with latencies lat_h drains at the exact time T when remaining reaches 0 and is delivered
// (cut-through: the last byte still crosses every hop) at floor(T + sum_h lat_h), truncated to whole ns as
// every cost in this simulator. Alone on its route a flow thus takes floor(B / min_l c_l + sum_h lat_h): the
// alpha-beta cost. Only the drain of each flow is an event (stale ones are skipped by a version number).
// Memory: the links, plus per flow in flight its route and a few numbers. Not modelled: packet-level effects
// (queues, slow start); a flow uses bandwidth from the ns it is sent.
#pragma once

#include "core/base/slab.h"
#include "core/engine/engine.h"
#include "core/network/link_fabric.h"
#include "core/network/maxmin.h"
#include "core/network/network_model.h"

#include <vector>

namespace astrolabe {

class FlowNetwork final : public NetworkModel, public EventTarget {
public:
    FlowNetwork(const NetworkTopology& topo, Engine& engine);

    void send(uint32_t src, uint32_t dst, uint64_t bytes, const Callback& on_delivered) override;
    const char* name() const override { return "flow"; }
    std::vector<LinkStats> link_stats() const override;
    void on_event(uint32_t kind, uint64_t arg) override;
    void fold_links(NpuFold fold) override { fabric_.links.fold(std::move(fold)); }

    size_t flows_in_flight() const { return flows_.in_use(); }
    // The current rate of the flow that `send` created as the n-th flow (tests); bytes/ns. Rates are
    // solved by an event in the ns of the change, so run the engine up to now first.
    double rate_of_flow(uint32_t flow) const { return flows_[flow].rate; }

private:
    struct Flow {
        std::vector<uint32_t> route; // links
        std::vector<uint32_t> slot;  // per hop: the flow's index in that link's list
        double remaining = 0;        // bytes
        double rate = 0;             // bytes/ns
        TimeNs updated = 0;          // when `remaining` was last brought up to date
        double latency_ns = 0;       // sum of the hops' latencies
        double drain_frac = 0;       // the drain's exact time minus its event's whole ns
        uint32_t version = 0;        // bumps whenever the pending drain event goes stale
        uint32_t mark = 0;           // component search epoch
        bool active = false;
        Callback on_delivered;
    };
    struct LinkEntry {
        uint32_t flow = 0;
        uint32_t hop = 0; // which hop of the flow's route this link is
    };
    struct Link {
        std::vector<LinkEntry> flows; // active flows crossing the link (unordered)
        double capacity = 0;          // bytes/ns
        uint32_t mark = 0;            // component search epoch
        uint32_t local = 0;           // index in the component being solved
        TimeNs busy_since = 0;
    };

    void grow_links();
    void attach(uint32_t f);
    void detach(uint32_t f);
    void request_solve(const std::vector<uint32_t>& links);
    void solve_from(const std::vector<uint32_t>& seed_links);
    void schedule_drain(uint32_t f);

    LinkFabric fabric_;
    Engine& engine_;
    std::vector<Link> state_; // per link
    Slab<Flow> flows_;        // a reused flow keeps its version (stale drains stay stale) and its buffers
    uint32_t epoch_ = 0;
    // Scratch buffers of the component search, reused across events.
    std::vector<uint32_t> comp_links_, comp_flows_;
    std::vector<uint32_t> seed_, solve_seed_; // links touched since the last re-solve
    bool solve_pending_ = false;
    MaxMinProblem problem_; // the component, re-solved
    MaxMinSolver solver_;
};

} // namespace astrolabe

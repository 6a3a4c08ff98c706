// Max-min fair sharing of link capacities among flows, as a pure function of (capacities, routes).
//
// Maths. Links l have capacities c_l; each flow f crosses the links of its route R_f and gets a rate r_f
// such that
//     sum over f with l in R_f of r_f <= c_l                    for every link l        (feasible)
// and no r_f can grow without shrinking some r_g <= r_f (max-min fair). Equivalently, every flow has a
// bottleneck: a saturated link of its route on which no flow gets more than it does. Progressive filling
// finds it: repeatedly take the link with the smallest fair share s_l = (c_l - rates fixed on l) /
// (flows of l not yet fixed), fix every unfixed flow on it at s_l, subtract, until every flow is fixed.
// Links whose share ties the minimum (to a relative 1e-12) are fixed in the same round, so symmetric traffic
// takes one round, not one per link. (SimGrid's lmm solver without weights or bounds.)
//
// Units are the caller's (the flow model uses bytes/ns). A flow crossing a link twice counts twice there.
// A flow with an empty route is unconstrained: its rate is +infinity. Deterministic: the arithmetic runs
// in link order, then route order, so the same problem gives the same bits.
#pragma once

#include <cstdint>
#include <vector>

namespace astrolabe {

// One system to solve: links by index, flows by index with their routes as link indices.
class MaxMinProblem {
public:
    void clear() {
        capacity_.clear();
        route_begin_.assign(1, 0);
        route_.clear();
    }
    uint32_t add_link(double capacity) {
        capacity_.push_back(capacity);
        return static_cast<uint32_t>(capacity_.size() - 1);
    }
    // Flows are added after the links they cross; their route is given one link at a time.
    uint32_t begin_flow() {
        route_begin_.push_back(static_cast<uint32_t>(route_.size()));
        return flows() - 1;
    }
    void add_hop(uint32_t link) {
        route_.push_back(link);
        route_begin_.back() = static_cast<uint32_t>(route_.size());
    }
    uint32_t add_flow(const std::vector<uint32_t>& route) {
        uint32_t f = begin_flow();
        for (uint32_t l : route)
            add_hop(l);
        return f;
    }

    uint32_t links() const { return static_cast<uint32_t>(capacity_.size()); }
    uint32_t flows() const { return static_cast<uint32_t>(route_begin_.size() - 1); }
    double capacity(uint32_t l) const { return capacity_[l]; }
    const uint32_t* route_begin(uint32_t f) const { return route_.data() + route_begin_[f]; }
    const uint32_t* route_end(uint32_t f) const { return route_.data() + route_begin_[f + 1]; }

    // A share below this is rounding in the remaining capacity, never a real share (every real one is at
    // least the smallest capacity over the most flows on a link): it is raised to this, so every flow
    // with bytes to send makes progress. In the problem's units; 0 disables the floor.
    double min_share = 0;

private:
    std::vector<double> capacity_;
    std::vector<uint32_t> route_begin_ = {
        0}; // flow f's links: route_[route_begin_[f] .. route_begin_[f + 1])
    std::vector<uint32_t> route_;
};

// Solves problems with reused buffers (no allocation once warm); the answer depends on the problem only.
class MaxMinSolver {
public:
    // Each flow's max-min fair rate, indexed like the problem's flows.
    const std::vector<double>& solve(const MaxMinProblem& p);

private:
    std::vector<double> rate_, left_;
    std::vector<uint32_t> unfixed_, flows_begin_, flows_of_, fill_;
    std::vector<uint8_t> fixed_;
};

// The same as a plain function, for callers that solve once.
std::vector<double> maxmin_rates(const MaxMinProblem& p);

} // namespace astrolabe

// The max-min solver alone (core/network/maxmin.h), on small systems whose fair shares are computed by
// hand, in the style of SimGrid's maxmin tests. Each section states links (capacity), flows (route), the
// progressive-filling rounds and the expected rates.
#include "core/network/maxmin.h"

#include <catch2/catch.hpp>

#include <cmath>
#include <vector>

using namespace astrolabe;

namespace {

// Every link carries at most its capacity, and every flow has a bottleneck: a saturated link of its route
// on which no flow gets more. Together these are the definition of max-min fairness.
void check_max_min_fair(const MaxMinProblem& p, const std::vector<double>& rate) {
    std::vector<double> load(p.links(), 0.0), top(p.links(), 0.0);
    for (uint32_t f = 0; f < p.flows(); ++f)
        for (const uint32_t* l = p.route_begin(f); l != p.route_end(f); ++l) {
            load[*l] += rate[f];
            top[*l] = std::max(top[*l], rate[f]);
        }
    for (uint32_t l = 0; l < p.links(); ++l)
        CHECK(load[l] <= p.capacity(l) * (1 + 1e-12));
    for (uint32_t f = 0; f < p.flows(); ++f) {
        bool bottleneck = false;
        for (const uint32_t* l = p.route_begin(f); l != p.route_end(f); ++l)
            bottleneck = bottleneck || (load[*l] >= p.capacity(*l) * (1 - 1e-12) && rate[f] >= top[*l]);
        CHECK(bottleneck);
    }
}

// Solves `p` and compares with the hand-computed rates (to a relative 1e-12), then checks fairness itself.
void expect_rates(const MaxMinProblem& p, const std::vector<double>& expected) {
    auto r = maxmin_rates(p);
    REQUIRE(r.size() == expected.size());
    for (size_t f = 0; f < r.size(); ++f) {
        INFO("flow " << f);
        CHECK(r[f] == Approx(expected[f]).epsilon(1e-12));
    }
    check_max_min_fair(p, r);
}

} // namespace

TEST_CASE("max-min: hand-computed fair shares", "[network][maxmin]") {
    MaxMinProblem p;
    SECTION("one link of 100 shared by two flows: 50 each") {
        uint32_t l = p.add_link(100);
        p.add_flow({l});
        p.add_flow({l});
        expect_rates(p, {50, 50});
    }
    SECTION("two links in series: the long flow is held by the narrow link, the short one takes the rest") {
        // L0 = 4 carries A; L1 = 10 carries A and B. Shares: L0 4/1 = 4, L1 10/2 = 5. Round 1 fixes A = 4
        // at L0; L1 has 10 - 4 = 6 left for B alone: B = 6.
        uint32_t l0 = p.add_link(4), l1 = p.add_link(10);
        p.add_flow({l0, l1});
        p.add_flow({l1});
        expect_rates(p, {4, 6});
    }
    SECTION("parking lot with capacities 1, 2, 3: one long flow, one short flow per link") {
        // Long flow over L0, L1, L2; short flow s_i on L_i. Shares 1/2, 2/2, 3/2: round 1 fixes the long
        // flow and s0 at 0.5 (L0). Then L1 has 1.5 for s1, L2 has 2.5 for s2 (round 2 fixes s1 = 1.5,
        // round 3 s2 = 2.5).
        uint32_t l0 = p.add_link(1), l1 = p.add_link(2), l2 = p.add_link(3);
        p.add_flow({l0, l1, l2});
        p.add_flow({l0});
        p.add_flow({l1});
        p.add_flow({l2});
        expect_rates(p, {0.5, 0.5, 1.5, 2.5});
    }
    SECTION("three bottleneck levels; a link left unsaturated") {
        // L0 = 1 {f0, f1}, L1 = 5 {f1, f2}, L2 = 10 {f2, f3, f4}. Shares 0.5, 2.5, 3.33: round 1 fixes f0 =
        // f1 = 0.5. Now L1 = 4.5 / 1 = 4.5, L2 = 10 / 3: round 2 fixes f2 = f3 = f4 = 10/3 at L2. L1 ends
        // with 0.5 + 10/3 = 3.83 of its 5: f1 and f2 are both held elsewhere.
        uint32_t l0 = p.add_link(1), l1 = p.add_link(5), l2 = p.add_link(10);
        p.add_flow({l0});
        p.add_flow({l0, l1});
        p.add_flow({l1, l2});
        p.add_flow({l2});
        p.add_flow({l2});
        expect_rates(p, {0.5, 0.5, 10.0 / 3, 10.0 / 3, 10.0 / 3});
    }
    SECTION("a ring of 4 links of 6, each flow crossing two neighbours: one round, 3 each") {
        // Flow i crosses L_i and L_(i+1) mod 4: every link carries 2 flows, every share is 3, all links
        // tie and are fixed in the same round.
        for (int i = 0; i < 4; ++i)
            p.add_link(6);
        for (uint32_t i = 0; i < 4; ++i)
            p.add_flow({i, (i + 1) % 4});
        expect_rates(p, {3, 3, 3, 3});
    }
    SECTION("a flow crossing one link twice counts twice there; a flow with no links is unconstrained") {
        // L0 = 9 carries f0 twice and f1 once: 3 crossings, share 3; f0 = f1 = 3 (f0 uses 6 of L0).
        uint32_t l0 = p.add_link(9);
        p.add_flow({l0, l0});
        p.add_flow({l0});
        p.add_flow({});
        auto r = maxmin_rates(p);
        CHECK(r[0] == 3);
        CHECK(r[1] == 3);
        CHECK(std::isinf(r[2]));
    }
    SECTION("min_share lifts a share that is only rounding") {
        // L0 = 1 holds f0 alone; L1 = 1e-20 holds f1: its true share is 1e-20, below the floor of 1e-9.
        uint32_t l0 = p.add_link(1), l1 = p.add_link(1e-20);
        p.add_flow({l0});
        p.add_flow({l1});
        p.min_share = 1e-9;
        auto r = maxmin_rates(p);
        CHECK(r[1] == 1e-9);
        CHECK(r[0] == 1);
    }
}

TEST_CASE("max-min: a reused solver gives the same answer as a fresh one", "[network][maxmin]") {
    // The flow model keeps one solver across events; answers must not depend on what it solved before.
    MaxMinProblem big, small;
    for (int i = 0; i < 5; ++i)
        big.add_link(1 + i);
    for (uint32_t i = 0; i < 5; ++i)
        big.add_flow({i, (i + 2) % 5});
    uint32_t l = small.add_link(8);
    small.add_flow({l});
    small.add_flow({l});
    MaxMinSolver solver;
    solver.solve(big);
    std::vector<double> reused = solver.solve(small);
    CHECK(reused == maxmin_rates(small));
    CHECK(reused == std::vector<double>{4, 4});
}

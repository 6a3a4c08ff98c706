// The flow network: max-min fair sharing of link bandwidth, re-solved when a flow starts or drains,
// cut-through with a latency per hop. 50 GB/s = c = 53.6870912 B/ns: 1 MiB alone takes 19531.25 ns.
#include "core/network/flow_network.h"
#include "core/network/topology.h"
#include "support/deliveries.h"
#include "support/test_support.h"

#include <catch2/catch.hpp>

#include <utility>
#include <vector>

using namespace astrolabe;
using namespace astrolabe::test;

namespace {

constexpr uint64_t kMiB = 1048576;
constexpr double kC = 50.0 * 1073741824.0 / 1e9; // bytes/ns

} // namespace

TEST_CASE("flow network: max-min fair shares, closed forms", "[network][flow]") {
    const std::string rest = "npus_count: [8]\nbandwidth: [50]\nlatency: [500]\n";
    Engine engine;
    Deliveries d(engine);

    SECTION("one flow alone: the alpha-beta cost") {
        // floor(500 + 19531.25) = 20031 on one Ring hop; a Switch route has 2 hops of latency, one
        // bandwidth term (cut-through): floor(1000 + 19531.25) = 20531.
        NetworkTopology ring(network_yaml("topology: [Ring]\n" + rest));
        FlowNetwork net(ring, engine);
        net.send(0, 1, kMiB, Callback{&d, 0, 1});
        engine.run();
        CHECK(d.at(1) == 20031);
        Engine e2;
        Deliveries d2(e2);
        NetworkTopology sw(network_yaml("topology: [Switch]\n" + rest));
        FlowNetwork net2(sw, e2);
        net2.send(0, 5, kMiB, Callback{&d2, 0, 1});
        e2.run();
        CHECK(d2.at(1) == 20531);
    }
    SECTION("two flows on one link each get half") {
        // Both 1 MiB on link 0->1 from t = 0: rate c/2 each, both drain at 2 * 19531.25 = 39062.5 and
        // arrive at floor(39062.5 + 500) = 39562.
        NetworkTopology topo(network_yaml("topology: [Ring]\n" + rest));
        FlowNetwork net(topo, engine);
        net.send(0, 1, kMiB, Callback{&d, 0, 1});
        net.send(0, 1, kMiB, Callback{&d, 0, 2});
        engine.run(UINT64_MAX, 0); // the re-solve of t = 0
        CHECK(net.rate_of_flow(0) == Approx(kC / 2));
        CHECK(net.rate_of_flow(1) == Approx(kC / 2));
        engine.run();
        CHECK(d.at(1) == 39562);
        CHECK(d.at(2) == 39562);
        auto links = net.link_stats();
        REQUIRE(links.size() == 1);
        CHECK(links[0].bytes == 2 * kMiB);
        CHECK(links[0].busy_ns == 39062); // carrying flows from 0 until both drained at 39062
        CHECK(links[0].peak_queue == 2);
    }
    SECTION("a drained flow's share goes back to the others") {
        // 1 MiB and 2 MiB on one link: c/2 each until the first drains at 39062.5 (arrives 39562); the
        // second has 1 MiB left, now at c: drains at 39062.5 + 19531.25 = 58593.75, arrives 59093.
        NetworkTopology topo(network_yaml("topology: [Ring]\n" + rest));
        FlowNetwork net(topo, engine);
        net.send(0, 1, kMiB, Callback{&d, 0, 1});
        net.send(0, 1, 2 * kMiB, Callback{&d, 0, 2});
        engine.run();
        CHECK(d.at(1) == 39562);
        CHECK(d.at(2) == 59093);
    }
    SECTION("n flows into one switch port take n times longer") {
        // NPUs 1..7 each send 1 MiB to NPU 0: the switch -> NPU 0 link is the bottleneck, c/7 each. All
        // drain at 7 * 19531.25 = 136718.75 and arrive at floor(136718.75 + 2 * 500) = 137718; one flow
        // alone takes 20531.
        NetworkTopology topo(network_yaml("topology: [Switch]\n" + rest));
        FlowNetwork net(topo, engine);
        for (uint32_t src = 1; src < 8; ++src)
            net.send(src, 0, kMiB, Callback{&d, 0, src});
        engine.run(UINT64_MAX, 0);
        for (uint32_t f = 0; f < 7; ++f)
            CHECK(net.rate_of_flow(f) == Approx(kC / 7));
        engine.run();
        for (uint32_t src = 1; src < 8; ++src)
            CHECK(d.at(src) == 137718);
        CHECK(net.flows_in_flight() == 0);
    }
    SECTION("max-min, not proportional: a flow limited elsewhere leaves the rest to others") {
        // Ring links 0->1 and 1->2. f0: 0->2 (both links), f1: 1->2, f2 and f3: 0->1. Link 0->1 has 3 flows
        // (share c/3), link 1->2 has 2 (share c/2). Progressive filling fixes f0, f2, f3 at c/3 first;
        // link 1->2 then has 2c/3 left for f1 alone.
        NetworkTopology topo(network_yaml("topology: [Ring]\n" + rest));
        FlowNetwork net(topo, engine);
        net.send(0, 2, kMiB, Callback{&d, 0, 0});
        net.send(1, 2, kMiB, Callback{&d, 0, 1});
        net.send(0, 1, kMiB, Callback{&d, 0, 2});
        net.send(0, 1, kMiB, Callback{&d, 0, 3});
        engine.run(UINT64_MAX, 0);
        CHECK(net.rate_of_flow(0) == Approx(kC / 3));
        CHECK(net.rate_of_flow(1) == Approx(2 * kC / 3));
        CHECK(net.rate_of_flow(2) == Approx(kC / 3));
        CHECK(net.rate_of_flow(3) == Approx(kC / 3));
        engine.run();
        // No link ever carries more than its capacity, so nothing beats bytes / c on its busiest link:
        // 3 MiB cross 0->1, so the last delivery is at least 3 * 19531.25 + 500.
        TimeNs last = 0;
        for (const auto& e : d.log)
            last = std::max(last, e.first);
        CHECK(last >= 3 * 19531 + 500);
    }
}

TEST_CASE("flow network: a ring all-reduce costs its alpha-beta sum", "[network][flow][e2e]") {
    // ar8_ring_Ring: 1 MiB all-reduce, ring algorithm on an 8-NPU Ring, 4 chunks, 1 active. Every ring
    // message crosses one link that no other message uses at the time, so each costs floor(latency +
    // bytes / bw) exactly as in the congestion-unaware (alpha-beta) model: ASTRA-sim's 64440 ns on every NPU.
    config::Scenario cfg;
    cfg.network = network_yaml("topology: [Ring]\nnpus_count: [8]\nbandwidth: [50]\nlatency: [500]\n");
    cfg.system = system_json(read_data("configs/sys_ring_d1_s4_a1_LIFO_ep10_mem1600_localBWAware.json"));
    cfg.network_model = config::NetworkModel::Flow;
    PrefixTraceSource traces("traces/astra-sim-microbenchmarks/all_reduce/8npus_1MB/all_reduce");
    RunResult r = test::run(std::move(cfg), traces);
    REQUIRE(r.complete);
    for (const auto& n : r.stats.npus)
        CHECK(n.finish_ns == 64440);
    CHECK(r.links.size() == 8); // each NPU's clockwise link
}

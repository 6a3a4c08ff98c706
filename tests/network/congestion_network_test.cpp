// The congestion-aware network: explicit links, FIFO per link, store and forward. A chunk of B bytes on a
// link of bw bytes/ns (GB/s * 2^30 / 1e9) holds the link floor(B / bw) ns and reaches the next device
// floor(latency + B / bw) ns after it started; routes are dimension-ordered (link_topology.h).
#include "core/network/congestion_network.h"
#include "core/network/link_topology.h"
#include "core/network/topology.h"
#include "support/deliveries.h"
#include "support/test_support.h"

#include <catch2/catch.hpp>

#include <utility>
#include <vector>

using namespace astrolabe;
using test::Deliveries;

namespace {

constexpr uint64_t kMiB = 1048576;

// The stats of the link src -> dst, which must have carried traffic (only such links are listed).
LinkStats link_of(const CongestionNetwork& net, uint32_t src, uint32_t dst) {
    for (const auto& l : net.link_stats())
        if (l.src == src && l.dst == dst) return l;
    FAIL("no traffic on link " << src << " -> " << dst);
    return {};
}

// What link src -> dst carried: its bytes, the time it spent serialising and the most chunks queued on it.
void check_link(const CongestionNetwork& net, uint32_t src, uint32_t dst, uint64_t bytes, TimeNs busy_ns,
                uint64_t peak_queue) {
    const LinkStats l = link_of(net, src, dst);
    CHECK(l.bytes == bytes);
    CHECK(l.busy_ns == busy_ns);
    CHECK(l.peak_queue == peak_queue);
}

} // namespace

TEST_CASE("link topology: devices, links and dimension-ordered routes", "[network][congestion]") {
    SECTION("Ring 8: two links per NPU, the shorter way, clockwise on a tie") {
        NetworkTopology topo(
            test::network_yaml("topology: [Ring]\nnpus_count: [8]\nbandwidth: [50]\nlatency: [500]\n"));
        LinkTopology lt(topo);
        CHECK(lt.devices() == 8);
        CHECK(lt.links() == 16);
        std::vector<uint32_t> r;
        lt.route(0, 3, r); // 0 -> 1 -> 2 -> 3
        REQUIRE(r.size() == 3);
        CHECK(lt.link(r[0]).src == 0);
        CHECK(lt.link(r[2]).dst == 3);
        lt.route(0, 5, r); // 0 -> 7 -> 6 -> 5 (3 hops anticlockwise beat 5 clockwise)
        REQUIRE(r.size() == 3);
        CHECK(lt.link(r[0]).dst == 7);
        lt.route(0, 4, r); // 4 hops either way: clockwise, as ASTRA-sim
        REQUIRE(r.size() == 4);
        CHECK(lt.link(r[0]).dst == 1);
    }
    SECTION("Switch 8: a switch device, routes up and down") {
        NetworkTopology topo(
            test::network_yaml("topology: [Switch]\nnpus_count: [8]\nbandwidth: [50]\nlatency: [500]\n"));
        LinkTopology lt(topo);
        CHECK(lt.devices() == 9);
        CHECK(lt.device_name(8) == "switch0.0");
        CHECK(lt.device_name(3) == "npu3");
        std::vector<uint32_t> r;
        lt.route(2, 6, r);
        REQUIRE(r.size() == 2);
        CHECK(lt.link(r[0]).src == 2);
        CHECK(lt.link(r[0]).dst == 8);
        CHECK(lt.link(r[1]).src == 8);
        CHECK(lt.link(r[1]).dst == 6);
    }
    SECTION("FullyConnected links are made on first use only") {
        // 8 NPUs have 56 ordered pairs; a network of 4096 would have 16.8 M, so none exist up front.
        NetworkTopology topo(test::network_yaml(
            "topology: [FullyConnected]\nnpus_count: [8]\nbandwidth: [50]\nlatency: [500]\n"));
        LinkTopology lt(topo);
        CHECK(lt.links() == 0);
        std::vector<uint32_t> r;
        lt.route(1, 5, r);
        CHECK(r.size() == 1);
        lt.route(1, 5, r);
        CHECK(lt.links() == 1); // the same pair reuses its link
        lt.route(5, 1, r);
        CHECK(lt.links() == 2); // the other direction is another link
        // 4096 NPUs: 16.8 M possible links, none made up front.
        NetworkTopology big(test::network_yaml(
            "topology: [FullyConnected]\nnpus_count: [4096]\nbandwidth: [50]\nlatency: [500]\n"));
        LinkTopology big_lt(big);
        CHECK(big_lt.links() == 0);
    }
    SECTION("Ring x Switch x FullyConnected: lowest dimension first") {
        // 2 x 2 x 2: NPU 0 = (0,0,0) to NPU 7 = (1,1,1): ring hop 0->1, switch up/down 1->3 (line 1 of
        // dimension 1: switch device 8 + 1 = 9), FullyConnected 3->7.
        NetworkTopology topo(test::network_yaml("topology: [Ring, Switch, FullyConnected]\nnpus_count: [2, "
                                                "2, 2]\nbandwidth: [50, 50, 50]\nlatency: [1, 1, 1]\n"));
        LinkTopology lt(topo);
        CHECK(lt.devices() == 8 + 4); // four lines in dimension 1, one switch each
        std::vector<uint32_t> r;
        lt.route(0, 7, r);
        REQUIRE(r.size() == 4);
        CHECK((lt.link(r[0]).src == 0 && lt.link(r[0]).dst == 1 && lt.link(r[0]).dim == 0));
        CHECK((lt.link(r[1]).src == 1 && lt.link(r[1]).dst == 9 && lt.link(r[1]).dim == 1));
        CHECK((lt.link(r[2]).src == 9 && lt.link(r[2]).dst == 3));
        CHECK((lt.link(r[3]).src == 3 && lt.link(r[3]).dst == 7 && lt.link(r[3]).dim == 2));
        CHECK(lt.device_name(9) == "switch1.1");
    }
}

TEST_CASE("congestion network: store and forward through FIFO links", "[network][congestion]") {
    // 50 GB/s = 53.6870912 B/ns: 1 MiB serialises in 19531.25 ns; with 500 ns latency a hop delivers at
    // floor(500 + 19531.25) = 20031 ns after it starts and frees its link after floor(19531.25) = 19531.
    const std::string rest = "npus_count: [8]\nbandwidth: [50]\nlatency: [500]\n";
    Engine engine;
    Deliveries d(engine);

    SECTION("Ring: each hop pays latency and serialisation again") {
        // 0->1: 20031. 0->3: 3 hops, 3 * 20031 = 60093 (store and forward).
        NetworkTopology topo(test::network_yaml("topology: [Ring]\n" + rest));
        CongestionNetwork net(topo, engine);
        net.send(0, 1, kMiB, Callback{&d, 0, 1});
        net.send(4, 7, kMiB, Callback{&d, 0, 2});
        engine.run();
        CHECK(d.at(1) == 20031);
        CHECK(d.at(2) == 60093);
        CHECK(net.link_stats().size() == 4); // 0->1, 4->5, 5->6, 6->7
        check_link(net, 5, 6, kMiB, 19531, 0);
    }
    SECTION("two chunks on one link: the second waits for the first's serialisation") {
        // First: 20031. Second starts when the link frees at 19531: 19531 + 20031 = 39562.
        NetworkTopology topo(test::network_yaml("topology: [Ring]\n" + rest));
        CongestionNetwork net(topo, engine);
        net.send(0, 1, kMiB, Callback{&d, 0, 1});
        net.send(0, 1, kMiB, Callback{&d, 0, 2});
        engine.run();
        CHECK(d.at(1) == 20031);
        CHECK(d.at(2) == 39562);
        check_link(net, 0, 1, 2 * kMiB, 2 * 19531, 1);
    }
    SECTION("Switch: 7 NPUs into one port serialise on the switch's downlink") {
        // All 7 uplinks run in parallel and reach the switch at 20031; the switch -> NPU 0 link then takes
        // them in arrival order (source order on a tie): the k-th is delivered at
        // 20031 + 19531 * (k - 1) + 20031, the 7th at 157248 -- 7 times the serialisation of one.
        NetworkTopology topo(test::network_yaml("topology: [Switch]\n" + rest));
        CongestionNetwork net(topo, engine);
        for (uint32_t src = 1; src < 8; ++src)
            net.send(src, 0, kMiB, Callback{&d, 0, src});
        engine.run();
        for (uint32_t k = 1; k < 8; ++k)
            CHECK(d.at(k) == 20031 + 19531 * (k - 1) + 20031);
        const LinkStats down = link_of(net, 8, 0);
        CHECK(down.src_name == "switch0.0");
        CHECK(down.dst_name == "npu0");
        CHECK(down.bytes == 7 * kMiB);
        CHECK(down.peak_queue == 6);
        CHECK(net.chunks_in_flight() == 0);
    }
    SECTION("2-D Ring x Switch: each dimension's own bandwidth and latency") {
        // 2 x 4, bandwidth [50, 25], latency [500, 100]. 0 = (0,0) to 5 = (1,2): ring hop 0->1 at 50 GB/s
        // (20031), then up and down switch 1 of dimension 1 at 25 GB/s = 26.8435456 B/ns: 39062.5 ns on the
        // wire, floor(100 + 39062.5) = 39162 per hop. Total 20031 + 2 * 39162 = 98355.
        NetworkTopology topo(test::network_yaml(
            "topology: [Ring, Switch]\nnpus_count: [2, 4]\nbandwidth: [50, 25]\nlatency: [500, 100]\n"));
        CongestionNetwork net(topo, engine);
        net.send(0, 5, kMiB, Callback{&d, 0, 1});
        engine.run();
        CHECK(d.at(1) == 98355);
    }
    SECTION("a message to oneself arrives in the same ns and uses no link") {
        NetworkTopology topo(test::network_yaml("topology: [Ring]\n" + rest));
        CongestionNetwork net(topo, engine);
        net.send(3, 3, kMiB, Callback{&d, 0, 1});
        engine.run();
        CHECK(d.at(1) == 0);
        CHECK(net.link_stats().empty());
    }
}

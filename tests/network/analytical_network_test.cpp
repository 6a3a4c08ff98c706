// The analytical (congestion-unaware) network: per message floor(hops * latency + bytes / bw) ns,
// bw in bytes/ns = GB/s * 2^30 / 1e9, charged to the first dimension in which the two NPUs differ.
#include "core/network/analytical_network.h"
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

// 8 NPUs in one dimension of `topology`, 50 GB/s and 500 ns per hop, under the analytical model.
struct EightNpus {
    explicit EightNpus(const std::string& topology)
        : topo(test::network_yaml("topology: [" + topology +
                                  "]\nnpus_count: [8]\nbandwidth: [50]\nlatency: [500]\n")),
          net(topo, engine) {}
    TimeNs delay(uint32_t src, uint32_t dst, uint64_t bytes) const { return net.delay(src, dst, bytes); }
    Engine engine;
    NetworkTopology topo;
    AnalyticalNetwork net;
};

} // namespace

TEST_CASE("analytical network: 1-D Ring and Switch and FullyConnected", "[network]") {
    // 8 NPUs, 50 GB/s = 50 * 2^30 / 1e9 = 53.6870912 B/ns, 500 ns per hop; 1 MiB takes
    // 1048576 / 53.6870912 = 19531.25 ns on the wire.
    SECTION("Ring: the shorter way round") {
        // 0->1 and 0->7: 1 hop -> floor(500 + 19531.25) = 20031; 0->3 and 0->5: 3 hops -> 21031;
        // 0->4: 4 hops either way -> 21531.
        const EightNpus net("Ring");
        CHECK(net.delay(0, 1, kMiB) == 20031);
        CHECK(net.delay(0, 7, kMiB) == 20031);
        CHECK(net.delay(0, 3, kMiB) == 21031);
        CHECK(net.delay(0, 5, kMiB) == 21031);
        CHECK(net.delay(0, 4, kMiB) == 21531);
        CHECK(net.delay(6, 1, kMiB) == 21031); // 6 -> 7 -> 0 -> 1
        // Truncated once per message: 53 B take 0.987 ns on the wire -> floor(500.987) = 500.
        CHECK(net.delay(0, 1, 53) == 500);
        CHECK(net.delay(0, 1, 0) == 500);
        CHECK(net.delay(3, 3, kMiB) == 0); // to oneself
    }
    SECTION("Switch: always 2 hops (up and down)") {
        // floor(2 * 500 + 19531.25) = 20531 for any pair.
        const EightNpus net("Switch");
        CHECK(net.delay(0, 1, kMiB) == 20531);
        CHECK(net.delay(0, 4, kMiB) == 20531);
        CHECK(net.delay(7, 2, kMiB) == 20531);
    }
    SECTION("FullyConnected: always 1 hop") {
        // floor(500 + 19531.25) = 20031 for any pair.
        const EightNpus net("FullyConnected");
        CHECK(net.delay(0, 1, kMiB) == 20031);
        CHECK(net.delay(0, 4, kMiB) == 20031);
    }
    SECTION("HGX-H100: 400 GB/s, 936.25 ns") {
        // Switch, 2 hops: 2 * 936.25 + 131072 / (400 * 1.073741824) = 1872.5 + 305.17578125 = 2177.67 ->
        // 2177.
        NetworkTopology topo(
            test::network_yaml(test::read_data("configs/net_HGX-H100-validated_Switch_8npus.yml")));
        Engine engine;
        AnalyticalNetwork net(topo, engine);
        CHECK(net.delay(0, 5, 131072) == 2177);
    }
}

TEST_CASE("analytical network: a message is charged to the first differing dimension", "[network]") {
    // net_Ring-Switch_2x4.yml: dim 0 Ring of 2 (100 GB/s, 500 ns), dim 1 Switch of 4 (50 GB/s, 1000 ns).
    // NPU id = c0 + 2 * c1. For 1 MiB: dim 0 costs floor(500 + 1048576 / 107.3741824) = floor(10265.625)
    // = 10265; dim 1 costs floor(2 * 1000 + 19531.25) = 21531.
    NetworkTopology topo(test::network_yaml(test::read_data("configs/net_Ring-Switch_2x4.yml")));
    Engine engine;
    AnalyticalNetwork net(topo, engine);
    CHECK(topo.npus() == 8);
    CHECK(topo.coord(5, 0) == 1);
    CHECK(topo.coord(5, 1) == 2);
    CHECK(topo.stride(1) == 2);
    CHECK(net.delay(0, 1, kMiB) == 10265); // (0,0) -> (1,0): dim 0
    CHECK(net.delay(0, 2, kMiB) == 21531); // (0,0) -> (0,1): dim 1
    CHECK(net.delay(0, 6, kMiB) == 21531); // (0,0) -> (0,3): dim 1, still 2 switch hops
    // (1,0) -> (0,1) differs in both: the whole message is charged to dim 0 only (ASTRA-sim's rule).
    CHECK(topo.first_differing_dim(1, 2) == 0);
    CHECK(net.delay(1, 2, kMiB) == 10265);
    CHECK(topo.first_differing_dim(4, 4) == topo.dims());
}

TEST_CASE("analytical network: send delivers after the delay and messages never contend", "[network]") {
    // Three 1 MiB messages sent at t = 0 on the 8-Ring of 50 GB/s / 500 ns: 0->1 and 2->1 arrive at
    // 20031 (no sharing of link 1's input: the model is congestion-unaware), 0->4 at 21531.
    NetworkTopology topo(
        test::network_yaml("topology: [Ring]\nnpus_count: [8]\nbandwidth: [50]\nlatency: [500]\n"));
    Engine engine;
    AnalyticalNetwork net(topo, engine);
    Deliveries d(engine);
    net.send(0, 4, kMiB, {&d, 0, 1});
    net.send(0, 1, kMiB, {&d, 0, 2});
    net.send(2, 1, kMiB, {&d, 0, 3});
    engine.run();
    CHECK(d.log == std::vector<std::pair<TimeNs, uint64_t>>{{20031, 2}, {20031, 3}, {21531, 1}});
    CHECK(net.messages() == 3);
    CHECK(net.bytes() == 3 * kMiB);
}

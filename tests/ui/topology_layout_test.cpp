// The Network tab's layout (ui/topology_layout.h): devices numbered and named as the link models number
// them, each dimension drawn as what it is, and inner dimensions nested inside outer ones.
#include "core/network/link_topology.h"
#include "core/network/topology.h"
#include "ui/topology_layout.h"

#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>

using namespace astrolabe;
using namespace astrolabe::ui;
using config::Topology;

namespace {

config::NetworkConfig net(std::vector<std::pair<Topology, uint32_t>> dims) {
    config::NetworkConfig c;
    for (auto [t, n] : dims)
        c.dims.push_back({t, n, 100, 500});
    return c;
}

float dist(const LayoutDevice& a, const LayoutDevice& b) {
    return std::hypot(a.x - b.x, a.y - b.y);
}

} // namespace

TEST_CASE("topology layout: a ring of 4 inside a switch of 2, numbered as the link models number devices",
          "[ui]") {
    // 8 NPUs: 2 rings of 4 (dimension 0), joined across by 4 switches of dimension 1 (one per ring
    // position). Edges: 4 per ring x 2 rings + 8 NPU-switch spokes = 16.
    const config::NetworkConfig c = net({{Topology::Ring, 4}, {Topology::Switch, 2}});
    TopologyLayout l = layout_topology(c);
    NetworkTopology topo(c);
    LinkTopology links(topo);
    REQUIRE(l.devices.size() == links.devices());
    REQUIRE(l.devices.size() == 12);
    for (uint32_t d = 0; d < l.devices.size(); ++d)
        CHECK(l.name(d) == links.device_name(d));
    CHECK(l.edges.size() == 16);
    // A switch sits halfway between the two NPUs it joins (npu0 and npu4 for switch1.0).
    const LayoutDevice& sw = l.devices[8];
    CHECK(sw.is_switch);
    CHECK(sw.x == Approx((l.devices[0].x + l.devices[4].x) / 2));
    CHECK(sw.y == Approx((l.devices[0].y + l.devices[4].y) / 2));
    // Nested: the NPUs of one ring are closer to each other than to the other ring's.
    CHECK(dist(l.devices[0], l.devices[2]) < dist(l.devices[0], l.devices[4]));
    CHECK(l.describe(8, c) == "switch1.0: dimension 1 (Switch), joins npu0, npu4");
    CHECK(l.describe(5, c) == "npu5: coordinates (1, 1)");
    // Every device inside the unit square, the farthest 0.44 from its centre.
    float farthest = 0;
    for (const auto& d : l.devices) {
        CHECK((d.x >= 0 && d.x <= 1 && d.y >= 0 && d.y <= 1));
        farthest = std::max(farthest, std::hypot(d.x - 0.5f, d.y - 0.5f));
    }
    CHECK(farthest <= 0.44f + 1e-5f);
}

TEST_CASE("topology layout: a ring of 2 is one pair, a fully connected dimension every pair", "[ui]") {
    CHECK(layout_topology(net({{Topology::Ring, 2}})).edges.size() == 1);
    CHECK(layout_topology(net({{Topology::FullyConnected, 5}})).edges.size() == 10); // 5 * 4 / 2
    // A ring's members are evenly spaced on one circle: all at the same distance from the centre.
    TopologyLayout ring = layout_topology(net({{Topology::Ring, 8}}));
    for (const auto& d : ring.devices)
        CHECK(std::hypot(d.x - 0.5f, d.y - 0.5f) == Approx(0.44f));
    // The edge list is bounded for huge fully connected dimensions.
    TopologyLayout big = layout_topology(net({{Topology::FullyConnected, 300}}), 1000);
    CHECK(big.edges.size() == 1000);
    CHECK(big.edges_truncated);
}

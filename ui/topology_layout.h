// Where the Network tab draws each device: every dimension laid out as what it is, nested. The outermost
// dimension places its groups (each a copy of the inner dimensions) on a circle; a Ring's members sit on
// a circle joined neighbour to neighbour, a Switch's around their switch (a star), a FullyConnected's on a
// circle joined pair by pair; each inner dimension repeats that at a smaller radius around its group's
// place. Devices are numbered as the link models number them (core/network/link_topology.h): NPUs
// 0..N-1, then the switches of each Switch dimension, one per line, so report links map onto it directly.
// Pure geometry, no drawing, so it is tested natively.
#pragma once

#include "core/config/config_types.h"

#include <cstdint>
#include <string>
#include <vector>

namespace astrolabe::ui {

struct LayoutDevice {
    float x = 0, y = 0; // in [0, 1] x [0, 1]
    bool is_switch = false;
    uint32_t dim = 0;  // a switch's dimension
    uint32_t line = 0; // a switch's line (the NPUs it joins differ only in that dimension)
};

struct LayoutEdge {
    uint32_t a = 0, b = 0; // device ids; one edge per physical pair, whatever the direction
    uint32_t dim = 0;
};

struct TopologyLayout {
    std::vector<LayoutDevice> devices;
    std::vector<LayoutEdge> edges;
    bool edges_truncated = false; // a FullyConnected dimension with more pairs than are worth drawing
    uint32_t npus = 0;
    // "npu5", "switch1.2": the names the report's links use.
    std::string name(uint32_t device) const;
    // "npu5: coordinates (1, 1)" or "switch1.2: dimension 1 (Switch), joins npu2, npu6".
    std::string describe(uint32_t device, const config::NetworkConfig& net) const;
};

// At most `max_edges` structural edges are listed (FullyConnected dimensions grow as n^2).
TopologyLayout layout_topology(const config::NetworkConfig& net, size_t max_edges = 20000);

} // namespace astrolabe::ui

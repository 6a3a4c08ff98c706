// What the two link-level network models (congestion, flow) share, set up once: the link topology, each
// dimension's bandwidth in bytes/ns and latency in ns, and per-link traffic counters that follow the links
// as FullyConnected ones appear on first use. A member of each model (composition: the models differ in
// everything they do with the links, so there is nothing to override).
#pragma once

#include "core/network/link_topology.h"

#include <cstddef>
#include <vector>

namespace astrolabe {

struct LinkFabric {
    explicit LinkFabric(const NetworkTopology& topo);

    // Resizes the counters to the links that exist now; returns how many links there were before, so a
    // model can set up its own state for the new ones.
    size_t grow();
    double bytes_per_ns_of(uint32_t link) const { return bytes_per_ns[links.link(link).dim]; }
    double latency_ns_of(uint32_t link) const { return latency_ns[links.link(link).dim]; }

    LinkTopology links;
    std::vector<double> bytes_per_ns, latency_ns; // per dimension
    std::vector<LinkCounters> counters;           // per link
};

} // namespace astrolabe

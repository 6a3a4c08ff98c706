#include "core/network/link_fabric.h"

namespace astrolabe {

LinkFabric::LinkFabric(const NetworkTopology& topo) : links(topo) {
    for (size_t d = 0; d < topo.dims(); ++d) {
        bytes_per_ns.push_back(topo.bytes_per_ns(d));
        latency_ns.push_back(topo.dim(d).latency_ns);
    }
    grow();
}

size_t LinkFabric::grow() {
    size_t old = counters.size();
    counters.resize(links.links());
    return old;
}

} // namespace astrolabe

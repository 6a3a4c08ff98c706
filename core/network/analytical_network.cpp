#include "core/network/analytical_network.h"

namespace astrolabe {

TimeNs AnalyticalNetwork::delay(uint32_t src, uint32_t dst, uint64_t bytes) const {
    size_t d = topo_.first_differing_dim(src, dst);
    if (d == topo_.dims()) return 0; // to oneself
    uint32_t hops = topo_.hops(d, topo_.coord(src, d), topo_.coord(dst, d));
    double t = hops * topo_.dim(d).latency_ns + static_cast<double>(bytes) / topo_.bytes_per_ns(d);
    return time_from_ns(t);
}

} // namespace astrolabe

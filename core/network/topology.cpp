#include "core/network/topology.h"

namespace astrolabe {

NetworkTopology::NetworkTopology(const config::NetworkConfig& net) : dims_(net.dims) {
    uint32_t stride = 1;
    for (const auto& d : dims_) {
        strides_.push_back(stride);
        stride *= d.npus;
    }
    npus_ = stride;
}

size_t NetworkTopology::first_differing_dim(uint32_t a, uint32_t b) const {
    for (size_t d = 0; d < dims_.size(); ++d)
        if (coord(a, d) != coord(b, d)) return d;
    return dims_.size();
}

uint32_t NetworkTopology::hops(size_t d, uint32_t a, uint32_t b) const {
    if (a == b) return 0;
    switch (dims_[d].topology) {
    case config::Topology::Ring: {
        uint32_t n = dims_[d].npus;
        uint32_t cw = (b + n - a) % n;
        return cw < n - cw ? cw : n - cw;
    }
    case config::Topology::Switch:
        return 2;
    case config::Topology::FullyConnected:
        return 1;
    }
    return 1;
}

} // namespace astrolabe

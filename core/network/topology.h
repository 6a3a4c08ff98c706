// The physical network as dimensions: NPU ids, coordinates and hop counts, shared by the network models.
//
// NPU id = sum over dimensions d of coord[d] * stride[d], dimension 0 varying fastest (ASTRA-sim's
// convention). Within one dimension a Ring has the shorter way round as its hop count, a Switch 2 (up and
// down), FullyConnected 1.
#pragma once

#include "core/config/config_types.h"

#include <cstdint>
#include <vector>

namespace astrolabe {

class NetworkTopology {
public:
    explicit NetworkTopology(const config::NetworkConfig& net);

    uint32_t npus() const { return npus_; }
    size_t dims() const { return dims_.size(); }
    const config::NetworkDim& dim(size_t d) const { return dims_[d]; }
    uint32_t stride(size_t d) const { return strides_[d]; }
    uint32_t coord(uint32_t npu, size_t d) const { return (npu / strides_[d]) % dims_[d].npus; }
    // The lowest dimension in which a and b differ; dims() when a == b.
    size_t first_differing_dim(uint32_t a, uint32_t b) const;
    // Hops between local indices a and b of dimension d.
    uint32_t hops(size_t d, uint32_t a, uint32_t b) const;
    // Bytes per ns of dimension d: GB/s with 1 GB = 2^30 bytes, as ASTRA-sim's analytical backend reads it.
    double bytes_per_ns(size_t d) const { return dims_[d].bandwidth_gbps * 1073741824.0 / 1e9; }

private:
    std::vector<config::NetworkDim> dims_;
    std::vector<uint32_t> strides_;
    uint32_t npus_ = 1;
};

} // namespace astrolabe

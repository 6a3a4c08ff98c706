// The physical network as devices and unidirectional links, with dimension-ordered routing; shared by the
// congestion-aware (store-and-forward) and flow (max-min fair) models.
//
// Devices: NPUs 0..N-1 (ids as in topology.h), then one switch device per line of every Switch dimension
// (a line = the NPUs that differ only in that dimension's coordinate). Links per dimension d, as ASTRA-sim's
// congestion-aware backend builds them for one dimension:
//   Ring            each NPU -> its next and its previous neighbour (one link each way when n_d = 2);
//   Switch          each NPU -> its line's switch and switch -> NPU;
//   FullyConnected  each ordered pair of NPUs of a line. These N*(n_d-1) links are created lazily, on first
//                   use, so a large FullyConnected dimension costs memory only for the pairs that talk.
// Routing: dimension-ordered. A message fixes the lowest differing dimension first, then the next, ...;
// within a dimension a Ring goes the shorter way (clockwise on a tie), a Switch goes up and down, a
// FullyConnected link goes direct. For one dimension this is exactly ASTRA-sim's route.
// Folded (a run of representatives, network_model.h NpuFold): next_hop and route return each link's class
// link, the image under the translation that takes the link's NPU end to its representative; stats() lists
// every translate of each class link with its counters.
// Memory: linear in the links that exist. Not modelled: link failures, adaptive routing, switch buffers.
#pragma once

#include "core/network/network_model.h"
#include "core/network/topology.h"

#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

namespace astrolabe {

// Where a message is on its way: the last NPU it reached and whether it now sits in that NPU's switch of
// dimension `switch_dim`.
struct RoutePosition {
    uint32_t npu = 0;
    int8_t switch_dim = -1; // >= 0: at the switch of this dimension on `npu`'s line
};

struct LinkInfo {
    uint32_t src = 0; // device ids
    uint32_t dst = 0;
    uint8_t dim = 0;
};

// Per-link traffic counters, kept by the models beside their own link state.
struct LinkCounters {
    uint64_t bytes = 0;
    TimeNs busy_ns = 0;
    uint64_t peak_queue = 0;
};

class LinkTopology {
public:
    explicit LinkTopology(const NetworkTopology& topo);

    const NetworkTopology& topology() const { return topo_; }
    uint32_t npus() const { return topo_.npus(); }
    uint32_t devices() const { return devices_; }
    size_t links() const { return links_.size(); }
    const LinkInfo& link(uint32_t l) const { return links_[l]; }
    // "npu3", or "switch1.5" for the switch of dimension 1 on line 5.
    std::string device_name(uint32_t device) const;

    // The link a message at `pos` bound for `dst` takes next, and where it will be after crossing it.
    // Creates FullyConnected links on first use (which is why this is not const). `pos` must not be `dst`.
    uint32_t next_hop(const RoutePosition& pos, uint32_t dst, RoutePosition& after);
    static bool arrived(const RoutePosition& pos, uint32_t dst) {
        return pos.switch_dim < 0 && pos.npu == dst;
    }
    // Every link of a route, in order (the flow model holds whole routes).
    void route(uint32_t src, uint32_t dst, std::vector<uint32_t>& out);

    // From now on, links stand for their translates (see the header comment).
    void fold(NpuFold fold) { fold_ = std::move(fold); }
    bool folded() const { return static_cast<bool>(fold_.representative); }

    // The report rows: links with traffic, ordered by (src, dst) device ids.
    std::vector<LinkStats> stats(const std::vector<LinkCounters>& counters) const;

private:
    uint32_t line_of(uint32_t npu, size_t d) const;
    uint32_t fc_link(uint32_t src, uint32_t dst, size_t d);
    uint32_t dense(size_t d, uint32_t npu, uint32_t dir) const;
    // The link `l`'s translate by `h` (an NPU of NPU 0's class), as device ids and dimension.
    LinkInfo translate(uint32_t l, uint32_t h) const;

    const NetworkTopology& topo_;
    uint32_t devices_ = 0;
    std::vector<uint32_t> link_base_;   // per dimension: first dense link (Ring, Switch)
    std::vector<uint32_t> switch_base_; // per dimension: first switch device id (Switch)
    std::vector<LinkInfo> links_;
    std::unordered_map<uint64_t, uint32_t> fc_links_; // (src << 32 | dst) -> link, FullyConnected only
    NpuFold fold_;
};

} // namespace astrolabe

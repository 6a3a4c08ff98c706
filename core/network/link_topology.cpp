#include "core/network/link_topology.h"

#include "core/base/assert.h"

#include <algorithm>

namespace astrolabe {

using config::Topology;

LinkTopology::LinkTopology(const NetworkTopology& topo) : topo_(topo) {
    const uint32_t n = topo.npus();
    devices_ = n;
    link_base_.assign(topo.dims(), 0);
    switch_base_.assign(topo.dims(), 0);
    // Dense links first, dimension by dimension: link_base + npu * 2 + direction.
    for (size_t d = 0; d < topo.dims(); ++d) {
        const auto& dim = topo.dim(d);
        if (dim.npus < 2 || dim.topology == Topology::FullyConnected) continue;
        link_base_[d] = static_cast<uint32_t>(links_.size());
        if (dim.topology == Topology::Switch) {
            switch_base_[d] = devices_;
            devices_ += n / dim.npus;
        }
        for (uint32_t npu = 0; npu < n; ++npu) {
            uint32_t c = topo.coord(npu, d);
            if (dim.topology == Topology::Ring) {
                uint32_t next = npu - c * topo.stride(d) + ((c + 1) % dim.npus) * topo.stride(d);
                uint32_t prev = npu - c * topo.stride(d) + ((c + dim.npus - 1) % dim.npus) * topo.stride(d);
                links_.push_back({npu, next, static_cast<uint8_t>(d)});
                links_.push_back({npu, prev, static_cast<uint8_t>(d)});
            } else {
                uint32_t sw = switch_base_[d] + line_of(npu, d);
                links_.push_back({npu, sw, static_cast<uint8_t>(d)});
                links_.push_back({sw, npu, static_cast<uint8_t>(d)});
            }
        }
    }
}

uint32_t LinkTopology::line_of(uint32_t npu, size_t d) const {
    uint32_t stride = topo_.stride(d);
    return npu % stride + npu / (stride * topo_.dim(d).npus) * stride;
}

std::string LinkTopology::device_name(uint32_t device) const {
    if (device < npus()) return "npu" + std::to_string(device);
    for (size_t d = topo_.dims(); d-- > 0;)
        if (topo_.dim(d).topology == Topology::Switch && topo_.dim(d).npus >= 2 && device >= switch_base_[d])
            return "switch" + std::to_string(d) + "." + std::to_string(device - switch_base_[d]);
    return "device" + std::to_string(device);
}

uint32_t LinkTopology::fc_link(uint32_t src, uint32_t dst, size_t d) {
    auto [it, inserted] = fc_links_.try_emplace(uint64_t(src) << 32 | dst, 0);
    if (inserted) {
        it->second = static_cast<uint32_t>(links_.size());
        links_.push_back({src, dst, static_cast<uint8_t>(d)});
    }
    return it->second;
}

uint32_t LinkTopology::dense(size_t d, uint32_t npu, uint32_t dir) const {
    // Folded, the link leaving (or, down from a switch, reaching) `npu` stands in for its representative's.
    return link_base_[d] + (folded() ? fold_.representative(npu) : npu) * 2 + dir;
}

uint32_t LinkTopology::next_hop(const RoutePosition& pos, uint32_t dst, RoutePosition& after) {
    if (pos.switch_dim >= 0) {
        // Down from the switch to the line's NPU whose coordinate matches the destination's.
        auto d = static_cast<size_t>(pos.switch_dim);
        uint32_t s = topo_.stride(d);
        uint32_t target = pos.npu - topo_.coord(pos.npu, d) * s + topo_.coord(dst, d) * s;
        after = {target, -1};
        return dense(d, target, 1);
    }
    size_t d = topo_.first_differing_dim(pos.npu, dst);
    SIM_ASSERT(d < topo_.dims(), "next_hop asked for a message that has arrived");
    const auto& dim = topo_.dim(d);
    uint32_t s = topo_.stride(d);
    uint32_t a = topo_.coord(pos.npu, d), b = topo_.coord(dst, d);
    switch (dim.topology) {
    case Topology::Ring: {
        uint32_t n = dim.npus;
        uint32_t cw = (b + n - a) % n;
        bool forward = n == 2 || cw <= n - cw; // ASTRA-sim: anticlockwise only when strictly shorter
        uint32_t next = forward ? (a + 1) % n : (a + n - 1) % n;
        after = {pos.npu - a * s + next * s, -1};
        return dense(d, pos.npu, forward ? 0 : 1);
    }
    case Topology::Switch:
        after = {pos.npu, static_cast<int8_t>(d)};
        return dense(d, pos.npu, 0);
    case Topology::FullyConnected: {
        uint32_t target = pos.npu - a * s + b * s;
        after = {target, -1};
        if (folded()) return fc_link(fold_.representative(pos.npu), fold_.shift(target, pos.npu, true), d);
        return fc_link(pos.npu, target, d);
    }
    }
    SIM_ASSERT(false, "unknown topology");
    return 0;
}

void LinkTopology::route(uint32_t src, uint32_t dst, std::vector<uint32_t>& out) {
    out.clear();
    RoutePosition pos{src, -1}, after;
    while (!arrived(pos, dst)) {
        out.push_back(next_hop(pos, dst, after));
        pos = after;
    }
}

LinkInfo LinkTopology::translate(uint32_t l, uint32_t h) const {
    const LinkInfo& link = links_[l];
    if (topo_.dim(link.dim).topology == Topology::FullyConnected)
        return {fold_.shift(link.src, h, false), fold_.shift(link.dst, h, false), link.dim};
    // Dense links are numbered by their NPU end and direction; translations map lines onto lines, so the
    // translate is the link of the moved NPU end in the same direction.
    uint32_t i = l - link_base_[link.dim];
    return links_[link_base_[link.dim] + fold_.shift(i / 2, h, false) * 2 + i % 2];
}

std::vector<LinkStats> LinkTopology::stats(const std::vector<LinkCounters>& counters) const {
    std::vector<LinkStats> out;
    auto add = [&](const LinkInfo& info, const LinkCounters& c) {
        LinkStats s;
        s.src = info.src;
        s.dst = info.dst;
        s.src_name = device_name(s.src);
        s.dst_name = device_name(s.dst);
        s.dim = info.dim;
        s.bytes = c.bytes;
        s.busy_ns = c.busy_ns;
        s.peak_queue = c.peak_queue;
        out.push_back(std::move(s));
    };
    for (size_t l = 0; l < links_.size() && l < counters.size(); ++l) {
        const LinkCounters& c = counters[l];
        if (c.bytes == 0) continue;
        if (!folded()) {
            add(links_[l], c);
            continue;
        }
        // Only class links carry traffic when folded; each has as much as every translate.
        for (uint32_t h : fold_.offsets)
            add(translate(static_cast<uint32_t>(l), h), c);
    }
    // Lazily created links are numbered in order of first use; sort so the report never depends on it.
    std::sort(out.begin(), out.end(), [](const LinkStats& a, const LinkStats& b) {
        return a.src != b.src ? a.src < b.src : a.dst < b.dst;
    });
    return out;
}

} // namespace astrolabe

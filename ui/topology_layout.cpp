#include "ui/topology_layout.h"

#include <algorithm>
#include <cmath>

namespace astrolabe::ui {

using config::Topology;

namespace {

constexpr float kPi = 3.14159265f;
constexpr float kOuter = 0.44f; // the farthest an NPU sits from the centre of the unit square

// How much smaller an inner dimension's circle is than the one its groups sit on, so that neighbouring
// groups do not overlap: a fraction of the distance between two neighbours on the outer circle.
float shrink(uint32_t n) {
    if (n <= 1) return 1.0f;
    return std::min(0.42f, std::sin(kPi / static_cast<float>(n)) * 0.72f);
}

} // namespace

TopologyLayout layout_topology(const config::NetworkConfig& net, size_t max_edges) {
    TopologyLayout out;
    const size_t dims = net.dims.size();
    const uint32_t n = static_cast<uint32_t>(net.npus());
    out.npus = n;
    if (dims == 0 || n == 0) return out;
    std::vector<uint32_t> stride(dims, 1);
    for (size_t d = 1; d < dims; ++d)
        stride[d] = stride[d - 1] * net.dims[d - 1].npus;
    // Radii from the outermost dimension in; a dimension of one NPU takes no room. Scaled so the NPU
    // farthest out (every offset in the same direction) stays inside the square with a margin.
    std::vector<float> radius(dims, 0.0f);
    float r = 1.0f, sum = 0.0f;
    for (size_t d = dims; d-- > 0;) {
        const uint32_t nd = net.dims[d].npus;
        radius[d] = nd > 1 ? r : 0.0f;
        sum += radius[d];
        if (nd > 1) r *= shrink(nd);
    }
    for (float& x : radius)
        x *= sum > 0 ? kOuter / sum : 0.0f;
    auto coord = [&](uint32_t npu, size_t d) { return (npu / stride[d]) % net.dims[d].npus; };
    // Inner circles are turned by a quarter of their step: their members then never line up with the
    // outer dimension's axis, so the lines joining groups do not run over the NPUs or one another.
    size_t outermost = 0;
    for (size_t d = 0; d < dims; ++d)
        if (net.dims[d].npus > 1) outermost = d;
    // The offset of coordinate c on dimension d's circle (the outermost starts at the top; clockwise).
    auto offset = [&](size_t d, uint32_t c, float& x, float& y) {
        const uint32_t nd = net.dims[d].npus;
        if (nd <= 1) return;
        const float turn = d == outermost ? 0.0f : kPi / (2.0f * static_cast<float>(nd));
        const float a = 2.0f * kPi * static_cast<float>(c) / static_cast<float>(nd) - kPi / 2 + turn;
        x += radius[d] * std::cos(a);
        y += radius[d] * std::sin(a);
    };
    out.devices.resize(n);
    for (uint32_t npu = 0; npu < n; ++npu) {
        float x = 0.5f, y = 0.5f;
        for (size_t d = 0; d < dims; ++d)
            offset(d, coord(npu, d), x, y);
        out.devices[npu].x = x, out.devices[npu].y = y;
    }
    auto add_edge = [&](uint32_t a, uint32_t b, size_t d) {
        if (out.edges.size() >= max_edges) {
            out.edges_truncated = true;
            return;
        }
        out.edges.push_back({a, b, static_cast<uint32_t>(d)});
    };
    for (size_t d = 0; d < dims; ++d) {
        const uint32_t nd = net.dims[d].npus;
        if (nd < 2) continue;
        const Topology topo = net.dims[d].topology;
        const uint32_t first_switch = static_cast<uint32_t>(out.devices.size());
        if (topo == Topology::Switch) out.devices.resize(out.devices.size() + n / nd);
        for (uint32_t npu = 0; npu < n; ++npu) {
            const uint32_t c = coord(npu, d);
            const uint32_t base = npu - c * stride[d];
            if (topo == Topology::Ring) {
                // Neighbour to neighbour; two NPUs share one pair of links.
                if (nd > 2 || c == 0) add_edge(npu, base + ((c + 1) % nd) * stride[d], d);
            } else if (topo == Topology::Switch) {
                // The line's switch sits where the line's circle is centred (the NPU without this offset).
                const uint32_t line = npu % stride[d] + npu / (stride[d] * nd) * stride[d];
                LayoutDevice& sw = out.devices[first_switch + line];
                if (c == 0) {
                    float ox = 0, oy = 0;
                    offset(d, 0, ox, oy);
                    sw = {out.devices[npu].x - ox, out.devices[npu].y - oy, true, static_cast<uint32_t>(d),
                          line};
                }
                add_edge(npu, first_switch + line, d);
            } else {
                for (uint32_t c2 = c + 1; c2 < nd; ++c2)
                    add_edge(npu, base + c2 * stride[d], d);
            }
        }
    }
    return out;
}

std::string TopologyLayout::name(uint32_t device) const {
    if (device < npus) return "npu" + std::to_string(device);
    if (device < devices.size())
        return "switch" + std::to_string(devices[device].dim) + "." + std::to_string(devices[device].line);
    return "device" + std::to_string(device);
}

std::string TopologyLayout::describe(uint32_t device, const config::NetworkConfig& net) const {
    std::string out = name(device);
    if (device < npus) {
        out += ": coordinates (";
        uint32_t rest = device;
        for (size_t d = 0; d < net.dims.size(); ++d) {
            out += (d ? ", " : "") + std::to_string(rest % net.dims[d].npus);
            rest /= net.dims[d].npus;
        }
        return out + ")";
    }
    if (device >= devices.size()) return out;
    const LayoutDevice& sw = devices[device];
    out += ": dimension " + std::to_string(sw.dim) + " (Switch), joins";
    size_t shown = 0;
    for (const auto& e : edges)
        if (e.b == device && shown < 8) out += (shown++ ? ", " : " ") + name(e.a);
    const uint32_t members = net.dims[sw.dim].npus;
    if (members > shown) out += " ... (" + std::to_string(members) + " NPUs)";
    return out;
}

} // namespace astrolabe::ui

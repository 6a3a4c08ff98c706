// AWS's p5/p5e tuning map and the geometry that reads it.
//
// Index: [SECTION] geometry · [SECTION] the p5/p5e map · [SECTION] lookup
#include "core/hardware/aws_ofi_tuner.h"

#include <cmath>
#include <vector>

namespace astrolabe::hardware {

using config::NcclAlgo;
using config::NcclProto;

namespace {

// [SECTION] geometry
// Points live on log2 scales (a byte count of 0 counts as 1 byte, log2 0). The map's far corner: AWS's
// tuner covers up to 100 GiB and 1 Mi ranks.
struct Pt {
    double x = 0, y = 0; // log2 bytes, log2 ranks
};

constexpr double kMaxBytes = 100.0 * 1024 * 1024 * 1024;
constexpr double kMaxRanks = 1024.0 * 1024;

Pt at(double bytes, double ranks) {
    return {bytes > 0 ? std::log2(bytes) : 0.0, ranks > 0 ? std::log2(ranks) : 0.0};
}

// Where the line through a and b leaves the map towards its far corner: at the corner's byte count when
// the line is still below the corner's rank count there, else at the corner's rank count. AWS closes
// polygons whose last boundary runs on to the edge of the map this way.
Pt extend(Pt a, Pt b) {
    const Pt z = at(kMaxBytes, kMaxRanks);
    if (a.x == b.x) return {a.x, z.y};
    if (a.y == b.y) return {z.x, a.y};
    const double m = (a.y - b.y) / (a.x - b.x);
    const double c = b.y - m * b.x;
    const double y_at_zx = m * z.x + c;
    if (y_at_zx < z.y) return {z.x, y_at_zx};
    return {(z.y - c) / m, z.y};
}

struct Region {
    AlgoProto choice;
    std::vector<Pt> corners;
};

// A point on an edge (within eps) counts as inside: the map's single-row regions (all three corners on
// one rank count) are nothing but edges, and AWS's lookup takes edge points too.
bool on_segment(Pt p, Pt a, Pt b) {
    constexpr double eps = 1e-9;
    const double dx = b.x - a.x, dy = b.y - a.y;
    const double len = std::hypot(dx, dy);
    if (len < eps) return std::hypot(p.x - a.x, p.y - a.y) < eps;
    const double cross = dx * (p.y - a.y) - dy * (p.x - a.x);
    if (std::fabs(cross) / len > eps) return false;
    const double t = (dx * (p.x - a.x) + dy * (p.y - a.y)) / (len * len);
    return t >= -eps && t <= 1 + eps;
}

// Even-odd rule with a ray towards +x.
bool holds(const Region& r, Pt p) {
    const auto& v = r.corners;
    const size_t n = v.size();
    for (size_t i = 0; i < n; ++i)
        if (on_segment(p, v[i], v[(i + 1) % n])) return true;
    bool inside = false;
    for (size_t i = 0, j = n - 1; i < n; j = i++) {
        if ((v[i].y > p.y) != (v[j].y > p.y)) {
            const double x_cross = v[j].x + (p.y - v[j].y) * (v[i].x - v[j].x) / (v[i].y - v[j].y);
            if (p.x < x_cross) inside = !inside;
        }
    }
    return inside;
}

// [SECTION] the p5/p5e map
// aws-ofi-nccl src/tuner/nccl_ofi_regions.cpp, region_init_internal_p5_p5e: corners as (bytes, ranks).
constexpr AlgoProto kTreeLL128{NcclAlgo::Tree, NcclProto::LL128};
constexpr AlgoProto kTreeSimple{NcclAlgo::Tree, NcclProto::Simple};
constexpr AlgoProto kRingLL128{NcclAlgo::Ring, NcclProto::LL128};
constexpr AlgoProto kRingSimple{NcclAlgo::Ring, NcclProto::Simple};
constexpr AlgoProto kNvlsTree{NcclAlgo::NvlsTree, NcclProto::Simple};

struct Map {
    std::vector<Region> all_reduce, all_gather, reduce_scatter;
};

// Eight GPUs per node (the whole p5): tree/LL128 for small and medium sizes (up to 30 MiB at 16 ranks,
// 288 MiB at 128-256), ring/LL128 above it up to 1-2 GiB, NVLS-tree or ring/Simple for the largest.
Map eight_per_node() {
    const Pt tree_edge = extend(at(402653184, 2048), at(402653184, 4096));
    const Pt nvls_edge = extend(at(8053063680, 160), at(9663676416, 192));
    Map m;
    m.all_reduce = {
        {kTreeLL128,
         {at(0, 16),
          at(31457280, 16),
          at(37748736, 32),
          at(117440512, 64),
          at(301989888, 128),
          at(301989888, 256),
          at(335544320, 512),
          at(536870912, 1024),
          at(402653184, 2048),
          at(402653184, 4096),
          tree_edge,
          {0, tree_edge.y}}},
        {kNvlsTree, {at(31457281, 16), at(kMaxBytes, 16), at(31457281, 16)}},
        {kRingLL128,
         {at(31457280, 17), at(1073741824, 17), at(2147483648, 64), at(2147483648, 128), at(1342177280, 160),
          at(2147483648, 256), at(1074790400, 256), at(444596224, 160), at(301989888, 128), at(117440512, 64),
          at(37748736, 32)}},
        {kNvlsTree,
         {at(2147483648, 128), at(6442450944, 128), at(8053063680, 160), at(9663676416, 192), nvls_edge,
          tree_edge, at(402653184, 4096), at(402653184, 2048), at(536870912, 1024), at(335544320, 512),
          at(301989888, 256), at(310378496, 160), at(444596224, 160), at(1074790400, 256),
          at(2684354560, 256), at(2147483648, 224), at(1342177280, 160)}},
        {kRingSimple,
         {at(1073741824, 17),
          {nvls_edge.x, at(0, 17).y},
          nvls_edge,
          at(9663676416, 192),
          at(8053063680, 160),
          at(2684354560, 64),
          at(1610612736, 32)}},
    };
    return m;
}

// Two GPUs per node.
Map two_per_node() {
    const Pt tree_ll128_edge = extend(at(88160256, 128), at(178163712, 256));
    const Pt upper_edge = extend(at(787480576, 128), at(1073741824, 256));
    const Pt tree_simple_edge = extend(at(257114112, 128), at(269484032, 256));
    Map m;
    m.all_reduce = {
        {kTreeLL128,
         {at(0, 4),
          at(1314816, 4),
          at(1051648, 8),
          at(1051648, 12),
          at(2367488, 16),
          at(5525504, 32),
          at(9473024, 64),
          at(88160256, 128),
          at(178163712, 256),
          tree_ll128_edge,
          {0, tree_ll128_edge.y}}},
        {kRingLL128,
         {at(1314816, 4), at(19736576, 4), at(41842688, 8), at(296747008, 64), at(257114112, 128),
          at(269484032, 256), at(178163712, 256), at(88160256, 128), at(9473024, 64), at(5525504, 32),
          at(2367488, 16), at(1051648, 12), at(1051648, 8), at(1314816, 4)}},
        {kNvlsTree,
         {at(19736576, 4), at(81844224, 4), at(275775488, 8), at(275775488, 48), at(296747008, 64),
          at(41842688, 8)}},
        {kTreeLL128, {at(81844224, 4), at(269484032, 4), at(81844224, 4)}},
        {kTreeSimple, {at(269484032, 4), at(kMaxBytes, 4), at(269484032, 4)}},
        {kRingSimple,
         {at(81844224, 5), at(kMaxBytes, 5), at(kMaxBytes, 32), at(1073741824, 40), at(1073741824, 128),
          at(787480576, 128), at(296747008, 64), at(275775488, 48), at(275775488, 8), at(81844224, 5)}},
        {kTreeSimple,
         {at(296747008, 64), at(787480576, 128), at(1073741824, 256), upper_edge, tree_simple_edge,
          at(269484032, 256), at(257114112, 128)}},
        {kNvlsTree,
         {upper_edge, at(1073741824, 256), at(787480576, 128), at(1073741824, 128), at(1073741824, 40),
          at(kMaxBytes, 32)}},
    };
    return m;
}

// One GPU per node.
Map one_per_node() {
    const Pt tree_edge = extend(at(9999360, 64), at(119477248, 128));
    const Pt ring_edge = extend(at(4736000, 2), at(269484032, 128));
    const Pt gather_edge = extend(at(4194304, 2), at(8589934592, 2048));
    const Pt scatter_edge = extend(at(8388608, 2), at(4294967296, 1024));
    Map m;
    m.all_reduce = {
        {kTreeLL128,
         {at(0, 16), at(2367488, 16), at(9999360, 64), at(119477248, 128), tree_edge, at(0, kMaxRanks)}},
        {kRingLL128,
         {at(0, 2), at(4736000, 2), at(269484032, 128), ring_edge, tree_edge, at(119477248, 128),
          at(9999360, 64), at(2367488, 16), at(0, 16)}},
        {kRingSimple, {at(4736000, 2), at(kMaxBytes, 2), ring_edge, at(269484032, 128)}},
    };
    m.all_gather = {{kRingSimple, {at(4194304, 2), at(kMaxBytes, 2), gather_edge, at(8589934592, 2048)}}};
    m.reduce_scatter = {
        {kRingSimple, {at(8388608, 2), at(kMaxBytes, 2), scatter_edge, at(4294967296, 1024)}}};
    return m;
}

const std::vector<Region>* regions_for(CollOp op, uint32_t gpus_per_node) {
    // Built once (thread-safe static initialisation), read-only afterwards.
    static const Map eight = eight_per_node(), two = two_per_node(), one = one_per_node();
    const Map* m = gpus_per_node == 8   ? &eight
                   : gpus_per_node == 2 ? &two
                   : gpus_per_node == 1 ? &one
                                        : nullptr;
    if (!m) return nullptr;
    switch (op) {
    case CollOp::AllReduce:
        return &m->all_reduce;
    case CollOp::AllGather:
        return &m->all_gather;
    case CollOp::ReduceScatter:
        return &m->reduce_scatter;
    case CollOp::AllToAll:
        return nullptr;
    }
    return nullptr;
}

} // namespace

// [SECTION] lookup
AwsOfiPicks aws_ofi_picks(CollOp op, uint32_t nodes, uint32_t gpus_per_node, uint64_t bytes) {
    AwsOfiPicks out;
    // "Skip when two nodes or lesser because the regions are not well defined" (the tuner's own words).
    if (nodes <= 2) return out;
    const std::vector<Region>* regions = regions_for(op, gpus_per_node);
    if (!regions) return out;
    const double ranks = double(nodes) * gpus_per_node;
    if (double(bytes) > kMaxBytes || ranks > kMaxRanks) return out;
    const Pt p = at(double(bytes), ranks);
    for (const Region& r : *regions)
        if (out.count < AwsOfiPicks::kMax && holds(r, p)) out.pick[out.count++] = r.choice;
    return out;
}

} // namespace astrolabe::hardware

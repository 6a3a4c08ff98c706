// AWS's tuner for NCCL on p5/p5e (H100 over EFA). AWS's EFA plugin, aws-ofi-nccl, carries a tuner that
// NCCL loads with it (the plugin points NCCL_TUNER_PLUGIN at itself). Beyond two nodes it picks the
// algorithm and protocol of an all-reduce (and, with one GPU per node, of all-gather and reduce-scatter)
// from a map AWS measured on its instances: polygons over (message bytes, ranks), both on log2 scales,
// each naming one algorithm and protocol, searched in order, the first that holds the point and that
// NCCL can run winning (src/tuner/nccl_ofi_regions.cpp). Where no polygon holds the point, and on two
// nodes or fewer, NCCL's own tuner decides.
//
// The polygons' corners below are AWS's published figures, not ours and not fitted (the same in every
// version we read); the geometry (point-in-polygon on the current log2-log2 scales, the corner that
// extends a boundary to the map's edge) is our own code. AWS's own decision table agrees with it at 4-32
// nodes (tests/data/aws_ofi_tuner/SOURCES.md).
#pragma once

#include "core/config/hardware_types.h"
#include "core/hardware/nccl_model.h"

#include <cstdint>

namespace astrolabe::hardware {

struct AlgoProto {
    config::NcclAlgo algo = config::NcclAlgo::Ring;
    config::NcclProto proto = config::NcclProto::Simple;
};

// The picks whose polygon holds (bytes, ranks), in the map's order; count 0 where the map is silent.
struct AwsOfiPicks {
    static constexpr uint32_t kMax = 8;
    AlgoProto pick[kMax];
    uint32_t count = 0;
};

// The map's picks for `op` of `bytes` over `nodes` x `gpus_per_node` ranks: empty for two nodes or
// fewer, for layouts other than 1, 2 or 8 GPUs per node and for operations the map does not cover.
AwsOfiPicks aws_ofi_picks(CollOp op, uint32_t nodes, uint32_t gpus_per_node, uint64_t bytes);

} // namespace astrolabe::hardware

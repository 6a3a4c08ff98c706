// Every system a description can state gets a collective that runs (core/hardware/nccl_model.h): a sweep
// over GPUs, fabrics, node and GPU counts, collectives, sizes and forced algorithms and protocols. A
// multi-node all-to-all over TCPXO once had no protocol left (its LL sizes cannot cross TCPXO, its
// Simple estimate refused them) and handed the engine a zero rate.
#include "core/hardware/nccl_model.h"

#include <catch2/catch.hpp>

#include <cmath>

using namespace astrolabe;
using namespace astrolabe::hardware;
using config::NcclAlgo;
using config::NcclProto;

namespace {

// A description as the parser leaves it: the platform's defaults, NVLS where NVSwitch gen3 has 2+ GPUs,
// SHARP (CollNet) on InfiniBand, nics per node as GPUs.
config::HardwareConfig described(config::GpuModel gpu, config::Fabric fabric, uint32_t nodes, uint32_t g) {
    config::HardwareConfig hw;
    hw.gpu = gpu;
    hw.fabric = fabric;
    hw.nodes = nodes;
    hw.gpus_per_node = g;
    hw.nics_per_node = std::max<uint32_t>(1, g);
    hw.nvls = config::hopper(gpu) && g >= 2;
    hw.collnet = fabric == config::Fabric::Infiniband && nodes > 1;
    config::set_platform_defaults(hw);
    return hw;
}

} // namespace

TEST_CASE("nccl model: every described system runs every collective at every size", "[hardware]") {
    // Each choice must be a finite, positive time with a positive bus bandwidth, whatever is forced
    // (a forced algorithm or protocol that cannot run falls back to one that can, as NCCL does).
    const config::GpuModel gpus[] = {config::GpuModel::H100Sxm, config::GpuModel::A100Sxm80};
    const config::Fabric fabrics[] = {config::Fabric::Infiniband, config::Fabric::Roce, config::Fabric::Efa,
                                      config::Fabric::Tcpxo, config::Fabric::Unknown};
    const CollOp ops[] = {CollOp::AllReduce, CollOp::AllGather, CollOp::ReduceScatter, CollOp::AllToAll};
    const NcclAlgo algos[] = {NcclAlgo::Auto, NcclAlgo::Ring,     NcclAlgo::Tree,
                              NcclAlgo::Nvls, NcclAlgo::NvlsTree, NcclAlgo::CollNet};
    const NcclProto protos[] = {NcclProto::Auto, NcclProto::LL, NcclProto::LL128, NcclProto::Simple};
    size_t checked = 0, failed = 0;
    for (config::GpuModel gpu : gpus)
        for (config::Fabric fabric : fabrics)
            for (uint32_t nodes : {1u, 2u, 3u, 4u, 16u, 64u})
                for (uint32_t g : {1u, 2u, 4u, 8u}) {
                    if (nodes * g < 2) continue;
                    config::HardwareConfig hw = described(gpu, fabric, nodes, g);
                    for (NcclProto proto : protos) {
                        hw.proto = proto;
                        for (NcclAlgo algo : algos)
                            for (CollOp op : ops)
                                for (uint64_t bytes = 8; bytes <= (16ull << 30); bytes *= 8) {
                                    const NcclChoice c = choose(hw, op, bytes, algo);
                                    ++checked;
                                    const bool ok = c.predicted_us > 0 && std::isfinite(c.predicted_us) &&
                                                    c.busbw_gbs > 0 && std::isfinite(c.busbw_gbs);
                                    if (ok) continue;
                                    if (++failed <= 5)
                                        FAIL_CHECK(config::gpu_model_name(gpu)
                                                   << " " << config::fabric_name(fabric) << " " << nodes
                                                   << "x" << g << " " << coll_op_name(op) << " " << bytes
                                                   << " B, algo " << config::nccl_algo_name(algo) << " proto "
                                                   << config::nccl_proto_name(proto) << ": " << c.predicted_us
                                                   << " us");
                                }
                    }
                }
    CHECK(checked > 100000);
    CHECK(failed == 0);
}

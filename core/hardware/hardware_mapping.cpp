#include "core/hardware/hardware_mapping.h"

#include <algorithm>

namespace astrolabe::hardware {

namespace {

using config::NcclAlgo;

// nccl-tests' GB/s (10^9 bytes) as the network config's GB/s (2^30 bytes, ASTRA-sim's analytical backend).
double config_gbps(double gbs) {
    return gbs * 1e9 / double(1ull << 30);
}

config::NetworkDim switch_dim(uint32_t npus, double busbw_gbs, double hop_latency_ns) {
    config::NetworkDim d;
    d.topology = config::Topology::Switch;
    d.npus = npus;
    d.bandwidth_gbps = config_gbps(busbw_gbs);
    d.latency_ns = hop_latency_ns;
    return d;
}

config::SystemConfig base_system(int kind, std::vector<config::AlgorithmChoice> algos) {
    config::SystemConfig sys;
    sys.scheduling_policy = config::SchedulingPolicy::FIFO;
    // NCCL's per-chunk costs are already in the step latencies and achievable bandwidths; no extra
    // endpoint delay or local-memory reduction cost on top.
    sys.endpoint_delay_ns = 0;
    sys.active_chunks_per_dimension = 1;
    sys.preferred_dataset_splits = 1;
    sys.implementation[kind] = std::move(algos);
    return sys;
}

} // namespace

trace::CollectiveType trace_collective(CollOp op) {
    switch (op) {
    case CollOp::AllReduce:
        return trace::CollectiveType::AllReduce;
    case CollOp::AllGather:
        return trace::CollectiveType::AllGather;
    case CollOp::ReduceScatter:
        return trace::CollectiveType::ReduceScatter;
    case CollOp::AllToAll:
        return trace::CollectiveType::AllToAll;
    }
    return trace::CollectiveType::AllReduce;
}

config::NetworkDim engine_dim(CollOp op, uint32_t n, const NcclChoice& c) {
    // One dimension over every rank, whatever NCCL's algorithm: the tuner's figures already hold the
    // hierarchical path (a tree's in-node and cross-node stages set its bus bandwidth and latency), and
    // NCCL pipelines its stages in 32-512 KiB chunks, far finer than the engine's chunks could: a two-
    // dimension plan with a few large chunks paid pipeline fill and drain NCCL does not (3 % at 2 GiB on
    // the p4de table) and overlapped latencies NCCL pays. So for every algorithm the engine's time is
    // latency + bus bytes / bus bandwidth. Messages in sequence per rank: ring all-reduce 2(n-1),
    // all-gather and reduce-scatter n-1, the latency spread over them.
    // All-to-all runs direct: one message of size/n to each of the n-1 peers at once, so one message's
    // time is the whole time (the analytical model does not share a link between them): a link of
    // busbw / (n-1) carries size/n in bus bytes / busbw. The ring all-to-all's n(n-1)/2 messages in
    // sequence cost the engine time and memory quadratic in the ranks (10 s and 0.5 GB a size at 8192,
    // out of memory at 131072) and lost up to a ns to rounding on each.
    if (op == CollOp::AllToAll) return switch_dim(n, c.busbw_gbs / (n - 1), c.latency_us * 1e3 / 2.0);
    double msgs = op == CollOp::AllReduce ? 2.0 * (n - 1) : double(n - 1);
    return switch_dim(n, c.busbw_gbs, c.latency_us * 1e3 / msgs / 2.0);
}

config::AlgorithmChoice engine_algorithm(CollOp op) {
    return {op == CollOp::AllToAll ? config::CollectiveAlgorithm::Direct : config::CollectiveAlgorithm::Ring,
            -1};
}

MappedCollective map_collective(const config::HardwareConfig& hw, CollOp op, uint64_t bytes,
                                const NcclChoice& c) {
    MappedCollective out;
    const uint32_t n = hw.ranks();
    const int kind = static_cast<int>(op); // CollOp follows config::CollectiveKind's order
    out.type = trace_collective(op);
    // The engine's all-gather message is a rank's whole input; nccl-tests' size is the gathered output.
    out.comm_size = op == CollOp::AllGather ? std::max<uint64_t>(1, bytes / n) : bytes;
    out.network.dims = {engine_dim(op, n, c)};
    out.system = base_system(kind, {engine_algorithm(op)});
    return out;
}

MappedSystem map_system(const config::HardwareConfig& hw) {
    MappedSystem out;
    const uint64_t large = 1ull << 30; // a 1 GiB all-reduce: the bandwidth regime
    out.choice = choose(hw, CollOp::AllReduce, large);
    const uint32_t g = hw.gpus_per_node, m = hw.nodes;
    const config::AlgorithmChoice ring{config::CollectiveAlgorithm::Ring, -1};
    // Two dimensions (in-node, across nodes) so every collective kind takes the hierarchical path.
    double lat_ns = out.choice.latency_us * 1e3 / (2.0 * std::max<uint32_t>(1, g + m - 2)) / 2.0;
    double intra =
        out.choice.intra_busbw_gbs > 0 ? out.choice.intra_busbw_gbs : gpu_spec(hw.gpu).nvlink_ring_gbs;
    double inter = nic_gbs_per_gpu(hw);
    if (m == 1) {
        out.network.dims = {switch_dim(g, intra, lat_ns)};
    } else if (g == 1) {
        out.network.dims = {switch_dim(m, inter, lat_ns)};
    } else {
        out.network.dims = {switch_dim(g, intra, lat_ns), switch_dim(m, inter, lat_ns)};
    }
    std::vector<config::AlgorithmChoice> algos(out.network.dims.size(), ring);
    out.system = base_system(0, algos);
    for (int k = 1; k < config::kCollectiveKinds; ++k)
        out.system.implementation[k] = algos;
    out.system.collective_optimization = config::CollectiveOptimization::LocalBWAware;
    out.system.preferred_dataset_splits = 4;
    // Compute on the GPU's roofline (datasheet peak and HBM bandwidth, or the description's figures);
    // local-mem-bw stays 0, so collectives pay no reduction cost on top of NCCL's figures. Nodes the
    // roofline cannot time (no num_ops or tensor_size: a converted trace) replay their duration.
    out.system.roofline_enabled = true;
    out.system.peak_perf_tflops = hw.peak_tflops;
    out.system.roofline_mem_bw_gbps = hw.hbm_gbs;
    out.system.roofline_or_duration = true;
    return out;
}

} // namespace astrolabe::hardware

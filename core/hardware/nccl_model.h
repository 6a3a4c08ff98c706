// NCCL-like collectives on a described system: which algorithm and protocol NCCL would run for a size, and
// the physical figures (latencies, achievable bandwidths) of that choice.
//
// The model follows the shape of NCCL's own tuning model (src/graph/tuning.cc): a collective costs
//     device_us = kernel_base + steps_intra * step_latency(NVLink, proto) + steps_inter * step_latency(net,
//     proto)
//                 + bus_bytes / achievable_bus_bandwidth(algorithm, proto)
// and NCCL picks the (algorithm, protocol) with the smallest estimate. We pick the same way, then hand
// the choice to hardware_mapping.h, which turns it into network and system configs the normal engine
// runs: the engine, not this file, produces the reported times.
//
// Every figure is a property of the hardware or the protocol, documented where it is defined
// (nccl_model.cpp); none is fitted to one table. Units: us, GB/s with 1 GB = 10^9 bytes (nccl-tests').
#pragma once

#include "core/config/hardware_types.h"

#include <cstdint>
#include <string>

namespace astrolabe::hardware {

enum class CollOp : uint8_t { AllReduce, AllGather, ReduceScatter, AllToAll };
const char* coll_op_name(CollOp op); // all_reduce, ...
// Our names, and NCCL's and nccl-tests' (allreduce, AllReduce, all-reduce, alltoall_perf's alltoall):
// case, '_' and '-' aside, the same words.
bool parse_coll_op(const std::string& s, CollOp& out);
// The tail of a message about an --op nobody spells: the four names, and the nearest when one is close.
std::string coll_op_expected(const std::string& got);
// All-reduce and reduce-scatter reduce (nccl-tests' -o applies, NVLS must be able to reduce the type).
inline bool coll_op_reduces(CollOp op) {
    return op == CollOp::AllReduce || op == CollOp::ReduceScatter;
}

// nccl-tests' bus-bandwidth factor: busbw = algbw * factor (all_reduce 2(n-1)/n, the others (n-1)/n).
double busbw_factor(CollOp op, uint32_t ranks);

// The figures of one GPU generation (gpu_spec()).
struct GpuSpec {
    double nvlink_ring_gbs; // bus bandwidth a ring (Simple) sustains over NVLink + NVSwitch
    double nvls_gbs;        // peak all-reduce bus bandwidth with NVLink SHARP on 8 GPUs; 0 = none
    double alltoall_gbs;    // all-to-all bus bandwidth over NVLink (point-to-point, many peers at once)
    double nvlink_gbs;      // NVLink line rate per GPU and direction (the datasheet's; what is bought)
};
GpuSpec gpu_spec(config::GpuModel g);

struct NcclChoice {
    config::NcclAlgo algo = config::NcclAlgo::Ring;
    config::NcclProto proto = config::NcclProto::Simple;
    double latency_us = 0;      // kernel base + all step latencies (device side, no host launch)
    double intra_busbw_gbs = 0; // achievable bus bandwidth inside a node (NVLink / NVLS)
    double inter_busbw_gbs = 0; // achievable bandwidth per GPU across nodes (its share of the NICs)
    double busbw_gbs = 0;       // the bottleneck bus bandwidth of the whole collective
    double predicted_us = 0;    // the tuner's estimate (used to choose; the engine gives the time)
    uint32_t channels = 1;      // channels (parallel rings/trees, one thread block each) used at this size
    double net_msg_factor = 1; // per-message efficiency of the network at this size's chunk (1 = full chunks)
    bool by_aws_map = false;   // picked by aws-ofi-nccl's map (aws_ofi_tuner.h), not by comparing estimates
};

// Channels NCCL builds for the system (what a large collective uses): 16 on an 8-GPU NVSwitch node, two per
// NIC on a one-GPU node.
uint32_t max_channels(const config::HardwareConfig& hw);

// Channels a collective of `bytes` uses with `proto`: NCCL drops channels until each thread has at least
// its protocol's threshold of bytes (enqueue.cc; ring LL's threshold is scaled by the rank count).
uint32_t channels_used(const config::HardwareConfig& hw, config::NcclAlgo algo, config::NcclProto proto,
                       uint64_t bytes);

// NICs one GPU drives: its share of the node's NICs (nics_per_node / gpus_per_node), but never more than
// the NICs near it on an 8-GPU board (nics_per_node / 8, at least one): a job using 4 GPUs of an 8-NIC
// node reaches 4 NICs, not 8.
double nics_per_gpu(const config::HardwareConfig& hw);

// Fraction of a NIC's line rate NCCL reaches across this fabric with full buffer steps (docs/hardware.md
// gives each figure's source); a description's net_efficiency replaces it for collectives.
double fabric_efficiency(config::Fabric f);

// What those NICs carry for a collective's rings and trees, GB/s: their line rate times the description's
// net_efficiency, else the fabric's achievable fraction. Point-to-point (all-to-all) always gets the
// fabric's fraction (HardwareConfig::net_efficiency says why).
double nic_gbs_per_gpu(const config::HardwareConfig& hw, bool point_to_point = false);

// The network's efficiency for messages of `msg_bytes` relative to full buffer steps (NCCL_BUFFSIZE / 8,
// the description's nccl_buffsize; 512 KiB with NCCL's default): each message pays
// a fixed cost of its fabric (tiny on RDMA NICs, several us on EFA) besides its bytes.
double net_msg_factor(const config::HardwareConfig& hw, double msg_bytes);

// Host time to launch one collective: one NCCL kernel launch per GPU the process drives, each costing a
// fixed part plus a part per channel the kernel uses, and for an all-to-all a part per ncclSend and
// ncclRecv the process queues (2 x ranks per GPU, as nccl-tests posts them) (us).
double host_launch_us(const config::HardwareConfig& hw, uint32_t channels = 1, CollOp op = CollOp::AllReduce);

// The algorithm and protocol NCCL would use for `bytes` (nccl-tests' size column), honouring a forced
// algorithm (`force`, or hw.algo when force is Auto) and protocol.
NcclChoice choose(const config::HardwareConfig& hw, CollOp op, uint64_t bytes,
                  config::NcclAlgo force = config::NcclAlgo::Auto);

// The estimate of one given (algorithm, protocol); predicted_us < 0 when the pair does not apply.
NcclChoice estimate(const config::HardwareConfig& hw, CollOp op, uint64_t bytes, config::NcclAlgo algo,
                    config::NcclProto proto);

} // namespace astrolabe::hardware

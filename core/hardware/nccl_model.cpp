// The figures of the NCCL-like model and the tuner that picks an algorithm and protocol per size.
//
// Index: [SECTION] physical figures · [SECTION] helpers · [SECTION] estimates · [SECTION] tuner
#include "core/hardware/nccl_model.h"

#include "core/config/spellings.h"
#include "core/hardware/aws_ofi_tuner.h"

#include <algorithm>
#include <cmath>
#include <iterator>

namespace astrolabe::hardware {

using config::Fabric;
using config::GpuModel;
using config::HardwareConfig;
using config::NcclAlgo;
using config::NcclProto;

namespace {

// [SECTION] physical figures
// Every figure below is what a piece of hardware or a protocol sustains: one number per GPU generation,
// fabric or protocol, shared by every system that has it. Where a figure was calibrated on a measured
// table, the comment names which (docs/hardware.md lists them all; the A100 and EFA figures rest on a
// single table each and are the least certain).

// Device-side fixed cost of one NCCL kernel: start-up, the final flag synchronisation between ranks and
// completion (NCCL's "base latency", 6.6-14 us in its tuning model). Calibrated on the tiny sizes of the
// one-process-per-GPU H100 table (aws_p5), where nothing else counts.
constexpr double kKernelBaseUs = 10.0;

// Latency of one pipeline step (a chunk handed to the next rank and its flag seen) over NVLink, by GPU
// generation and protocol. LL polls 8-byte flag+data words (no fence): the lowest latency. LL128 uses
// 128-byte lines with a flag in each, and Simple a memory fence plus a separate flag per chunk, so they take
// longer per step. H100 (NVLink4, NVSwitch gen3): LL128 from the 2-32 MiB rows of the H100 tables, Simple
// from the 64 MiB-1 GiB rows of the forced-ring table, LL from the tiny rows. A100 (NVLink3, NVSwitch
// gen2): from the single-node A100 table, the only one in the open set, so these are the least certain.
double nvlink_step_us(GpuModel g, NcclProto p) {
    static const double h100[3] = {0.4, 1.7, 3.0}; // LL, LL128, Simple
    static const double a100[3] = {0.8, 5.0, 10.6};
    const double* t = config::hopper(g) ? h100 : a100;
    return t[p == NcclProto::LL ? 0 : p == NcclProto::LL128 ? 1 : 2];
}

// One step across the network: a proxy thread posts the transfer, the NIC moves it, the peer's proxy
// sees completion. A property of the fabric (RDMA NICs vs. AWS EFA's SRD through libfabric vs. TCP); an
// LL step takes half a Simple step and an LL128 step three quarters (below). `unknown` is taken as
// InfiniBand.
double net_step_us(const HardwareConfig& hw, NcclProto p) {
    if (hw.fabric == Fabric::Efa && hw.efa_transport == config::EfaTransport::Rdma) {
        // AWS's own tuner model for its RDMA-write platforms (aws-ofi-nccl, p5/p5e): 20 us per network
        // step ("2 nodes, 8B RDMA w/imm" latency) for LL and LL128, and 3 us more for Simple, whose
        // completion the NIC writes up to the host and the proxy processes. Public figures, not fitted.
        return p == NcclProto::Simple ? 23.0 : 20.0;
    }
    double simple = 14.0; // InfiniBand / unknown: NCCL's own figure for a network Simple step
    switch (hw.fabric) {
    case Fabric::Infiniband:
    case Fabric::Unknown:
        simple = 14.0;
        break;
    case Fabric::Roce:
        simple = 16.0;
        break;
    case Fabric::Efa:
        // Tagged send/receive (p4d, p4de), calibrated on the p4de table: its LL floor (~161 us for
        // 8 B-1 KiB) is half a Simple step per crossing, and its Simple rows at 2-8 MiB sit ~300 us
        // above LL's.
        simple = 140.0;
        break;
    case Fabric::Tcpxo:
        simple = 40.0;
        break;
    }
    // LL's data and flag arrive in one write the receiver polls; a Simple step also waits for the
    // sender's completion and the receiver's flush of GPUDirect data, twice the round trips. LL128 sits
    // between. The same on every fabric (the p4de table's LL floor and Simple rows agree with it).
    double ratio = p == NcclProto::LL ? 0.5 : p == NcclProto::LL128 ? 0.75 : 1.0;
    return simple * ratio;
}

// Fixed cost of one network message, expressed as the bytes the NIC could have moved meanwhile
// (cost_us x achievable per-NIC rate). RDMA NICs post a work request in well under a microsecond (a
// 512 KiB chunk loses ~1 %); EFA's SRD runs its reliability, segmentation and completion in software
// per message: calibrated on the 2-node p4de table, whose busbw stays at half its asymptote from 2 to
// 32 MiB (chunks of 32-64 KiB) and reaches it at 512 MiB (full 1 MiB steps of its 8 MiB buffers):
// 2.5 us per message.
double net_msg_overhead_bytes(Fabric f, double nic_gbs) {
    double us = 0.2; // InfiniBand, RoCE, unknown: one RDMA work request
    if (f == Fabric::Efa) us = 2.5;
    if (f == Fabric::Tcpxo) us = 2.0; // TCP receive path per message; no open table, public figure only
    return us * nic_gbs * 1e3;
}

// Protocol efficiency on bandwidth: LL sends 8 data bytes per 16-byte line and polls each, so its rate is
// that of the SMs' 8-byte stores and flag polls, not the link's: a third of the link on H100, a fifth on
// A100 (both A100 tables, NVLink-only and EFA, agree on it). LL128 carries 120 data bytes per 128-byte line
// (15/16) on H100; on A100 its warps cannot keep NVLink3 as busy: the galvatron table's 4-16 MiB rows
// reach ~0.62 of the Simple bandwidth (NCCL's own tuner also caps LL128 per channel, ll128MaxBwPerCh,
// below what Simple reaches). Simple moves raw data.
double proto_efficiency(GpuModel g, NcclProto p) {
    if (p == NcclProto::LL) return config::hopper(g) ? 0.33 : 0.2;
    if (p == NcclProto::LL128) return config::hopper(g) ? 120.0 / 128.0 : 0.62;
    return 1.0;
}

// LL across nodes: NCCL keeps the LL buffers of its network connections in host memory (its net
// transport puts only LL128's and Simple's in GPU memory with GPUDirect), so a receiving GPU polls LL lines
// over PCIe from the host, and the host, not the NIC, sets the rate. NCCL's tuner caps multi-node LL
// (llMaxBws, bus bandwidth) by the hosts' CPU vendor: 39.0 GB/s on 2 nodes and 20.4 on more for Intel
// (and any host that is not AMD), 22.5 and 19.0 for AMD.
double ll_host_busbw(const HardwareConfig& hw) {
    const bool amd = hw.cpu == config::CpuVendor::Amd;
    if (hw.nodes <= 2) return amd ? 22.5 : 39.0;
    return amd ? 19.0 : 20.4;
}

// Whether only Simple crosses this system's network: GPUDirect-TCPXO (estimate() explains).
bool simple_only_across_nodes(const HardwareConfig& hw) {
    return hw.nodes > 1 && hw.fabric == Fabric::Tcpxo;
}

// Whether LL128 can cross this system's network (estimate() explains).
bool ll128_across_nodes(const HardwareConfig& hw) {
    if (hw.fabric == Fabric::Efa) return hw.efa_transport == config::EfaTransport::Rdma;
    return hw.fabric != Fabric::Tcpxo;
}

// The host's cost to post one network operation (NCCL's tuner, getNetOverhead: 1 us on Intel hosts and
// any that is not AMD, 2 us on AMD).
double net_post_overhead_us(const HardwareConfig& hw) {
    return hw.cpu == config::CpuVendor::Amd ? 2.0 : 1.0;
}

// NVLS (NVLink SHARP) start-up: the kernel's multimem set-up and the group's first handshake, besides the
// first chunk's fill (nvls_fill_us). NVLS-tree pays it for each of its two NVLS stages. Calibrated with
// the rate below on the one-process-per-GPU single-node H100 all-reduce tables (aws_p5, xxrjun).
constexpr double kNvlsLatencyUs = 24.0;

// Every NVLS chunk ends with a handshake of the node's group (a head's multimem reduction waits for its
// peers' flags, they wait for its result), a fixed cost per chunk, so the rate is the peak times
// c / (c + kNvlsSyncBytes): ~2 us per chunk at one concurrent operation's share of the peak. The
// single-node tables' errors stepped exactly where NCCL changes the chunk (64 KiB -> 128 KiB at 1 GiB with
// NCCL's defaults, 64 KiB -> 512 KiB at 4 GiB under AWS's set-up), which a constant rate cannot follow:
// 64 KiB chunks reach 256-261 GB/s of algorithm bandwidth, 128-512 KiB chunks 276-277.
constexpr double kNvlsSyncBytes = 4608;

// NVLS-tree splits a node's channels between the NVLS reduce/broadcast and the network tree, so its
// in-node stages run at this fraction of single-node NVLS at the same chunk (2 x 8 H100 over IB, bitdeer:
// busbw 468 with 128 KiB chunks, where a node alone reaches 480-495).
constexpr double kNvlsTreeIntraFraction = 0.93;

// Host time of one kernel launch (cudaLaunchKernel plus NCCL's enqueue work). One process per GPU
// launches one; a single `-g 8` process launches eight in a row, so its loop cannot go faster than
// 8 launches. The enqueue work grows with the channels the kernel uses (one work descriptor per
// channel): the single-process H100 tables sit at ~35 us while small collectives use one or a few
// channels and at ~41.5 us once they use all 16 (512 KiB-4 MiB all-gather and reduce-scatter rows of the
// together_* tables): 4.32 us + 0.054 us per channel.
constexpr double kLaunchUs = 4.32;
constexpr double kLaunchPerChannelUs = 0.054;

// Host time of one ncclSend or ncclRecv queued in a group. nccl-tests' all-to-all posts one of each per
// rank (itself included) for every GPU its process drives, 2n calls a GPU, so a `-g 8` process queues
// 128 on one node of 8 and its loop cannot go faster than those plus its 8 launches: the one such table
// (msft-superbench, 8 x A100) sits at 86-89 us from 32 B to 2 MiB where its other collectives sit at
// ~35 us, (87.3 - 35.0) / 128 = 0.41 us a call. Calibrated on that table, beyond the open set (no open
// table has an all-to-all below 32 MiB); with one process per GPU the calls hide behind the kernel
// (16 on 8 ranks, 6.5 us; 512 on 256 ranks, 210 us, under the 1.7 ms such an all-to-all takes at 32 MiB).
constexpr double kP2pCallUs = 0.41;

// Channels and threads (NCCL src/graph/tuning.cc, enqueue.cc): a kernel runs up to 512 threads per
// channel (LL128: 640) and NCCL lowers the channel count while a collective would leave fewer than the
// protocol's threshold of bytes per thread: LL 8 (times the rank count for rings), LL128 8, Simple 64.
constexpr uint32_t kNvswitchChannels = 16;

// GPUs on one HGX board (H100 and A100 SXM): the node's NICs sit on the board's PCIe switches, shared
// out among its 8 GPUs (one each on DGX H100, four each on p5, one per two on p4de), and NCCL sends a
// GPU's network traffic through the NICs nearest to it. A job on fewer of a node's GPUs therefore
// reaches only their NICs (a 10-node x 4-GPU all-gather peaks at 4 x 49 GB/s on an 8-NIC node), never
// the whole node's.
constexpr double kBoardGpus = 8;

// The network's cost per message. NCCL moves a collective across the network in chunks of at most one
// buffer step (simple_step_bytes: NCCL_BUFFSIZE / 8 steps, 512 KiB with NCCL's 4 MiB default), each a
// separate send through the NIC (one work request on RDMA NICs; on EFA a libfabric send segmented and
// acknowledged by SRD in software).
// A message costs its fixed part plus its bytes at the NIC's rate, so small chunks reach less of the
// rate. Trees shrink their chunk for medium sizes (NCCL keeps 8x the tree depth chunks per channel in
// flight, then 4x, then 1x, never below 128, 64, 32 KiB): that is NCCL's own "trees are not perfectly
// sticking to the model for medium sizes" (its treeCorrectionFactor dips to 0.5 at 128 KiB-4 MiB).
double simple_step_bytes(const HardwareConfig& hw) {
    return config::nccl_buffsize(hw) / 8.0; // NCCL_STEPS
}

// AWS's EFA set-up (aws-ofi-nccl's platform table for p4d/p4de/p5/p5e) sets NVLS's chunk and
// point-to-point's network chunk to this (NCCL_NVLS_CHUNKSIZE, NCCL_NVLSTREE_MAX_CHUNKSIZE,
// NCCL_P2P_NET_CHUNKSIZE = 524288).
constexpr double kAwsChunkBytes = 512.0 * 1024;
// LL128's buffer is its own (not NCCL_BUFFSIZE); its network messages stay within this.
constexpr double kLl128StepBytes = 512.0 * 1024;
// An LL step: 64 KiB of 16-byte lines (half of them flags), the most one LL network message carries.
constexpr double kLlStepBytes = 64.0 * 1024;

// NVLS's chunk (NCCL_NVLS_CHUNKSIZE's default): NVLS and NVLS-tree move their data in these or smaller.
constexpr double kNvlsChunkBytes = 128.0 * 1024;

// Point-to-point (send/receive, hence all-to-all) uses LL up to this many bytes per peer, Simple above
// (NCCL_P2P_LL_THRESHOLD's default).
constexpr double kP2pLlThresholdBytes = 16.0 * 1024;

// Point-to-point moves its network data in chunks of NCCL_P2P_NET_CHUNKSIZE (128 KiB by default, a
// quarter of a collective's 512 KiB buffer step), each a message paying its fabric's fixed cost: on
// InfiniBand an all-to-all reaches ~0.95 of what a ring reaches through the same NIC.
constexpr double kP2pNetChunkBytes = 128.0 * 1024;
constexpr double kP2pChannelsPerPeer = 2; // NCCL_NCHANNELS_PER_NET_PEER's default

// NVLS all-reduce bus bandwidth on g GPUs of one NVSwitch, moving chunks of `chunk` bytes. With in-switch
// reduction each GPU sends its buffer once (multimem reductions read it) and receives the result once,
// whatever g: the algorithm bandwidth is the constant, nvls_gbs / 1.75 at the 8 GPUs the figure was
// measured on, and the bus bandwidth (nccl-tests' 2(g-1)/g factor) scales with g. A ring's traffic per GPU
// is 2(g-1)/g of the buffer, so its bus bandwidth is the constant instead.
double nvls_busbw(const GpuSpec& gpu, uint32_t g, double chunk) {
    return gpu.nvls_gbs * chunk / (chunk + kNvlsSyncBytes) / 1.75 * (2.0 * (g - 1) / g);
}

// NVLS's concurrent operations: each channel runs one per head, and every GPU of the node is a head.
double nvls_ops(const HardwareConfig& hw, uint32_t channels) {
    return double(std::max<uint32_t>(1, channels)) * std::max<uint32_t>(1, hw.gpus_per_node);
}

// NCCL_NVLS_CHUNKSIZE as this system runs it: NCCL's 128 KiB, 512 KiB under AWS's EFA set-up. NVLS and
// NVLS-tree start from it.
double nvls_max_chunk_bytes(const HardwareConfig& hw) {
    return hw.fabric == Fabric::Efa ? kAwsChunkBytes : kNvlsChunkBytes;
}

// NVLS's chunk (NCCL enqueue.cc): NCCL_NVLS_CHUNKSIZE (nvls_max_chunk_bytes), lowered to 64, 32, 16 KiB
// while the collective would give each concurrent operation fewer than 64, 8, 2 chunks.
double nvls_chunk_bytes(const HardwareConfig& hw, uint64_t bytes, uint32_t channels) {
    double c = nvls_max_chunk_bytes(hw);
    const double ops = nvls_ops(hw, channels), b = double(bytes);
    if (b < 64 * ops * c && c > 64 * 1024) c = 64 * 1024;
    if (b < 8 * ops * c && c > 32 * 1024) c = 32 * 1024;
    if (b < 2 * ops * c && c > 16 * 1024) c = 16 * 1024;
    return c;
}

// The pipeline's fill: its first chunk moved at one concurrent operation's share of the algorithm
// bandwidth `algbw_gbs` (every operation runs at the same pace, so a chunk takes ops x chunk / algbw).
double nvls_fill_us(const HardwareConfig& hw, double chunk, uint32_t channels, double algbw_gbs) {
    return chunk * nvls_ops(hw, channels) / (algbw_gbs * 1e3);
}

uint32_t ceil_log2(uint32_t n) {
    uint32_t l = 0;
    while ((1u << l) < n)
        ++l;
    return l;
}

} // namespace

// Fraction of a NIC's line rate NCCL reaches with full buffer steps (simple_step_bytes): InfiniBand/RoCE
// RDMA with GPUDirect run near line rate (the 10-node, one-GPU-per-node ring reaches 48.9 of 50 GB/s);
// EFA's SRD protocol reaches less: 0.87 on the p4de table with its 1 MiB steps (8 MiB buffers, as
// aws-ofi-nccl sets them; calibrated with the 2.5 us per message above, over all its rows).
double fabric_efficiency(Fabric f) {
    switch (f) {
    case Fabric::Infiniband:
    case Fabric::Unknown:
        return 0.978;
    case Fabric::Roce:
        return 0.95;
    case Fabric::Efa:
        return 0.87;
    case Fabric::Tcpxo:
        return 0.85;
    }
    return 0.9;
}

// [SECTION] helpers
const char* coll_op_name(CollOp op) {
    switch (op) {
    case CollOp::AllReduce:
        return "all_reduce";
    case CollOp::AllGather:
        return "all_gather";
    case CollOp::ReduceScatter:
        return "reduce_scatter";
    case CollOp::AllToAll:
        return "all_to_all";
    }
    return "?";
}

namespace {
constexpr CollOp kCollOps[] = {CollOp::AllReduce, CollOp::AllGather, CollOp::ReduceScatter, CollOp::AllToAll};
} // namespace

bool parse_coll_op(const std::string& s, CollOp& out) {
    const std::string letters = config::folded_spelling(s);
    for (CollOp op : kCollOps)
        if (letters == config::folded_spelling(coll_op_name(op))) {
            out = op;
            return true;
        }
    return false;
}

std::string coll_op_expected(const std::string& got) {
    static const char* const kNames[] = {coll_op_name(kCollOps[0]), coll_op_name(kCollOps[1]),
                                         coll_op_name(kCollOps[2]), coll_op_name(kCollOps[3])};
    return config::expected_choice({kNames, std::size(kNames)}, got);
}

double busbw_factor(CollOp op, uint32_t n) {
    if (n <= 1) return 0;
    return op == CollOp::AllReduce ? 2.0 * (n - 1) / n : double(n - 1) / n;
}

GpuSpec gpu_spec(GpuModel g) {
    // H100-SXM: 18 NVLink4 links, 450 GB/s per direction; NVIDIA quotes ~370 GB/s effective for rings
    // (nccl-tests#212), and forced-ring tables reach 358-368. NVLS all-reduce reaches 476-483 at 4+ GiB.
    // NVLS's figure is its peak before the per-chunk handshake (nvls_busbw): 458-486 with NCCL's chunks.
    // A100-SXM4: 12 NVLink3 links, 300 GB/s per direction; single-node rings reach ~232.
    // H200-SXM: H100's NVLink4 and NVSwitch gen3, so H100's figures (no measured H200 table checks them).
    switch (g) {
    case GpuModel::H100Sxm:
    case GpuModel::H200Sxm:
        return {358.0, 490.0, 350.0, 450.0};
    case GpuModel::A100Sxm40:
    case GpuModel::A100Sxm80:
        return {232.0, 0.0, 225.0, 300.0};
    }
    return {232.0, 0.0, 225.0, 300.0};
}

double nics_per_gpu(const HardwareConfig& hw) {
    if (hw.nics_per_gpu > 0) return hw.nics_per_gpu;
    const double share = double(hw.nics_per_node) / std::max<uint32_t>(1, hw.gpus_per_node);
    return std::min(share, std::max(1.0, double(hw.nics_per_node) / kBoardGpus));
}

double nic_gbs_per_gpu(const HardwareConfig& hw, bool point_to_point) {
    const double fraction =
        hw.net_efficiency > 0 && !point_to_point ? hw.net_efficiency : fabric_efficiency(hw.fabric);
    return nics_per_gpu(hw) * hw.nic_gbps / 8.0 * fraction;
}

double host_launch_us(const HardwareConfig& hw, uint32_t channels, CollOp op) {
    double one = kLaunchUs + kLaunchPerChannelUs * std::max<uint32_t>(1, channels);
    if (op == CollOp::AllToAll) one += kP2pCallUs * 2.0 * hw.ranks();
    return one * (hw.processes == config::ProcessLayout::OnePerNode ? hw.gpus_per_node : 1);
}

uint32_t max_channels(const HardwareConfig& hw) {
    if (hw.gpus_per_node > 1) return kNvswitchChannels;
    const auto nics = static_cast<uint32_t>(std::ceil(nics_per_gpu(hw)));
    return std::clamp<uint32_t>(2 * nics, 2, kNvswitchChannels);
}

uint32_t channels_used(const HardwareConfig& hw, NcclAlgo algo, NcclProto proto, uint64_t bytes) {
    const uint64_t threads = proto == NcclProto::LL128 ? 640 : 512;
    const uint64_t per_thread = proto == NcclProto::LL      ? 8ull * (algo == NcclAlgo::Ring ? hw.ranks() : 1)
                                : proto == NcclProto::LL128 ? 8
                                                            : 64;
    uint64_t nc = bytes / (threads * per_thread);
    return static_cast<uint32_t>(std::clamp<uint64_t>(nc, 1, max_channels(hw)));
}

namespace {

// The chunk a tree sends per network message (NCCL enqueue.cc's rule for Simple trees): start from a full
// buffer step and halve while a channel would hold fewer than 8x the tree depth chunks (down to 128 KiB),
// 4x (down to 64 KiB), 1x (down to 32 KiB).
double tree_chunk_bytes(double bytes_per_channel, uint32_t depth, double step) {
    double c = step;
    const double d = std::max<uint32_t>(1, depth);
    while (bytes_per_channel / c < 8 * d && c > 128 * 1024)
        c /= 2;
    while (bytes_per_channel / c < 4 * d && c > 64 * 1024)
        c /= 2;
    while (bytes_per_channel / c < d && c > 32 * 1024)
        c /= 2;
    return c;
}

// NVLS-tree's chunk (NCCL enqueue.cc): NCCL_NVLS_CHUNKSIZE (128 KiB), at most 64 KiB from four nodes
// up (NCCL_NVLSTREE_MAX_CHUNKSIZE's default there), then smaller while the collective would give each
// of its concurrent operations (channels x NVLS heads, one head per GPU of the node) fewer than 32, 16,
// 4, 1 chunks (down to 256, 128, 64, 32 KiB). AWS's EFA set-up raises both sizes to 512 KiB (the
// aws-ofi-nccl plugin sets NCCL_NVLS_CHUNKSIZE and NCCL_NVLSTREE_MAX_CHUNKSIZE on p4/p5).
double nvls_tree_chunk_bytes(const HardwareConfig& hw, uint64_t bytes, uint32_t channels) {
    double c = nvls_max_chunk_bytes(hw);
    if (hw.nodes >= 4 && hw.fabric != Fabric::Efa) c = std::min(c, 64.0 * 1024);
    const double ops = nvls_ops(hw, channels), b = double(bytes);
    if (b < 32 * ops * c && c > 256 * 1024) c = 256 * 1024;
    if (b < 16 * ops * c && c > 128 * 1024) c = 128 * 1024;
    if (b < 4 * ops * c && c > 64 * 1024) c = 64 * 1024;
    if (b < 1 * ops * c && c > 32 * 1024) c = 32 * 1024;
    return c;
}

// The bytes of one network message for this algorithm, protocol and size: a ring step carries one rank's
// slice of a channel (at most a buffer step), a Simple tree the chunk above (or the channel's bytes when
// fewer); an LL step at most its 64 KiB of 16-byte lines (half of them flags).
double net_msg_bytes(const HardwareConfig& hw, NcclAlgo algo, NcclProto proto, uint64_t bytes,
                     uint32_t channels) {
    const double per_channel = double(bytes) / std::max<uint32_t>(1, channels);
    const bool ring = algo == NcclAlgo::Ring;
    const double slice = ring ? per_channel / hw.ranks() : per_channel;
    if (proto == NcclProto::LL) return std::max(1.0, std::min(kLlStepBytes, 2 * slice));
    if (proto == NcclProto::LL128) return std::max(1.0, std::min(kLl128StepBytes, slice));
    if (ring) return std::max(1.0, std::min(simple_step_bytes(hw), slice));
    if (algo == NcclAlgo::NvlsTree) return nvls_tree_chunk_bytes(hw, bytes, channels);
    const bool nvls = algo == NcclAlgo::CollNet && hw.nvls;
    uint32_t depth = (nvls ? 1 : hw.gpus_per_node - 1) + ceil_log2(hw.nodes);
    return std::max(1.0, std::min(per_channel, tree_chunk_bytes(per_channel, depth, simple_step_bytes(hw))));
}

} // namespace

double net_msg_factor(const HardwareConfig& hw, double msg_bytes) {
    const double x = net_msg_overhead_bytes(hw.fabric, hw.nic_gbps / 8.0 * fabric_efficiency(hw.fabric));
    const double full = simple_step_bytes(hw);
    return msg_bytes * (full + x) / (full * (msg_bytes + x));
}

// [SECTION] estimates
NcclChoice estimate(const HardwareConfig& hw, CollOp op, uint64_t bytes, NcclAlgo algo, NcclProto proto) {
    NcclChoice c;
    c.algo = algo;
    c.proto = proto;
    c.predicted_us = -1;
    const GpuSpec gpu = gpu_spec(hw.gpu);
    const uint32_t g = hw.gpus_per_node, m = hw.nodes, n = hw.ranks();
    const double eff = proto_efficiency(hw.gpu, proto);
    const double nvl_step = nvlink_step_us(hw.gpu, proto);
    const double net_step = net_step_us(hw, proto);
    c.channels = channels_used(hw, algo, proto, bytes);
    double msg = 0; // bytes of one network message (multi-node only)
    if (m > 1) {
        msg = net_msg_bytes(hw, algo, proto, bytes, c.channels);
        if (op == CollOp::AllToAll && proto == NcclProto::Simple) {
            // Point-to-point (all-to-all) sends each peer's data over NCCL_NCHANNELS_PER_NET_PEER (2)
            // channels, in NCCL_P2P_NET_CHUNKSIZE pieces, not the collectives' buffer steps; AWS's EFA
            // set-up raises the chunk to 512 KiB (the p5/p4de jobs' NCCL_P2P_NET_CHUNKSIZE=524288).
            const double p2p_chunk = hw.fabric == Fabric::Efa ? kAwsChunkBytes : kP2pNetChunkBytes;
            msg = std::max(1.0, std::min(p2p_chunk, double(bytes) / n / kP2pChannelsPerPeer));
        } else if (op == CollOp::AllToAll && proto == NcclProto::LL) {
            // An LL send (at most NCCL_P2P_LL_THRESHOLD per peer) fits one LL step: each peer's data
            // crosses as one message of 16-byte lines, twice its bytes.
            msg = std::max(1.0, std::min(kLlStepBytes, 2 * double(bytes) / n));
        }
        c.net_msg_factor = net_msg_factor(hw, msg);
    }
    // Across nodes: the GPU's share of the NICs, at the protocol's efficiency and the per-message
    // efficiency of this size's network messages.
    const double nic = nic_gbs_per_gpu(hw, op == CollOp::AllToAll) * eff * c.net_msg_factor;
    const double bus_bytes = double(bytes) * busbw_factor(op, n);
    const bool ar = op == CollOp::AllReduce;
    if (n < 2) return c;
    // LL128 across nodes needs the NIC to write 128-byte lines in order (RDMA NICs with GPUDirect). EFA
    // does so only with RDMA writes, where aws-ofi-nccl asks libfabric for in-order aligned 128-byte
    // writes (p5/p5e); with send/receive (p4d/p4de), and over TCPXO, LL128 stays on NVLink.
    if (m > 1 && proto == NcclProto::LL128 && !ll128_across_nodes(hw)) return c;
    // GPUDirect-TCPXO moves data through the NIC's receive-side buffers, not GPU memory writes a
    // kernel could poll, so Google's NCCL profile for it (nccl-env-profile.sh) runs Simple only.
    if (simple_only_across_nodes(hw) && proto != NcclProto::Simple) return c;
    // All-to-all is NCCL's grouped send/receive, whose protocol is fixed by the bytes per peer: LL up to
    // NCCL_P2P_LL_THRESHOLD (16 KiB), Simple above; point-to-point never runs LL128. Across TCPXO it is
    // Simple at every size: LL needs lines a kernel can poll, which TCPXO does not write (above).
    if (op == CollOp::AllToAll && hw.proto == NcclProto::Auto) { // a forced nccl_proto is honoured
        const bool ll = !simple_only_across_nodes(hw) && double(bytes) / n <= kP2pLlThresholdBytes;
        if (proto != (ll ? NcclProto::LL : NcclProto::Simple)) return c;
    }
    switch (algo) {
    case NcclAlgo::Ring: {
        // One ring through every rank; its speed is its slowest hop. Over nodes, the rings of all channels
        // cross each node boundary through all NICs, so a node's NICs together carry the bus bandwidth.
        uint32_t steps = op == CollOp::AllToAll ? n - 1 : (ar ? 2 : 1) * (n - 1);
        uint32_t inter = op == CollOp::AllToAll ? m - 1 : (ar ? 2 : 1) * (m - 1);
        double intra_bw = (op == CollOp::AllToAll ? gpu.alltoall_gbs : gpu.nvlink_ring_gbs) * eff;
        c.intra_busbw_gbs = g > 1 ? intra_bw : 0;
        c.inter_busbw_gbs = m > 1 ? nic : 0;
        if (op == CollOp::AllToAll) {
            // Point-to-point to every peer: the (g-1) local peers over NVLink, the (n-g) others over
            // this GPU's share of the NICs; the slower side sets the pace.
            double t_intra = g > 1 ? double(g - 1) / n / intra_bw : 0;
            double t_inter = m > 1 ? double(n - g) / n / nic : 0;
            c.busbw_gbs = (double(n - 1) / n) / std::max(t_intra, t_inter);
        } else {
            c.busbw_gbs = g > 1 ? intra_bw : nic;
            if (m > 1) c.busbw_gbs = std::min(c.busbw_gbs, nic * g);
        }
        // Across nodes a Simple ring moves in lockstep with its network hops, whose proxies post three
        // operations for every step (send, receive, flush or acknowledgement), so no step of it is
        // shorter than three of the host's posts (NCCL's tuner: "inter-node rings still have to launch
        // nsteps * net overhead"). NCCL applies the floor to LL and LL128 too, where one post bounds a
        // step; the model does not: LL's lines carry their own flags and a forced LL ring over two DGX
        // A100 nodes (AMD hosts) takes 38-41 us for 30 steps, where that floor would give 56 for its 28
        // NVLink steps alone. Point-to-point (all-to-all) is not a ring.
        double ring_step = nvl_step;
        if (m > 1 && proto == NcclProto::Simple && op != CollOp::AllToAll)
            ring_step = std::max(nvl_step, 3 * net_post_overhead_us(hw));
        c.latency_us = kKernelBaseUs + (steps - inter) * ring_step + inter * net_step;
        break;
    }
    case NcclAlgo::Nvls:
        // In-switch reduction on one node: each GPU sends its data once and reads the result once.
        if (!ar || !hw.nvls || m != 1 || proto != NcclProto::Simple) return c;
        {
            const double chunk = nvls_chunk_bytes(hw, bytes, c.channels);
            c.intra_busbw_gbs = c.busbw_gbs = nvls_busbw(gpu, g, chunk);
            c.latency_us = kKernelBaseUs + kNvlsLatencyUs +
                           nvls_fill_us(hw, chunk, c.channels, c.busbw_gbs / busbw_factor(op, n));
        }
        break;
    case NcclAlgo::Tree:
    case NcclAlgo::NvlsTree:
    case NcclAlgo::CollNet: {
        // Hierarchical all-reduce: reduce inside the node (chain, NVLS), all-reduce 1/g of the data per
        // GPU across nodes (a tree, or the switches themselves with CollNet), broadcast inside the node.
        if (!ar || m < 2) return c;
        bool nvls = algo == NcclAlgo::NvlsTree || (algo == NcclAlgo::CollNet && hw.nvls);
        if (algo == NcclAlgo::NvlsTree && !hw.nvls) return c;
        if (algo == NcclAlgo::CollNet && !hw.collnet) return c;
        if (nvls && proto != NcclProto::Simple) return c;
        if (algo == NcclAlgo::CollNet && proto != NcclProto::Simple) return c;
        // NVLS-tree's in-node chunk is its network chunk (nvls_tree_chunk_bytes); CollNet's NVLS stage
        // runs NVLS's own.
        const double nvls_chunk = !nvls                        ? 0
                                  : algo == NcclAlgo::NvlsTree ? nvls_tree_chunk_bytes(hw, bytes, c.channels)
                                                               : nvls_chunk_bytes(hw, bytes, c.channels);
        c.intra_busbw_gbs = g > 1 ? (nvls ? nvls_busbw(gpu, g, nvls_chunk) * kNvlsTreeIntraFraction
                                          : gpu.nvlink_ring_gbs * eff)
                                  : 0;
        // Across nodes each GPU all-reduces its 1/g share. NCCL's trees are double binary trees (half
        // the data on each): every node is a leaf in one and, beyond two nodes, an inner node with two
        // children in the other, which receives both children's halves and sends two halves down, so
        // its NIC carries twice the share each way. With two nodes each is the root of one tree and
        // the leaf of the other: the share once. (NCCL's tuner halves NVLS-tree's network bandwidth
        // beyond two nodes for the same reason.) CollNet reduces in the switch: once each way.
        double cross = algo == NcclAlgo::CollNet || m <= 2 ? 1.0 : 2.0;
        c.inter_busbw_gbs = nic * (algo == NcclAlgo::CollNet ? 2.0 * (m - 1) / m : 1.0);
        // In the node, per byte of the buffer: NCCL's tree is a chain through the node's GPUs, and every
        // GPU forwards its channel's data once up (reduce) and once down (broadcast): 2 bytes per byte
        // over its NVLink, as much as a ring moves. NVLS and CollNet's in-node stages are a reduce-scatter
        // and an all-gather (2(g-1)/g).
        double intra_bytes = algo == NcclAlgo::Tree ? 2.0 : 2.0 * (g - 1) / g;
        double t_intra = g > 1 ? intra_bytes / c.intra_busbw_gbs : 0;
        double t_inter = cross / g / nic;
        c.busbw_gbs = busbw_factor(op, n) / std::max(t_intra, t_inter);
        // An NVLS stage costs what single-node NVLS's does: its start-up and one chunk's fill at an
        // operation's share of the collective's rate.
        const double nvls_stage_us = nvls ? kNvlsLatencyUs + nvls_fill_us(hw, nvls_chunk, c.channels,
                                                                          c.busbw_gbs / busbw_factor(op, n))
                                          : 0;
        double intra_lat = g > 1 ? (nvls ? nvls_stage_us : 2.0 * (g - 1) * nvl_step) : 0;
        uint32_t net_steps = algo == NcclAlgo::CollNet ? 2 : 2 * ceil_log2(m);
        c.latency_us = kKernelBaseUs + intra_lat + net_steps * net_step;
        // NVLS-tree's in-node reduce (to the node's heads) and broadcast (from them) are separate stages
        // with the network tree between, so it pays an NVLS stage twice (the 2-node tables agree: bitdeer's
        // on InfiniBand, and p5's on EFA, whose 512 KiB chunks make a stage's fill four times longer).
        if (algo == NcclAlgo::NvlsTree) c.latency_us += nvls_stage_us;
        // A tree is a pipeline as deep as its hops, and a hop forwards a chunk only once all of it has
        // arrived, so filling it costs one chunk's transfer per hop besides the step latencies (NCCL's
        // tuner says as much: its network tree latency "is the latency of a 256kB chunk"). Across the
        // network every protocol moves whole buffer steps: the proxy posts a step as one message and the
        // peer sees it only when the NIC has delivered all of it, so each hop costs one message at the
        // channel's share of the NICs. EFA's send/receive step was calibrated on the p4de table's tree
        // rows and already holds that transfer, so plain trees there add nothing (AWS's RDMA-write
        // figure is an 8-byte latency and does not); NVLS-tree's chunks are NVLS's own and count
        // everywhere.
        const bool step_has_fill =
            hw.fabric == Fabric::Efa && hw.efa_transport == config::EfaTransport::SendRecv;
        if (algo == NcclAlgo::NvlsTree || !step_has_fill) {
            const double net_channel_gbs =
                nic_gbs_per_gpu(hw) * g / std::max<uint32_t>(1, c.channels) * c.net_msg_factor;
            c.latency_us += net_steps * msg / (net_channel_gbs * 1e3);
        }
        // Inside the node, NCCL's tree is a chain of g GPUs (g - 1 hops up, g - 1 down). LL and LL128
        // forward every line as soon as its flag is seen, but Simple forwards a chunk only after its
        // flag, posted once the whole chunk is written: one chunk per hop at a channel's NVLink rate.
        if (algo == NcclAlgo::Tree && proto == NcclProto::Simple && g > 1) {
            const double nvlink_channel_gbs = gpu.nvlink_ring_gbs / std::max<uint32_t>(1, c.channels);
            c.latency_us += 2.0 * (g - 1) * msg / (nvlink_channel_gbs * 1e3);
        }
        break;
    }
    case NcclAlgo::Auto:
        return c;
    }
    // LL across nodes runs at the host's rate (above). Point-to-point connections (all-to-all) keep every
    // protocol's buffers in GPU memory.
    if (m > 1 && proto == NcclProto::LL && op != CollOp::AllToAll)
        c.busbw_gbs = std::min(c.busbw_gbs, ll_host_busbw(hw));
    c.predicted_us = c.latency_us + (c.busbw_gbs > 0 ? bus_bytes / (c.busbw_gbs * 1e3) : 0);
    return c;
}

// [SECTION] tuner
NcclChoice choose(const HardwareConfig& hw, CollOp op, uint64_t bytes, NcclAlgo force) {
    // NCCL's tuner rates the network by its nominal speed, not by what a cluster delivers: a description's
    // net_efficiency (a measured shortfall) changes the time of the pick, never the pick.
    if (hw.net_efficiency > 0) {
        HardwareConfig nominal = hw;
        nominal.net_efficiency = 0;
        const NcclChoice pick = choose(nominal, op, bytes, force);
        NcclChoice c = estimate(hw, op, bytes, pick.algo, pick.proto);
        c.by_aws_map = pick.by_aws_map;
        return c;
    }
    if (force == NcclAlgo::Auto) force = hw.algo;
    // AWS's tuner (aws_ofi_tuner.h) decides where its map covers the size, unless the user forced an
    // algorithm or protocol (NCCL_ALGO / NCCL_PROTO bypass it); NCCL skips a pick it cannot run here
    // (NVLS-tree without NVLink SHARP, LL128 over send/receive) and takes the next.
    if (hw.tuner == config::NcclTuner::AwsOfiNccl && force == NcclAlgo::Auto && hw.proto == NcclProto::Auto) {
        const AwsOfiPicks picks = aws_ofi_picks(op, hw.nodes, hw.gpus_per_node, bytes);
        for (uint32_t i = 0; i < picks.count; ++i) {
            NcclChoice c = estimate(hw, op, bytes, picks.pick[i].algo, picks.pick[i].proto);
            c.by_aws_map = true;
            if (c.predicted_us >= 0) return c;
        }
    }
    // NCCL's own cost model rates LL128 across EFA below LL and Simple: the 2-node p5 tables (NCCL's
    // own choice; AWS's tuner stands aside on two nodes) run no LL128 rows, so our tuner does not pick
    // it there either, though it runs when forced or when AWS's tuner picks it.
    const bool skip_efa_ll128 = hw.fabric == Fabric::Efa && hw.nodes > 1;
    NcclChoice best;
    best.predicted_us = -1;
    const NcclAlgo algos[] = {NcclAlgo::Ring, NcclAlgo::Tree, NcclAlgo::Nvls, NcclAlgo::NvlsTree,
                              NcclAlgo::CollNet};
    const NcclProto protos[] = {NcclProto::LL, NcclProto::LL128, NcclProto::Simple};
    for (NcclAlgo a : algos) {
        if (force != NcclAlgo::Auto && a != force) continue;
        for (NcclProto p : protos) {
            if (hw.proto != NcclProto::Auto && p != hw.proto) continue;
            if (hw.proto == NcclProto::Auto && p == NcclProto::LL128 && skip_efa_ll128) continue;
            NcclChoice c = estimate(hw, op, bytes, a, p);
            if (c.predicted_us < 0) continue;
            if (best.predicted_us < 0 || c.predicted_us < best.predicted_us) best = c;
        }
    }
    if (best.predicted_us < 0 && force != NcclAlgo::Ring) {
        // The forced algorithm does not apply here (tree on one node, NVLS for all-gather): NCCL falls
        // back to ring as well.
        return choose(hw, op, bytes, NcclAlgo::Ring);
    }
    if (best.predicted_us < 0 && hw.proto != NcclProto::Auto) {
        // The forced protocol does not run here (LL128 across EFA send/receive or TCPXO): take the tuner's
        // own choice rather than no collective at all.
        HardwareConfig any = hw;
        any.proto = NcclProto::Auto;
        return choose(any, op, bytes, force);
    }
    return best;
}

} // namespace astrolabe::hardware

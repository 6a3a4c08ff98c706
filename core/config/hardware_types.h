// A real system as a user describes it (`astrolabe.hardware/1` JSON): GPUs, nodes, NVLink SHARP, NICs,
// fabric and how the benchmark's processes are laid out. Plain data with documented defaults; the
// meaning of each field for the model lives in core/hardware/nccl_model.h.
//
// Units: nic_gbps is the line rate of ONE NIC in Gb/s (10^9 bits per second), as vendors quote it.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace astrolabe::config {

enum class GpuModel : uint8_t { H100Sxm, A100Sxm40, A100Sxm80, H200Sxm };
// Hopper on an HGX board: H100 and H200 SXM have the same SMs, 18 NVLink4 links and third-generation
// NVSwitches (with SHARP); H200 differs in its HBM (141 GB of HBM3e at 4.8 TB/s), which the collectives'
// figures do not see.
inline bool hopper(GpuModel g) {
    return g == GpuModel::H100Sxm || g == GpuModel::H200Sxm;
}
enum class Fabric : uint8_t { Infiniband, Roce, Efa, Tcpxo, Unknown };
// one-per-gpu: one process (and host thread) launches each GPU's kernels (mpirun -np <gpus>);
// one-per-node: one process drives all GPUs of a node (nccl-tests `-g 8`), so launches serialise.
enum class ProcessLayout : uint8_t { OnePerGpu, OnePerNode };
// The hosts' CPUs: NCCL keeps multi-node LL buffers in host memory and rates them by CPU vendor; any
// host that is not AMD (Intel, Arm, POWER) gets NCCL's Intel figures.
enum class CpuVendor : uint8_t { Intel, Amd };
// How AWS's EFA plugin (aws-ofi-nccl) moves NCCL's network messages: `sendrecv`, libfabric tagged
// send/receive (p4d, p4de: A100); `rdma`, RDMA writes with immediate data (p5, p5e, p5en: H100/H200).
enum class EfaTransport : uint8_t { SendRecv, Rdma };
// Who picks the algorithm and protocol: `nccl`, NCCL's own cost model; `aws-ofi-nccl`, the tuner AWS's EFA
// plugin loads into NCCL on p5/p5e (H100), which picks all-reduce's algorithm and protocol from its own
// measured map beyond two nodes (core/hardware/aws_ofi_tuner.h).
enum class NcclTuner : uint8_t { Nccl, AwsOfiNccl };
enum class NcclAlgo : uint8_t { Auto, Ring, Tree, Nvls, NvlsTree, CollNet };
enum class NcclProto : uint8_t { Auto, LL, LL128, Simple };

const char* gpu_model_name(GpuModel g);           // "H100-SXM", ...
const char* fabric_name(Fabric f);                // "infiniband", ...
const char* process_layout_name(ProcessLayout p); // "one-per-gpu", ...
const char* cpu_vendor_name(CpuVendor c);         // "intel", "amd"
const char* efa_transport_name(EfaTransport t);   // "sendrecv", "rdma"
const char* nccl_tuner_name(NcclTuner t);         // "nccl", "aws-ofi-nccl"
const char* nccl_algo_name(NcclAlgo a);           // "auto", "ring", "tree", "nvls", "nvls_tree", "collnet"
const char* nccl_proto_name(NcclProto p);         // "auto", "LL", "LL128", "Simple"
// One of the names above, or NCCL_ALGO's own spelling of it (any case, NVLSTree, CollNetDirect/Chain).
bool parse_nccl_algo(std::string_view text, NcclAlgo& out);
// The index of `text` in a choice key's list (hardware_choices below), -1 if none: the exact name, and for
// nccl_algo and nccl_proto also NCCL's spelling of it, which NCCL reads without regard to case.
int nccl_choice_index(std::string_view key, std::string_view text);

// The values a choice key of astrolabe.hardware/1 takes, in its enum's order (the names above): "gpu",
// "fabric", "processes", "cpu", "efa_transport", "nccl_tuner", "nccl_algo", "nccl_proto". What the parser
// accepts, the browser's menus offer and the names above return; empty for any other key.
const std::vector<std::string>& hardware_choices(std::string_view key);

struct HardwareConfig {
    GpuModel gpu = GpuModel::H100Sxm;
    uint32_t nodes = 1;
    uint32_t gpus_per_node = 8;
    bool nvls = true;           // NVLink SHARP usable; default: true for H100-SXM with 2+ GPUs per node
    uint32_t nics_per_node = 8; // default: gpus_per_node
    double nic_gbps = 400;      // per NIC; default 400 (NDR InfiniBand); A100 default 200 (HDR)
    Fabric fabric = Fabric::Unknown;
    ProcessLayout processes = ProcessLayout::OnePerGpu;
    // The hosts' CPU vendor; NCCL rates multi-node LL and the host's post cost by it. Default: the vendor
    // of the platform that carries this GPU and fabric (default_cpu).
    CpuVendor cpu = CpuVendor::Intel;
    // Only with fabric efa. Default: what aws-ofi-nccl picks on the instance that carries the GPU (rdma
    // for H100 on p5, sendrecv for A100 on p4d/p4de).
    EfaTransport efa_transport = EfaTransport::Rdma;
    // Default: aws-ofi-nccl on EFA with H100 (the plugin sets NCCL_TUNER_PLUGIN to itself on p5/p5e),
    // nccl everywhere else. aws-ofi-nccl needs fabric efa and an H100 (its maps are p5/p5e's).
    NcclTuner tuner = NcclTuner::Nccl;
    bool collnet = false; // in-network reduction (InfiniBand SHARP switches); only with fabric infiniband
    NcclAlgo algo = NcclAlgo::Auto;
    NcclProto proto = NcclProto::Auto;
    // NCCL_BUFFSIZE: bytes of a connection's Simple buffer, whose eighth (one of NCCL_STEPS) is the most a
    // step moves, hence the largest network message. 0 = the fabric's default (default_nccl_buffsize).
    uint32_t nccl_buffsize = 0;
    // Fraction of the NICs' line rate a collective's rings and trees sustain across nodes with full buffer
    // steps, for a cluster measured to run below (or above) its fabric's figure: a congested or
    // oversubscribed fabric, a PCIe bottleneck. 0 = the fabric's figure (hardware::fabric_efficiency).
    // Point-to-point (all-to-all) keeps the fabric's figure: its flows run NIC to NIC without a
    // collective's lockstep. `collective-perf --measured FILE --fit OUT` fits it to a measured table.
    double net_efficiency = 0;
    // The GPU's compute for the roofline model of a run (docs/hardware.md): dense BF16/FP16 tensor-core
    // peak and HBM bandwidth. Defaults: the GPU's datasheet figures (set by the parser).
    double peak_tflops = 989.4;
    double hbm_gbs = 3350;
    // Not in the description: NICs per GPU fixed by the whole system when this config describes one
    // collective group of it (hardware::group_system); 0 = derived from nics_per_node and the board.
    double nics_per_gpu = 0;
    std::vector<std::string> warnings;
    uint32_t ranks() const { return nodes * gpus_per_node; }
};

// The EFA transport aws-ofi-nccl runs on the AWS instance that carries this GPU (its platform table).
EfaTransport default_efa_transport(GpuModel g);

// The hosts' CPU vendor on the platforms that carry this GPU and fabric: AMD for H100 on EFA (p5, p5e:
// AMD EPYC 7R13) and for A100 off EFA (DGX A100 and the HGX A100 clouds: AMD EPYC, the only x86 hosts
// with PCIe Gen4 when A100 shipped), Intel for A100 on EFA (p4d, p4de: Xeon 8275CL) and for H100 off EFA
// (DGX H100 and the HGX H100 clouds: Xeon Sapphire Rapids).
CpuVendor default_cpu(GpuModel g, Fabric f);

// The tuner NCCL runs with on this GPU and fabric by default (NcclTuner above).
NcclTuner default_nccl_tuner(GpuModel g, Fabric f);

// NCCL_BUFFSIZE as the system runs it unless the description says otherwise: 8 MiB on EFA (aws-ofi-nccl's
// platform table sets it on p4d, p4de, p5, p5e) and on TCPXO (Google's NCCL profile for it), NCCL's own
// 4 MiB elsewhere.
uint32_t default_nccl_buffsize(Fabric f);
// The description's buffer: its nccl_buffsize, else the fabric's default.
uint32_t nccl_buffsize(const HardwareConfig& hw);

// Sets the description's compute figures (peak_tflops, hbm_gbs) to its GPU's datasheet values.
void set_datasheet_compute(HardwareConfig& hw);
// Sets what follows from the platform its GPU and fabric imply (the hosts' CPU, EFA's transport, the
// tuner) to that platform's defaults: what the parser starts from and the Hardware tab resets to.
void set_platform_defaults(HardwareConfig& hw);

} // namespace astrolabe::config

// `astrolabe.hardware/1` JSON -> HardwareConfig. Unknown keys and names are errors here (not warnings as
// in ASTRA-sim's system JSON): a misspelt "nvls" silently defaulting would change every number.
#include "core/base/json_writer.h"
#include "core/config/config_parse.h"
#include "core/config/json_read.h"
#include "core/config/spellings.h"

#include <algorithm>
#include <iterator>

namespace astrolabe::config {

// [SECTION] names
const std::vector<std::string>& hardware_choices(std::string_view key) {
    // Each list in its enum's order (hardware_types.h), as the *_name functions spell them.
    static const std::vector<std::pair<std::string_view, std::vector<std::string>>> kChoices = {
        {"gpu", {"H100-SXM", "A100-SXM4-40GB", "A100-SXM4-80GB", "H200-SXM"}},
        {"fabric", {"infiniband", "roce", "efa", "tcpxo", "unknown"}},
        {"processes", {"one-per-gpu", "one-per-node"}},
        {"cpu", {"intel", "amd"}},
        {"efa_transport", {"sendrecv", "rdma"}},
        {"nccl_tuner", {"nccl", "aws-ofi-nccl"}},
        {"nccl_algo", {"auto", "ring", "tree", "nvls", "nvls_tree", "collnet"}},
        {"nccl_proto", {"auto", "LL", "LL128", "Simple"}}};
    static const std::vector<std::string> kNone;
    for (const auto& [k, names] : kChoices)
        if (k == key) return names;
    return kNone;
}

namespace {
// Entry `i` of a choice key's list: the name of its enum's enumerator i (one list serves the parser, the
// menus and the names).
const char* choice_name(std::string_view key, size_t i) {
    const auto& names = hardware_choices(key);
    return i < names.size() ? names[i].c_str() : "?";
}
} // namespace

const char* gpu_model_name(GpuModel g) {
    return choice_name("gpu", static_cast<size_t>(g));
}
const char* fabric_name(Fabric f) {
    return choice_name("fabric", static_cast<size_t>(f));
}
const char* process_layout_name(ProcessLayout p) {
    return choice_name("processes", static_cast<size_t>(p));
}
const char* cpu_vendor_name(CpuVendor c) {
    return choice_name("cpu", static_cast<size_t>(c));
}
const char* efa_transport_name(EfaTransport t) {
    return choice_name("efa_transport", static_cast<size_t>(t));
}
const char* nccl_tuner_name(NcclTuner t) {
    return choice_name("nccl_tuner", static_cast<size_t>(t));
}
const char* nccl_algo_name(NcclAlgo a) {
    return choice_name("nccl_algo", static_cast<size_t>(a));
}
namespace {
// NCCL reads NCCL_ALGO and NCCL_PROTO without regard to case and spells its algorithms Ring, Tree, NVLS,
// NVLSTree, CollNetDirect and CollNetChain: a description (or --algo) written as NCCL's environment is
// spelt means the same. Lower case without '_' or '-'; both CollNet variants are our collnet.
std::string nccl_letters(std::string_view s) {
    std::string out = folded_spelling(s);
    if (out == "collnetdirect" || out == "collnetchain") out = "collnet";
    return out;
}
} // namespace

int nccl_choice_index(std::string_view key, std::string_view text) {
    const auto& names = hardware_choices(key);
    const bool nccl_env = key == "nccl_algo" || key == "nccl_proto";
    for (size_t i = 0; i < names.size(); ++i)
        if (text == names[i] || (nccl_env && nccl_letters(text) == nccl_letters(names[i])))
            return static_cast<int>(i);
    return -1;
}

bool parse_nccl_algo(std::string_view text, NcclAlgo& out) {
    const int i = nccl_choice_index("nccl_algo", text);
    if (i >= 0) out = static_cast<NcclAlgo>(i);
    return i >= 0;
}
const char* nccl_proto_name(NcclProto p) {
    return choice_name("nccl_proto", static_cast<size_t>(p));
}

namespace {

// [SECTION] nearest spelling
// "; did you mean 'x'?" when a name is close enough to be a slip (spellings.h's nearest_name), else "".
std::string nearest(const std::string& got, const std::vector<std::string>& candidates) {
    const std::string near = nearest_name(candidates, got);
    return near.empty() ? "" : "; did you mean '" + near + "'?";
}

std::string join(const std::vector<std::string>& v) {
    std::string out;
    for (size_t i = 0; i < v.size(); ++i)
        out += (i ? (i + 1 == v.size() ? " or " : ", ") : "") + v[i];
    return out;
}

const std::vector<std::string> kKeys = {
    "schema",   "name",   "gpu",           "nodes",      "gpus_per_node", "nvls",          "nics_per_node",
    "nic_gbps", "fabric", "processes",     "collnet",    "nccl_algo",     "nccl_proto",    "peak_tflops",
    "hbm_gbs",  "cpu",    "efa_transport", "nccl_tuner", "nccl_buffsize", "net_efficiency"};

// Reads a string key that must be one of `names`; returns the index or -1 (absent or wrong).
int read_choice(detail::Fields& f, const char* key, const std::vector<std::string>& names) {
    if (!f.has(key)) return -1;
    const auto& v = f.at(key);
    if (!v.is_string()) {
        f.problem(key, "is " + detail::describe(v) + "; one of " + join(names) + " was expected");
        return -1;
    }
    std::string s = v.get<std::string>();
    if (int i = nccl_choice_index(key, s); i >= 0) return i;
    std::string why = "; expected " + join(names);
    // NCCL_ALGO's other forms: a list, or an exclusion, lets NCCL choose among several; PAT (NCCL 2.23's
    // all-gather/reduce-scatter for one GPU per node) has no model here.
    const bool algo = std::string_view(key) == "nccl_algo";
    if (algo && s.find_first_of(",^") != std::string::npos)
        why += " (one forced algorithm; NCCL_ALGO's lists and exclusions leave the choice to NCCL: omit the "
               "key)";
    else if (algo && nccl_letters(s) == "pat")
        why += " (NCCL's PAT algorithm is not modelled)";
    else
        why += nearest(s, names);
    f.problem(key, "unknown value \"" + s + "\"" + why);
    return -1;
}

void read_bool(detail::Fields& f, const char* key, bool& out) {
    if (!f.has(key)) return;
    const auto& v = f.at(key);
    if (!v.is_boolean()) return f.problem(key, "is " + detail::describe(v) + "; true or false was expected");
    out = v.get<bool>();
}

} // namespace

EfaTransport default_efa_transport(GpuModel g) {
    // aws-ofi-nccl's platform table: RDMA writes on p5/p5e/p5en (Hopper), tagged send/receive on
    // p4d/p4de (Ampere).
    return hopper(g) ? EfaTransport::Rdma : EfaTransport::SendRecv;
}

CpuVendor default_cpu(GpuModel g, Fabric f) {
    // AWS put its Hoppers (p5, p5e) on AMD hosts and its A100s on Intel ones; everyone else did the
    // opposite. (p5en, H200 on Intel hosts, says cpu: intel.)
    if (f == Fabric::Efa) return hopper(g) ? CpuVendor::Amd : CpuVendor::Intel;
    return hopper(g) ? CpuVendor::Intel : CpuVendor::Amd;
}

NcclTuner default_nccl_tuner(GpuModel g, Fabric f) {
    // aws-ofi-nccl (since its tuner was merged into the network plugin) points NCCL_TUNER_PLUGIN at
    // itself on AWS, and its tuner has maps for p5/p5e (H100) only; on p4d/p4de it defers to NCCL.
    return f == Fabric::Efa && hopper(g) ? NcclTuner::AwsOfiNccl : NcclTuner::Nccl;
}

uint32_t default_nccl_buffsize(Fabric f) {
    return f == Fabric::Efa || f == Fabric::Tcpxo ? 8u << 20 : 4u << 20;
}

uint32_t nccl_buffsize(const HardwareConfig& hw) {
    return hw.nccl_buffsize > 0 ? hw.nccl_buffsize : default_nccl_buffsize(hw.fabric);
}

void set_platform_defaults(HardwareConfig& hw) {
    hw.cpu = default_cpu(hw.gpu, hw.fabric);
    hw.efa_transport = default_efa_transport(hw.gpu);
    hw.tuner = default_nccl_tuner(hw.gpu, hw.fabric);
}

void set_datasheet_compute(HardwareConfig& hw) {
    // NVIDIA's H100 and A100 Tensor Core GPU datasheets: dense BF16 tensor-core peak (H100 SXM: 1979
    // TFLOPS with 2:4 sparsity, so 989.4 dense; A100: 312) and HBM bandwidth (H100 SXM 3.35 TB/s; A100
    // 40GB 1555 GB/s, 80GB SXM 2039 GB/s).
    switch (hw.gpu) {
    case GpuModel::H100Sxm:
        hw.peak_tflops = 989.4, hw.hbm_gbs = 3350;
        return;
    case GpuModel::A100Sxm40:
        hw.peak_tflops = 312, hw.hbm_gbs = 1555;
        return;
    case GpuModel::A100Sxm80:
        hw.peak_tflops = 312, hw.hbm_gbs = 2039;
        return;
    case GpuModel::H200Sxm: // H200 datasheet: H100's tensor cores, 4.8 TB/s of HBM3e
        hw.peak_tflops = 989.4, hw.hbm_gbs = 4800;
        return;
    }
}

// [SECTION] parser
Result<HardwareConfig> parse_hardware_json(std::string_view text, const std::string& source) {
    auto parsed = detail::parse_json_text(text, source);
    if (!parsed) return parsed.status();
    detail::json j = parsed.value();
    if (!j.is_object()) return Status::error(source + ": the hardware description must be a JSON object");
    // A key set to null is a key not given (what JSON writers emit for "none"): it takes its default.
    for (auto it = j.begin(); it != j.end();)
        it = it->is_null() ? j.erase(it) : std::next(it);
    Status problems;
    detail::Fields f(j, source, problems);
    for (auto it = j.begin(); it != j.end(); ++it)
        if (std::find(kKeys.begin(), kKeys.end(), it.key()) == kKeys.end())
            f.problem(it.key(), "unknown key; expected one of " + join(kKeys) + nearest(it.key(), kKeys));

    HardwareConfig hw;
    if (f.has("schema") && (!j["schema"].is_string() || j["schema"] != "astrolabe.hardware/1"))
        f.problem("schema",
                  "is " + detail::describe(j["schema"]) + "; \"astrolabe.hardware/1\" was expected");
    if (f.has("name") && !j["name"].is_string())
        f.problem("name", "is " + detail::describe(j["name"]) + "; a string was expected");
    int g = read_choice(f, "gpu", hardware_choices("gpu"));
    if (g >= 0) hw.gpu = static_cast<GpuModel>(g);
    const bool hopper_board = hopper(hw.gpu); // H100 or H200: the same HGX board
    // GPU-dependent defaults: HGX H100/H200 has third-generation NVSwitches with SHARP and NDR NICs; HGX A100
    // has no NVLink SHARP and came with HDR (200 Gb/s) NICs.
    hw.nic_gbps = hopper_board ? 400 : 200;
    set_datasheet_compute(hw);
    f.read_uint32("nodes", hw.nodes, 1, 65536);
    f.read_uint32("gpus_per_node", hw.gpus_per_node, 1, 8);
    hw.nvls = hopper_board && hw.gpus_per_node >= 2; // a lone GPU has no NVSwitch to reduce in
    hw.nics_per_node = hw.gpus_per_node;
    read_bool(f, "nvls", hw.nvls);
    f.read_uint32("nics_per_node", hw.nics_per_node, 1, 64);
    f.read_double("nic_gbps", hw.nic_gbps, 0, true);
    int fab = read_choice(f, "fabric", hardware_choices("fabric"));
    if (fab >= 0) hw.fabric = static_cast<Fabric>(fab);
    int pl = read_choice(f, "processes", hardware_choices("processes"));
    if (pl >= 0) hw.processes = static_cast<ProcessLayout>(pl);
    set_platform_defaults(hw);
    int cpu = read_choice(f, "cpu", hardware_choices("cpu"));
    if (cpu >= 0) hw.cpu = static_cast<CpuVendor>(cpu);
    int et = read_choice(f, "efa_transport", hardware_choices("efa_transport"));
    if (et >= 0) hw.efa_transport = static_cast<EfaTransport>(et);
    int tu = read_choice(f, "nccl_tuner", hardware_choices("nccl_tuner"));
    if (tu >= 0) hw.tuner = static_cast<NcclTuner>(tu);
    read_bool(f, "collnet", hw.collnet);
    int al = read_choice(f, "nccl_algo", hardware_choices("nccl_algo"));
    if (al >= 0) hw.algo = static_cast<NcclAlgo>(al);
    int pr = read_choice(f, "nccl_proto", hardware_choices("nccl_proto"));
    if (pr >= 0) hw.proto = static_cast<NcclProto>(pr);
    // NCCL_BUFFSIZE in bytes: 64 KiB (an 8 KiB step) to 1 GiB.
    f.read_uint32("nccl_buffsize", hw.nccl_buffsize, 64u << 10, 1u << 30);
    f.read_double("net_efficiency", hw.net_efficiency, 0, true);
    f.read_double("peak_tflops", hw.peak_tflops, 0, true);
    f.read_double("hbm_gbs", hw.hbm_gbs, 0, true);

    // [SECTION] consistency: what the hardware cannot do
    // Physical ranges: beyond them the model's figures stop meaning anything (a NIC of 1e-300 Gb/s
    // underflows its rates), so the description says so instead of running.
    if (j.contains("nic_gbps") && j["nic_gbps"].is_number() && (hw.nic_gbps < 1 || hw.nic_gbps > 3200))
        f.problem("nic_gbps", "is " + j["nic_gbps"].dump() + "; 1 to 3200 Gb/s per NIC was expected");
    if (j.contains("net_efficiency") && j["net_efficiency"].is_number() &&
        (hw.net_efficiency < 0.05 || hw.net_efficiency > 1))
        f.problem("net_efficiency",
                  "is " + j["net_efficiency"].dump() + "; a fraction of line rate, 0.05 to 1, was expected");
    if (j.contains("peak_tflops") && j["peak_tflops"].is_number() && hw.peak_tflops < 0.001)
        f.problem("peak_tflops",
                  "is " + j["peak_tflops"].dump() + "; at least 0.001 (1 GFLOP/s) was expected");
    if (j.contains("hbm_gbs") && j["hbm_gbs"].is_number() && hw.hbm_gbs < 1)
        f.problem("hbm_gbs", "is " + j["hbm_gbs"].dump() + "; at least 1 GB/s was expected");
    if (hw.nvls && !hopper_board)
        f.problem("nvls", std::string("is true but ") + gpu_model_name(hw.gpu) +
                              " has no NVLink SHARP (NVSwitch gen3, H100/H200); false was expected");
    if (hw.nvls && hw.gpus_per_node < 2)
        f.problem("nvls", "is true with one GPU per node; NVLink SHARP needs an NVSwitch and 2+ GPUs");
    if (hw.collnet && hw.fabric != Fabric::Infiniband)
        f.problem("collnet", std::string("is true on fabric ") + fabric_name(hw.fabric) +
                                 "; in-network reduction (SHARP) needs fabric infiniband");
    if (et >= 0 && hw.fabric != Fabric::Efa)
        f.problem("efa_transport", std::string("is set on fabric ") + fabric_name(hw.fabric) +
                                       "; it describes AWS's EFA plugin and needs fabric efa");
    if (hw.tuner == NcclTuner::AwsOfiNccl && hw.fabric != Fabric::Efa)
        f.problem("nccl_tuner",
                  std::string("is aws-ofi-nccl on fabric ") + fabric_name(hw.fabric) +
                      "; AWS's tuner comes with its EFA plugin and needs fabric efa (or use nccl)");
    else if (hw.tuner == NcclTuner::AwsOfiNccl && !hopper_board)
        f.problem("nccl_tuner",
                  std::string("is aws-ofi-nccl with ") + gpu_model_name(hw.gpu) +
                      "; AWS's tuner has maps for p5/p5e (H100-SXM, H200-SXM) only and leaves A100 to "
                      "NCCL (use nccl)");
    if ((hw.algo == NcclAlgo::Nvls || hw.algo == NcclAlgo::NvlsTree) && !hw.nvls)
        f.problem("nccl_algo", std::string("is ") + nccl_algo_name(hw.algo) + " but nvls is false");
    if (hw.algo == NcclAlgo::NvlsTree && hw.nodes < 2)
        f.problem("nccl_algo", "is nvls_tree on one node; nvls_tree joins nodes (use nvls)");
    if (hw.algo == NcclAlgo::CollNet && !hw.collnet)
        f.problem("nccl_algo", "is collnet but collnet is false (the fabric offers no in-network reduction)");
    if (!problems.is_ok()) return problems;
    return hw;
}

// [SECTION] writer
std::string hardware_json(const HardwareConfig& hw) {
    JsonWriter w;
    w.begin_object();
    w.field("schema", "astrolabe.hardware/1");
    w.field("gpu", gpu_model_name(hw.gpu));
    w.field("nodes", hw.nodes);
    w.field("gpus_per_node", hw.gpus_per_node);
    w.field("nvls", hw.nvls);
    w.field("nics_per_node", hw.nics_per_node);
    w.field("nic_gbps", hw.nic_gbps);
    w.field("fabric", fabric_name(hw.fabric));
    w.field("processes", process_layout_name(hw.processes));
    w.field("cpu", cpu_vendor_name(hw.cpu));
    if (hw.fabric == Fabric::Efa) { // AWS's plugin's keys, meaningful on EFA only
        w.field("efa_transport", efa_transport_name(hw.efa_transport));
        w.field("nccl_tuner", nccl_tuner_name(hw.tuner));
    }
    w.field("collnet", hw.collnet);
    w.field("nccl_algo", nccl_algo_name(hw.algo));
    w.field("nccl_proto", nccl_proto_name(hw.proto));
    if (hw.nccl_buffsize > 0) w.field("nccl_buffsize", hw.nccl_buffsize);    // absent: the fabric's default
    if (hw.net_efficiency > 0) w.field("net_efficiency", hw.net_efficiency); // absent: the fabric's figure
    w.field("peak_tflops", hw.peak_tflops);
    w.field("hbm_gbs", hw.hbm_gbs);
    w.end_object();
    return w.str() + "\n";
}

} // namespace astrolabe::config

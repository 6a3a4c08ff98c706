#include "ui/hardware_state.h"

#include "core/base/json_writer.h"
#include "core/config/config_parse.h"

namespace astrolabe::ui {

const std::vector<HardwarePreset>& hardware_presets() {
    // The systems of samples/hardware/ plus a single A100 node.
    static const std::vector<HardwarePreset> presets = {
        {"HGX H100 x8 (NVLS)", R"({"gpu": "H100-SXM", "nodes": 1, "gpus_per_node": 8, "nvls": true,
            "nics_per_node": 8, "nic_gbps": 400, "fabric": "infiniband", "processes": "one-per-gpu"})"},
        {"2 x HGX H100 (IB 8 x 400G)", R"({"gpu": "H100-SXM", "nodes": 2, "gpus_per_node": 8, "nvls": true,
            "nics_per_node": 8, "nic_gbps": 400, "fabric": "infiniband", "processes": "one-per-gpu"})"},
        {"HGX H100 x8, ring, -g 8", R"({"gpu": "H100-SXM", "nodes": 1, "gpus_per_node": 8, "nvls": false,
            "fabric": "infiniband", "processes": "one-per-node", "nccl_algo": "ring"})"},
        {"HGX A100-40GB x8", R"({"gpu": "A100-SXM4-40GB", "nodes": 1, "gpus_per_node": 8,
            "processes": "one-per-gpu"})"},
        {"2 x p4de A100-80GB (EFA 4 x 100G)", R"({"gpu": "A100-SXM4-80GB", "nodes": 2, "gpus_per_node": 8,
            "nics_per_node": 4, "nic_gbps": 100, "fabric": "efa", "processes": "one-per-gpu"})"},
        {"2 x p5 H100 (EFA 32 x 100G)", R"({"gpu": "H100-SXM", "nodes": 2, "gpus_per_node": 8, "nvls": true,
            "nics_per_node": 32, "nic_gbps": 100, "fabric": "efa", "efa_transport": "rdma",
            "processes": "one-per-gpu", "cpu": "amd"})"},
        {"8 x p5 H100 (EFA, AWS's tuner)",
         R"({"gpu": "H100-SXM", "nodes": 8, "gpus_per_node": 8, "nvls": true,
            "nics_per_node": 32, "nic_gbps": 100, "fabric": "efa", "efa_transport": "rdma",
            "nccl_tuner": "aws-ofi-nccl", "processes": "one-per-gpu", "cpu": "amd"})"},
    };
    return presets;
}

HardwareState::HardwareState() {
    load_preset(0);
}

void HardwareState::load_preset(int index) {
    const auto& presets = hardware_presets();
    if (index < 0 || index >= static_cast<int>(presets.size())) return;
    auto hw = config::parse_hardware_json(presets[index].json, presets[index].name);
    if (!hw.is_ok()) { // a preset is a constant; its failure is a bug worth showing, not hiding
        problems_ = hw.status();
        return;
    }
    preset_ = index;
    hw_ = hw.value();
    algo_ = config::NcclAlgo::Auto;
    changed();
}

void HardwareState::load(const config::HardwareConfig& hw) {
    preset_ = -1;
    origin_ = "(the scenario's)";
    hw_ = hw;
    algo_ = config::NcclAlgo::Auto;
    changed();
}

std::string HardwareState::json() const {
    return config::hardware_json(hw_);
}

namespace {

// A preset's description as the description file writes it: two descriptions are the same system when
// these are equal (an edit undone, a shared link of a preset). "" for a preset that does not parse.
std::string preset_description(size_t i) {
    const auto& p = hardware_presets()[i];
    auto parsed = config::parse_hardware_json(p.json, p.name);
    return parsed.is_ok() ? config::hardware_json(parsed.value()) : std::string();
}

} // namespace

std::string HardwareState::description_name() const {
    if (preset_ < 0) return origin_;
    return hardware_presets()[static_cast<size_t>(preset_)].name + std::string(edited_ ? " (edited)" : "");
}

void HardwareState::changed() {
    // Still the preset? The same test a shared link's description gets (load_link).
    edited_ = preset_ >= 0 && preset_description(static_cast<size_t>(preset_)) != config::hardware_json(hw_);
    rows_.clear();
    reference_rows_.clear();
    has_fit_ = false; // a fit speaks of the description it was made on
    fit_problem_.clear();
    // The tab's state as collective-perf's arguments, through the checker the API, links and the CLI's
    // --link use: the description round-trips through the CLI's parser, so the form reports exactly what the
    // CLI would say about the same file; the size fields are named as the tab labels them.
    auto checked = collective_perf_request(args(), "from", "to");
    if (!checked.is_ok()) {
        problems_ = checked.status();
        return;
    }
    CollectivePerfRequest req = checked.value();
    comparison_ = MeasuredComparison{};
    if (has_measured()) { // the table's sizes, type and reduction, if it is of this system and collective
        auto fitted = measured_request(req, measured_, measured_name_);
        if (!fitted.is_ok()) {
            problems_ = fitted.status();
            return;
        }
        req = fitted.value();
    }
    problems_ = Status::ok();
    req.astra_reference = false; // the model's curve first, ASTRA-sim's for contrast after
    auto rows = run_collective_perf(req);
    if (!rows.is_ok()) {
        problems_ = rows.status();
        return;
    }
    rows_ = std::move(rows.value());
    if (has_measured()) comparison_ = compare_measured(rows_, measured_);
    if (reference_) {
        req.astra_reference = true;
        auto ref = run_collective_perf(req);
        if (ref.is_ok()) reference_rows_ = std::move(ref.value());
    }
}

bool HardwareState::nvls_unusable() const {
    CollectivePerfRequest req;
    req.hardware = hw_;
    req.op = op_;
    req.type = type_;
    req.red_op = red_op_;
    return hw_.nvls && !collective_perf_system(req).nvls;
}

std::string HardwareState::summary_json() const {
    JsonWriter w;
    w.begin_object();
    w.field("preset", description_name());
    w.key("hardware").begin_object(); // the description's main keys, as its file spells them
    w.field("gpu", config::gpu_model_name(hw_.gpu));
    w.field("nodes", hw_.nodes);
    w.field("gpus_per_node", hw_.gpus_per_node);
    w.field("nics_per_node", hw_.nics_per_node);
    w.field("nic_gbps", hw_.nic_gbps);
    w.field("fabric", config::fabric_name(hw_.fabric));
    w.field("net_efficiency", hw_.net_efficiency); // 0: the fabric's figure
    w.end_object();
    w.field("op", hardware::coll_op_name(op_));
    w.field("algo", config::nccl_algo_name(algo_));
    w.field("type", hardware::nccl_type_name(type_));
    w.field("redop", hardware::nccl_red_op_name(red_op_));
    w.field("nvls_unusable", nvls_unusable());
    w.field("from", min_size_);
    w.field("to", max_size_);
    w.key("problems").begin_array();
    for (const auto& p : problems_.problems())
        w.value(p);
    w.end_array();
    size_t i = 0;
    w.object_array("rows", rows_, [&](const auto& r) {
        w.field("size_bytes", r.size_bytes);
        w.field("time_us", r.time_us);
        w.field("busbw_gbs", r.busbw_gbs);
        w.field("algo", config::nccl_algo_name(r.choice.algo));
        w.field("proto", config::nccl_proto_name(r.choice.proto));
        if (i < comparison_.measured_us.size()) w.field("measured_us", comparison_.measured_us[i]);
        ++i;
    });
    if (has_measured()) { // the table's name and, when it fits the form, the errors
        w.key("measured").begin_object();
        w.field("name", measured_name_);
        w.field("rows", uint64_t(measured_.rows.size()));
        measured_errors_json(w, comparison_);
        w.end_object();
    }
    if (has_fit_) fit_json(w, fit_);
    if (!fit_problem_.empty()) w.field("fit_problem", fit_problem_);
    w.end_object();
    return w.str();
}

Result<std::string> collective_perf_from_text(const CollectivePerfArgs& args) {
    auto req = collective_perf_request(args);
    if (!req.is_ok()) return req.status();
    auto rows = run_collective_perf(req.value());
    if (!rows.is_ok()) return rows.status();
    return collective_perf_json(req.value(), rows.value());
}

CollectivePerfArgs HardwareState::args() const {
    CollectivePerfArgs a;
    a.hardware_json = json();
    a.op = hardware::coll_op_name(op_);
    a.algo = config::nccl_algo_name(algo_);
    a.min_bytes = min_size_;
    a.max_bytes = max_size_;
    a.type = hardware::nccl_type_name(type_);
    a.red_op = hardware::nccl_red_op_name(red_op_);
    a.astra_reference = reference_;
    return a;
}

Status HardwareState::load_link(const std::string& link) {
    auto args = parse_collective_perf_link(link);
    if (!args.is_ok()) return args.status();
    auto req = collective_perf_request(args.value());
    if (!req.is_ok()) return Status::error("collective-perf link: " + req.status().message());
    const CollectivePerfRequest& r = req.value();
    // A preset when the description is one (the same keys once parsed), else the link's own.
    preset_ = -1;
    origin_ = "(shared link)";
    const std::string text = config::hardware_json(r.hardware);
    for (size_t i = 0; i < hardware_presets().size(); ++i)
        if (preset_description(i) == text) preset_ = static_cast<int>(i);
    hw_ = r.hardware;
    op_ = r.op;
    algo_ = r.algo;
    type_ = r.type;
    red_op_ = r.red_op;
    min_size_ = args.value().min_bytes.empty() ? "8" : args.value().min_bytes;
    max_size_ = args.value().max_bytes.empty() ? "16G" : args.value().max_bytes;
    reference_ = r.astra_reference;
    changed();
    return Status::ok();
}

Status HardwareState::load_measured(const std::string& text, const std::string& name) {
    auto table = hardware::parse_nccl_tests_output(text, name);
    if (!table.is_ok()) return table.status();
    measured_ = std::move(table.value());
    measured_name_ = name.empty() ? "(measured)" : name;
    // The fields show what the table ran: its type and reduction where they are nccl-tests' (else
    // changed() names them), its first and last sizes.
    const hardware::MeasuredRow& first = measured_.rows.front();
    hardware::parse_nccl_type(first.type, type_);
    hardware::parse_nccl_red_op(first.redop, red_op_);
    min_size_ = nccl_size_text(first.size_bytes);
    max_size_ = nccl_size_text(measured_.rows.back().size_bytes);
    changed();
    return Status::ok();
}

Status HardwareState::fit_measured() {
    auto refuse = [&](const Status& st) {
        fit_problem_ = st.message();
        return st;
    };
    if (!has_measured()) return refuse(Status::error("no measured table to fit net_efficiency to"));
    auto checked = collective_perf_request(args(), "from", "to");
    if (!checked.is_ok()) return refuse(checked.status());
    auto run = measured_request(checked.value(), measured_, measured_name_);
    if (!run.is_ok()) return refuse(run.status());
    auto fit = fit_net_efficiency(run.value(), measured_, measured_name_);
    if (!fit.is_ok()) return refuse(fit.status());
    hw_.net_efficiency = fit.value().fitted;
    changed();
    fit_ = std::move(fit.value());
    has_fit_ = true;
    return Status::ok();
}

void HardwareState::clear_measured() {
    measured_name_.clear();
    measured_ = hardware::MeasuredTable{};
    changed();
}

} // namespace astrolabe::ui

// The Hardware tab: pick a preset system, edit it, pick a collective, and see nccl-tests' busbw against
// size as the simulator gives it (where latency gives way to bandwidth, and which algorithm/protocol
// NCCL would use at each size). State and computation live in ui/hardware_state.h.
//
// Index: [SECTION] widgets · [SECTION] chart · [SECTION] panel
#include "core/config/config_parse.h"
#include "core/hardware/nccl_model.h"
#include "ui/ui.h"

#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace astrolabe::ui {

namespace {

// [SECTION] widgets
// An editor's width: `want` px, less where the column leaves no room for the label beside it.
float field_width(float want) {
    return std::max(80.0f, std::min(want, ImGui::GetContentRegionAvail().x - 130));
}

// A combo over `names`; true when the choice changed. A value outside the list shows `other`.
bool combo(View& view, const char* label, const char* id, int& value, const std::vector<std::string>& names,
           const char* other = "", float width = 250) {
    bool changed = false;
    ImGui::SetNextItemWidth(field_width(width));
    const bool known = value >= 0 && value < static_cast<int>(names.size());
    // Tall enough for every name (nccl-tests' twelve types): each is clickable without scrolling.
    if (ImGui::BeginCombo(label, known ? names[static_cast<size_t>(value)].c_str() : other,
                          ImGuiComboFlags_HeightLargest)) {
        for (int i = 0; i < static_cast<int>(names.size()); ++i) {
            if (ImGui::Selectable(names[static_cast<size_t>(i)].c_str(), i == value)) {
                changed = value != i;
                value = i;
            }
            remember(view, (std::string(id) + ":" + names[static_cast<size_t>(i)]).c_str());
        }
        ImGui::EndCombo();
    }
    remember(view, id);
    return changed;
}

// A combo over a choice key of the description (config::hardware_choices: the parser's own list).
bool key_combo(View& view, const char* key, int& value) {
    return combo(view, key, key, value, config::hardware_choices(key));
}

std::string human_size(double bytes) {
    char buf[32];
    if (bytes >= 1 << 30)
        std::snprintf(buf, sizeof buf, "%gG", bytes / (1 << 30));
    else if (bytes >= 1 << 20)
        std::snprintf(buf, sizeof buf, "%gM", bytes / (1 << 20));
    else if (bytes >= 1 << 10)
        std::snprintf(buf, sizeof buf, "%gK", bytes / (1 << 10));
    else
        std::snprintf(buf, sizeof buf, "%g", bytes);
    return buf;
}

// [SECTION] chart
// busbw against size: log2 x axis over the rows' sizes, linear y from 0; our curve as a line with a dot
// per size, coloured by protocol, ASTRA-sim's as a grey line. Hovering a size shows its row.
void chart(View& view, const HardwareState& hs) {
    const auto& rows = hs.rows();
    if (rows.empty()) return;
    const ImU32 kProto[3] = {IM_COL32(120, 200, 120, 255), IM_COL32(230, 170, 60, 255),
                             IM_COL32(90, 160, 240, 255)}; // LL, LL128, Simple
    ImDrawList* dl = ImGui::GetWindowDrawList();
    ImVec2 origin = ImGui::GetCursorScreenPos();
    // As wide as the panel; as tall as what is left of it (its axis labels and legend included), within
    // 150-230 px, the panel scrolling below that.
    const ImVec2 avail = ImGui::GetContentRegionAvail();
    const float w = std::max(200.0f, avail.x - 60), h = std::clamp(avail.y - 60, 150.0f, 230.0f);
    ImVec2 p0(origin.x + 50, origin.y + 8), p1(p0.x + w, p0.y + h);
    // The measured table's busbw at each row (same size and bus factor, its own time).
    const std::vector<double>& meas = hs.comparison().measured_us;
    auto measured_busbw = [&](size_t i) {
        return i < meas.size() && meas[i] > 0 ? rows[i].busbw_gbs * rows[i].time_us / meas[i] : -1.0;
    };
    double ymax = 1;
    for (size_t i = 0; i < rows.size(); ++i)
        ymax = std::max({ymax, rows[i].busbw_gbs, measured_busbw(i)});
    ymax *= 1.15;
    double lo = std::log2(double(rows.front().size_bytes)), hi = std::log2(double(rows.back().size_bytes));
    if (hi <= lo) hi = lo + 1;
    auto fx = [&](double s) { return p0.x + float((std::log2(s) - lo) / (hi - lo)) * w; };
    auto fy = [&](double v) { return p1.y - float(std::min(v, ymax) / ymax) * h; };
    dl->AddRect(p0, p1, IM_COL32(140, 140, 140, 255));
    char buf[64];
    for (int k = 0; k <= 4; ++k) {
        double v = ymax * k / 4;
        std::snprintf(buf, sizeof buf, "%.0f", v);
        dl->AddText(ImVec2(origin.x, fy(v) - 7), IM_COL32(200, 200, 200, 255), buf);
        dl->AddLine(ImVec2(p0.x, fy(v)), ImVec2(p1.x, fy(v)), IM_COL32(70, 70, 70, 255));
    }
    for (size_t i = 0; i < rows.size(); i += 4) {
        float x = fx(double(rows[i].size_bytes));
        dl->AddText(ImVec2(x - 8, p1.y + 3), IM_COL32(200, 200, 200, 255),
                    human_size(double(rows[i].size_bytes)).c_str());
    }
    dl->AddText(ImVec2(p0.x + 4, p0.y + 2), IM_COL32(200, 200, 200, 255), "busbw GB/s");
    const auto& ref = hs.reference_rows();
    for (size_t i = 1; i < ref.size(); ++i)
        dl->AddLine(ImVec2(fx(double(ref[i - 1].size_bytes)), fy(ref[i - 1].busbw_gbs)),
                    ImVec2(fx(double(ref[i].size_bytes)), fy(ref[i].busbw_gbs)), IM_COL32(150, 150, 150, 255),
                    1.5f);
    for (size_t i = 1; i < rows.size(); ++i)
        dl->AddLine(ImVec2(fx(double(rows[i - 1].size_bytes)), fy(rows[i - 1].busbw_gbs)),
                    ImVec2(fx(double(rows[i].size_bytes)), fy(rows[i].busbw_gbs)),
                    IM_COL32(90, 160, 240, 255), 2.0f);
    const ImU32 kMeasured = IM_COL32(240, 110, 60, 255);
    for (size_t i = 0; i < rows.size(); ++i) { // measured: orange rings joined by a thin line
        const double b = measured_busbw(i);
        if (b < 0) continue;
        const ImVec2 at(fx(double(rows[i].size_bytes)), fy(b));
        dl->AddCircle(at, 4.5f, kMeasured, 0, 1.5f);
        if (i > 0 && measured_busbw(i - 1) >= 0)
            dl->AddLine(ImVec2(fx(double(rows[i - 1].size_bytes)), fy(measured_busbw(i - 1))), at, kMeasured,
                        1.0f);
    }
    for (const auto& r : rows) {
        int pi = r.choice.proto == config::NcclProto::LL      ? 0
                 : r.choice.proto == config::NcclProto::LL128 ? 1
                                                              : 2;
        dl->AddCircleFilled(ImVec2(fx(double(r.size_bytes)), fy(r.busbw_gbs)), 3.5f, kProto[pi]);
    }
    ImGui::InvisibleButton("busbw_chart", ImVec2(w + 60, h + 24));
    remember(view, "chart");
    if (ImGui::IsItemHovered()) {
        float mx = ImGui::GetIO().MousePos.x;
        const CollectivePerfRow* best = &rows.front();
        for (const auto& r : rows)
            if (std::fabs(fx(double(r.size_bytes)) - mx) < std::fabs(fx(double(best->size_bytes)) - mx))
                best = &r;
        view.hardware_hover = static_cast<int64_t>(best->size_bytes);
        const size_t bi = static_cast<size_t>(best - rows.data());
        char measured[96] = "";
        if (measured_busbw(bi) >= 0)
            std::snprintf(measured, sizeof measured, "\nmeasured %.2f us, busbw %.3g GB/s (%+.1f %%)",
                          meas[bi], measured_busbw(bi), 100 * (best->time_us - meas[bi]) / meas[bi]);
        ImGui::SetTooltip("%s B: %.2f us, busbw %.3g GB/s\n%s / %s%s%s",
                          human_size(double(best->size_bytes)).c_str(), best->time_us, best->busbw_gbs,
                          config::nccl_algo_name(best->choice.algo),
                          config::nccl_proto_name(best->choice.proto),
                          best->choice.by_aws_map ? " (aws-ofi-nccl's map)" : "", measured);
    }
    ImGui::TextColored(ImColor(kProto[0]), "LL");
    ImGui::SameLine();
    ImGui::TextColored(ImColor(kProto[1]), "LL128");
    ImGui::SameLine();
    ImGui::TextColored(ImColor(kProto[2]), "Simple");
    ImGui::SameLine();
    ImGui::TextDisabled(hs.reference_rows().empty() ? "" : "  grey: ASTRA-sim HGX-H100-validated");
    if (!meas.empty()) {
        ImGui::SameLine();
        ImGui::TextColored(ImColor(kMeasured), "  rings: measured");
    }
}

} // namespace

// [SECTION] panel
void draw_hardware_panel(App& app, View& view, Platform& platform) {
    HardwareState& hs = view.hardware;
    config::HardwareConfig& hw = hs.hardware();
    bool changed = false;

    std::vector<std::string> presets;
    for (const auto& p : hardware_presets())
        presets.push_back(p.name);
    // An edited preset shows as "<name> (edited)"; picking the preset again restores it.
    int preset = hs.edited() ? -1 : hs.preset();
    const std::string shown = hs.description_name();
    // Wide enough for the longest name with " (edited)".
    if (combo(view, "preset", "preset", preset, presets, shown.c_str(), 310)) hs.load_preset(preset);
    // The scenario runs on this system (run --hardware): its network and system give way to it.
    ImGui::SameLine();
    const bool usable = hs.problems().is_ok();
    if (!usable) ImGui::BeginDisabled();
    if (ImGui::Button("Use in scenario")) use_hardware_in_scenario(app, view);
    if (!usable) ImGui::EndDisabled();
    remember(view, "hardware:use_in_scenario");
    if (ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled))
        ImGui::SetTooltip(
            "run the scenario's workload on this system: each collective timed as NCCL runs it\n"
            "(its network and system give way; the scenario panel's Hardware section brings\n"
            "them back)");
    // The curve as a link (the system, collective, type, reduction and sizes): opening it restores this tab,
    // and `astrolabe collective-perf --link` prints the same rows.
    // A link holds the curve's arguments, not a measured table, so it is not offered beside one.
    ImGui::SameLine();
    const bool shareable = usable && !hs.has_measured();
    if (!shareable) ImGui::BeginDisabled();
    if (ImGui::Button("Share curve")) publish_share(view, platform, hs.share_fragment());
    if (!shareable) ImGui::EndDisabled();
    remember(view, "hardware:share");
    if (hs.has_measured() && ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled))
        ImGui::SetTooltip("a link does not carry the measured table: clear it to share the curve");
    // The user's own nccl-tests output beside the curve (collective-perf --measured).
    ImGui::SameLine();
    if (ImGui::Button("Compare measured...")) platform.open_measured_file();
    remember(view, "hardware:measured");
    if (ImGui::IsItemHovered())
        ImGui::SetTooltip("an nccl-tests output measured on this system (what all_reduce_perf printed):\n"
                          "its sizes, type and reduction run here, each row beside its measured time\n"
                          "(or drop the .log, .txt, .out or .csv file on the page)");

    // The description in two columns (the GPUs and NICs, then the software that drives them), so the
    // chart below stays in view with every EFA key showing.
    const bool table = ImGui::BeginTable("description", 2, ImGuiTableFlags_SizingStretchSame);
    if (table) ImGui::TableNextColumn();

    int gpu = static_cast<int>(hw.gpu);
    if (key_combo(view, "gpu", gpu)) {
        hw.gpu = static_cast<config::GpuModel>(gpu);
        config::set_datasheet_compute(hw); // another GPU, its own compute figures
        config::set_platform_defaults(hw); // and the platform that carries it: hosts, EFA transport, tuner
        changed = true;
    }
    int nodes = static_cast<int>(hw.nodes), gpn = static_cast<int>(hw.gpus_per_node);
    int nics = static_cast<int>(hw.nics_per_node);
    ImGui::SetNextItemWidth(field_width(200));
    if (ImGui::InputInt("nodes", &nodes))
        hw.nodes = static_cast<uint32_t>(std::clamp(nodes, 1, 1024)), changed = true;
    remember(view, "nodes");
    ImGui::SetNextItemWidth(field_width(200));
    if (ImGui::InputInt("gpus_per_node", &gpn))
        hw.gpus_per_node = static_cast<uint32_t>(std::clamp(gpn, 1, 8)), changed = true;
    remember(view, "gpus_per_node");
    if (ImGui::Checkbox("nvls (NVLink SHARP)", &hw.nvls)) changed = true;
    remember(view, "nvls");
    ImGui::SetNextItemWidth(field_width(200));
    if (ImGui::InputInt("nics_per_node", &nics))
        hw.nics_per_node = static_cast<uint32_t>(std::clamp(nics, 1, 64)), changed = true;
    remember(view, "nics_per_node");
    ImGui::SetNextItemWidth(field_width(200));
    if (ImGui::InputDouble("nic_gbps", &hw.nic_gbps, 100, 100, "%.0f")) changed = true;
    remember(view, "nic_gbps");
    // The fraction of line rate the cluster's collectives reach: the fabric's figure until set (by hand or
    // by Fit net_efficiency beside a measured table).
    {
        double fraction = hw.net_efficiency > 0 ? hw.net_efficiency : hardware::fabric_efficiency(hw.fabric);
        ImGui::SetNextItemWidth(field_width(200));
        if (ImGui::InputDouble("net_efficiency", &fraction, 0.01, 0.05, "%.3f"))
            hw.net_efficiency = std::clamp(fraction, 0.05, 1.0), changed = true;
        remember(view, "net_efficiency");
        if (ImGui::IsItemHovered())
            ImGui::SetTooltip(
                "fraction of the NICs' line rate the collectives' rings and trees reach across\n"
                "nodes; %s's figure is %.3f (all-to-all keeps it). Fit it to a measured table\n"
                "with Compare measured..., then Fit net_efficiency",
                config::fabric_name(hw.fabric), hardware::fabric_efficiency(hw.fabric));
        if (hw.net_efficiency > 0) {
            ImGui::SameLine();
            if (ImGui::SmallButton("default##net_efficiency")) hw.net_efficiency = 0, changed = true;
            remember(view, "hardware:net_efficiency_default");
        }
    }
    if (table) ImGui::TableNextColumn();
    int fabric = static_cast<int>(hw.fabric), procs = static_cast<int>(hw.processes);
    if (key_combo(view, "fabric", fabric)) {
        hw.fabric = static_cast<config::Fabric>(fabric);
        hw.tuner = config::default_nccl_tuner(hw.gpu, hw.fabric);
        hw.cpu = config::default_cpu(hw.gpu, hw.fabric);
        if (hw.fabric != config::Fabric::Infiniband) hw.collnet = false; // SHARP is InfiniBand's
        changed = true;
    }
    if (key_combo(view, "processes", procs))
        hw.processes = static_cast<config::ProcessLayout>(procs), changed = true;
    if (hw.fabric == config::Fabric::Efa) { // AWS's plugin only: the description rejects it elsewhere
        int et = static_cast<int>(hw.efa_transport);
        if (key_combo(view, "efa_transport", et))
            hw.efa_transport = static_cast<config::EfaTransport>(et), changed = true;
        int tu = static_cast<int>(hw.tuner);
        if (key_combo(view, "nccl_tuner", tu)) hw.tuner = static_cast<config::NcclTuner>(tu), changed = true;
    }
    int cpu = static_cast<int>(hw.cpu);
    if (key_combo(view, "cpu", cpu)) hw.cpu = static_cast<config::CpuVendor>(cpu), changed = true;
    int algo = static_cast<int>(hw.algo);
    if (key_combo(view, "nccl_algo", algo)) hw.algo = static_cast<config::NcclAlgo>(algo), changed = true;
    int proto = static_cast<int>(hw.proto); // NCCL_PROTO
    if (key_combo(view, "nccl_proto", proto))
        hw.proto = static_cast<config::NcclProto>(proto), changed = true;
    // NCCL_BUFFSIZE: the first entry is the fabric's default (8M on EFA and TCPXO, NCCL's 4M elsewhere).
    {
        static const uint32_t kSizes[] = {1u << 20, 2u << 20, 4u << 20, 8u << 20, 16u << 20, 32u << 20};
        std::vector<std::string> names = {"default (" +
                                          nccl_size_text(config::default_nccl_buffsize(hw.fabric)) + ")"};
        int bs = hw.nccl_buffsize == 0 ? 0 : -1;
        for (uint32_t v : kSizes) {
            if (v == hw.nccl_buffsize) bs = static_cast<int>(names.size());
            names.push_back(nccl_size_text(v));
        }
        if (combo(view, "nccl_buffsize", "nccl_buffsize", bs, names,
                  nccl_size_text(hw.nccl_buffsize).c_str())) {
            hw.nccl_buffsize = bs == 0 ? 0 : kSizes[bs - 1];
            changed = true;
        }
    }
    if (hw.fabric == config::Fabric::Infiniband) { // SHARP switches: the description rejects it elsewhere
        if (ImGui::Checkbox("collnet (IB SHARP)", &hw.collnet)) changed = true;
        remember(view, "collnet");
    }
    if (table) ImGui::EndTable();
    ImGui::Separator();
    int op = static_cast<int>(hs.op());
    if (combo(view, "collective", "collective", op,
              {"all_reduce", "all_gather", "reduce_scatter", "all_to_all"}, "", 160))
        hs.op() = static_cast<hardware::CollOp>(op), changed = true;
    // nccl-tests' -d and -o: the reduction decides whether NVLink SHARP can run it (nvls_reduces).
    // On the collective's line: the three are what nccl-tests' command line names. A measured table fixes
    // the type, the reduction and the sizes (its own) until it is cleared.
    const bool fixed = hs.has_measured();
    int type = static_cast<int>(hs.type());
    ImGui::SameLine();
    if (fixed) ImGui::BeginDisabled();
    if (combo(view, "type", "type", type, hardware::nccl_type_names(), "", 110))
        hs.type() = static_cast<hardware::NcclType>(type), changed = true;
    if (hardware::coll_op_reduces(hs.op())) {
        int red = static_cast<int>(hs.red_op());
        ImGui::SameLine();
        if (combo(view, "redop", "redop", red, hardware::nccl_red_op_names(), "", 80))
            hs.red_op() = static_cast<hardware::NcclRedOp>(red), changed = true;
    }
    // The sizes, in nccl-tests' -b/-e spellings: "sizes [8] to [16G]". Each keystroke recomputes (a bad
    // size shows its problem instead of the curve).
    auto size_field = [&](const char* id, const char* flag, std::string& text) {
        char buf[24];
        std::snprintf(buf, sizeof buf, "%s", text.c_str());
        ImGui::SetNextItemWidth(70);
        if (ImGui::InputText((std::string("##") + id).c_str(), buf, sizeof buf)) text = buf, changed = true;
        remember(view, (std::string("hardware:") + id).c_str());
        if (ImGui::IsItemHovered()) ImGui::SetTooltip("nccl-tests' %s: 8, 64K, 16G", flag);
    };
    ImGui::AlignTextToFramePadding();
    ImGui::TextUnformatted("sizes");
    ImGui::SameLine();
    size_field("from", "-b", hs.min_size());
    ImGui::SameLine();
    ImGui::TextUnformatted("to");
    ImGui::SameLine();
    size_field("to", "-e", hs.max_size());
    if (fixed) ImGui::EndDisabled();
    ImGui::SameLine();
    if (ImGui::Checkbox("ASTRA-sim HGX-H100-validated for contrast", &hs.reference())) changed = true;
    remember(view, "reference");
    if (fixed) {
        ImGui::TextUnformatted(("measured: " + hs.measured_name()).c_str());
        ImGui::SameLine();
        if (ImGui::SmallButton("Clear measured")) hs.clear_measured(), changed = false;
        remember(view, "hardware:clear_measured");
        // collective-perf --fit: the description's net_efficiency from the table's ring rows.
        ImGui::SameLine();
        if (ImGui::SmallButton("Fit net_efficiency")) {
            if (changed) hs.changed(), changed = false; // fit the form as it shows now
            hs.fit_measured();
        }
        remember(view, "hardware:fit");
        if (ImGui::IsItemHovered())
            ImGui::SetTooltip("set net_efficiency to what brings this table's ring rows closest\n"
                              "(collective-perf --measured FILE --fit OUT)");
    }
    if (changed) hs.changed();

    show_problems(hs.problems().problems());
    if (!hs.fit_problem().empty()) show_problems({"Fit net_efficiency: " + hs.fit_problem()});
    if (const NetEfficiencyFit* fit = hs.fit())
        ImGui::Text(
            "fitted net_efficiency %.3f (was %.3f) on %zu ring rows: geomean |error| %.1f %% -> %.1f %%",
            fit->fitted, fit->previous, fit->sizes.size(), 100 * fit->before.geomean,
            100 * fit->after.geomean);
    if (hs.problems().is_ok() && hs.nvls_unusable()) {
        ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
        ImGui::TextWrapped("NVLink SHARP cannot %s %s (%s): this curve runs without NVLS.",
                           hardware::nccl_red_op_name(hs.red_op()), hardware::nccl_type_name(hs.type()),
                           hardware::kNvlsReductionsText);
        ImGui::PopStyleColor();
    }
    if (!hs.rows().empty()) {
        const auto& big = hs.rows().back();
        ImGui::Text("%u GPUs: %s B in %.1f us, busbw %.1f GB/s (%s/%s%s)", hw.ranks(),
                    human_size(double(big.size_bytes)).c_str(), big.time_us, big.busbw_gbs,
                    config::nccl_algo_name(big.choice.algo), config::nccl_proto_name(big.choice.proto),
                    big.choice.by_aws_map ? ", aws-ofi-nccl's map" : "");
        const MeasuredComparison& cmp = hs.comparison();
        if (hs.has_measured() && !cmp.measured_us.empty()) {
            auto range = [](const MeasuredError& e) {
                char buf[64];
                std::snprintf(buf, sizeof buf, e.rows ? "%.1f %% (%zu rows)" : "- (no rows)", 100 * e.geomean,
                              e.rows);
                return std::string(buf);
            };
            ImGui::Text(
                "vs measured: geomean |error| %s at >= 1 MiB, %s below (issue 20's targets: 5 %%, 15 %%)",
                range(cmp.large).c_str(), range(cmp.small).c_str());
        }
        chart(view, hs);
    }
}

} // namespace astrolabe::ui

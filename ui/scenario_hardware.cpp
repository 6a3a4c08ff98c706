// A scenario on a real system: the Hardware tab's description takes the place of the scenario's network and
// system (`"hardware"` in the scenario, docs/scenario.md), and the scenario panel shows a section over it
// instead of the network and system forms. The run is then `run --hardware`'s: each collective timed as
// NCCL runs it for its op, size and group, compute on the GPU's roofline.
#include "core/config/config_parse.h"
#include "core/hardware/hardware_mapping.h"
#include "ui/doc_fields.h"
#include "ui/ui.h"

#include <imgui.h>

namespace astrolabe::ui {

namespace {
// The keys whose defaults follow the platform the GPU and fabric imply (config::set_platform_defaults):
// a new GPU or fabric drops them, so they take its defaults.
constexpr const char* kPlatformKeys[] = {"cpu", "efa_transport", "nccl_tuner"};

// Puts a JSON section back; a stash the document refuses (it never should: it came from the document)
// is a message, not a silent loss.
void put_back(App& app, const std::string& path, const std::string& text) {
    if (text.empty()) return;
    if (Status st = app.doc().set_json(path, text, "the stashed " + path.substr(1)); !st.is_ok())
        app.set_message(st.message());
}

// The network and system `run --hardware` maps the description onto (hardware_mapping.h map_system): NVLink
// and the GPU's share of the NICs as Switch dimensions, ring algorithms. For a scenario that came with its
// hardware description, so leaving it still gives a network of the same shape to start from.
void write_mapped(App& app, const config::HardwareConfig& hw) {
    auto& doc = app.doc();
    const hardware::MappedSystem m = hardware::map_system(hw);
    const size_t dims = m.network.dims.size();
    std::vector<std::string> topology(dims, "Switch");
    doc.set_string_array("/network/topology", topology);
    for (const char* key : {"/network/npus_count", "/network/bandwidth", "/network/latency"})
        doc.set_array_size(key, 0);
    for (size_t d = 0; d < dims; ++d) {
        const std::string i = std::to_string(d);
        doc.set_number("/network/npus_count/" + i, m.network.dims[d].npus);
        doc.set_number("/network/bandwidth/" + i, m.network.dims[d].bandwidth_gbps);
        doc.set_number("/network/latency/" + i, m.network.dims[d].latency_ns);
    }
    for (int kind = 0; kind < config::kCollectiveKinds; ++kind)
        doc.set_string_array(std::string("/system/") + config::implementation_key(kind),
                             std::vector<std::string>(dims, "ring"));
}

// The stash, when it belongs to the scenario being edited (else it is dropped).
bool have_stash(const App& app, View& view) {
    if (view.stashed_for != app.scenarios_adopted())
        view.stashed_network.clear(), view.stashed_system.clear();
    return !view.stashed_network.empty() || !view.stashed_system.empty();
}

void leave_hardware(App& app, View& view) {
    auto& doc = app.doc();
    auto parsed = config::parse_hardware_json(doc.get_json("/hardware"), "hardware");
    if (have_stash(app, view)) {
        put_back(app, "/network", view.stashed_network);
        put_back(app, "/system", view.stashed_system);
    } else if (parsed.is_ok()) {
        write_mapped(app, parsed.value());
    } else {
        write_mapped(app, config::HardwareConfig{});
    }
    view.stashed_network.clear();
    view.stashed_system.clear();
    doc.erase("/hardware");
    app.doc_changed();
}

} // namespace

void use_hardware_in_scenario(App& app, View& view) {
    auto& doc = app.doc();
    if (!doc.has("/hardware")) { // a second use replaces the description, and keeps the first stash
        view.stashed_network = doc.get_json("/network");
        view.stashed_system = doc.get_json("/system");
        view.stashed_for = app.scenarios_adopted();
    }
    if (Status st = doc.set_json("/hardware", view.hardware.json(), "the Hardware tab"); !st.is_ok()) {
        app.set_message(st.message());
        return;
    }
    doc.erase("/network");
    doc.erase("/system");
    app.doc_changed();
}

void draw_scenario_hardware(App& app, View& view) {
    auto& doc = app.doc();
    const std::string h = "/hardware/";
    auto parsed = config::parse_hardware_json(doc.get_json("/hardware"), "hardware");
    if (parsed.is_ok()) {
        const config::HardwareConfig& hw = parsed.value();
        ImGui::TextWrapped("%u GPUs: %u node(s) x %u %s, %u x %g Gb/s %s per node; each collective timed as "
                           "NCCL runs it",
                           hw.ranks(), hw.nodes, hw.gpus_per_node, config::gpu_model_name(hw.gpu),
                           hw.nics_per_node, hw.nic_gbps, config::fabric_name(hw.fabric));
    }
    const config::HardwareConfig def;
    bool changed = false;
    push_form_width("gpus_per_node");
    if (edit_choice(app, "gpu", h + "gpu", config::hardware_choices("gpu"),
                    config::gpu_model_name(def.gpu))) {
        // Figures that follow the GPU take the new one's defaults (as in the Hardware tab).
        for (const char* k : {"nvls", "peak_tflops", "hbm_gbs"})
            doc.erase(h + k);
        for (const char* k : kPlatformKeys)
            doc.erase(h + k);
        changed = true;
    }
    changed |= edit_number(app, "nodes", h + "nodes", def.nodes, true);
    remember(view, "scenario:hardware:nodes");
    changed |= edit_number(app, "gpus_per_node", h + "gpus_per_node", def.gpus_per_node, true);
    changed |= edit_number(app, "nics_per_node", h + "nics_per_node",
                           doc.get_number(h + "gpus_per_node", def.gpus_per_node), true);
    changed |=
        edit_number(app, "nic_gbps", h + "nic_gbps", parsed.is_ok() ? parsed.value().nic_gbps : 400, false);
    remember(view, "scenario:hardware:nic_gbps");
    if (edit_choice(app, "fabric", h + "fabric", config::hardware_choices("fabric"),
                    config::fabric_name(def.fabric), &view, "scenario:hardware:fabric")) {
        for (const char* k : kPlatformKeys) // a p5's AMD hosts on EFA
            doc.erase(h + k);
        changed = true;
    }
    changed |=
        edit_bool(app, "nvls (NVLink SHARP)", h + "nvls", parsed.is_ok() ? parsed.value().nvls : def.nvls);
    changed |= edit_choice(app, "nccl_algo", h + "nccl_algo", config::hardware_choices("nccl_algo"), "auto");
    ImGui::PopItemWidth();
    if (changed) app.doc_changed();
    show_problems(app.problems_for("hardware", ""));

    if (!parsed.is_ok()) ImGui::BeginDisabled(); // the tab edits a valid description; mend it here first
    if (ImGui::SmallButton("Edit in the Hardware tab")) {
        view.hardware.load(parsed.value());
        view.select_tab = "Hardware";
    }
    if (!parsed.is_ok()) ImGui::EndDisabled();
    if (ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled))
        ImGui::SetTooltip("every key, presets, and nccl-tests' busbw chart; Use in scenario brings it back");
    remember(view, "scenario:hardware_edit");
    ImGui::SameLine();
    if (ImGui::SmallButton("Network and system instead")) {
        leave_hardware(app, view);
        return;
    }
    remember(view, "scenario:hardware_leave");
    if (ImGui::IsItemHovered())
        ImGui::SetTooltip(
            !have_stash(app, view)
                ? "drop the description: the network and system it maps onto (NVLink, the NICs;\n"
                  "ring algorithms) take its place, without NCCL's timing"
                : "drop the description: the network and system it replaced come back");
}

} // namespace astrolabe::ui

// The scenario panel: where the workload comes from, the model choices, and forms over the network, system
// and memory sections of the scenario JSON. Every edit goes straight into the document and is re-validated
// by the CLI's own parser; its messages appear under the field they name.
#include "ui/ui.h"

#include <imgui.h>

#include <cstring>

namespace astrolabe::ui {

namespace {

const char* kTopologies[] = {"Ring", "FullyConnected", "Switch"};
const char* kAlgorithms[] = {"ring", "direct", "halvingDoubling", "doubleBinaryTree"};
const char* kPolicies[] = {"LIFO", "FIFO", "EXPLICIT"};
const char* kOptimizations[] = {"baseline", "localBWAware"};
const char* kMemoryTypes[] = {"NO_MEMORY_EXPANSION", "PER_NODE_MEMORY_EXPANSION", "PER_NPU_MEMORY_EXPANSION",
                              "MEMORY_POOL"};
const char* kNetworkModels[] = {"analytical", "congestion", "flow"};
const char* kComputeModels[] = {"system", "trace", "roofline", "systolic"};
const char* kCollectiveKeys[] = {"all-reduce-implementation", "all-gather-implementation",
                                 "reduce-scatter-implementation", "all-to-all-implementation"};

template <size_t N>
int index_of(const char* (&options)[N], const std::string& v) {
    for (size_t i = 0; i < N; ++i)
        if (v == options[i]) return static_cast<int>(i);
    return -1;
}

// A combo over `options` bound to the string at `path`; a value outside the list is shown as is.
template <size_t N>
bool edit_choice(App& app, const char* label, const std::string& path, const char* (&options)[N],
                 const char* fallback) {
    std::string cur = app.doc().get_string(path, fallback);
    bool changed = false;
    if (ImGui::BeginCombo(label, cur.c_str())) {
        for (size_t i = 0; i < N; ++i) {
            bool selected = cur == options[i];
            if (ImGui::Selectable(options[i], selected) && !selected) {
                app.doc().set_string(path, options[i]);
                changed = true;
            }
        }
        ImGui::EndCombo();
    }
    return changed;
}

// A number field bound to `path`. An absent key shows its default and is written only once edited.
bool edit_number(App& app, const char* label, const std::string& path, double fallback, bool integer) {
    double v = app.doc().get_number(path, fallback);
    bool changed;
    if (integer) {
        int i = static_cast<int>(v);
        changed = ImGui::InputInt(label, &i, 0, 0);
        if (changed) v = i;
    } else {
        changed = ImGui::InputDouble(label, &v, 0, 0, "%.6g");
    }
    if (changed) app.doc().set_number(path, v);
    return changed;
}

void network_section(App& app) {
    auto& doc = app.doc();
    size_t dims = doc.array_size("/network/topology");
    bool changed = false;
    if (ImGui::BeginTable("dims", 5, ImGuiTableFlags_SizingStretchProp | ImGuiTableFlags_BordersInnerH)) {
        ImGui::TableSetupColumn("dim", ImGuiTableColumnFlags_WidthFixed, 28);
        ImGui::TableSetupColumn("topology");
        ImGui::TableSetupColumn("NPUs");
        ImGui::TableSetupColumn("GB/s");
        ImGui::TableSetupColumn("latency ns");
        ImGui::TableHeadersRow();
        for (size_t d = 0; d < dims; ++d) {
            std::string i = std::to_string(d);
            ImGui::PushID(static_cast<int>(d));
            ImGui::TableNextRow();
            ImGui::TableNextColumn();
            ImGui::Text("%zu", d);
            ImGui::TableNextColumn();
            ImGui::SetNextItemWidth(-1);
            changed |= edit_choice(app, "##topo", "/network/topology/" + i, kTopologies, "Ring");
            ImGui::TableNextColumn();
            ImGui::SetNextItemWidth(-1);
            changed |= edit_number(app, "##npus", "/network/npus_count/" + i, 1, true);
            ImGui::TableNextColumn();
            ImGui::SetNextItemWidth(-1);
            changed |= edit_number(app, "##bw", "/network/bandwidth/" + i, 0, false);
            ImGui::TableNextColumn();
            ImGui::SetNextItemWidth(-1);
            changed |= edit_number(app, "##lat", "/network/latency/" + i, 0, false);
            ImGui::PopID();
        }
        ImGui::EndTable();
    }
    // Adding or removing a dimension resizes every per-dimension list together, including the system's
    // algorithm lists, so the scenario stays consistent.
    auto resize = [&](size_t n) {
        for (const char* k :
             {"/network/topology", "/network/npus_count", "/network/bandwidth", "/network/latency"})
            doc.set_array_size(k, n);
        for (const char* k : kCollectiveKeys)
            if (doc.array_size(std::string("/system/") + k) > 0)
                doc.set_array_size(std::string("/system/") + k, n);
        changed = true;
    };
    if (ImGui::SmallButton("+ dimension")) resize(dims + 1);
    if (dims > 1) {
        ImGui::SameLine();
        if (ImGui::SmallButton("- dimension")) resize(dims - 1);
    }
    if (changed) app.doc_changed();
    show_problems(app.problems_for("network", ""));
}

void system_section(App& app) {
    bool changed = false;
    changed |= edit_choice(app, "scheduling-policy", "/system/scheduling-policy", kPolicies, "LIFO");
    changed |= edit_number(app, "endpoint-delay", "/system/endpoint-delay", 10, true);
    changed |=
        edit_number(app, "active-chunks-per-dimension", "/system/active-chunks-per-dimension", 1, true);
    changed |= edit_number(app, "preferred-dataset-splits", "/system/preferred-dataset-splits", 1, true);
    changed |= edit_choice(app, "collective-optimization", "/system/collective-optimization", kOptimizations,
                           "baseline");
    changed |= edit_number(app, "local-mem-bw (GB/s)", "/system/local-mem-bw", 0, false);
    bool roofline = app.doc().get_number("/system/roofline-enabled", 0) != 0;
    if (ImGui::Checkbox("roofline-enabled", &roofline)) {
        app.doc().set_number("/system/roofline-enabled", roofline ? 1 : 0);
        changed = true;
    }
    changed |= edit_number(app, "peak-perf (TFLOPS)", "/system/peak-perf", 0, false);
    size_t dims = app.doc().array_size("/network/topology");
    for (const char* key : kCollectiveKeys) {
        std::string path = std::string("/system/") + key;
        ImGui::PushID(key);
        ImGui::TextUnformatted(key);
        for (size_t d = 0; d < dims; ++d) {
            ImGui::SameLine();
            ImGui::PushID(static_cast<int>(d));
            ImGui::SetNextItemWidth(130);
            if (app.doc().array_size(path) <= d) {
                // Absent or short: ring on every dimension is what the simulator does; writing it fills the
                // list.
                if (ImGui::Button("ring (default)")) {
                    app.doc().set_array_size(path, dims);
                    for (size_t k = 0; k < dims; ++k)
                        if (app.doc().get_string(path + "/" + std::to_string(k)).empty())
                            app.doc().set_string(path + "/" + std::to_string(k), "ring");
                    changed = true;
                }
            } else {
                changed |= edit_choice(app, "##alg", path + "/" + std::to_string(d), kAlgorithms, "ring");
            }
            ImGui::PopID();
        }
        ImGui::PopID();
    }
    if (changed) app.doc_changed();
    show_problems(app.problems_for("system", ""));
}

void memory_section(App& app) {
    bool changed = false;
    changed |= edit_choice(app, "memory-type", "/memory/memory-type", kMemoryTypes, "NO_MEMORY_EXPANSION");
    changed |= edit_number(app, "remote-mem-latency (ns)", "/memory/remote-mem-latency", 0, true);
    changed |= edit_number(app, "remote-mem-bw (GB/s)", "/memory/remote-mem-bw", 0, true);
    changed |= edit_number(app, "num-nodes", "/memory/num-nodes", 1, true);
    changed |= edit_number(app, "num-npus-per-node", "/memory/num-npus-per-node", 1, true);
    if (changed) app.doc_changed();
    show_problems(app.problems_for("memory", ""));
}

void json_section(App& app, View& view) {
    if (!view.json_dirty) view.json_text = app.doc().dump(2);
    // The buffer grows with the text; ImGui writes into it in place.
    view.json_text.reserve(view.json_text.size() + 4096);
    std::vector<char> buf(view.json_text.begin(), view.json_text.end());
    buf.resize(view.json_text.size() + 4096, '\0');
    if (ImGui::InputTextMultiline("##json", buf.data(), buf.size(), ImVec2(-1, 260))) {
        view.json_text = buf.data();
        view.json_dirty = true;
    }
    if (view.json_dirty) {
        if (ImGui::Button("Apply JSON")) {
            if (app.load_scenario_text(view.json_text, "edited JSON").is_ok()) view.json_dirty = false;
        }
        ImGui::SameLine();
        if (ImGui::Button("Revert")) view.json_dirty = false;
    }
}

} // namespace

void draw_scenario_panel(App& app, View& view, Platform& platform) {
    const auto& samples = app.samples();
    if (!samples.empty()) {
        if (view.sample >= static_cast<int>(samples.size())) view.sample = 0;
        // Follow a sample loaded from elsewhere (a link, the JS API) so the picker shows what is loaded.
        const std::string loaded = app.doc().get_string("/workload/sample");
        for (size_t i = 0; i < samples.size(); ++i)
            if (samples[i].name == loaded && app.scenario_source() == "sample " + loaded)
                view.sample = static_cast<int>(i);
        ImGui::SetNextItemWidth(220);
        if (ImGui::BeginCombo("##sample", samples[view.sample].name.c_str())) {
            for (size_t i = 0; i < samples.size(); ++i) {
                std::string label = samples[i].name + "  (" + samples[i].summary + ")";
                if (ImGui::Selectable(label.c_str(), static_cast<int>(i) == view.sample))
                    view.sample = static_cast<int>(i);
            }
            ImGui::EndCombo();
        }
        ImGui::SameLine();
        if (ImGui::Button("Load sample")) app.load_sample(samples[view.sample].name);
    }
    if (ImGui::Button("Open .et files...")) platform.open_trace_files();
    ImGui::SameLine();
    if (ImGui::Button("Open scenario JSON...")) platform.open_scenario_file();
    ImGui::TextDisabled("or drop .et / .json files on the page");
    ImGui::Separator();
    ImGui::Text("Scenario: %s", app.scenario_source().c_str());
    ImGui::Text("Workload: %s", app.doc().workload_summary().c_str());
    show_problems(app.problems_for("workload", ""));

    bool changed = false;
    ImGui::SetNextItemWidth(160);
    changed |= edit_choice(app, "network model", "/network_model", kNetworkModels, "analytical");
    ImGui::SetNextItemWidth(160);
    changed |= edit_choice(app, "compute model", "/compute_model", kComputeModels, "system");
    if (changed) app.doc_changed();
    show_problems(app.problems_for("network_model", ""));
    show_problems(app.problems_for("compute_model", ""));

    if (ImGui::CollapsingHeader("Network", ImGuiTreeNodeFlags_DefaultOpen)) network_section(app);
    if (ImGui::CollapsingHeader("System", ImGuiTreeNodeFlags_DefaultOpen)) system_section(app);
    if (ImGui::CollapsingHeader("Memory")) memory_section(app);
    if (ImGui::CollapsingHeader("Scenario JSON")) json_section(app, view);
    // Problems no field above shows (e.g. a key the forms do not cover).
    if (!app.validation().is_ok() && ImGui::CollapsingHeader("All problems", ImGuiTreeNodeFlags_DefaultOpen))
        show_problems(app.validation().problems());
}

} // namespace astrolabe::ui

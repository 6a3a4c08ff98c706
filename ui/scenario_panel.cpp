// The scenario panel: where the workload comes from, the model choices, and forms over the network, system
// and memory sections of the scenario JSON. Every edit goes straight into the document and is re-validated
// by the CLI's own parser; its messages appear under the field they name.
#include "core/config/hardware_types.h"
#include "core/generate/transformer_params.h"
#include "core/session/generated_workload.h"
#include "ui/doc_fields.h"
#include "ui/table_header.h"
#include "ui/ui.h"

#include <imgui.h>

#include <algorithm>
#include <cstring>

namespace astrolabe::ui {

namespace {

void network_section(App& app) {
    auto& doc = app.doc();
    size_t dims = doc.array_size("/network/topology");
    bool changed = false;
    // Explicit stretch weights: with weights taken from the contents, the full-width fields (-1) fed back
    // into the column widths and the columns shrank frame after frame ("Switch" became "Switc").
    if (ImGui::BeginTable("dims", 5, ImGuiTableFlags_SizingStretchSame | ImGuiTableFlags_BordersInnerH)) {
        table_header({"dim", "topology", "NPUs", "GB/s", "latency ns"}, {-28, 1.7, 0.8, 1, 1});
        for (size_t d = 0; d < dims; ++d) {
            std::string i = std::to_string(d);
            ImGui::PushID(static_cast<int>(d));
            ImGui::TableNextRow();
            ImGui::TableNextColumn();
            ImGui::Text("%zu", d);
            ImGui::TableNextColumn();
            ImGui::SetNextItemWidth(-1);
            changed |=
                edit_choice(app, "##topo", "/network/topology/" + i, choices<config::Topology>(), "Ring");
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
        for (int kind = 0; kind < config::kCollectiveKinds; ++kind) {
            const std::string path = std::string("/system/") + config::implementation_key(kind);
            if (doc.array_size(path) > 0) doc.set_array_size(path, n);
        }
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
    push_form_width("active-chunks-per-dimension");
    changed |= edit_choice(app, "scheduling-policy", "/system/scheduling-policy",
                           choices<config::SchedulingPolicy>(), "LIFO");
    changed |= edit_number(app, "endpoint-delay", "/system/endpoint-delay", 10, true);
    changed |=
        edit_number(app, "active-chunks-per-dimension", "/system/active-chunks-per-dimension", 1, true);
    changed |= edit_number(app, "preferred-dataset-splits", "/system/preferred-dataset-splits", 1, true);
    changed |= edit_choice(app, "collective-optimization", "/system/collective-optimization",
                           choices<config::CollectiveOptimization>(), "baseline");
    changed |= edit_number(app, "local-mem-bw (GB/s)", "/system/local-mem-bw", 0, false);
    bool roofline = app.doc().get_number("/system/roofline-enabled", 0) != 0;
    if (ImGui::Checkbox("roofline-enabled", &roofline)) {
        app.doc().set_number("/system/roofline-enabled", roofline ? 1 : 0);
        changed = true;
    }
    changed |= edit_number(app, "peak-perf (TFLOPS)", "/system/peak-perf", 0, false);
    ImGui::PopItemWidth();
    size_t dims = app.doc().array_size("/network/topology");
    // The key on its own line and one choice per dimension below it, sized to fit the panel.
    const float spacing = ImGui::GetStyle().ItemSpacing.x;
    for (int kind = 0; kind < config::kCollectiveKinds; ++kind) {
        const char* key = config::implementation_key(kind);
        std::string path = std::string("/system/") + key;
        ImGui::PushID(key);
        ImGui::TextUnformatted(key);
        ImGui::Indent();
        const float each =
            std::max(60.0f, std::min(150.0f, (ImGui::GetContentRegionAvail().x - spacing * float(dims)) /
                                                 float(dims ? dims : 1)));
        for (size_t d = 0; d < dims; ++d) {
            if (d) ImGui::SameLine();
            ImGui::PushID(static_cast<int>(d));
            ImGui::SetNextItemWidth(each);
            if (app.doc().array_size(path) <= d) {
                // Absent or short: ring on every dimension is what the simulator does; writing it fills the
                // list.
                if (ImGui::Button("ring (default)", ImVec2(each, 0))) {
                    app.doc().set_array_size(path, dims);
                    for (size_t k = 0; k < dims; ++k)
                        if (app.doc().get_string(path + "/" + std::to_string(k)).empty())
                            app.doc().set_string(path + "/" + std::to_string(k), "ring");
                    changed = true;
                }
            } else {
                changed |= edit_choice(app, "##alg", path + "/" + std::to_string(d),
                                       choices<config::CollectiveAlgorithm>(), "ring");
            }
            ImGui::PopID();
        }
        ImGui::Unindent();
        ImGui::PopID();
    }
    if (changed) app.doc_changed();
    show_problems(app.problems_for("system", ""));
}

void memory_section(App& app) {
    bool changed = false;
    push_form_width("remote-mem-latency (ns)");
    struct PopWidth {
        ~PopWidth() { ImGui::PopItemWidth(); }
    } pop_width; // two return paths below
    changed |= edit_choice(app, "memory-type", "/memory/memory-type", choices<config::MemoryType>(),
                           "NO_MEMORY_EXPANSION");
    if (app.doc().get_string("/memory/memory-type") == "LOCAL_MEMORY") {
        changed |= edit_number(app, "local-mem-latency (ns)", "/memory/local-mem-latency", 0, true);
        changed |= edit_number(app, "local-mem-bw (GB/s)", "/memory/local-mem-bw", 0, true);
        if (changed) app.doc_changed();
        show_problems(app.problems_for("memory", ""));
        return;
    }
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

// The compute model: a name, or for the systolic array the object form with its parameters.
bool compute_section(App& app) {
    auto& doc = app.doc();
    const bool object = doc.has("/compute_model/model");
    const std::string model =
        object ? doc.get_string("/compute_model/model") : doc.get_string("/compute_model", "system");
    bool changed = false;
    ImGui::SetNextItemWidth(160);
    if (ImGui::BeginCombo("compute model", model.c_str())) {
        for (const std::string& m : choices<config::ComputeModel>()) {
            if (ImGui::Selectable(m.c_str(), model == m) && model != m) {
                doc.erase("/compute_model");
                if (m == config::name_of(config::ComputeModel::Systolic)) {
                    // The object form, with the defaults the simulator would use, so they are visible.
                    doc.set_string("/compute_model/model", "systolic");
                    doc.set_number("/compute_model/array_rows", 128);
                    doc.set_number("/compute_model/array_cols", 128);
                    doc.set_string("/compute_model/dataflow",
                                   config::name_of(config::SystolicConfig().dataflow));
                    doc.set_number("/compute_model/clock_ghz", 1.0);
                } else {
                    doc.set_string("/compute_model", m);
                }
                changed = true;
            }
        }
        ImGui::EndCombo();
    }
    if (model == "systolic" && object) {
        ImGui::Indent();
        ImGui::SetNextItemWidth(80);
        changed |= edit_number(app, "rows", "/compute_model/array_rows", 128, true);
        ImGui::SameLine();
        ImGui::SetNextItemWidth(80);
        changed |= edit_number(app, "cols", "/compute_model/array_cols", 128, true);
        ImGui::SetNextItemWidth(80);
        changed |= edit_choice(app, "dataflow", "/compute_model/dataflow", choices<config::Dataflow>(), "ws");
        ImGui::SameLine();
        ImGui::SetNextItemWidth(80);
        changed |= edit_number(app, "clock GHz", "/compute_model/clock_ghz", 1.0, false);
        ImGui::Unindent();
    }
    return changed;
}

// The generator's rank order: absent = its default, dp-first (STAGE's), or tp-first when the scenario
// describes real hardware (core/session/generated_source.h run_generate_params). Items are remembered as
// "rank-order" and "rank-order:<item>" for the browser tests.
bool edit_rank_order(App& app, View& view, const std::string& path) {
    static const std::vector<std::string> orders = generate::rank_order_names();
    const std::string cur = app.doc().get_string(path, "");
    const std::string preview = !cur.empty()                 ? cur
                                : app.doc().has("/hardware") ? "tp-first (default here)"
                                                             : "dp-first (default)";
    bool changed = false;
    ImGui::SetNextItemWidth(190);
    const bool open = ImGui::BeginCombo("rank order", preview.c_str());
    remember(view, "rank-order");
    if (ImGui::IsItemHovered() && !open)
        ImGui::SetTooltip(
            "dp-first: STAGE's rank = dp + D (tp + T (sp + C pp)), the default.\n"
            "tp-first: Megatron's rank = tp + T (sp + C (dp + D pp)): a tensor-parallel group on\n"
            "consecutive ranks, i.e. inside a node; the default with a hardware description.");
    if (open) {
        if (ImGui::Selectable("(default)", cur.empty()) && !cur.empty()) {
            app.doc().erase(path);
            changed = true;
        }
        remember(view, "rank-order:(default)");
        for (const auto& o : orders) {
            if (ImGui::Selectable(o.c_str(), cur == o) && cur != o) {
                app.doc().set_string(path, o);
                changed = true;
            }
            remember(view, "rank-order:" + o);
        }
        ImGui::EndCombo();
    }
    return changed;
}

// The generated workload: its parameters are the workload, so a share link carries a whole training step.
// The NPUs the scenario's system has: a hardware description's GPUs (nodes x gpus_per_node, absent keys
// at the description's defaults) or the product of the network's dimensions (0 without any). A
// microbenchmark that names no `npus` spans them (run_generate_params), so its field shows this count
// until the user types one.
double system_npus(const config::ScenarioDoc& doc) {
    if (doc.has("/hardware")) {
        const config::HardwareConfig defaults;
        return doc.get_number("/hardware/nodes", defaults.nodes) *
               doc.get_number("/hardware/gpus_per_node", defaults.gpus_per_node);
    }
    const size_t dims = doc.array_size("/network/npus_count");
    double n = dims ? 1 : 0;
    for (size_t d = 0; d < dims; ++d)
        n *= doc.get_number("/network/npus_count/" + std::to_string(d), 1);
    return n;
}

void generate_section(App& app, View& view) {
    auto& doc = app.doc();
    const std::string g = "/workload/generate/";
    if (!doc.has("/workload/generate")) {
        ImGui::TextWrapped("Describe a workload instead of loading traces: a transformer training step (or "
                           "inference) or a collective microbenchmark, generated when the run starts.");
        bool made = false;
        if (ImGui::Button("Generate a transformer step")) {
            made = true;
            doc.erase("/workload");
            doc.set_string(g + "kind", "transformer");
            for (auto kv : {std::pair<const char*, double>{"layers", 4},
                            {"hidden", 1024},
                            {"heads", 16},
                            {"seq", 1024},
                            {"batch", 8},
                            {"micro-batch", 4},
                            {"dp", 2},
                            {"tp", 2},
                            {"pp", 2},
                            {"dtype-bytes", 2}})
                doc.set_number(g + kv.first, kv.second);
        }
        ImGui::SameLine();
        const bool microbench = ImGui::Button("Generate a microbenchmark");
        remember(view, "scenario:generate_microbench");
        if (microbench) {
            made = true;
            doc.erase("/workload");
            doc.set_string(g + "kind", "microbench");
            doc.set_string(g + "collective", "all_reduce");
            doc.set_string(g + "size", "1MiB"); // no npus: it spans the system (system_npus)
        }
        if (made) {
            // The transformer's plan above needs 8 NPUs; a one-dimensional network follows it.
            if (doc.get_string(g + "kind") == "transformer" && doc.array_size("/network/npus_count") == 1)
                doc.set_number("/network/npus_count/0", 8);
            app.doc_changed();
        }
        return;
    }
    static const std::vector<std::string> kinds = generate_kinds();
    static const std::vector<std::string> collectives = microbench_collectives();
    static const std::vector<std::string> families = generate::model_family_names();
    static const std::vector<std::string> presets = [] {
        std::vector<std::string> v = generate::preset_names();
        v.insert(v.begin(), "(none)");
        return v;
    }();
    bool changed = false;
    ImGui::SetNextItemWidth(140);
    changed |= edit_choice(app, "kind", g + "kind", kinds, "transformer");
    auto num = [&](const char* key, double fallback) {
        ImGui::SetNextItemWidth(90);
        return edit_number(app, key, g + key, fallback, true);
    };
    double npus = 0;
    if (doc.get_string(g + "kind") == "microbench") {
        ImGui::SetNextItemWidth(140);
        changed |= edit_choice(app, "collective", g + "collective", collectives, "all_reduce");
        std::string size = doc.get_string(g + "size", "1MiB");
        char buf[32];
        std::snprintf(buf, sizeof buf, "%s", size.c_str());
        ImGui::SetNextItemWidth(90);
        if (ImGui::InputText("size (e.g. 1MiB)", buf, sizeof buf)) {
            doc.set_string(g + "size", buf);
            changed = true;
        }
        const double all = system_npus(doc);
        changed |= num("npus", all >= 1 ? all : 8);
        changed |= num("repeat", 1);
        changed |= num("compute-us", 0);
        npus = doc.get_number(g + "npus", all >= 1 ? all : 8);
    } else {
        std::string preset = doc.get_string(g + "preset", "(none)");
        ImGui::SetNextItemWidth(140);
        if (ImGui::BeginCombo("preset", preset.c_str())) {
            for (const std::string& p : presets) {
                if (ImGui::Selectable(p.c_str(), preset == p) && preset != p) {
                    if (p == "(none)")
                        doc.erase(g + "preset");
                    else
                        doc.set_string(g + "preset", p);
                    changed = true;
                }
            }
            ImGui::EndCombo();
        }
        ImGui::SetNextItemWidth(140);
        changed |= edit_choice(app, "model", g + "model", families, "gpt");
        // Parameters left out come from the preset (or the generator's defaults); shown as entered.
        changed |= num("layers", 4);
        ImGui::SameLine();
        changed |= num("hidden", 1024);
        changed |= num("heads", 16);
        ImGui::SameLine();
        changed |= num("seq", 512);
        changed |= num("batch", 8);
        ImGui::SameLine();
        changed |= num("micro-batch", 8);
        changed |= num("dp", 1);
        ImGui::SameLine();
        changed |= num("tp", 1);
        changed |= num("pp", 1);
        ImGui::SameLine();
        changed |= num("sp", 1);
        changed |= num("dtype-bytes", 1);
        changed |= edit_flag(app, "weight-sharded (ZeRO-3)", g + "weight-sharded");
        ImGui::SameLine();
        changed |= edit_flag(app, "recompute", g + "recompute");
        // 0 = the default (4 x hidden, as many KV heads as heads), as on the command line.
        changed |= num("ffn", 0);
        if (ImGui::IsItemHovered()) ImGui::SetTooltip("FFN inner size; 0 = 4 x hidden");
        ImGui::SameLine();
        changed |= num("kv-heads", 0);
        if (ImGui::IsItemHovered())
            ImGui::SetTooltip("llama: key/value heads (GQA); 0 = heads. GPT is multi-head");
        changed |= edit_flag(app, "mixed precision", g + "mixed-precision");
        ImGui::SameLine();
        changed |= edit_flag(app, "STAGE compat", g + "stage-compat");
        if (ImGui::IsItemHovered())
            ImGui::SetTooltip("reproduce STAGE @ 3a7f49c: llama without mixed precision = its GPT graph");
        changed |= edit_rank_order(app, view, g + "rank-order"); // last: the fields above keep their places
        npus = doc.get_number(g + "dp", 1) * doc.get_number(g + "tp", 1) * doc.get_number(g + "pp", 1) *
               doc.get_number(g + "sp", 1);
    }
    // A one-dimensional network follows the plan's NPU count; a multi-dimensional one is the user's to shape.
    if (changed && npus >= 1 && doc.array_size("/network/npus_count") == 1)
        doc.set_number("/network/npus_count/0", npus);
    ImGui::TextDisabled(doc.has("/hardware") ? "the plan needs %.0f NPUs; the hardware has %.0f GPUs"
                                             : "the plan needs %.0f NPUs; the network has %.0f",
                        npus, system_npus(doc));
    if (changed) app.doc_changed();
}

} // namespace

void draw_scenario_panel(App& app, View& view, Platform& platform) {
    const auto& samples = app.samples();
    if (!samples.empty()) {
        // The picker follows a sample loaded from elsewhere (a link, the JS API, the Load button), but only
        // when the loaded scenario changes: re-selecting it every frame would undo the user's pick before
        // Load sample is pressed. A scenario that is not a bundled sample (a link, files) leaves the picker
        // empty rather than naming a sample that is not loaded.
        if (app.scenario_source() != view.picker_source) {
            view.picker_source = app.scenario_source();
            view.sample = -1;
            for (size_t i = 0; i < samples.size(); ++i)
                if (view.picker_source == "sample " + samples[i].name) view.sample = static_cast<int>(i);
        }
        if (view.sample >= static_cast<int>(samples.size())) view.sample = -1;
        ImGui::SetNextItemWidth(220);
        const char* preview =
            view.sample >= 0 ? samples[static_cast<size_t>(view.sample)].name.c_str() : "(choose a sample)";
        if (ImGui::BeginCombo("##sample", preview)) {
            for (size_t i = 0; i < samples.size(); ++i) {
                std::string label = samples[i].name + "  (" + samples[i].summary + ")";
                if (ImGui::Selectable(label.c_str(), static_cast<int>(i) == view.sample))
                    view.sample = static_cast<int>(i);
            }
            ImGui::EndCombo();
        }
        ImGui::SameLine();
        const bool none = view.sample < 0;
        if (none) ImGui::BeginDisabled();
        if (ImGui::Button("Load sample")) app.load_sample(samples[static_cast<size_t>(view.sample)].name);
        if (none) ImGui::EndDisabled();
    }
    if (ImGui::Button("Open .et files...")) platform.open_trace_files();
    ImGui::SameLine();
    if (ImGui::Button("Open scenario JSON...")) platform.open_scenario_file();
    ImGui::TextDisabled("or drop .et, .json or nccl-tests .log files on the page");
    ImGui::Separator();
    ImGui::Text("Scenario: %s", app.scenario_source().c_str());
    ImGui::Text("Workload: %s", app.doc().workload_summary().c_str());
    show_problems(app.problems_for("workload", ""));

    bool changed = false;
    ImGui::SetNextItemWidth(160);
    changed |=
        edit_choice(app, "network model", "/network_model", choices<config::NetworkModel>(), "analytical");
    changed |= compute_section(app);
    if (changed) app.doc_changed();
    show_problems(app.problems_for("network_model", ""));
    show_problems(app.problems_for("compute_model", ""));

    const bool generated_open = ImGui::CollapsingHeader(
        "Generated workload", app.doc().has("/workload/generate") ? ImGuiTreeNodeFlags_DefaultOpen : 0);
    remember(view, "scenario:generated");
    if (generated_open) generate_section(app, view);
    // A real system in place of the network and system (scenario_hardware.cpp).
    if (app.doc().has("/hardware")) {
        if (ImGui::CollapsingHeader("Hardware", ImGuiTreeNodeFlags_DefaultOpen))
            draw_scenario_hardware(app, view);
    } else {
        if (ImGui::CollapsingHeader("Network", ImGuiTreeNodeFlags_DefaultOpen)) network_section(app);
        if (ImGui::CollapsingHeader("System", ImGuiTreeNodeFlags_DefaultOpen)) system_section(app);
    }
    if (ImGui::CollapsingHeader("Memory")) memory_section(app);
    if (ImGui::CollapsingHeader("Scenario JSON")) json_section(app, view);
    // Problems no field above shows (e.g. a key the forms do not cover).
    if (!app.validation().is_ok() && ImGui::CollapsingHeader("All problems", ImGuiTreeNodeFlags_DefaultOpen))
        show_problems(app.validation().problems());
}

} // namespace astrolabe::ui

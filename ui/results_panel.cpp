// The results panel: totals, the per-NPU breakdown as stacked bars, the collectives table, the timeline
// and the run's warnings, one tab each.
#include "core/report/warnings.h"
#include "core/trace/trace_types.h"
#include "ui/ui.h"

#include <imgui.h>

#include <algorithm>

namespace astrolabe::ui {

namespace {

// Colours shared by the bars and their legend (and the timeline's compute/communication tracks).
const ImU32 kCompute = IM_COL32(80, 160, 230, 255);
const ImU32 kExposed = IM_COL32(235, 120, 60, 255);
const ImU32 kMemory = IM_COL32(150, 110, 220, 255);
const ImU32 kIdle = IM_COL32(110, 110, 110, 255);

void legend(const char* label, ImU32 colour) {
    ImVec2 p = ImGui::GetCursorScreenPos();
    float h = ImGui::GetTextLineHeight();
    ImGui::GetWindowDrawList()->AddRectFilled(p, ImVec2(p.x + h, p.y + h), colour);
    ImGui::Dummy(ImVec2(h, h));
    ImGui::SameLine();
    ImGui::TextUnformatted(label);
    ImGui::SameLine(0, 18);
}

void summary_tab(const App& app) {
    const RunResult& r = *app.result();
    const auto& npus = r.stats.npus;
    ImGui::Text("total %s over %zu NPUs%s", format_ns(static_cast<double>(r.total_ns)).c_str(), npus.size(),
                r.complete ? "" : "  (incomplete: some NPUs did not finish)");
    ImGui::Text("%llu events, %llu network messages, %llu collectives",
                static_cast<unsigned long long>(r.events), static_cast<unsigned long long>(r.messages),
                static_cast<unsigned long long>(r.stats.collectives.size()));
    if (r.simulated_npus > 0 && r.simulated_npus < npus.size())
        ImGui::TextWrapped("symmetry: simulated %u of %zu NPUs, one per class (%s)", r.simulated_npus,
                           npus.size(), r.symmetry.c_str());
    // Where compute time came from: the roofline's bound split, and the systolic array's use of its PEs.
    TimeNs cb = 0, mb = 0;
    uint64_t gemms = 0, cycles = 0;
    double macs = 0;
    for (const auto& s : npus) {
        cb += s.compute_bound_ns, mb += s.memory_bound_ns;
        gemms += s.systolic_nodes, cycles += s.systolic_cycles, macs += s.systolic_macs;
    }
    if (cb + mb > 0)
        ImGui::Text("roofline: %s compute-bound, %s memory-bound (summed over NPUs)",
                    format_ns(double(cb)).c_str(), format_ns(double(mb)).c_str());
    if (r.stats.systolic_pes > 0)
        ImGui::Text("systolic array: %llu GEMM nodes, %.1f %% utilization of %llu PEs",
                    static_cast<unsigned long long>(gemms),
                    cycles ? 100.0 * macs / (double(cycles) * double(r.stats.systolic_pes)) : 0.0,
                    static_cast<unsigned long long>(r.stats.systolic_pes));
    legend("compute", kCompute);
    legend("exposed communication", kExposed);
    legend("memory", kMemory);
    legend("idle", kIdle);
    ImGui::NewLine();

    // One bar per NPU, its length the NPU's finish time against the slowest; the segments are compute,
    // exposed communication (finish minus compute, as ASTRA-sim counts it), remote memory and idle.
    const CriticalPath& cp = app.critical_path();
    if (!cp.steps.empty())
        ImGui::TextWrapped(
            "critical path (Critical path tab): %zu nodes; compute %s, communication %s, memory "
            "%s, waiting %s",
            cp.steps.size(), format_ns(double(cp.compute_ns)).c_str(),
            format_ns(double(cp.communication_ns)).c_str(), format_ns(double(cp.memory_ns)).c_str(),
            format_ns(double(cp.wait_ns)).c_str());
    // The bars' width leaves room for the list's scrollbar, so the axis above lines up with them.
    const float label_w = 70;
    const float width =
        std::max(50.0f, ImGui::GetContentRegionAvail().x - label_w - 8 - ImGui::GetStyle().ScrollbarSize);
    const float row_h = ImGui::GetTextLineHeightWithSpacing();
    const double total = static_cast<double>(std::max<TimeNs>(r.total_ns, 1));
    // The time axis: a bar's length is its NPU's finish time on this scale.
    draw_time_axis(ImGui::GetCursorScreenPos().x + label_w, width, 0.0, total);
    ImGui::BeginChild("bars", ImVec2(0, 0));
    ImGuiListClipper clip;
    clip.Begin(static_cast<int>(npus.size()), row_h);
    ImDrawList* dl = ImGui::GetWindowDrawList();
    while (clip.Step()) {
        for (int i = clip.DisplayStart; i < clip.DisplayEnd; ++i) {
            const NpuStats& s = npus[static_cast<size_t>(i)];
            ImGui::Text("NPU %d", i);
            ImGui::SameLine(label_w);
            ImVec2 p = ImGui::GetCursorScreenPos();
            double parts[] = {static_cast<double>(s.compute_ns), static_cast<double>(s.exposed_comm_ns()),
                              static_cast<double>(s.memory_ns), static_cast<double>(s.idle_ns())};
            const ImU32 colours[] = {kCompute, kExposed, kMemory, kIdle};
            // Memory and idle overlap the other two in time; the bar shows them side by side, scaled so
            // the whole bar is the NPU's finish time.
            double sum = parts[0] + parts[1] + parts[2] + parts[3];
            double scale = sum > 0 ? static_cast<double>(s.finish_ns) / sum : 0;
            float x = p.x;
            for (int k = 0; k < 4; ++k) {
                float w = static_cast<float>(parts[k] * scale / total * width);
                dl->AddRectFilled(ImVec2(x, p.y + 1), ImVec2(x + w, p.y + row_h - 2), colours[k]);
                x += w;
            }
            ImGui::Dummy(ImVec2(width, row_h - ImGui::GetStyle().ItemSpacing.y));
            if (ImGui::IsItemHovered())
                ImGui::SetTooltip(
                    "NPU %d: finish %s\ncompute %s\nexposed communication %s\ncommunication "
                    "(summed per node) %s\nmemory %s\nidle %s\nnodes %llu/%llu",
                    i, format_ns(double(s.finish_ns)).c_str(), format_ns(double(s.compute_ns)).c_str(),
                    format_ns(double(s.exposed_comm_ns())).c_str(), format_ns(double(s.comm_ns)).c_str(),
                    format_ns(double(s.memory_ns)).c_str(), format_ns(double(s.idle_ns())).c_str(),
                    static_cast<unsigned long long>(s.nodes_done), static_cast<unsigned long long>(s.nodes));
        }
    }
    ImGui::EndChild();
}

void collectives_tab(const App& app, View& view) {
    const auto& cs = app.result()->stats.collectives;
    if (cs.empty()) {
        ImGui::TextDisabled("this run has no collectives");
        return;
    }
    const ImGuiTableFlags flags = ImGuiTableFlags_RowBg | ImGuiTableFlags_ScrollY |
                                  ImGuiTableFlags_BordersOuter | ImGuiTableFlags_Resizable;
    if (!ImGui::BeginTable("collectives", 7, flags)) return;
    ImGui::TableSetupScrollFreeze(0, 1);
    for (const char* h : {"#", "type", "bytes", "group", "NPUs", "start", "duration"})
        ImGui::TableSetupColumn(h);
    ImGui::TableHeadersRow();
    ImGuiListClipper clip;
    clip.Begin(static_cast<int>(cs.size()));
    while (clip.Step()) {
        for (int i = clip.DisplayStart; i < clip.DisplayEnd; ++i) {
            const CollectiveRecord& c = cs[static_cast<size_t>(i)];
            ImGui::TableNextRow();
            ImGui::TableNextColumn();
            ImGui::Text("%d", i);
            ImGui::TableNextColumn();
            ImGui::TextUnformatted(trace::collective_type_name(c.type));
            ImGui::TableNextColumn();
            ImGui::Text("%llu", static_cast<unsigned long long>(c.bytes));
            ImGui::TableNextColumn();
            if (c.group_id == 0)
                ImGui::TextUnformatted("all");
            else
                ImGui::Text("%u", c.group_id);
            ImGui::TableNextColumn();
            ImGui::Text("%u", c.npus);
            ImGui::TableNextColumn();
            ImGui::TextUnformatted(format_ns(double(c.start_ns)).c_str());
            ImGui::TableNextColumn();
            ImGui::TextUnformatted(format_ns(double(c.end_ns - c.start_ns)).c_str());
        }
    }
    view.table_scroll_y = ImGui::GetScrollY(); // the table's own scrolling region is current here
    view.table_row_h = ImGui::GetTextLineHeight() + 2 * ImGui::GetStyle().CellPadding.y;
    ImGui::EndTable();
}

void warnings_tab(const App& app) {
    const RunResult& r = *app.result();
    // The report's list: load warnings, modelling notes and unreceived messages, distinct and counted.
    const auto warnings = collect_warnings(app.warnings(), r);
    if (warnings.empty() && r.stuck.empty()) ImGui::TextDisabled("no warnings");
    for (const auto& w : warnings)
        ImGui::TextWrapped("warning (%llu x): %s", static_cast<unsigned long long>(w.count),
                           w.message.c_str());
    for (size_t i = 0; i < r.stuck.size() && i < 50; ++i)
        ImGui::TextWrapped("stuck: NPU %u: %s", r.stuck[i].npu, r.stuck[i].what.c_str());
}

void hardware_tab(App& app, View& view, Platform& platform) {
    // Opened from elsewhere for one frame too (the scenario panel's "Edit in the Hardware tab").
    const bool select = view.select_tab == "Hardware";
    bool open = ImGui::BeginTabItem("Hardware", nullptr, select ? ImGuiTabItemFlags_SetSelected : 0);
    if (open) view.results_tab = "Hardware";
    remember(view, "tab:Hardware");
    if (open) {
        draw_hardware_panel(app, view, platform);
        ImGui::EndTabItem();
    }
}

} // namespace

void draw_results_panel(App& app, View& view, Platform& platform) {
    if (app.phase() == RunPhase::Cancelled && app.result())
        ImGui::TextColored(ImVec4(1, 0.7f, 0.3f, 1), "cancelled: partial results");
    if (ImGui::BeginTabBar("results")) {
        // One tab may be opened from elsewhere (a critical-path row opens the Timeline) for one frame.
        auto tab = [&](const char* name) {
            const bool select = view.select_tab == name;
            const bool open = ImGui::BeginTabItem(name, nullptr, select ? ImGuiTabItemFlags_SetSelected : 0);
            if (open) view.results_tab = name;
            return open;
        };
        // The Search tab (a search of its own, over the scenario being edited).
        auto search_tab = [&] {
            const bool open = tab("Search");
            remember(view, "tab:Search");
            if (open) {
                draw_search_panel(app, view, platform);
                ImGui::EndTabItem();
            }
        };
        // The Hardware and Search tabs need no run; the others show the run's results once there are some.
        if (!app.result()) {
            if (tab("Summary")) {
                ImGui::TextDisabled(app.phase() == RunPhase::Running
                                        ? "running..."
                                        : "Run the scenario to see results here.");
                ImGui::EndTabItem();
            }
            hardware_tab(app, view, platform);
            search_tab();
            if (!view.select_tab.empty() && view.select_tab == view.results_tab) view.select_tab.clear();
            ImGui::EndTabBar();
            return;
        }
        if (tab("Summary")) {
            summary_tab(app);
            ImGui::EndTabItem();
        }
        if (tab("Collectives")) {
            collectives_tab(app, view);
            ImGui::EndTabItem();
        }
        if (tab("Timeline")) {
            draw_timeline(app, view);
            ImGui::EndTabItem();
        }
        if (tab("Critical path")) {
            draw_critical_path(app, view);
            ImGui::EndTabItem();
        }
        if (tab("Network")) {
            draw_network(app, view);
            ImGui::EndTabItem();
        }
        if (tab("Compare")) {
            draw_compare(app);
            ImGui::EndTabItem();
        }
        if (tab("Warnings")) {
            warnings_tab(app);
            ImGui::EndTabItem();
        }
        hardware_tab(app, view, platform);
        search_tab();
        ImGui::EndTabBar();
        if (!view.select_tab.empty() && view.select_tab == view.results_tab) view.select_tab.clear();
    }
}

} // namespace astrolabe::ui

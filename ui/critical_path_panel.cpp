// The Critical path tab: the chain of nodes that set the step time (core/report/critical_path.h), first
// node first, with how each follows the one before. Clicking a row shows that node on the Timeline.
#include "core/trace/trace_types.h"
#include "ui/table_header.h"
#include "ui/ui.h"

#include <imgui.h>

#include <algorithm>

namespace astrolabe::ui {

void draw_critical_path(App& app, View& view) {
    const CriticalPath& cp = app.critical_path();
    if (cp.steps.empty()) {
        ImGui::TextDisabled("no critical path: the run has no timeline records");
        return;
    }
    const auto& graphs = app.session()->simulation().input().graphs;
    std::vector<uint32_t> npus;
    for (const auto& s : cp.steps)
        npus.push_back(s.npu);
    std::sort(npus.begin(), npus.end());
    npus.erase(std::unique(npus.begin(), npus.end()), npus.end());
    ImGui::TextWrapped(
        "%zu nodes on %zu NPU(s) set the total time of %s: compute %s, communication %s, memory "
        "%s, other %s, waiting between them %s. Outlined in white on the Timeline.",
        cp.steps.size(), npus.size(), format_ns(double(cp.end_ns)).c_str(),
        format_ns(double(cp.compute_ns)).c_str(), format_ns(double(cp.communication_ns)).c_str(),
        format_ns(double(cp.memory_ns)).c_str(), format_ns(double(cp.other_ns)).c_str(),
        format_ns(double(cp.wait_ns)).c_str());
    const ImGuiTableFlags flags = ImGuiTableFlags_RowBg | ImGuiTableFlags_ScrollY |
                                  ImGuiTableFlags_BordersOuter | ImGuiTableFlags_Resizable;
    if (!ImGui::BeginTable("critical", 6, flags)) return;
    ImGui::TableSetupScrollFreeze(0, 1);
    table_header({"#", "NPU", "node", "start", "duration", "follows by"}, {-40, -50, 3, 1, 1, 1});
    ImGuiListClipper clip;
    clip.Begin(static_cast<int>(cp.steps.size()));
    while (clip.Step()) {
        for (int i = clip.DisplayStart; i < clip.DisplayEnd; ++i) {
            const CriticalStep& s = cp.steps[static_cast<size_t>(i)];
            const WorkloadGraph& g = graphs[s.npu];
            const GraphNode n = g.node(s.node);
            std::string name = g.name(s.node);
            if (name.empty()) name = std::string(node_kind_name(n.kind)) + " " + std::to_string(n.id);
            if (n.kind == NodeKind::Collective)
                name += std::string(" (") + trace::collective_type_name(n.collective) + ")";
            ImGui::TableNextRow();
            ImGui::TableNextColumn();
            ImGui::PushID(i);
            // The whole row is one selectable: a click zooms the timeline to the node with some context.
            if (ImGui::Selectable(std::to_string(i).c_str(), false, ImGuiSelectableFlags_SpanAllColumns)) {
                const double d = std::max(1.0, double(s.end_ns - s.start_ns));
                view.tl_width = d * 5;
                view.tl_start = std::max(0.0, double(s.start_ns) - d * 2);
                view.select_tab = "Timeline";
            }
            ImGui::PopID();
            ImGui::TableNextColumn();
            ImGui::Text("%u", s.npu);
            ImGui::TableNextColumn();
            ImGui::TextUnformatted(name.c_str());
            ImGui::TableNextColumn();
            ImGui::TextUnformatted(format_ns(double(s.start_ns)).c_str());
            ImGui::TableNextColumn();
            ImGui::TextUnformatted(format_ns(double(s.end_ns - s.start_ns)).c_str());
            ImGui::TableNextColumn();
            ImGui::TextUnformatted(critical_link_name(s.link));
        }
    }
    ImGui::EndTable();
}

} // namespace astrolabe::ui

// The Compare tab: the previous finished run beside the latest, both summaries and each NPU's finish time
// with the difference, so "what if I double this bandwidth" is one edit and one Run away.
#include "ui/ui.h"

#include <imgui.h>

#include <algorithm>

namespace astrolabe::ui {

namespace {

struct Totals {
    double compute = 0, exposed = 0, min_finish = 0, max_finish = 0;
};

Totals totals(const RunSnapshot& r) {
    Totals t;
    if (r.npus.empty()) return t;
    t.min_finish = double(r.npus.front().finish_ns);
    for (const auto& s : r.npus) {
        t.compute += double(s.compute_ns), t.exposed += double(s.exposed_comm_ns());
        t.min_finish = std::min(t.min_finish, double(s.finish_ns));
        t.max_finish = std::max(t.max_finish, double(s.finish_ns));
    }
    t.compute /= double(r.npus.size()), t.exposed /= double(r.npus.size());
    return t;
}

// "+1.25 ms (+12.5 %)", green when faster.
void difference(double before, double after) {
    const double d = after - before;
    const ImVec4 colour = d < 0   ? ImVec4(0.45f, 0.85f, 0.45f, 1)
                          : d > 0 ? ImVec4(1, 0.55f, 0.45f, 1)
                                  : ImVec4(0.8f, 0.8f, 0.8f, 1);
    if (before > 0)
        ImGui::TextColored(colour, "%s%s (%+.1f %%)",
                           d > 0   ? "+"
                           : d < 0 ? "-"
                                   : "",
                           format_ns(std::abs(d)).c_str(), 100.0 * d / before);
    else
        ImGui::TextColored(colour, "%s%s", d > 0 ? "+" : d < 0 ? "-" : "", format_ns(std::abs(d)).c_str());
}

} // namespace

void draw_compare(App& app) {
    const RunSnapshot* before = app.previous_run();
    const RunSnapshot* after = app.current_run();
    if (!before || !after) {
        ImGui::TextWrapped(
            "Run the scenario, change something (a bandwidth, an algorithm, the network model) and "
            "run again: the previous result is kept here beside the new one, with the difference "
            "per NPU.");
        return;
    }
    const Totals a = totals(*before), b = totals(*after);
    const ImGuiTableFlags flags = ImGuiTableFlags_BordersInnerV | ImGuiTableFlags_RowBg;
    if (ImGui::BeginTable("compare_summary", 4, flags)) {
        ImGui::TableSetupColumn("", ImGuiTableColumnFlags_WidthFixed, 150);
        std::string h1 = "run " + std::to_string(before->number) + " (before)";
        std::string h2 = "run " + std::to_string(after->number) + " (latest)";
        ImGui::TableSetupColumn(h1.c_str());
        ImGui::TableSetupColumn(h2.c_str());
        ImGui::TableSetupColumn("difference");
        ImGui::TableHeadersRow();
        auto text_row = [](const char* what, const std::string& x, const std::string& y) {
            ImGui::TableNextRow();
            ImGui::TableNextColumn();
            ImGui::TextUnformatted(what);
            ImGui::TableNextColumn();
            ImGui::TextWrapped("%s", x.c_str());
            ImGui::TableNextColumn();
            ImGui::TextWrapped("%s", y.c_str());
            ImGui::TableNextColumn();
        };
        auto time_row = [&](const char* what, double x, double y) {
            text_row(what, format_ns(x), format_ns(y));
            difference(x, y);
        };
        text_row("scenario", before->label, after->label);
        text_row("models", before->network_model + " network, " + before->compute_model + " compute",
                 after->network_model + " network, " + after->compute_model + " compute");
        text_row("NPUs", std::to_string(before->npus.size()), std::to_string(after->npus.size()));
        time_row("total time", double(before->total_ns), double(after->total_ns));
        time_row("first NPU done", a.min_finish, b.min_finish);
        time_row("mean compute", a.compute, b.compute);
        time_row("mean exposed comm.", a.exposed, b.exposed);
        ImGui::EndTable();
    }
    ImGui::Spacing();
    if (before->npus.size() != after->npus.size()) {
        ImGui::TextDisabled("the runs have different NPU counts: no per-NPU comparison");
        return;
    }
    ImGui::TextUnformatted("finish time per NPU");
    const ImGuiTableFlags list =
        ImGuiTableFlags_RowBg | ImGuiTableFlags_ScrollY | ImGuiTableFlags_BordersOuter;
    if (!ImGui::BeginTable("compare_npus", 4, list)) return;
    ImGui::TableSetupScrollFreeze(0, 1);
    ImGui::TableSetupColumn("NPU", ImGuiTableColumnFlags_WidthFixed, 60);
    ImGui::TableSetupColumn("before");
    ImGui::TableSetupColumn("latest");
    ImGui::TableSetupColumn("difference");
    ImGui::TableHeadersRow();
    ImGuiListClipper clip;
    clip.Begin(static_cast<int>(after->npus.size()));
    while (clip.Step()) {
        for (int i = clip.DisplayStart; i < clip.DisplayEnd; ++i) {
            const double x = double(before->npus[size_t(i)].finish_ns),
                         y = double(after->npus[size_t(i)].finish_ns);
            ImGui::TableNextRow();
            ImGui::TableNextColumn();
            ImGui::Text("%d", i);
            ImGui::TableNextColumn();
            ImGui::TextUnformatted(format_ns(x).c_str());
            ImGui::TableNextColumn();
            ImGui::TextUnformatted(format_ns(y).c_str());
            ImGui::TableNextColumn();
            difference(x, y);
        }
    }
    ImGui::EndTable();
}

} // namespace astrolabe::ui

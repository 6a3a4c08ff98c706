// The run panel: Run / Cancel, progress while the simulation is stepped frame by frame, the status line,
// downloads and the share link.
#include "ui/ui.h"

#include <imgui.h>

namespace astrolabe::ui {

void publish_share(View& view, Platform& platform, const Result<std::string>& fragment) {
    if (fragment.is_ok()) {
        view.share_url = platform.publish_share_link(fragment.value());
        view.share_error.clear();
    } else {
        view.share_url.clear();
        view.share_error = fragment.status().message();
    }
}

void draw_run_panel(App& app, View& view, Platform& platform) {
    const RunPhase phase = app.phase();
    const bool busy = phase == RunPhase::Running || phase == RunPhase::Loading;
    if (busy) {
        if (ImGui::Button("Cancel", ImVec2(90, 0))) app.cancel();
    } else {
        const bool valid = app.validation().is_ok();
        if (!valid) ImGui::BeginDisabled();
        if (ImGui::Button("Run", ImVec2(90, 0))) {
            app.start_run();
            view.tl_width = 0; // fit the new run
        }
        if (!valid) ImGui::EndDisabled();
        if (!valid && ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled))
            ImGui::SetTooltip("fix the scenario's problems first (left panel)");
    }
    ImGui::SameLine();
    char overlay[96];
    std::snprintf(overlay, sizeof overlay, "%.1f%% of nodes", app.progress() * 100.0);
    ImGui::ProgressBar(static_cast<float>(app.progress()), ImVec2(-1, 0), overlay);
    ImGui::Text("%s | %llu events | %.2f M events/s | simulated %s", run_phase_name(phase),
                static_cast<unsigned long long>(app.events()), app.events_per_s() / 1e6,
                format_ns(static_cast<double>(app.sim_now())).c_str());
    if (!app.message().empty())
        ImGui::TextColored(ImVec4(1.0f, 0.45f, 0.4f, 1.0f), "%s", app.message().c_str());

    if (ImGui::Button("Share link")) publish_share(view, platform, app.share_fragment());
    ImGui::SameLine();
    if (ImGui::Button("Scenario JSON"))
        platform.download("scenario.json", "application/json", app.doc().dump(2) + "\n");
    if (app.result()) {
        ImGui::SameLine();
        if (ImGui::Button("Report JSON"))
            platform.download("report.json", "application/json", app.report_json());
        ImGui::SameLine();
        if (ImGui::Button("Timeline (Perfetto)"))
            platform.download("timeline.trace.json", "application/json", app.timeline_json());
    }
    if (!view.share_error.empty())
        ImGui::TextColored(ImVec4(1.0f, 0.7f, 0.3f, 1.0f), "%s", view.share_error.c_str());
    if (!view.share_url.empty()) {
        ImGui::TextDisabled("link (copied):");
        ImGui::SameLine();
        ImGui::SetNextItemWidth(-1);
        ImGui::InputText("##link", view.share_url.data(), view.share_url.size() + 1,
                         ImGuiInputTextFlags_ReadOnly);
    }
}

} // namespace astrolabe::ui

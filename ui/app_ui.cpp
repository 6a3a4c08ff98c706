#include "ui/ui.h"

#include "core/base/time_format.h"

#include <imgui.h>

#include <cmath>
#include <cstdio>

namespace astrolabe::ui {

void show_problems(const std::vector<std::string>& problems) {
    // Wrapped at the window's edge: a problem names a file, key and what was expected, often a long line.
    ImGui::PushTextWrapPos(0.0f);
    for (const auto& p : problems)
        ImGui::TextColored(ImVec4(1.0f, 0.45f, 0.4f, 1.0f), "%s", p.c_str());
    ImGui::PopTextWrapPos();
}

void remember(View& view, const std::string& name) {
    ImVec2 a = ImGui::GetItemRectMin(), b = ImGui::GetItemRectMax();
    view.rects[name] = WidgetRect{a.x, a.y, b.x - a.x, b.y - a.y};
}

std::string format_ns(double ns) {
    return format_duration(ns); // the CLI summary's units, so both read alike
}

void draw_app(App& app, View& view, Platform& platform) {
    // Fixed layout: scenario on the left, run controls on top right, results below them. Fixed places keep
    // the page predictable and let the browser tests click by position.
    const ImVec2 size = ImGui::GetIO().DisplaySize;
    const float left = std::fmax(360.0f, size.x * 0.34f);
    const float run_h = 150.0f;
    const ImGuiWindowFlags fixed =
        ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoResize | ImGuiWindowFlags_NoCollapse;

    ImGui::SetNextWindowPos(ImVec2(0, 0), ImGuiCond_Always);
    ImGui::SetNextWindowSize(ImVec2(left, size.y), ImGuiCond_Always);
    if (ImGui::Begin("Scenario", nullptr, fixed)) draw_scenario_panel(app, view, platform);
    ImGui::End();

    ImGui::SetNextWindowPos(ImVec2(left, 0), ImGuiCond_Always);
    ImGui::SetNextWindowSize(ImVec2(size.x - left, run_h), ImGuiCond_Always);
    if (ImGui::Begin("Run", nullptr, fixed)) draw_run_panel(app, view, platform);
    ImGui::End();

    ImGui::SetNextWindowPos(ImVec2(left, run_h), ImGuiCond_Always);
    ImGui::SetNextWindowSize(ImVec2(size.x - left, size.y - run_h), ImGuiCond_Always);
    if (ImGui::Begin("Results", nullptr, fixed)) draw_results_panel(app, view, platform);
    ImGui::End();
}

} // namespace astrolabe::ui

// A time axis: ticks at round times (1, 2 or 5 x 10^k ns) about every 100 pixels, labelled in the unit a
// person reads (format_ns). Drawn under the Summary's per-NPU bars and as the Timeline's ruler.
#include "ui/ui.h"

#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace astrolabe::ui {

float draw_time_axis(float x0, float width, double t0, double t1) {
    ImDrawList* dl = ImGui::GetWindowDrawList();
    const ImVec2 p = ImGui::GetCursorScreenPos();
    const float h = ImGui::GetTextLineHeight() + 6;
    const ImU32 line = IM_COL32(150, 150, 150, 255);
    const ImU32 text = IM_COL32(200, 200, 200, 255);
    dl->AddLine(ImVec2(x0, p.y + 2), ImVec2(x0 + width, p.y + 2), line);
    if (t1 > t0 && width > 10) {
        const double step = nice_tick_step(t1 - t0, width);
        float last_label_end = -1e9f;
        for (double t = std::ceil(t0 / step) * step; t <= t1 + step * 1e-9; t += step) {
            const float x = x0 + static_cast<float>((t - t0) / (t1 - t0) * width);
            dl->AddLine(ImVec2(x, p.y + 2), ImVec2(x, p.y + 7), line);
            // Deep in a long run, ticks a few ns apart need that many digits ("12.104002 ms").
            const std::string label = format_time_at(t, step, t1);
            const float w = ImGui::CalcTextSize(label.c_str()).x;
            // Centred under the tick, kept inside the axis, never over the previous label.
            float lx = std::min(std::max(x - w / 2, x0), x0 + width - w);
            if (lx <= last_label_end + 6) continue;
            dl->AddText(ImVec2(lx, p.y + 7), text, label.c_str());
            last_label_end = lx + w;
        }
    }
    ImGui::Dummy(ImVec2(x0 - p.x + width, h + 4));
    return h + 4;
}

} // namespace astrolabe::ui

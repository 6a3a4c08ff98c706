// A time axis: ticks at round times (1, 2 or 5 x 10^k ns) about every 100 pixels, labelled in the unit a
// person reads (format_ns). Drawn under the Summary's per-NPU bars and as the Timeline's ruler.
#include "ui/ui.h"

#include <imgui.h>

#include <cmath>

namespace astrolabe::ui {

double nice_tick_step(double span_ns, float width_px) {
    const double target = span_ns / std::max(1.0, std::floor(double(width_px) / 100.0));
    if (!(target > 0)) return 1;
    const double mag = std::pow(10.0, std::floor(std::log10(target)));
    for (double m : {1.0, 2.0, 5.0, 10.0})
        if (m * mag >= target) return std::max(1.0, m * mag);
    return std::max(1.0, 10 * mag);
}

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
            const std::string label = format_ns(t);
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

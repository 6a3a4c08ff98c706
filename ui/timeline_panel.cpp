// The timeline: every NPU as two tracks (compute and memory above, communication below), every node a
// box. Mouse wheel zooms around the pointer, dragging pans, hovering shows the node.
#include "ui/ui.h"

#include <imgui.h>

#include <algorithm>
#include <cmath>

namespace astrolabe::ui {

namespace {

void build_index(const RunResult& r, TimelineIndex& ix) {
    const auto& recs = r.stats.timeline;
    ix.rows.assign(r.stats.npus.size(), {});
    ix.longest.assign(r.stats.npus.size(), 0);
    for (uint32_t i = 0; i < recs.size(); ++i) {
        if (recs[i].npu >= ix.rows.size()) continue;
        ix.rows[recs[i].npu].push_back(i);
        ix.longest[recs[i].npu] = std::max(ix.longest[recs[i].npu], recs[i].end_ns - recs[i].start_ns);
    }
    for (auto& row : ix.rows)
        std::stable_sort(row.begin(), row.end(),
                         [&](uint32_t a, uint32_t b) { return recs[a].start_ns < recs[b].start_ns; });
    ix.built_for = &r;
    ix.built_events = r.events;
}

using Kind = TimelineNode::Kind;

bool comm_track(const TimelineNode& n) {
    return n.kind == Kind::Send || n.kind == Kind::Recv || n.kind == Kind::Collective;
}

ImU32 colour_of(const TimelineNode& n) {
    switch (n.kind) {
    case Kind::Compute:
        return n.cpu ? IM_COL32(90, 190, 120, 255) : IM_COL32(80, 160, 230, 255);
    case Kind::Memory:
        return IM_COL32(150, 110, 220, 255);
    case Kind::Collective:
        return IM_COL32(235, 120, 60, 255);
    case Kind::Send:
    case Kind::Recv:
        return IM_COL32(230, 190, 70, 255);
    default:
        return IM_COL32(140, 140, 140, 255);
    }
}

} // namespace

void draw_timeline(App& app, View& view) {
    const RunResult& r = *app.result();
    const Simulation& sim = app.session()->simulation();
    TimelineIndex& ix = view.timeline;
    if (ix.built_for != &r || ix.built_events != r.events) build_index(r, ix);
    const auto& recs = r.stats.timeline;
    const double total = static_cast<double>(std::max<TimeNs>(r.total_ns, 1));
    if (view.tl_width <= 0) {
        view.tl_start = 0;
        view.tl_width = total;
    }
    // The window's ends with the digits its width needs (a 10 ns window deep in a long run would read
    // "12.104 ms to 12.104 ms" otherwise).
    const double tl_end = view.tl_start + view.tl_width;
    ImGui::TextDisabled("wheel: zoom, drag: pan, double-click: fit  |  %s to %s",
                        format_time_at(view.tl_start, view.tl_width / 100, tl_end).c_str(),
                        format_time_at(tl_end, view.tl_width / 100, tl_end).c_str());
    ImGui::SameLine();
    ImGui::Checkbox("critical path", &view.tl_critical);

    const float label_w = 64;
    const float track_h = 12;
    const float row_h = 2 * track_h + 4;
    // Room for the rows' scrollbar, so the ruler above and the rows share one time scale.
    const float width =
        std::max(50.0f, ImGui::GetContentRegionAvail().x - label_w - ImGui::GetStyle().ScrollbarSize);
    // The ruler's place; it is drawn after the rows, once this frame's zoom and pan are applied.
    const ImVec2 ruler_pos = ImGui::GetCursorScreenPos();
    ImGui::Dummy(ImVec2(label_w + width, ImGui::GetTextLineHeight() + 10));
    ImGui::BeginChild("timeline", ImVec2(0, 0), false, ImGuiWindowFlags_NoScrollWithMouse);
    ImVec2 origin = ImGui::GetCursorScreenPos();
    ImDrawList* dl = ImGui::GetWindowDrawList();
    const ImVec2 mouse = ImGui::GetIO().MousePos;
    const bool hovered = ImGui::IsWindowHovered();

    // Zoom around the pointer's time; pan by dragging; the view never leaves [0, total].
    if (hovered) {
        float wheel = ImGui::GetIO().MouseWheel;
        if (wheel != 0 && mouse.x > origin.x + label_w) {
            double at = view.tl_start + (mouse.x - origin.x - label_w) / width * view.tl_width;
            double factor = std::pow(0.8, wheel);
            double w = std::clamp(view.tl_width * factor, 10.0, total);
            view.tl_start = at - (at - view.tl_start) * (w / view.tl_width);
            view.tl_width = w;
        }
        if (ImGui::IsMouseDragging(ImGuiMouseButton_Left))
            view.tl_start -= ImGui::GetIO().MouseDelta.x / width * view.tl_width;
        if (ImGui::IsMouseDoubleClicked(ImGuiMouseButton_Left)) view.tl_width = total, view.tl_start = 0;
        if (ImGui::GetIO().MouseWheel != 0)
            ImGui::SetScrollY(ImGui::GetScrollY()); // wheel zooms, not scrolls
    }
    view.tl_start = std::clamp(view.tl_start, 0.0, std::max(0.0, total - view.tl_width));
    const double t0 = view.tl_start, t1 = view.tl_start + view.tl_width;
    const double px_per_ns = width / view.tl_width;

    int hover_rec = -1;
    ImGuiListClipper clip;
    clip.Begin(static_cast<int>(ix.rows.size()), row_h);
    while (clip.Step()) {
        for (int npu = clip.DisplayStart; npu < clip.DisplayEnd; ++npu) {
            ImVec2 p = ImGui::GetCursorScreenPos();
            ImGui::Text("NPU %d", npu);
            ImGui::SetCursorScreenPos(p);
            ImGui::Dummy(ImVec2(label_w + width, row_h));
            const auto& row = ix.rows[static_cast<size_t>(npu)];
            const double from = t0 - static_cast<double>(ix.longest[static_cast<size_t>(npu)]);
            // First record that may reach into the window: rows are sorted by start.
            auto it = std::lower_bound(row.begin(), row.end(), from, [&](uint32_t a, double t) {
                return static_cast<double>(recs[a].start_ns) < t;
            });
            float last_px[2] = {-1, -1}; // skip boxes that land on an already drawn pixel column
            for (; it != row.end(); ++it) {
                const TimelineRecord& rec = recs[*it];
                if (static_cast<double>(rec.start_ns) > t1) break;
                if (static_cast<double>(rec.end_ns) < t0) continue;
                const TimelineNode n = sim.timeline_node(rec);
                int track = comm_track(n) ? 1 : 0;
                float x0 =
                    p.x + label_w + static_cast<float>((static_cast<double>(rec.start_ns) - t0) * px_per_ns);
                float x1 =
                    p.x + label_w + static_cast<float>((static_cast<double>(rec.end_ns) - t0) * px_per_ns);
                x0 = std::max(x0, p.x + label_w);
                x1 = std::min(std::max(x1, x0 + 1), p.x + label_w + width);
                float y0 = p.y + 2 + track * (track_h + 1);
                const bool critical = view.tl_critical && app.on_critical_path(rec.npu, rec.node);
                if (!critical && x1 - x0 < 1.5f && std::floor(x0) == last_px[track]) continue;
                last_px[track] = std::floor(x0);
                dl->AddRectFilled(ImVec2(x0, y0), ImVec2(x1, y0 + track_h), colour_of(n));
                if (critical)
                    dl->AddRect(ImVec2(x0 - 1, y0 - 1), ImVec2(x1 + 1, y0 + track_h + 1),
                                IM_COL32(255, 255, 255, 255), 0.0f, 0, 2.0f);
                if (hovered && mouse.x >= x0 && mouse.x < x1 + 1 && mouse.y >= y0 && mouse.y < y0 + track_h)
                    hover_rec = static_cast<int>(*it);
            }
        }
    }
    if (hover_rec >= 0) {
        const TimelineRecord& rec = recs[static_cast<size_t>(hover_rec)];
        const TimelineNode n = sim.timeline_node(rec);
        ImGui::BeginTooltip();
        ImGui::Text("NPU %u, node %llu: %s", rec.npu, static_cast<unsigned long long>(n.id),
                    n.name.empty() ? n.kind_name : n.name.c_str());
        ImGui::Text("%s%s%s", n.kind_name, n.collective ? " " : "", n.collective ? n.collective : "");
        ImGui::Text("start %s, duration %s", format_ns(double(rec.start_ns)).c_str(),
                    format_ns(double(rec.end_ns - rec.start_ns)).c_str());
        if (n.bytes) ImGui::Text("%llu bytes", static_cast<unsigned long long>(n.bytes));
        if (n.kind == Kind::Send || n.kind == Kind::Recv)
            ImGui::Text("%s NPU %u, tag %u", n.kind == Kind::Send ? "to" : "from", n.peer, n.tag);
        if (app.on_critical_path(rec.npu, rec.node)) ImGui::TextUnformatted("on the critical path");
        ImGui::EndTooltip();
    }
    ImGui::EndChild();
    const ImVec2 after = ImGui::GetCursorScreenPos();
    ImGui::SetCursorScreenPos(ruler_pos);
    draw_time_axis(ruler_pos.x + label_w, width, t0, t1);
    ImGui::SetCursorScreenPos(after);
}

} // namespace astrolabe::ui

// The network tab: the topology drawn with every used link coloured by its utilization (busy time over the
// run), and the hottest links listed. Only the link models (congestion, flow) have links to show.
#include "ui/ui.h"

#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <numeric>

namespace astrolabe::ui {

namespace {

// Blue (idle) through yellow to red (always busy).
ImU32 heat(double u) {
    u = std::clamp(u, 0.0, 1.0);
    float r = static_cast<float>(u < 0.5 ? u * 2 : 1.0);
    float g = static_cast<float>(u < 0.5 ? 0.6 + u * 0.6 : 0.9 - (u - 0.5) * 1.6);
    float b = static_cast<float>(u < 0.5 ? 0.9 - u * 1.6 : 0.1);
    return ImGui::ColorConvertFloat4ToU32(ImVec4(r, g, b, 1.0f));
}

// Draws up to a few hundred devices: NPUs on an outer circle, switches on an inner one, links as chords.
void draw_topology(const std::vector<LinkStats>& links, size_t npus, double hottest_ns, float size) {
    uint32_t devices = static_cast<uint32_t>(npus);
    for (const auto& l : links)
        devices = std::max({devices, l.src + 1, l.dst + 1});
    const size_t switches = devices - npus;
    ImVec2 origin = ImGui::GetCursorScreenPos();
    ImDrawList* dl = ImGui::GetWindowDrawList();
    const ImVec2 c(origin.x + size / 2, origin.y + size / 2);
    const float r_npu = size * 0.45f, r_switch = size * 0.22f;
    const float pi2 = 6.2831853f;
    auto pos = [&](uint32_t d) {
        if (d < npus) {
            float a = pi2 * static_cast<float>(d) / static_cast<float>(npus);
            return ImVec2(c.x + r_npu * std::cos(a), c.y + r_npu * std::sin(a));
        }
        float a =
            pi2 * static_cast<float>(d - npus) / static_cast<float>(std::max<size_t>(switches, 1)) + 0.3f;
        return ImVec2(c.x + r_switch * std::cos(a), c.y + r_switch * std::sin(a));
    };
    // Least used first, so the hot links are drawn on top.
    std::vector<size_t> order(links.size());
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(),
                     [&](size_t a, size_t b) { return links[a].busy_ns < links[b].busy_ns; });
    for (size_t i : order) {
        const LinkStats& l = links[i];
        ImVec2 a = pos(l.src), b = pos(l.dst);
        // The two directions of a pair sit side by side: shift each to its right.
        float dx = b.x - a.x, dy = b.y - a.y, len = std::sqrt(dx * dx + dy * dy) + 1e-3f;
        ImVec2 off(-dy / len * 1.5f, dx / len * 1.5f);
        double u = hottest_ns > 0 ? static_cast<double>(l.busy_ns) / hottest_ns : 0;
        dl->AddLine(ImVec2(a.x + off.x, a.y + off.y), ImVec2(b.x + off.x, b.y + off.y), heat(u), 1.5f);
    }
    const float dot = std::clamp(size / static_cast<float>(devices) * 0.6f, 1.5f, 5.0f);
    for (uint32_t d = 0; d < devices; ++d) {
        ImVec2 p = pos(d);
        if (d < npus)
            dl->AddCircleFilled(p, dot, IM_COL32(220, 220, 220, 255));
        else
            dl->AddRectFilled(ImVec2(p.x - dot, p.y - dot), ImVec2(p.x + dot, p.y + dot),
                              IM_COL32(200, 160, 90, 255));
    }
    ImGui::Dummy(ImVec2(size, size));
}

} // namespace

void draw_network(App& app) {
    const RunResult& r = *app.result();
    const auto& links = r.links;
    if (links.empty()) {
        ImGui::TextWrapped(
            "No per-link traffic: the analytical network model has no links. Choose the congestion or "
            "flow network model in the scenario panel and run again to see every link's load.");
        return;
    }
    const double total = static_cast<double>(std::max<TimeNs>(r.total_ns, 1));
    uint64_t bytes = 0;
    TimeNs hottest = 0;
    for (const auto& l : links)
        bytes += l.bytes, hottest = std::max(hottest, l.busy_ns);
    // Colours are relative to the busiest link, so the bottleneck stands out even in a lightly loaded run.
    ImGui::TextWrapped(
        "%zu links carried %.3f GB. Colour: busy time relative to the busiest link (red), which was "
        "busy %.1f %% of the run.",
        links.size(), static_cast<double>(bytes) / 1e9, 100.0 * static_cast<double>(hottest) / total);
    const float avail = ImGui::GetContentRegionAvail().x;
    const float size = std::clamp(avail * 0.45f, 200.0f, 520.0f);
    if (r.stats.npus.size() <= 512) {
        draw_topology(links, r.stats.npus.size(), static_cast<double>(hottest), size);
        ImGui::SameLine();
    } else {
        ImGui::TextDisabled("(%zu NPUs: too many to draw; the table lists the links)", r.stats.npus.size());
    }

    // The hottest links, most utilized first (ties: more bytes, then the report's order).
    std::vector<size_t> order(links.size());
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
        if (links[a].busy_ns != links[b].busy_ns) return links[a].busy_ns > links[b].busy_ns;
        return links[a].bytes > links[b].bytes;
    });
    const ImGuiTableFlags flags =
        ImGuiTableFlags_RowBg | ImGuiTableFlags_ScrollY | ImGuiTableFlags_BordersOuter;
    if (ImGui::BeginTable("links", 6, flags, ImVec2(0, std::max(size, 200.0f)))) {
        ImGui::TableSetupScrollFreeze(0, 1);
        ImGui::TableSetupColumn("link", ImGuiTableColumnFlags_WidthFixed, 190);
        for (const char* h : {"dim", "bytes", "busy", "util %", "peak queue"})
            ImGui::TableSetupColumn(h);
        ImGui::TableHeadersRow();
        ImGuiListClipper clip;
        clip.Begin(static_cast<int>(order.size()));
        while (clip.Step()) {
            for (int i = clip.DisplayStart; i < clip.DisplayEnd; ++i) {
                const LinkStats& l = links[order[static_cast<size_t>(i)]];
                double u = static_cast<double>(l.busy_ns) / total;
                ImGui::TableNextRow();
                ImGui::TableNextColumn();
                ImGui::TextColored(
                    ImGui::ColorConvertU32ToFloat4(heat(static_cast<double>(l.busy_ns) /
                                                        static_cast<double>(std::max<TimeNs>(hottest, 1)))),
                    "%s -> %s", l.src_name.c_str(), l.dst_name.c_str());
                ImGui::TableNextColumn();
                ImGui::Text("%u", l.dim);
                ImGui::TableNextColumn();
                ImGui::Text("%llu", static_cast<unsigned long long>(l.bytes));
                ImGui::TableNextColumn();
                ImGui::TextUnformatted(format_ns(static_cast<double>(l.busy_ns)).c_str());
                ImGui::TableNextColumn();
                ImGui::Text("%.1f", 100.0 * u);
                ImGui::TableNextColumn();
                ImGui::Text("%llu", static_cast<unsigned long long>(l.peak_queue));
            }
        }
        ImGui::EndTable();
    }
}

} // namespace astrolabe::ui

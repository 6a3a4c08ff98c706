// The network tab: the topology drawn with every used link coloured by its utilization (busy time over the
// run), and the hottest links listed. Only the link models (congestion, flow) have links to show.
#include "core/config/spellings.h"
#include "ui/table_header.h"
#include "ui/ui.h"

#include "core/config/spellings.h"

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

// Structure first (every physical link, faint, coloured by dimension), then the links that carried
// traffic coloured by load, then the devices; the device under the pointer is named in a tooltip.
void draw_topology(const TopologyLayout& layout, const config::NetworkConfig& net,
                   const std::vector<LinkStats>& links, double hottest_ns, float size, View& view) {
    ImVec2 origin = ImGui::GetCursorScreenPos();
    view.drawing_x = origin.x, view.drawing_y = origin.y, view.drawing_size = size;
    ImDrawList* dl = ImGui::GetWindowDrawList();
    auto pos = [&](uint32_t d) {
        if (d >= layout.devices.size()) return ImVec2(origin.x + size / 2, origin.y + size / 2);
        return ImVec2(origin.x + layout.devices[d].x * size, origin.y + layout.devices[d].y * size);
    };
    static const ImU32 kDimColour[] = {IM_COL32(90, 110, 150, 150), IM_COL32(90, 140, 100, 150),
                                       IM_COL32(150, 120, 80, 150), IM_COL32(130, 90, 140, 150)};
    for (const auto& e : layout.edges)
        dl->AddLine(pos(e.a), pos(e.b), kDimColour[e.dim % 4], 1.0f);
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
        dl->AddLine(ImVec2(a.x + off.x, a.y + off.y), ImVec2(b.x + off.x, b.y + off.y), heat(u), 2.0f);
    }
    const float dot = std::clamp(
        size / std::sqrt(static_cast<float>(std::max<size_t>(layout.devices.size(), 1))) * 0.12f, 2.0f, 6.0f);
    const ImVec2 mouse = ImGui::GetIO().MousePos;
    int hovered = -1;
    float best = (dot + 4) * (dot + 4);
    for (uint32_t d = 0; d < layout.devices.size(); ++d) {
        ImVec2 p = pos(d);
        if (!layout.devices[d].is_switch)
            dl->AddCircleFilled(p, dot, IM_COL32(220, 220, 220, 255));
        else
            dl->AddRectFilled(ImVec2(p.x - dot, p.y - dot), ImVec2(p.x + dot, p.y + dot),
                              IM_COL32(220, 170, 90, 255));
        // Small networks are labelled in place (NPU ids; s<dim>.<line> for switches), larger ones on hover.
        if (layout.devices.size() <= 40) {
            const std::string label =
                layout.devices[d].is_switch ? "s" + layout.name(d).substr(6) : std::to_string(d);
            dl->AddText(ImVec2(p.x + dot + 2, p.y - dot - 11), IM_COL32(190, 190, 190, 255), label.c_str());
        }
        float d2 = (p.x - mouse.x) * (p.x - mouse.x) + (p.y - mouse.y) * (p.y - mouse.y);
        if (d2 < best) best = d2, hovered = static_cast<int>(d);
    }
    ImGui::Dummy(ImVec2(size, size));
    view.hovered_device = ImGui::IsItemHovered() ? hovered : -1;
    if (view.hovered_device >= 0) {
        const uint32_t d = static_cast<uint32_t>(view.hovered_device);
        ImVec2 p = pos(d);
        dl->AddCircle(p, dot + 3, IM_COL32(255, 255, 255, 255), 0, 2.0f);
        uint64_t out_bytes = 0, in_bytes = 0;
        for (const auto& l : links) {
            if (l.src == d) out_bytes += l.bytes;
            if (l.dst == d) in_bytes += l.bytes;
        }
        ImGui::BeginTooltip();
        ImGui::TextUnformatted(layout.describe(d, net).c_str());
        ImGui::Text("sent %llu bytes, received %llu bytes", static_cast<unsigned long long>(out_bytes),
                    static_cast<unsigned long long>(in_bytes));
        ImGui::EndTooltip();
    }
}

} // namespace

void draw_network(App& app, View& view) {
    const RunResult& r = *app.result();
    const auto& links = r.links;
    const config::NetworkConfig& net = app.session()->simulation().input().network;
    if (view.layout_for != &r || view.layout_events != r.events) {
        view.layout = layout_topology(net);
        view.layout_for = &r;
        view.layout_events = r.events;
    }
    // The legend: what each dimension is, in the colour of its faint structural lines.
    std::string dims;
    for (size_t d = 0; d < net.dims.size(); ++d)
        dims += std::string(d ? ", " : "") + "dimension " + std::to_string(d) + ": " +
                config::name_of(net.dims[d].topology) + " of " + std::to_string(net.dims[d].npus);
    ImGui::TextWrapped("%s (dimension 0 innermost; circles NPUs, squares switches; hover for names)",
                       dims.c_str());
    if (links.empty()) {
        ImGui::TextWrapped(
            "No per-link traffic: the analytical network model has no links. Choose the congestion or "
            "flow network model in the scenario panel and run again to see every link's load.");
        if (view.layout.devices.size() <= 2048)
            draw_topology(view.layout, net, links, 0,
                          std::clamp(ImGui::GetContentRegionAvail().x * 0.5f, 200.0f, 520.0f), view);
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
    if (view.layout.devices.size() <= 2048) {
        draw_topology(view.layout, net, links, static_cast<double>(hottest), size, view);
        ImGui::SameLine();
    } else {
        ImGui::TextDisabled("(%zu devices: too many to draw; the table lists the links)",
                            view.layout.devices.size());
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
        // Weights sized to "4194304", "234.34 us", "68.8" and "12": the busy time must not lose its unit.
        // Weights sized to "4194304", "234.34 us", "68.8" and "12": the busy time must not lose its unit.
        table_header({"link", "dim", "bytes", "busy", "util %", "peak queue"},
                     {-150, -26, 1.1, 1.4, 0.8, 0.8});
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

// The Search tab: tick fields of the current scenario to search over, give their values, the constraints,
// objective, agent, budget and seed; run the search a few points per frame (Cancel at any time); watch the
// best-so-far curve and step time against network cost with the Pareto front; click a point to load its
// scenario into the editor. State and stepping live in ui/search_state.h; docs/browser.md describes the tab.
//
// Index: [SECTION] widgets · [SECTION] form · [SECTION] charts · [SECTION] panel
#include "host/files.h"
#include "ui/ui.h"

#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <limits>

namespace astrolabe::ui {

namespace {

// [SECTION] widgets
// A text field over a std::string (ImGui edits a buffer in place); true when edited.
bool text_field(const char* id, std::string& text, float width, float height = 0) {
    std::vector<char> buf(text.begin(), text.end());
    buf.resize(text.size() + 1024, '\0');
    bool edited = height > 0 ? ImGui::InputTextMultiline(id, buf.data(), buf.size(), ImVec2(width, height))
                             : (ImGui::SetNextItemWidth(width), ImGui::InputText(id, buf.data(), buf.size()));
    if (edited) text = buf.data();
    return edited;
}

// `value` -1 shows `none` (no item chosen).
bool combo(View& view, const char* label, const char* id, int& value, const std::vector<const char*>& names,
           float width, const char* none = "") {
    bool changed = false;
    ImGui::SetNextItemWidth(width);
    if (ImGui::BeginCombo(label, value >= 0 ? names[size_t(value)] : none)) {
        for (int i = 0; i < int(names.size()); ++i) {
            if (ImGui::Selectable(names[size_t(i)], i == value)) {
                changed = value != i;
                value = i;
            }
            remember(view, std::string(id) + ":" + names[size_t(i)]);
        }
        ImGui::EndCombo();
    }
    remember(view, id);
    return changed;
}

// The bundled search specs (samples/search/*.json), listed once.
const std::vector<std::string>& spec_samples(const std::string& root) {
    static std::vector<std::string> names;
    static bool listed = false;
    if (!listed) {
        listed = true;
        std::error_code ec;
        for (const auto& e : std::filesystem::directory_iterator(root + "/search", ec))
            if (e.path().extension() == ".json") names.push_back(e.path().filename().string());
        std::sort(names.begin(), names.end()); // directory order differs between file systems
    }
    return names;
}

// "3.39 ms" for step times; objectives scaled by cost or bandwidth are plain numbers (pareto's too: the
// agents minimise step time x network cost there, core/search/search_run.cpp).
std::string objective_text(double v, const std::string& objective) {
    if (std::isnan(v)) return "-";
    if (objective == "step_time") return format_ns(v);
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.4g", v);
    return buf;
}

std::string cost_text(double v) {
    char buf[32];
    std::snprintf(buf, sizeof buf, v >= 1e6 ? "%.3g" : "%.0f", v);
    return buf;
}

// Loads a search's base into the scenario editor (its JSON view shows it at once).
void adopt_base(App& app, View& view, const std::string& source) {
    app.load_scenario_text(view.search.form().base, source);
    view.json_dirty = false;
}

// [SECTION] form
void spec_row(App& app, View& view) {
    SearchState& st = view.search;
    const auto& specs = spec_samples(app.samples_root());
    // quick.json at first (the one that runs in seconds); after a load, what was loaded: a bundled spec's
    // name, or -1 ("shared link") for a link whose spec is none of them.
    static int chosen = -2;
    static uint32_t seen_loads = 0;
    if (chosen == -2)
        chosen = int(std::find(specs.begin(), specs.end(), "quick.json") - specs.begin()) %
                 int(std::max<size_t>(specs.size(), 1));
    if (st.spec_loads() != seen_loads) {
        seen_loads = st.spec_loads();
        std::vector<std::pair<std::string, std::string>> bundled;
        for (const auto& name : specs) {
            auto text = host::read_file(app.samples_root() + "/search/" + name, "search spec");
            if (text.is_ok()) bundled.emplace_back(name, text.value());
        }
        const std::string label = st.spec_label(bundled);
        chosen = int(std::find(specs.begin(), specs.end(), label) - specs.begin());
        if (size_t(chosen) == specs.size()) chosen = -1;
    }
    if (!specs.empty()) {
        std::vector<const char*> names;
        for (const auto& s : specs)
            names.push_back(s.c_str());
        chosen = std::min(chosen, int(names.size()) - 1);
        combo(view, "##spec", "search:spec_sample", chosen, names, 150, "shared link");
        st.spec_combo = chosen >= 0 ? specs[size_t(chosen)] : "shared link";
        ImGui::SameLine();
        if (chosen < 0) ImGui::BeginDisabled(); // nothing bundled to load until one is picked
        const bool load = ImGui::Button("Load spec");
        if (chosen < 0) ImGui::EndDisabled();
        if (load) {
            const std::string name = specs[size_t(chosen)];
            auto text = host::read_file(app.samples_root() + "/search/" + name, "search spec");
            if (!text.is_ok())
                app.set_message(text.status().message());
            else if (st.load_spec(text.value(), name).is_ok())
                adopt_base(app, view, "search spec " + name);
        }
        remember(view, "search:load_spec");
        ImGui::SameLine();
    }
    ImGui::TextDisabled("or tick fields of the scenario being edited:");
}

void fields_table(View& view, bool running) {
    SearchState& st = view.search;
    ImGui::BeginChild("search_fields", ImVec2(0, 150), true);
    if (running) ImGui::BeginDisabled();
    const float values_w = std::max(120.0f, ImGui::GetContentRegionAvail().x - 290);
    for (auto& f : st.form().fields) {
        ImGui::PushID(f.path.c_str());
        ImGui::Checkbox(f.path.c_str(), &f.ticked);
        remember(view, "search:tick:" + f.path);
        ImGui::SameLine(290);
        text_field("##values", f.values, values_w);
        remember(view, "search:values:" + f.path);
        ImGui::PopID();
    }
    if (st.form().fields.empty()) ImGui::TextDisabled("the scenario has no fields to search over");
    if (running) ImGui::EndDisabled();
    ImGui::EndChild();
}

void settings_rows(View& view, bool running) {
    SearchState& st = view.search;
    if (running) ImGui::BeginDisabled();
    ImGui::TextUnformatted("constraints (one per line; knob paths, npus, + - * / % == < && ...)");
    text_field("##constraints", st.form().constraints, -1, ImGui::GetTextLineHeight() * 2 + 8);
    remember(view, "search:constraints");
    int objective = 0;
    const auto& objectives = SearchState::objectives();
    for (size_t i = 0; i < objectives.size(); ++i)
        if (st.form().objective == objectives[i]) objective = int(i);
    if (combo(view, "objective", "search:objective", objective, objectives, 220))
        st.form().objective = objectives[size_t(objective)];
    ImGui::SameLine();
    combo(view, "agent", "search:agent", st.agent, SearchState::agents(), 80);
    ImGui::SameLine();
    ImGui::SetNextItemWidth(90);
    ImGui::InputInt("budget", &st.budget, 0, 0);
    remember(view, "search:budget");
    st.budget = std::max(1, st.budget);
    ImGui::SameLine();
    ImGui::SetNextItemWidth(70);
    ImGui::InputInt("seed", &st.seed, 0, 0);
    remember(view, "search:seed");
    st.seed = std::max(0, st.seed);
    if (running) ImGui::EndDisabled();
}

// A button after the previous item on its line when it fits there, else at the start of the next line (the
// download buttons wrap in a narrow window instead of being clipped).
bool flow_button(const char* label) {
    const ImGuiStyle& style = ImGui::GetStyle();
    const float width = ImGui::CalcTextSize(label).x + style.FramePadding.x * 2;
    const float right = ImGui::GetWindowPos().x + ImGui::GetWindowContentRegionMax().x;
    if (ImGui::GetItemRectMax().x + style.ItemSpacing.x + width <= right) ImGui::SameLine();
    return ImGui::Button(label);
}

void action_row(App& app, View& view, Platform& platform) {
    SearchState& st = view.search;
    if (st.phase() == SearchPhase::Running) {
        if (ImGui::Button("Cancel", ImVec2(90, 0))) st.cancel();
        remember(view, "search:cancel");
    } else {
        if (ImGui::Button("Search", ImVec2(90, 0))) st.start(app.session_host());
        remember(view, "search:run");
    }
    ImGui::SameLine();
    if (ImGui::Button("Share search")) publish_share(view, platform, st.share_fragment());
    remember(view, "search:share");
    // The files `astrolabe search --out DIR` writes, from the same code (core/search/search_run.h), on a
    // line of their own.
    ImGui::AlignTextToFramePadding();
    ImGui::TextDisabled("download");
    if (flow_button("spec.json")) {
        auto spec = st.spec_text();
        if (spec.is_ok())
            platform.download("spec.json", "application/json", spec.value());
        else
            view.share_error = spec.status().message();
    }
    remember(view, "search:download_spec");
    if (st.evaluations_jsonl().empty()) return;
    if (flow_button("evaluations.jsonl"))
        platform.download("evaluations.jsonl", "application/x-ndjson", st.evaluations_jsonl());
    remember(view, "search:download");
    if (flow_button("evaluations.csv"))
        platform.download("evaluations.csv", "text/csv", st.evaluations_csv());
    remember(view, "search:download_csv");
    const std::string best = st.best_scenario();
    if (!best.empty()) {
        if (flow_button("best.scenario.json"))
            platform.download("best.scenario.json", "application/json", best);
        remember(view, "search:download_best");
    }
    if (flow_button("best_so_far.svg"))
        platform.download("best_so_far.svg", "image/svg+xml", st.best_so_far_svg());
    remember(view, "search:download_best_svg");
    if (flow_button("pareto.svg")) platform.download("pareto.svg", "image/svg+xml", st.pareto_svg());
    remember(view, "search:download_pareto_svg");
}

void status_line(const SearchState& st) {
    const size_t n = st.points().size();
    const double best =
        st.best_so_far().empty() ? std::numeric_limits<double>::quiet_NaN() : st.best_so_far().back();
    if (st.phase() != SearchPhase::Idle && st.phase() != SearchPhase::Failed)
        ImGui::Text("%s: %zu / %d evaluations, best %s %s, %.1f evaluations/s", search_phase_name(st.phase()),
                    n, st.budget, st.form().objective.c_str(),
                    objective_text(best, st.form().objective).c_str(), st.evaluations_per_s());
    if (st.phase() == SearchPhase::Failed)
        show_problems({st.message()});
    else if (!st.message().empty() && st.phase() != SearchPhase::Running)
        ImGui::TextDisabled("%s", st.message().c_str());
}

// [SECTION] charts
// The plot area and its data range. The range maps kInset px inside the frame, so a point at either end of
// it (the best-so-far chart's last evaluation, the x range's ends) is drawn whole, not cut by the frame.
struct Frame {
    static constexpr float kInset =
        7;         // more than the largest dot's radius (4.5) and the picked ring's (7 - 2)
    ImVec2 p0, p1; // the frame
    double x0, x1, y0, y1;
    float x(double v) const {
        return p0.x + kInset + float((v - x0) / (x1 - x0)) * (p1.x - p0.x - 2 * kInset);
    }
    float y(double v) const {
        return p1.y - kInset - float((v - y0) / (y1 - y0)) * (p1.y - p0.y - 2 * kInset);
    }
};

const ImU32 kAxis = IM_COL32(140, 140, 140, 255);
const ImU32 kGrid = IM_COL32(60, 60, 60, 255);
const ImU32 kText = IM_COL32(200, 200, 200, 255);
const ImU32 kDot = IM_COL32(90, 160, 240, 200);
const ImU32 kFront = IM_COL32(240, 150, 60, 255);
const ImU32 kPicked = IM_COL32(255, 255, 255, 255);

// Axes with 3 labelled grid lines on y and the x range at the ends; `title` in the top left.
Frame axes(ImDrawList* dl, ImVec2 origin, float w, float h, double x0, double x1, double y0, double y1,
           const char* title) {
    Frame f{
        ImVec2(origin.x + 64, origin.y + 18), ImVec2(origin.x + w - 8, origin.y + h - 20), x0, x1, y0, y1};
    if (f.x1 <= f.x0) f.x1 = f.x0 + 1;
    if (f.y1 <= f.y0) f.y1 = f.y0 + 1;
    dl->AddRect(f.p0, f.p1, kAxis);
    dl->AddText(ImVec2(origin.x + 4, origin.y), kText, title);
    return f;
}

// A chart without points says so instead of drawing an axis over nothing.
void no_points(ImDrawList* dl, const Frame& f) {
    const char* text = "no evaluated points yet";
    const ImVec2 size = ImGui::CalcTextSize(text);
    dl->AddText(ImVec2((f.p0.x + f.p1.x - size.x) / 2, (f.p0.y + f.p1.y - size.y) / 2), kAxis, text);
}

void y_labels(ImDrawList* dl, const Frame& f, float left, const std::string& objective) {
    for (int k = 0; k <= 2; ++k) {
        double v = f.y0 + (f.y1 - f.y0) * k / 2;
        dl->AddLine(ImVec2(f.p0.x, f.y(v)), ImVec2(f.p1.x, f.y(v)), kGrid);
        dl->AddText(ImVec2(left, f.y(v) - 7), kText, objective_text(v, objective).c_str());
    }
}

void best_chart(View& view, const SearchState& st, float w, float h) {
    ImDrawList* dl = ImGui::GetWindowDrawList();
    const ImVec2 origin = ImGui::GetCursorScreenPos();
    const auto& best = st.best_so_far();
    const auto& pts = st.points();
    double lo = std::numeric_limits<double>::infinity(), hi = -lo;
    for (const auto& p : pts)
        if (p.ok && !std::isnan(p.objective)) lo = std::min(lo, p.objective), hi = std::max(hi, p.objective);
    const std::string& objective = st.form().objective;
    const bool empty = !(lo <= hi);
    if (empty) lo = 0, hi = 1;
    const double pad = (hi - lo) * 0.05 + (hi == lo ? hi * 0.05 + 1 : 0);
    Frame f =
        axes(dl, origin, w, h, 0, double(std::max<size_t>(std::max(size_t(st.budget), pts.size()), 2) - 1),
             lo - pad, hi + pad, ("best so far (" + objective + ") against evaluations").c_str());
    if (empty) {
        no_points(dl, f);
        view.rects.erase("search:best_last");
        ImGui::Dummy(ImVec2(w, h));
        return;
    }
    y_labels(dl, f, origin.x + 2, objective);
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.0f", f.x1);
    dl->AddText(ImVec2(f.x(f.x1) - ImGui::CalcTextSize(buf).x / 2, f.p1.y + 3), kText, buf);
    dl->AddText(ImVec2(f.x(0) - ImGui::CalcTextSize("0").x / 2, f.p1.y + 3), kText, "0");
    // The plot and the last point's dot, for the browser tests' check that it is drawn whole.
    view.rects["search:best_plot"] = WidgetRect{f.p0.x, f.p0.y, f.p1.x - f.p0.x, f.p1.y - f.p0.y};
    for (size_t i = pts.size(); i-- > 0;)
        if (pts[i].ok && !std::isnan(pts[i].objective)) {
            const ImVec2 c(f.x(double(i)), f.y(pts[i].objective));
            view.rects["search:best_last"] = WidgetRect{c.x - 2, c.y - 2, 4, 4};
            break;
        }
    for (size_t i = 0; i < pts.size(); ++i) // every point faintly, the best-so-far line on top
        if (pts[i].ok && !std::isnan(pts[i].objective))
            dl->AddCircleFilled(ImVec2(f.x(double(i)), f.y(pts[i].objective)), 2.0f,
                                IM_COL32(90, 160, 240, 110));
    for (size_t i = 1; i < best.size(); ++i)
        if (!std::isnan(best[i - 1]) && !std::isnan(best[i])) {
            dl->AddLine(ImVec2(f.x(double(i - 1)), f.y(best[i - 1])),
                        ImVec2(f.x(double(i)), f.y(best[i - 1])), kFront, 2.0f);
            dl->AddLine(ImVec2(f.x(double(i)), f.y(best[i - 1])), ImVec2(f.x(double(i)), f.y(best[i])),
                        kFront, 2.0f);
        }
    ImGui::Dummy(ImVec2(w, h));
}

// Step time against network cost: every ok point, the Pareto front joined in orange, the picked point
// ringed. Hovering names a point's knobs; a click loads its scenario into the editor.
void pareto_chart(App& app, View& view, float w, float h) {
    SearchState& st = view.search;
    ImDrawList* dl = ImGui::GetWindowDrawList();
    const ImVec2 origin = ImGui::GetCursorScreenPos();
    const auto& pts = st.points();
    double cx0 = std::numeric_limits<double>::infinity(), cx1 = -cx0, ty0 = cx0, ty1 = -cx0;
    for (const auto& p : pts)
        if (p.ok && !std::isnan(p.network_cost)) {
            cx0 = std::min(cx0, p.network_cost), cx1 = std::max(cx1, p.network_cost);
            ty0 = std::min(ty0, p.step_time_ns), ty1 = std::max(ty1, p.step_time_ns);
        }
    const bool empty = !(cx0 <= cx1);
    if (empty) cx0 = 0, cx1 = 1, ty0 = 0, ty1 = 1;
    const double px = (cx1 - cx0) * 0.06 + (cx1 == cx0 ? 1 : 0),
                 py = (ty1 - ty0) * 0.06 + (ty1 == ty0 ? 1 : 0);
    Frame f = axes(dl, origin, w, h, cx0 - px, cx1 + px, ty0 - py, ty1 + py,
                   "step time against network cost (orange: Pareto front)");
    if (empty) {
        no_points(dl, f);
        for (size_t k = 0; view.rects.erase("search:pareto:" + std::to_string(k)); ++k) {
        }
        ImGui::Dummy(ImVec2(w, h));
        return;
    }
    y_labels(dl, f, origin.x + 2, "step_time");
    view.rects["search:pareto_plot"] = WidgetRect{f.p0.x, f.p0.y, f.p1.x - f.p0.x, f.p1.y - f.p0.y};
    const std::string lo = cost_text(cx0), hi = cost_text(cx1);
    if (lo == hi) { // one cost (a single point): its value under it, named, instead of three labels on top
        const std::string one = "network cost " + lo;
        dl->AddText(ImVec2(f.x(cx0) - ImGui::CalcTextSize(one.c_str()).x / 2, f.p1.y + 3), kText,
                    one.c_str());
    } else {
        dl->AddText(ImVec2(f.x(cx0) - 4, f.p1.y + 3), kText, lo.c_str());
        dl->AddText(ImVec2(f.x(cx1) - ImGui::CalcTextSize(hi.c_str()).x + 4, f.p1.y + 3), kText, hi.c_str());
        const char* unit = "network cost";
        dl->AddText(ImVec2((f.p0.x + f.p1.x - ImGui::CalcTextSize(unit).x) / 2, f.p1.y + 3), kText, unit);
    }
    for (const auto& p : pts)
        if (p.ok && !std::isnan(p.network_cost))
            dl->AddCircleFilled(ImVec2(f.x(p.network_cost), f.y(p.step_time_ns)), 3.0f, kDot);
    const auto& front = st.pareto();
    for (size_t k = 0; k < front.size(); ++k) {
        const SearchPoint& p = pts[front[k]];
        const ImVec2 c(f.x(p.network_cost), f.y(p.step_time_ns));
        if (k > 0) {
            const SearchPoint& q = pts[front[k - 1]];
            dl->AddLine(ImVec2(f.x(q.network_cost), f.y(q.step_time_ns)), ImVec2(c.x, f.y(q.step_time_ns)),
                        kFront, 1.5f);
            dl->AddLine(ImVec2(c.x, f.y(q.step_time_ns)), c, kFront, 1.5f);
        }
        dl->AddCircleFilled(c, 4.5f, kFront);
        // The front's points by name (cost ascending), for the browser tests' mouse.
        view.rects["search:pareto:" + std::to_string(k)] = WidgetRect{c.x - 3, c.y - 3, 6, 6};
    }
    for (size_t k = front.size(); view.rects.count("search:pareto:" + std::to_string(k)); ++k)
        view.rects.erase("search:pareto:" + std::to_string(k));
    if (st.selected >= 0 && size_t(st.selected) < pts.size() && pts[size_t(st.selected)].ok) {
        const SearchPoint& p = pts[size_t(st.selected)];
        dl->AddCircle(ImVec2(f.x(p.network_cost), f.y(p.step_time_ns)), 7.0f, kPicked, 0, 2.0f);
    }
    ImGui::InvisibleButton("search_scatter", ImVec2(w, h));
    remember(view, "search:scatter");
    if (!ImGui::IsItemHovered()) return;
    // The nearest point within 10 px of the pointer.
    const ImVec2 m = ImGui::GetIO().MousePos;
    int near = -1;
    float best = 100.0f;
    for (size_t i = 0; i < pts.size(); ++i) {
        if (!pts[i].ok || std::isnan(pts[i].network_cost)) continue;
        const float dx = f.x(pts[i].network_cost) - m.x, dy = f.y(pts[i].step_time_ns) - m.y;
        if (dx * dx + dy * dy < best) best = dx * dx + dy * dy, near = int(i);
    }
    if (near < 0) return;
    const SearchPoint& p = pts[size_t(near)];
    ImGui::SetTooltip("#%d: step time %s, network cost %s\n%sclick: load this scenario into the editor", near,
                      format_ns(p.step_time_ns).c_str(), cost_text(p.network_cost).c_str(),
                      st.point_knobs(size_t(near)).c_str());
    if (ImGui::IsItemClicked()) {
        const std::string scenario = st.point_scenario(size_t(near));
        if (app.load_scenario_text(scenario, "search point #" + std::to_string(near)).is_ok()) {
            st.selected = near;
            view.json_dirty = false;
        }
    }
}

} // namespace

// [SECTION] panel
void draw_search_panel(App& app, View& view, Platform& platform) {
    SearchState& st = view.search;
    const bool running = st.phase() == SearchPhase::Running;
    // The form follows the scenario in the editor (its base), except while a search runs on it.
    if (!running) st.follow_scenario(app.doc().dump(2));
    spec_row(app, view);
    fields_table(view, running);
    settings_rows(view, running);
    action_row(app, view, platform);
    status_line(st);
    if (!view.share_error.empty())
        ImGui::TextColored(ImVec4(1.0f, 0.7f, 0.3f, 1.0f), "%s", view.share_error.c_str());
    const float w = (ImGui::GetContentRegionAvail().x - 8) / 2;
    const float h = std::max(150.0f, std::min(260.0f, ImGui::GetContentRegionAvail().y - 4));
    best_chart(view, st, w, h);
    ImGui::SameLine(0, 8);
    pareto_chart(app, view, w, h);
}

} // namespace astrolabe::ui

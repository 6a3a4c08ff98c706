// The ImGui front end: one window per panel at fixed places (so the browser tests know where to click),
// drawn each frame over one ui::App.
#pragma once

#include "ui/app_state.h"
#include "ui/hardware_state.h"
#include "ui/search_state.h"
#include "ui/time_ticks.h"
#include "ui/topology_layout.h"

#include <map>
#include <string>

namespace astrolabe::ui {

// What the page around the canvas does for the UI (implemented in wasm/ with the browser's APIs).
class Platform {
public:
    virtual ~Platform() = default;
    virtual void open_trace_files() = 0;   // a file picker for .et files; they arrive via App::load_traces
    virtual void open_scenario_file() = 0; // a file picker for a scenario JSON
    // A file picker for a measured nccl-tests output; its text arrives via HardwareState::load_measured.
    virtual void open_measured_file() = 0;
    virtual void download(const std::string& file_name, const std::string& mime,
                          const std::string& bytes) = 0;
    // Puts the link in the address bar and the clipboard; returns the whole URL.
    virtual std::string publish_share_link(const std::string& fragment) = 0;
};

// The timeline's records grouped per NPU and sorted by start, built once per run (not per frame).
struct TimelineIndex {
    const RunResult* built_for = nullptr;
    uint64_t built_events = 0;
    std::vector<std::vector<uint32_t>> rows; // per NPU: indices into RunResult::stats.timeline
    std::vector<TimeNs> longest;             // per NPU: the longest record (bounds the search back)
};

// A widget's screen rectangle in canvas (CSS) pixels, for the browser tests' mouse.
struct WidgetRect {
    float x = 0, y = 0, w = 0, h = 0;
};

// View state that is not part of the scenario or the run.
struct View {
    int sample = -1;           // the picker's choice (-1: none); what Load sample loads
    std::string picker_source; // the scenario source the picker last followed
    std::string share_url;
    std::string share_error;
    // Timeline: the visible window in ns; zero width = fit the whole run.
    double tl_start = 0;
    double tl_width = 0;
    TimelineIndex timeline;
    std::string json_text; // the scenario JSON editor's buffer
    bool json_dirty = false;
    HardwareState hardware; // the Hardware tab (hardware_panel.cpp)
    // The scenario's network and system sections as JSON text while a hardware description replaces them
    // (use_hardware_in_scenario), and which adopted scenario they belong to (App::scenarios_adopted):
    // another scenario loaded since makes them stale.
    std::string stashed_network, stashed_system;
    uint64_t stashed_for = 0;
    SearchState search;                      // the Search tab (search_panel.cpp)
    int64_t hardware_hover = -1;             // the size under the mouse in its chart, -1 = none
    std::map<std::string, WidgetRect> rects; // named widgets as last drawn (window.astrolabe.widgetRect)
    bool tl_critical = true;                 // outline the critical path's nodes on the timeline
    // The results tab to open on the next frame (set by a click elsewhere, e.g. a critical-path row), and
    // the one shown now (for window.astrolabe.viewState()).
    std::string select_tab;
    std::string results_tab;
    // The collectives table's scroll, read back for the browser tests' wheel check.
    float table_scroll_y = 0;
    float table_row_h = 0;
    // The Network tab's layout, built once per result.
    const RunResult* layout_for = nullptr;
    uint64_t layout_events = 0;
    TopologyLayout layout;
    int hovered_device = -1; // the device under the pointer in the Network drawing, -1 none
    float drawing_x = 0, drawing_y = 0, drawing_size = 0; // where the Network drawing was last drawn
};

void draw_app(App& app, View& view, Platform& platform);

// A share link for the Run panel's link line: published (address bar, clipboard) when `fragment` is one,
// else its error shown in place of the link. The scenario's and the search's Share buttons both use it.
void publish_share(View& view, Platform& platform, const Result<std::string>& fragment);

// Panels (one file each).
void draw_scenario_panel(App& app, View& view, Platform& platform);
void draw_run_panel(App& app, View& view, Platform& platform);
void draw_results_panel(App& app, View& view, Platform& platform);
void draw_timeline(App& app, View& view);
void draw_network(App& app, View& view);
void draw_compare(App& app);
void draw_critical_path(App& app, View& view);
void draw_hardware_panel(App& app, View& view, Platform& platform);
// The scenario on a real system (scenario_hardware.cpp): the Hardware tab's description replaces the
// scenario's network and system (kept in the view to bring back), and the scenario panel's section over it.
void use_hardware_in_scenario(App& app, View& view);
void draw_scenario_hardware(App& app, View& view);
void draw_search_panel(App& app, View& view, Platform& platform);

// Shared widgets.
void show_problems(const std::vector<std::string>& problems); // red lines under a field
// Records the last item's screen rectangle under `name` in view.rects (window.astrolabe.widgetRect: the
// browser tests click there).
void remember(View& view, const std::string& name);
std::string format_ns(double ns); // "1.25 ms", "337.76 us"
// A time axis from screen x0 over `width` pixels for times t0..t1, at the cursor; returns its height.
float draw_time_axis(float x0, float width, double t0, double t1);

} // namespace astrolabe::ui

// The narrow C interface the page's JS (web/astrolabe.js) calls, and the Platform the UI calls back into
// the page through. Strings cross as UTF-8; a returned `const char*` stays valid until the next call of
// the same function. Nothing here throws to JS: every failure becomes a message the page shows.
#include "wasm/host.h"

#include "core/base/json_writer.h"
#include "ui/hardware_state.h"

#include <emscripten/emscripten.h>

#include <cstdio>
#include <string>
#include <utility>
#include <vector>

namespace astrolabe::wasm {

namespace {

// [SECTION] calls into the page (web/astrolabe.js defines window.astrolabeHost)
// clang-format off
EM_JS(void, js_open_trace_files, (), { window.astrolabeHost.openTraceFiles(); });
EM_JS(void, js_open_scenario_file, (), { window.astrolabeHost.openScenarioFile(); });
EM_JS(void, js_open_measured_file, (), { window.astrolabeHost.openMeasuredFile(); });
EM_JS(void, js_download, (const char* name, const char* mime, const char* data, int size), {
    window.astrolabeHost.download(UTF8ToString(name), UTF8ToString(mime), HEAPU8.slice(data, data + size));
});
EM_JS(char*, js_publish_share_link, (const char* fragment), {
    const url = window.astrolabeHost.publishShareLink(UTF8ToString(fragment));
    const n = lengthBytesUTF8(url) + 1;
    const p = _malloc(n);
    stringToUTF8(url, p, n);
    return p;
});
// clang-format on

class BrowserPlatform final : public ui::Platform {
public:
    void open_trace_files() override { js_open_trace_files(); }
    void open_scenario_file() override { js_open_scenario_file(); }
    void open_measured_file() override { js_open_measured_file(); }
    void download(const std::string& name, const std::string& mime, const std::string& bytes) override {
        js_download(name.c_str(), mime.c_str(), bytes.data(), static_cast<int>(bytes.size()));
    }
    std::string publish_share_link(const std::string& fragment) override {
        char* p = js_publish_share_link(fragment.c_str());
        std::string url(p);
        free(p);
        return url;
    }
};

std::vector<std::pair<std::string, std::string>> g_pending_traces;

// A Hardware-tab file or link the tab refused: its reason stays in the status line until an action of the
// same kind succeeds, when it no longer describes the tab (unless something else has spoken since).
std::string g_hardware_refusal;
void hardware_refused(const Status& st) {
    g_hardware_refusal = st.message();
    app().set_message(g_hardware_refusal);
}
void hardware_accepted() {
    if (!g_hardware_refusal.empty() && app().message() == g_hardware_refusal) app().set_message("");
    g_hardware_refusal.clear();
}

// Joins the validation problems and the latest message, one per line.
std::string problems_text() {
    std::string out = app().validation().message();
    if (!app().message().empty()) out += (out.empty() ? "" : "\n") + app().message();
    return out;
}

// Every load call ends here. Returns its result code: 0 loaded and valid, 1 loaded with problems (shown
// in the UI), 2 refused (the scenario is unchanged; the reason is in astro_problems()). Any load from the
// page, even a refused one, discards unapplied edits in the scenario panel's JSON editor, which then shows
// the app's document again.
int finish_load(const Status& refused) {
    view().json_dirty = false;
    if (!refused.is_ok()) return 2;
    return app().validation().is_ok() ? 0 : 1;
}

} // namespace

ui::App& app() {
    static ui::App instance("/samples"); // the bundled samples, preloaded into the virtual file system
    return instance;
}
ui::View& view() {
    static ui::View v;
    return v;
}
ui::Platform& platform() {
    static BrowserPlatform p;
    return p;
}
ui::InputTrickle& input() {
    static ui::InputTrickle q;
    return q;
}

} // namespace astrolabe::wasm

using astrolabe::wasm::app;

extern "C" {

// The Hardware tab and collective-perf (ui/hardware_state.h): JSON text out, {"error": ...} on bad input.
EMSCRIPTEN_KEEPALIVE const char* astro_collective_perf(const char* hw, const char* op, const char* algo,
                                                       const char* min_bytes, const char* max_bytes,
                                                       const char* type, const char* red_op, int reference) {
    static std::string out;
    astrolabe::CollectivePerfArgs args;
    args.hardware_json = hw;
    args.op = op;
    args.algo = algo;
    args.min_bytes = min_bytes;
    args.max_bytes = max_bytes;
    args.type = type;
    args.red_op = red_op;
    args.astra_reference = reference != 0;
    auto r = astrolabe::ui::collective_perf_from_text(args);
    out = r.is_ok() ? r.value() : "{\"error\": " + astrolabe::JsonWriter::escape(r.status().message()) + "}";
    return out.c_str();
}
// Restores a shared busbw curve (a URL with #perf=...) in the Hardware tab, which opens. 0 restored, 2
// refused (the reason is in astro_problems(); the tab keeps what it had).
EMSCRIPTEN_KEEPALIVE int astro_perf_load_link(const char* link) {
    auto& v = astrolabe::wasm::view();
    astrolabe::Status st = v.hardware.load_link(link);
    if (!st.is_ok()) {
        astrolabe::wasm::hardware_refused(st);
        return 2;
    }
    astrolabe::wasm::hardware_accepted();
    v.select_tab = "Hardware";
    return 0;
}
// A measured nccl-tests output (the Hardware tab's "Compare measured..." file) set beside the curve; 2 when
// it is no table (the message says why, the tab unchanged).
EMSCRIPTEN_KEEPALIVE int astro_perf_measured(const char* text, const char* name) {
    auto& v = astrolabe::wasm::view();
    astrolabe::Status st = v.hardware.load_measured(text, name);
    if (!st.is_ok()) {
        astrolabe::wasm::hardware_refused(st);
        return 2;
    }
    astrolabe::wasm::hardware_accepted();
    v.select_tab = "Hardware";
    return 0;
}
EMSCRIPTEN_KEEPALIVE const char* astro_hardware_panel() {
    static std::string out;
    out = astrolabe::wasm::view().hardware.summary_json();
    return out.c_str();
}
// A named widget's rectangle as "x y w h" in canvas pixels, "" when it was not drawn (for the tests' mouse).
EMSCRIPTEN_KEEPALIVE const char* astro_widget_rect(const char* name) {
    static std::string out;
    out.clear();
    auto& rects = astrolabe::wasm::view().rects;
    auto it = rects.find(name);
    if (it != rects.end())
        out = std::to_string(it->second.x) + " " + std::to_string(it->second.y) + " " +
              std::to_string(it->second.w) + " " + std::to_string(it->second.h);
    return out.c_str();
}

EMSCRIPTEN_KEEPALIVE const char* astro_version() {
    return "0.1.0";
}

EMSCRIPTEN_KEEPALIVE const char* astro_samples() {
    static std::string out;
    out.clear();
    for (const auto& s : app().samples())
        out += s.name + "\n";
    return out.c_str();
}

EMSCRIPTEN_KEEPALIVE int astro_load_sample(const char* name) {
    return astrolabe::wasm::finish_load(app().load_sample(name));
}

EMSCRIPTEN_KEEPALIVE int astro_load_scenario(const char* json, const char* source) {
    return astrolabe::wasm::finish_load(app().load_scenario_text(json, source));
}

EMSCRIPTEN_KEEPALIVE int astro_load_link(const char* link) {
    return astrolabe::wasm::finish_load(app().load_link(link));
}

// Uploaded trace files arrive one at a time, then are committed together (their names give the ranks).
EMSCRIPTEN_KEEPALIVE void astro_add_trace(const char* name, const char* bytes, int size) {
    astrolabe::wasm::g_pending_traces.emplace_back(name, std::string(bytes, static_cast<size_t>(size)));
}
EMSCRIPTEN_KEEPALIVE int astro_commit_traces() {
    auto files = std::move(astrolabe::wasm::g_pending_traces);
    astrolabe::wasm::g_pending_traces.clear();
    return astrolabe::wasm::finish_load(app().load_traces(std::move(files)));
}

EMSCRIPTEN_KEEPALIVE const char* astro_scenario_json() {
    static std::string out;
    out = app().doc().dump(2);
    return out.c_str();
}

EMSCRIPTEN_KEEPALIVE const char* astro_problems() {
    static std::string out;
    out = astrolabe::wasm::problems_text();
    return out.c_str();
}

// A message from the page (a file it could not read) for the UI's status line.
EMSCRIPTEN_KEEPALIVE void astro_set_message(const char* text) {
    app().set_message(text);
}

EMSCRIPTEN_KEEPALIVE int astro_run_start() {
    return app().start_run() ? 0 : 2;
}

// Steps the run for up to `budget_ms`; returns the phase (ui::RunPhase as an int).
EMSCRIPTEN_KEEPALIVE int astro_step(double budget_ms) {
    app().step(budget_ms);
    return static_cast<int>(app().phase());
}

EMSCRIPTEN_KEEPALIVE void astro_cancel() {
    app().cancel();
}

// Test hook (web/tests/session_checks.cjs): the next run step fails an internal assert, as a bug would; the
// run must end with a message while the page keeps working.
EMSCRIPTEN_KEEPALIVE void astro_test_inject_internal_error() {
    app().inject_internal_error();
}

EMSCRIPTEN_KEEPALIVE const char* astro_report() {
    return app().report_json().c_str();
}

EMSCRIPTEN_KEEPALIVE const char* astro_timeline() {
    static std::string out;
    out = app().timeline_json();
    return out.c_str();
}

// The share fragment ("s=..."), or "" with the reason in astro_problems().
EMSCRIPTEN_KEEPALIVE const char* astro_share_fragment() {
    static std::string out;
    auto f = app().share_fragment();
    if (f.is_ok()) {
        out = std::move(f.value());
    } else {
        out.clear();
        app().set_message(f.status().message());
    }
    return out.c_str();
}

// [SECTION] the Search tab (ui/search_state.h)
// Its state as JSON (phase, evaluations, best, message, the ticked fields) for scripts and tests.
EMSCRIPTEN_KEEPALIVE const char* astro_search_state() {
    static std::string out;
    out = astrolabe::wasm::view().search.summary_json();
    return out.c_str();
}
// Restores a shared search (a URL with #search=...): the form, agent, seed and budget; its base goes into the
// scenario editor and the Search tab opens. 0 restored, 2 refused (the reason is in astro_problems()).
EMSCRIPTEN_KEEPALIVE int astro_search_load_link(const char* link) {
    auto& v = astrolabe::wasm::view();
    astrolabe::Status st = v.search.load_link(link);
    if (!st.is_ok()) {
        app().set_message(st.message());
        return 2;
    }
    app().load_scenario_text(v.search.form().base, "shared search");
    v.json_dirty = false;
    v.select_tab = "Search";
    return 0;
}

// What the UI shows now, for tests that drive it with the mouse: the picker's choice, the results tab, the
// timeline's visible window (ns), the collectives table's scroll (pixels and row height), the last two
// runs' totals and the device under the pointer in the Network drawing.
EMSCRIPTEN_KEEPALIVE const char* astro_view_state() {
    static std::string out;
    const auto& v = astrolabe::wasm::view();
    const auto& samples = app().samples();
    auto str = [](const std::string& s) {
        std::string q = "\"";
        for (char c : s)
            q += (c == '"' || c == '\\') ? std::string("\\") + c : std::string(1, c);
        return q + "\"";
    };
    char nums[256];
    std::snprintf(
        nums, sizeof nums,
        "\"tl_start_ns\": %.3f, \"tl_width_ns\": %.3f, \"table_scroll_y\": %.1f, \"table_row_h\": %.1f, "
        "\"hovered_device\": %d",
        v.tl_start, v.tl_width, double(v.table_scroll_y), double(v.table_row_h), v.hovered_device);
    out =
        "{\"sample\": " +
        (v.sample >= 0 && size_t(v.sample) < samples.size() ? str(samples[size_t(v.sample)].name) : "null") +
        ", \"scenario_source\": " + str(app().scenario_source()) +
        ", \"results_tab\": " + str(v.results_tab) + ", " + nums;
    const auto* prev = app().previous_run();
    const auto* cur = app().current_run();
    out += ", \"previous_total_ns\": " + (prev ? std::to_string(prev->total_ns) : "null");
    out += ", \"latest_total_ns\": " + (cur ? std::to_string(cur->total_ns) : "null");
    out += ", \"runs_done\": " + std::to_string(cur ? cur->number : 0);
    out += ", \"input_pending\": " + std::to_string(astrolabe::wasm::input().pending());
    out += ", \"critical_path_nodes\": " +
           std::to_string(app().result() ? app().critical_path().steps.size() : 0);
    if (v.hovered_device >= 0) out += ", \"hovered_name\": " + str(v.layout.name(uint32_t(v.hovered_device)));
    // The Network drawing's square (page pixels) and where its device 0 is in it (fractions), so a test can
    // point at a device.
    if (v.drawing_size > 0 && !v.layout.devices.empty()) {
        std::snprintf(nums, sizeof nums, ", \"drawing\": [%.1f, %.1f, %.1f], \"device0\": [%.4f, %.4f]",
                      double(v.drawing_x), double(v.drawing_y), double(v.drawing_size),
                      double(v.layout.devices[0].x), double(v.layout.devices[0].y));
        out += nums;
    }
    out += "}";
    return out.c_str();
}

} // extern "C"

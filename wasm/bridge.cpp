// The narrow C interface the page's JS (web/astrolabe.js) calls, and the Platform the UI calls back into
// the page through. Strings cross as UTF-8; a returned `const char*` stays valid until the next call of
// the same function. Nothing here throws to JS: every failure becomes a message the page shows.
#include "wasm/host.h"

#include <emscripten/emscripten.h>

#include <string>
#include <utility>
#include <vector>

namespace astrolabe::wasm {

namespace {

// [SECTION] calls into the page (web/astrolabe.js defines window.astrolabeHost)
// clang-format off
EM_JS(void, js_open_trace_files, (), { window.astrolabeHost.openTraceFiles(); });
EM_JS(void, js_open_scenario_file, (), { window.astrolabeHost.openScenarioFile(); });
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

} // namespace astrolabe::wasm

using astrolabe::wasm::app;

extern "C" {

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

} // extern "C"

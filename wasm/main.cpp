// The browser app's entry: a GLFW window on the page's canvas (WebGL 2), Dear ImGui on top, and one
// frame per animation frame. Each frame steps a running simulation for a slice of wall time first, so the
// page stays responsive while long runs proceed.
#include "wasm/host.h"

#include <GLES3/gl3.h>
#include <GLFW/glfw3.h>
#include <emscripten/emscripten.h>
#include <imgui.h>
#include <imgui_impl_glfw.h>
#include <imgui_impl_opengl3.h>

#include <cstdio>

namespace {

GLFWwindow* g_window = nullptr;

// The canvas follows the browser window (web/astrolabe.js sizes the element; this sizes its backing).
// clang-format off
EM_JS(int, js_canvas_width, (), { return window.innerWidth; });
EM_JS(int, js_canvas_height, (), { return window.innerHeight; });
// Wheel notches per unit of the last wheel event's delta (web/astrolabe-page.js records its deltaMode).
EM_JS(double, js_wheel_notches_per_unit, (), { return window.astrolabeWheelScale || 0.01; });
// clang-format on

// Emscripten's GLFW passes the browser's wheel deltas through as they are: pixels (100 per notch in
// Chromium), positive downwards. ImGui wants notches, positive upwards; taken raw, one notch scrolled a
// table to its end and zoomed the timeline by 0.8^100. Converted here, with the sign flipped.
void on_scroll(GLFWwindow* window, double dx, double dy) {
    const double per_unit = js_wheel_notches_per_unit();
    ImGui_ImplGlfw_ScrollCallback(window, -dx * per_unit, -dy * per_unit);
}

// Keys and characters wait in a queue and reach ImGui a frame at a time (ui/input_trickle.h): ImGui 1.86
// lost a key pressed and released between two frames.
void on_key(GLFWwindow*, int key, int scancode, int action, int mods) {
    astrolabe::wasm::input().push({astrolabe::ui::InputEvent::Kind::Key, key, scancode, action, mods, 0});
}
void on_char(GLFWwindow*, unsigned c) {
    astrolabe::wasm::input().push({astrolabe::ui::InputEvent::Kind::Char, 0, 0, 0, 0, c});
}
bool imgui_acts_on(int key) {
    const ImGuiIO& io = ImGui::GetIO();
    for (int k : io.KeyMap)
        if (k == key) return true;
    return key >= GLFW_KEY_LEFT_SHIFT && key <= GLFW_KEY_RIGHT_SUPER; // the modifiers
}
void feed_input() {
    for (const auto& e : astrolabe::wasm::input().take_frame(imgui_acts_on)) {
        if (e.kind == astrolabe::ui::InputEvent::Kind::Key)
            ImGui_ImplGlfw_KeyCallback(g_window, e.key, e.scancode, e.action, e.mods);
        else
            ImGui_ImplGlfw_CharCallback(g_window, e.ch);
    }
}

// Simulation time per frame: enough to make progress, little enough to keep 30+ frames per second.
constexpr double kStepBudgetMs = 12.0;

void frame() {
    int w = js_canvas_width(), h = js_canvas_height();
    int cw = 0, ch = 0;
    glfwGetWindowSize(g_window, &cw, &ch);
    if (w > 0 && h > 0 && (w != cw || h != ch)) glfwSetWindowSize(g_window, w, h);

    glfwPollEvents();
    feed_input();
    astrolabe::wasm::app().step(kStepBudgetMs);
    astrolabe::wasm::view().search.step(kStepBudgetMs); // the Search tab's points, a few per frame

    ImGui_ImplOpenGL3_NewFrame();
    ImGui_ImplGlfw_NewFrame();
    ImGui::NewFrame();
    astrolabe::ui::draw_app(astrolabe::wasm::app(), astrolabe::wasm::view(), astrolabe::wasm::platform());
    ImGui::Render();

    int fw = 0, fh = 0;
    glfwGetFramebufferSize(g_window, &fw, &fh);
    glViewport(0, 0, fw, fh);
    glClearColor(0.10f, 0.11f, 0.13f, 1.0f);
    glClear(GL_COLOR_BUFFER_BIT);
    ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
}

} // namespace

int main() {
    if (!glfwInit()) {
        std::fprintf(stderr, "astrolabe: GLFW could not start\n");
        return 1;
    }
    glfwWindowHint(GLFW_CLIENT_API, GLFW_OPENGL_ES_API);
    glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, 3);
    glfwWindowHint(GLFW_CONTEXT_VERSION_MINOR, 0);
    g_window = glfwCreateWindow(js_canvas_width(), js_canvas_height(), "Astrolabe", nullptr, nullptr);
    if (!g_window) {
        std::fprintf(stderr, "astrolabe: no WebGL 2 context (the page shows why)\n");
        return 1;
    }
    glfwMakeContextCurrent(g_window);

    IMGUI_CHECKVERSION();
    ImGui::CreateContext();
    ImGuiIO& io = ImGui::GetIO();
    io.IniFilename = nullptr; // layout is fixed; nothing to remember
    ImGui::StyleColorsDark();
    ImGui_ImplGlfw_InitForOpenGL(g_window, true);
    glfwSetScrollCallback(g_window, on_scroll); // replaces the backend's; on_scroll forwards to it
    glfwSetKeyCallback(g_window, on_key);       // the same: queued, then forwarded by feed_input()
    glfwSetCharCallback(g_window, on_char);
    ImGui_ImplOpenGL3_Init("#version 300 es");

    astrolabe::wasm::app(); // lists the bundled samples now, before the first frame
    emscripten_set_main_loop(frame, 0, false);
    return 0;
}

// The one App of the page, shared by the main loop (wasm/main.cpp) and the JS bridge (wasm/bridge.cpp).
#pragma once

#include "ui/input_trickle.h"
#include "ui/ui.h"

namespace astrolabe::wasm {

ui::App& app();
ui::View& view();
ui::Platform& platform();
// Keyboard events waiting for a frame (wasm/main.cpp hands them to ImGui a frame at a time).
ui::InputTrickle& input();

} // namespace astrolabe::wasm

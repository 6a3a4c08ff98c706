// The one App of the page, shared by the main loop (wasm/main.cpp) and the JS bridge (wasm/bridge.cpp).
#pragma once

#include "ui/ui.h"

namespace astrolabe::wasm {

ui::App& app();
ui::View& view();
ui::Platform& platform();

} // namespace astrolabe::wasm

#include "ui/table_header.h"

#include "core/base/assert.h"

#include <imgui.h>

namespace astrolabe::ui {

void table_header(std::initializer_list<const char*> names, std::initializer_list<float> widths) {
    SIM_ASSERT(names.size() == widths.size(), "table_header: one width per column");
    const float* w = widths.begin();
    for (const char* name : names) {
        if (*w < 0)
            ImGui::TableSetupColumn(name, ImGuiTableColumnFlags_WidthFixed, -*w);
        else
            ImGui::TableSetupColumn(name, ImGuiTableColumnFlags_WidthStretch, *w);
        ++w;
    }
    ImGui::TableHeadersRow();
}

} // namespace astrolabe::ui

// The header of an ImGui table: its columns set up and the header row drawn, from one call per table.
#pragma once

#include <initializer_list>

namespace astrolabe::ui {

// Call right after ImGui::BeginTable (and TableSetupScrollFreeze) with one name and one width per column.
// A width below zero is a fixed width of that many pixels; one above zero is the column's share (stretch
// weight) of what the fixed columns leave.
void table_header(std::initializer_list<const char*> names, std::initializer_list<float> widths);

} // namespace astrolabe::ui

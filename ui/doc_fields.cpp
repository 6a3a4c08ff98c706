// Form fields over the scenario document (doc_fields.h).
#include "ui/doc_fields.h"

#include "ui/ui.h"

#include <imgui.h>

#include <algorithm>

namespace astrolabe::ui {

bool edit_choice(App& app, const char* label, const std::string& path,
                 const std::vector<std::string>& options, const char* fallback, View* view, const char* id) {
    std::string cur = app.doc().get_string(path, fallback);
    bool changed = false;
    const bool named = view && id;
    if (ImGui::BeginCombo(label, cur.c_str())) {
        for (const auto& option : options) {
            bool selected = cur == option;
            if (ImGui::Selectable(option.c_str(), selected) && !selected) {
                app.doc().set_string(path, option);
                changed = true;
            }
            if (named) remember(*view, std::string(id) + ":" + option);
        }
        ImGui::EndCombo();
    }
    if (named) remember(*view, id);
    return changed;
}

bool edit_number(App& app, const char* label, const std::string& path, double fallback, bool integer) {
    double v = app.doc().get_number(path, fallback);
    bool changed;
    if (integer) {
        int i = static_cast<int>(v);
        changed = ImGui::InputInt(label, &i, 0, 0);
        if (changed) v = i;
    } else {
        changed = ImGui::InputDouble(label, &v, 0, 0, "%.6g");
    }
    if (changed) app.doc().set_number(path, v);
    return changed;
}

bool edit_flag(App& app, const char* label, const std::string& path) {
    bool on = app.doc().get_number(path, 0) != 0;
    if (!ImGui::Checkbox(label, &on)) return false;
    app.doc().set_number(path, on ? 1 : 0);
    return true;
}

bool edit_bool(App& app, const char* label, const std::string& path, bool fallback) {
    bool on = app.doc().has(path) ? app.doc().get_number(path, fallback ? 1 : 0) != 0 : fallback;
    if (!ImGui::Checkbox(label, &on)) return false;
    app.doc().set_bool(path, on);
    return true;
}

void push_form_width(const char* longest_label) {
    const float label = ImGui::CalcTextSize(longest_label).x + ImGui::GetStyle().ItemInnerSpacing.x + 4;
    ImGui::PushItemWidth(std::max(80.0f, ImGui::GetContentRegionAvail().x - label));
}

} // namespace astrolabe::ui

// Form fields bound to the scenario document by JSON pointer (config::ScenarioDoc): the scenario panel's
// network, system and generator forms and its hardware section share them. Each returns whether the user
// changed the value; the caller then calls App::doc_changed() once for the form.
#pragma once

#include "core/config/spellings.h"
#include "ui/app_state.h"

#include <string>
#include <vector>

namespace astrolabe::ui {

// Every menu's choices come from core, where the parsers read the same lists: a spelling added there shows
// up here, and nothing here can drift from what the CLI accepts.
template <class E>
const std::vector<std::string>& choices() {
    static const std::vector<std::string> kNames = config::names_of(config::spellings<E>());
    return kNames;
}

struct View;

// A combo over `options` bound to the string at `path`; a value outside the list is shown as is. With a
// view and an id, the combo and each option are named widgets (`id`, `id:option`) for mouse-driven tests.
bool edit_choice(App& app, const char* label, const std::string& path,
                 const std::vector<std::string>& options, const char* fallback, View* view = nullptr,
                 const char* id = nullptr);

// A number field bound to `path`. An absent key shows its default and is written only once edited.
bool edit_number(App& app, const char* label, const std::string& path, double fallback, bool integer);

// A checkbox over a generator flag (written as 1/0, which the generator reads as on/off).
bool edit_flag(App& app, const char* label, const std::string& path);

// A checkbox over a JSON boolean (an absent key shows `fallback` and is written only once clicked).
bool edit_bool(App& app, const char* label, const std::string& path, bool fallback);

// Fields of a form narrow enough that the longest label beside them stays visible.
void push_form_width(const char* longest_label);

} // namespace astrolabe::ui

#include "native/suggest.h"

#include "core/config/spellings.h"

#include <algorithm>

namespace astrolabe::cli {

std::string nearest_spelling(const std::string& typed, const std::vector<std::string>& candidates) {
    return config::nearest_name(candidates, typed);
}

std::string join_choices(const std::vector<std::string>& choices) {
    std::string out;
    for (size_t i = 0; i < choices.size(); ++i) {
        if (i) out += i + 1 == choices.size() ? " or " : ", ";
        out += choices[i];
    }
    return out;
}

Status check_choice(const std::string& flag, const std::string& value,
                    const std::vector<std::string>& choices) {
    if (std::find(choices.begin(), choices.end(), value) != choices.end()) return Status::ok();
    std::string msg = flag + ": '" + value + "'; " + join_choices(choices) + " was expected";
    std::string near = nearest_spelling(value, choices);
    if (!near.empty()) msg += " (did you mean " + near + "?)";
    return Status::error(msg);
}

} // namespace astrolabe::cli

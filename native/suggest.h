// "Did you mean": the nearest valid spelling of a misspelt option or value, for error messages.
#pragma once

#include "core/base/status.h"

#include <string>
#include <vector>

namespace astrolabe::cli {

// The candidate closest to `typed` when it is close enough to be a slip of the keyboard, else empty: the
// configuration's own rule (config::nearest_name), so a flag and a file's key are suggested alike.
std::string nearest_spelling(const std::string& typed, const std::vector<std::string>& candidates);

// An error for a value outside `choices` that names the flag:
// "--network-model: 'congestoin'; analytical, congestion or flow was expected (did you mean congestion?)".
// OK when the value is one of the choices.
Status check_choice(const std::string& flag, const std::string& value,
                    const std::vector<std::string>& choices);

// "a, b or c".
std::string join_choices(const std::vector<std::string>& choices);

} // namespace astrolabe::cli

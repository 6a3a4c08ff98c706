// Base64 (RFC 4648, standard alphabet with padding) for trace bytes embedded in scenario JSON.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace astrolabe {

std::string base64_encode(std::string_view bytes);
// nullopt on a character outside the alphabet or a bad length; whitespace is skipped.
std::optional<std::string> base64_decode(std::string_view text);

} // namespace astrolabe

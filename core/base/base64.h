// Base64 (RFC 4648, standard alphabet with padding) for trace bytes embedded in scenario JSON.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace astrolabe {

std::string base64_encode(std::string_view bytes);
// RFC 4648 section 5: '-' and '_' instead of '+' and '/', no padding; safe in a URL fragment as is.
std::string base64url_encode(std::string_view bytes);
// nullopt on a character outside the alphabet or a bad length; whitespace is skipped.
std::optional<std::string> base64_decode(std::string_view text);

} // namespace astrolabe

// Share links: a whole scenario in a URL fragment, so opening the link reproduces the run.
//
// Fragment form: `s=` + base64url (no padding) of the raw-deflate-compressed scenario JSON (zlib level 9,
// window 2^15). The fragment never reaches a server, so a link works from any static host and shares
// nothing with it. The browser and the CLI (`astrolabe share`, `run --link`) use this same code, so a link
// made in one opens in the other.
#pragma once

#include "core/base/status.h"

#include <optional>
#include <string>
#include <string_view>

namespace astrolabe {

// Browsers accept far longer URLs, but chat tools, mail clients and address bars cut them; beyond this a
// scenario is offered as a file instead.
constexpr size_t kMaxShareFragment = 64 * 1024;
// A decoded scenario larger than this is refused (a hostile link must not exhaust memory).
constexpr size_t kMaxSharedScenario = 64 * 1024 * 1024;

// The value of parameter `key` (e.g. "s=", with its '=') in a link's fragment: what follows '#' in a whole
// URL, else the whole text, split at '&'. nullopt when no parameter starts with `key`. Scenario links
// (s=), search links (search=) and curve links (perf=) all find their part with it.
std::optional<std::string_view> share_link_param(std::string_view link, std::string_view key);

// The fragment (without '#') for a scenario's JSON text.
std::string encode_share_fragment(std::string_view scenario_json);

// The scenario JSON from a link: a whole URL, a fragment with or without '#', or the `s=` value alone.
// Errors say what is wrong (no s= part, bad base64, corrupt or oversized data).
Result<std::string> decode_share_link(std::string_view link);

} // namespace astrolabe

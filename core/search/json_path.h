// Knob paths: `a.b[i]` addresses a key of a JSON document (`.` between keys, `[i]` for a list entry).
//
// Internal to core/search (it uses nlohmann_json, which stays out of the public headers of this module):
// the spec parser resolves knob and constraint paths with it, the driver writes knob values with it.
// Keys may contain any character but `.` and `[` (scenario keys such as `all-reduce-implementation` do).
#pragma once

#include "core/base/status.h"

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace astrolabe::search {

struct PathStep {
    std::string key; // an object key, or empty for a list index
    size_t index = 0;
    bool is_index = false;
};

struct JsonPath {
    std::string text;
    std::vector<PathStep> steps;
};

// Parses "a.b[1].c"; a malformed path ("a..b", "a[x]", "a[") gives a message naming what is wrong.
Result<JsonPath> parse_json_path(const std::string& text);

// The value at `path`, or null when some step does not exist. `why` (when given) says which step failed,
// with the nearest existing key suggested.
const nlohmann::json* find_at(const nlohmann::json& doc, const JsonPath& path, std::string* why = nullptr);

// Replaces the value at `path` (which must exist, see find_at).
bool set_at(nlohmann::json& doc, const JsonPath& path, const nlohmann::json& value);

// The closest of `candidates` to `word` by edit distance, or "" when none is close.
std::string nearest_word(const std::string& word, const std::vector<std::string>& candidates);

} // namespace astrolabe::search

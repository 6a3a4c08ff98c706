#include "core/config/json_read.h"

#include <cmath>

namespace astrolabe::config::detail {

Result<json> parse_json_text(std::string_view text, const std::string& source) {
    try {
        return json::parse(text.begin(), text.end());
    } catch (const json::exception& e) {
        // parse_error, and also out_of_range for a number too large for a double (`1e999`): every
        // nlohmann exception here is a problem of the text, never a reason to terminate.
        std::string what = e.what();
        // nlohmann prefixes "[json.exception.parse_error.101] "; keep only the human part.
        auto p = what.find("] ");
        if (p != std::string::npos) what = what.substr(p + 2);
        return Status::error(source + ": invalid JSON: " + what);
    }
}

std::string describe(const json& v) {
    switch (v.type()) {
    case json::value_t::null:
        return "null";
    case json::value_t::object:
        return "an object";
    case json::value_t::array:
        return "an array";
    case json::value_t::string:
        return "the string " + v.dump();
    case json::value_t::boolean:
        return v.get<bool>() ? "true" : "false";
    case json::value_t::number_integer:
    case json::value_t::number_unsigned:
    case json::value_t::number_float:
        return v.dump();
    default:
        return "an unsupported value";
    }
}

Status require_object(const json& v, const std::string& source, const char* what) {
    if (v.is_object()) return Status();
    return Status::error(source + ": the " + what + " is " + describe(v) + "; a JSON object was expected");
}

void Fields::read_uint(const char* key, uint64_t& out, uint64_t min, uint64_t max) {
    if (!has(key)) return;
    const json& v = at(key);
    std::string range = " (from " + std::to_string(min) + " to " + std::to_string(max) + ")";
    if (v.is_number_unsigned() || (v.is_number_integer() && v.get<int64_t>() >= 0)) {
        uint64_t x = v.get<uint64_t>();
        if (x < min || x > max)
            return problem(key, "is " + std::to_string(x) + "; an integer" + range + " was expected");
        out = x;
        return;
    }
    if (v.is_number_float()) {
        double d = v.get<double>();
        if (std::isfinite(d) && d == std::floor(d) && d >= static_cast<double>(min) &&
            d <= static_cast<double>(max)) {
            out = static_cast<uint64_t>(d);
            return;
        }
    }
    problem(key, "is " + describe(v) + "; an integer" + range + " was expected");
}

void Fields::read_uint32(const char* key, uint32_t& out, uint32_t min, uint32_t max) {
    uint64_t x = out;
    read_uint(key, x, min, max);
    out = static_cast<uint32_t>(x);
}

void Fields::read_double(const char* key, double& out, double min, bool min_exclusive) {
    if (!has(key)) return;
    const json& v = at(key);
    if (!v.is_number()) return problem(key, "is " + describe(v) + "; a number was expected");
    double d = v.get<double>();
    bool low = min_exclusive ? d <= min : d < min;
    if (!std::isfinite(d) || low) {
        std::string bound = std::string(min_exclusive ? "greater than " : "at least ") + json(min).dump();
        return problem(key, "is " + v.dump() + "; a number " + bound + " was expected");
    }
    out = d;
}

void Fields::read_flag(const char* key, bool& out) {
    if (!has(key)) return;
    const json& v = at(key);
    if (v.is_boolean())
        out = v.get<bool>();
    else if (v.is_number())
        out = v.get<double>() != 0;
    else
        problem(key, "is " + describe(v) + "; 0, 1, true or false was expected");
}

void Fields::read_string(const char* key, std::string& out) {
    if (!has(key)) return;
    const json& v = at(key);
    if (!v.is_string()) return problem(key, "is " + describe(v) + "; a string was expected");
    out = v.get<std::string>();
}

} // namespace astrolabe::config::detail

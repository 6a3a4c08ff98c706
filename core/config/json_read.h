// Internal to core/config: reading typed fields out of nlohmann::json with every problem collected.
//
// Included only by core/config and by core/trace/trace_json.cpp (Chakra's JSON form maps the parsed tree onto
// a trace): the module boundary keeps nlohmann_json out of everything else (checked by tests/layers).
#pragma once

#include "core/base/status.h"
#include "core/config/config_types.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <string>
#include <string_view>

namespace astrolabe::config::detail {

using nlohmann::json;

// Parses JSON text; a syntax error becomes "<source>: invalid JSON: <where and what>".
Result<json> parse_json_text(std::string_view text, const std::string& source);

// Collects "<source>: <key>: <message>" problems while reading fields of one object.
class Fields {
public:
    Fields(const json& obj, const std::string& source, Status& problems)
        : obj_(obj), source_(source), problems_(problems) {}

    bool has(const char* key) const { return obj_.contains(key); }
    const json& at(const char* key) const { return obj_.at(key); }
    void problem(const std::string& key, const std::string& what) {
        problems_.add(source_ + ": " + key + ": " + what);
    }

    // Each reader leaves `out` unchanged when the key is absent or wrong (and records the problem).
    void read_uint(const char* key, uint64_t& out, uint64_t min, uint64_t max);
    void read_uint32(const char* key, uint32_t& out, uint32_t min, uint32_t max);
    void read_double(const char* key, double& out, double min, bool min_exclusive);
    void read_flag(const char* key, bool& out); // 0/1 or true/false; any non-zero number is true
    void read_string(const char* key, std::string& out);

    const std::string& source() const { return source_; }

private:
    const json& obj_;
    const std::string& source_;
    Status& problems_;
};

// Describes a JSON value's type for messages ("a string", "an array", ...).
std::string describe(const json& v);

// Ok when `v` is an object; otherwise "<source>: the <what> is <describe(v)>; a JSON object was expected".
Status require_object(const json& v, const std::string& source, const char* what);

// The typed readers behind both the stand-alone files and the scenario JSON.
Result<SystemConfig> system_from_json(const json& j, const std::string& source);
Result<MemoryConfig> memory_from_json(const json& j, const std::string& source);
Result<CommGroups> comm_groups_from_json(const json& j, const std::string& source, uint64_t npus);
Result<NetworkConfig> network_from_json(const json& j, const std::string& source);

} // namespace astrolabe::config::detail

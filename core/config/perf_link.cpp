#include "core/config/perf_link.h"

#include "core/config/json_read.h"

namespace astrolabe::config {

using nlohmann::json;

namespace {

constexpr const char* kSchema = "astrolabe.perf-link/1";

// The document's text keys, as the browser's scripting API names them, and where each goes.
struct TextKey {
    const char* key;
    std::string CollectivePerfArgs::*field;
};
const TextKey kTextKeys[] = {{"op", &CollectivePerfArgs::op},
                             {"algo", &CollectivePerfArgs::algo},
                             {"minBytes", &CollectivePerfArgs::min_bytes},
                             {"maxBytes", &CollectivePerfArgs::max_bytes},
                             {"type", &CollectivePerfArgs::type},
                             {"redop", &CollectivePerfArgs::red_op}};

} // namespace

Result<std::string> perf_link_json(const CollectivePerfArgs& args) {
    json hw = json::parse(args.hardware_json, nullptr, false);
    if (!hw.is_object()) return Status::error("the hardware description is not a JSON object");
    json j = json::object();
    j["schema"] = kSchema;
    j["hardware"] = std::move(hw);
    for (const auto& k : kTextKeys)
        if (!(args.*k.field).empty()) j[k.key] = args.*k.field;
    j["reference"] = args.astra_reference;
    return j.dump();
}

Result<CollectivePerfArgs> parse_perf_link_json(std::string_view text, const std::string& source) {
    auto parsed = detail::parse_json_text(text, source);
    if (!parsed.is_ok()) return parsed.status();
    const json& j = parsed.value();
    if (!j.is_object() || !j.contains("schema") || j["schema"] != kSchema)
        return Status::error(source + ": not a curve (\"" + kSchema + "\" was expected)");
    Status problems;
    CollectivePerfArgs args;
    if (!j.contains("hardware") || !j["hardware"].is_object())
        problems.add(source + ": hardware: an astrolabe.hardware/1 object was expected");
    else
        args.hardware_json = j["hardware"].dump();
    for (const auto& k : kTextKeys) {
        if (!j.contains(k.key)) continue;
        if (!j[k.key].is_string())
            problems.add(source + ": " + k.key + ": a string was expected, not " +
                         detail::describe(j[k.key]));
        else
            args.*k.field = j[k.key].get<std::string>();
    }
    if (j.contains("reference")) {
        if (!j["reference"].is_boolean())
            problems.add(source + ": reference: true or false was expected, not " +
                         detail::describe(j["reference"]));
        else
            args.astra_reference = j["reference"].get<bool>();
    }
    if (!problems.is_ok()) return problems;
    return args;
}

} // namespace astrolabe::config

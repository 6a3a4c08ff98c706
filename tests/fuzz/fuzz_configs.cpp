// libFuzzer harness: every configuration parser on the same bytes: ASTRA-sim's network YAML, system,
// remote-memory and communicator-group JSON, and Chakra's JSON trace form. Each must refuse garbage with
// a Status, never crash or hang.
#include "core/config/config_parse.h"
#include "core/trace/trace_json.h"

#include <cstddef>
#include <cstdint>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    using namespace astrolabe::config;
    std::string_view text(reinterpret_cast<const char*>(data), size);
    (void)parse_network_yaml(text, "fuzz.yml");
    (void)parse_system_json(text, "fuzz.json");
    (void)parse_memory_json(text, "fuzz.json");
    (void)parse_comm_groups_json(text, "fuzz.json", 64);
    (void)astrolabe::trace::trace_from_json(text, "fuzz.json");
    return 0;
}

// libFuzzer harness: what a shared link or an opened scenario file reaches: the share-link decoder (base64url
// + inflate, bounded), the scenario parser (embedded base64 traces included) and the editable document.
#include "core/config/scenario_doc.h"
#include "core/session/share_link.h"

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    using namespace astrolabe;
    std::string_view text(reinterpret_cast<const char*>(data), size);
    // The same bytes as a link (usually refused early) and as scenario text.
    auto link = decode_share_link(text);
    if (link.is_ok()) (void)config::parse_scenario_json(link.value(), "link");
    (void)config::parse_scenario_json(text, "fuzz.json");
    auto doc = config::ScenarioDoc::from_text(text, "fuzz.json");
    if (doc.is_ok()) {
        // Edits through pointers taken from the input itself must not crash either.
        std::string path = "/" + std::string(text.substr(0, 16));
        doc.value().set_number(path, 1);
        doc.value().set_array_size(path, 3);
        doc.value().erase(path);
        (void)doc.value().parse("fuzz.json");
        (void)decode_share_link(encode_share_fragment(doc.value().dump()));
    }
    return 0;
}

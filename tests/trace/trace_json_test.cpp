// Chakra JSON (protobuf json_format layout) <-> .et, as `astrolabe convert` does it.
#include "core/trace/trace_json.h"
#include "core/trace/trace_reader.h"
#include "support/test_support.h"

#include <catch2/catch.hpp>

using namespace astrolabe;
using Catch::Matchers::Contains;

namespace {

// .et -> JSON -> .et with every attribute kept verbatim; the bytes must come back unchanged.
std::string round_trip(const std::string& et, const std::string& name) {
    trace::ReadOptions opt;
    opt.keep_attributes = true;
    auto decoded = trace::decode_trace(et, name, opt);
    REQUIRE(decoded.is_ok());
    std::string json = trace::trace_to_json(decoded.value());
    auto back = trace::trace_from_json(json, name + ".json");
    REQUIRE(back.is_ok());
    return trace::encode_trace(back.value());
}

} // namespace

TEST_CASE("trace JSON: .et -> JSON -> .et is byte-identical", "[config][trace_json]") {
    // Three writers: astra-sim's custom-collective ET (nodes with no attributes at all, which must not
    // gain an is_cpu_op on the way back), STAGE (int32 is_cpu_op, string lists) and chakra_generator's
    // node carrying every attribute value kind.
    for (const char* rel :
         {"traces/astra-sim-custom-collective/custom_ring_allreduce_8npus_1MB/custom_allreduce.0.et",
          "traces/stage/gpt_dp2tp2pp2_4l/workload.0.et",
          "traces/chakra-generator/npus8_defaults/one_metadata_node_all_types.0.et"}) {
        INFO(rel);
        std::string et = test::read_data(rel);
        CHECK(round_trip(et, rel) == et);
    }
}

TEST_CASE("trace JSON: wrong types are refused with the node and key named", "[config][trace_json]") {
    auto r = trace::trace_from_json(
        R"({"nodes": [{"id": "1", "name": "x", "type": "COMP_NODE", "duration_micros": [1]}]})", "bad.json");
    REQUIRE_FALSE(r.is_ok());
    CHECK_THAT(r.status().message(), Contains("bad.json"));
    CHECK_THAT(r.status().message(), Contains("duration_micros"));
    CHECK_FALSE(trace::trace_from_json("{not json", "broken.json").is_ok());
}

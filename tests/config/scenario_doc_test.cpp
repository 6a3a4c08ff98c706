// The editable scenario document behind the browser's forms and share links: edits by JSON pointer, the
// same bytes for the same document, and validation by the CLI's own scenario parser.
#include "core/config/scenario_doc.h"
#include "support/test_support.h"

#include <catch2/catch.hpp>

using namespace astrolabe;
using namespace astrolabe::config;
using Catch::Matchers::Contains;

namespace {
const char* kScenario = R"({"workload": {"sample": "allreduce_ring8"},
  "network": {"topology": ["Ring"], "npus_count": [8], "bandwidth": [50.0], "latency": [500.0]},
  "system": {"endpoint-delay": 10, "preferred-dataset-splits": 4, "all-reduce-implementation": ["ring"]}})";
}

TEST_CASE("scenario doc: fields read and written by JSON pointer", "[config][scenario_doc]") {
    auto d = ScenarioDoc::from_text(kScenario, "s.json");
    REQUIRE(d.is_ok());
    ScenarioDoc& doc = d.value();
    CHECK(doc.get_number("/network/bandwidth/0") == 50.0);
    CHECK(doc.get_string("/network/topology/0") == "Ring");
    CHECK(doc.array_size("/network/npus_count") == 1);
    CHECK(doc.workload_summary() == "sample allreduce_ring8");
    CHECK_FALSE(doc.has("/memory"));

    // An integer typed into a form stays an integer in the file; a fraction stays a fraction.
    doc.set_number("/system/endpoint-delay", 20);
    doc.set_number("/network/bandwidth/0", 12.5);
    CHECK_THAT(doc.dump(), Contains("\"endpoint-delay\":20"));
    CHECK_THAT(doc.dump(), Contains("\"bandwidth\":[12.5]"));
    // Setting a key inside a missing section creates the section.
    doc.set_string("/memory/memory-type", "MEMORY_POOL");
    CHECK(doc.get_string("/memory/memory-type") == "MEMORY_POOL");
    // Growing a per-dimension list copies the last entry, so a new dimension starts from a valid value.
    doc.set_array_size("/network/bandwidth", 3);
    CHECK(doc.array_size("/network/bandwidth") == 3);
    CHECK(doc.get_number("/network/bandwidth/2") == 12.5);
    doc.erase("/memory");
    CHECK_FALSE(doc.has("/memory"));
    // A malformed pointer or one through a number is ignored, not a crash.
    doc.set_string("no-leading-slash", "x");
    doc.set_string("/system/endpoint-delay/inner", "x");
    CHECK(doc.get_number("/system/endpoint-delay") == 20);
}

TEST_CASE("scenario doc: whole sections out and back in as JSON text", "[config][scenario_doc]") {
    // The browser swaps the network and system for a hardware description and back: each section leaves
    // as text and returns byte for byte; text that is not JSON is refused and changes nothing.
    auto d = ScenarioDoc::from_text(kScenario, "s.json");
    REQUIRE(d.is_ok());
    ScenarioDoc& doc = d.value();
    const std::string before = doc.dump();
    const std::string network = doc.get_json("/network");
    CHECK(network == R"({"bandwidth":[50.0],"latency":[500.0],"npus_count":[8],"topology":["Ring"]})");
    CHECK(doc.get_json("/memory").empty());
    doc.erase("/network");
    REQUIRE(doc.set_json("/hardware", R"({"gpu": "H100-SXM", "nodes": 1})", "tab").is_ok());
    doc.set_bool("/hardware/nvls", false);
    CHECK(doc.get_json("/hardware") == R"({"gpu":"H100-SXM","nodes":1,"nvls":false})");
    const Status bad = doc.set_json("/network", "{\"topology\": [", "stash");
    CHECK_FALSE(bad.is_ok());
    CHECK_THAT(bad.message(), Contains("stash"));
    CHECK_FALSE(doc.has("/network"));
    doc.erase("/hardware");
    REQUIRE(doc.set_json("/network", network, "stash").is_ok());
    CHECK(doc.dump() == before);
}

TEST_CASE("scenario doc: the same document gives the same bytes", "[config][scenario_doc]") {
    // Key order in the input does not matter: dump() sorts keys, so a share link made twice is identical.
    auto a = ScenarioDoc::from_text(R"({"b": 1, "a": {"y": 2.5, "x": [1, 2]}})", "a");
    auto b = ScenarioDoc::from_text(R"({"a": {"x": [1, 2], "y": 2.5}, "b": 1})", "b");
    REQUIRE(a.is_ok());
    REQUIRE(b.is_ok());
    CHECK(a.value().dump() == b.value().dump());
    CHECK(a.value().dump() == R"({"a":{"x":[1,2],"y":2.5},"b":1})");
}

TEST_CASE("scenario doc: validation is the CLI's scenario parser", "[config][scenario_doc]") {
    auto d = ScenarioDoc::from_text(kScenario, "s.json");
    REQUIRE(d.is_ok());
    REQUIRE(d.value().parse("scenario").is_ok());
    d.value().set_number("/network/bandwidth/0", -1);
    auto bad = d.value().parse("scenario");
    REQUIRE_FALSE(bad.is_ok());
    CHECK_THAT(bad.status().message(), Contains("scenario: network: bandwidth"));
    // Not JSON, or JSON that is not an object, is refused at once with the source named.
    CHECK_THAT(ScenarioDoc::from_text("{", "x.json").status().message(), Contains("x.json: invalid JSON"));
    CHECK_THAT(ScenarioDoc::from_text("[1]", "x.json").status().message(),
               Contains("a JSON object was expected"));
}

TEST_CASE("scenario doc: embedded traces replace the workload", "[config][scenario_doc]") {
    auto d = ScenarioDoc::from_text(kScenario, "s.json");
    REQUIRE(d.is_ok());
    d.value().set_embedded_traces({{"t.0.et", std::string("\x01\x02", 2)}, {"t.1.et", "abc"}});
    CHECK(d.value().workload_summary() == "2 embedded trace(s)");
    CHECK_FALSE(d.value().has("/workload/sample"));
    CHECK(d.value().get_string("/workload/traces/1/base64") == "YWJj"); // base64 of "abc"
}

TEST_CASE("scenario doc: an edit path that is not UTF-8 still prints and parses", "[config][scenario_doc]") {
    // Found by fuzz_scenario: a key made from a path with a cut UTF-8 sequence (0xEF alone) made dump()
    // throw. Its bad byte now prints as U+FFFD (EF BF BD) and the parser refuses the unknown key.
    auto d = ScenarioDoc::from_text(kScenario, "s.json");
    REQUIRE(d.value().parse("scenario").is_ok());
    d.value().set_number(std::string("/N\xef"), 1);
    std::string text;
    REQUIRE_NOTHROW(text = d.value().dump());
    CHECK(text.find("\"N\xef\xbf\xbd\":1") != std::string::npos);
    auto parsed = d.value().parse("scenario");
    REQUIRE_FALSE(parsed.is_ok());
    CHECK_THAT(parsed.status().message(), Contains("scenario"));
}

TEST_CASE("scenario doc: an edit never pads an array", "[config][scenario_doc]") {
    // Found by fuzz_scenario (a timeout): a path whose number indexes far past an array's end, or a
    // missing list, made nlohmann fill the gap with nulls (333333 of them from 16 bytes of input, billions
    // from a longer number). Such an edit is ignored; one element at the end may still be added.
    auto d = ScenarioDoc::from_text(kScenario, "s.json");
    REQUIRE(d.is_ok());
    ScenarioDoc& doc = d.value();
    const std::string before = doc.dump();
    doc.set_number("/network/bandwidth/5", 1);            // the list holds 1
    doc.set_number("/fresh/333333", 1);                   // a missing list
    doc.set_number("/fresh/0/4000000000000", 1);          // an index too long to be one
    doc.set_string("/network/topology/00000000001", "x"); // leading zeros: no index at all
    CHECK(doc.dump() == before);
    doc.set_number("/network/bandwidth/1", 25); // the next element: allowed
    doc.set_number("/network/latency/-", 700);  // append
    doc.set_number("/fresh/0", 3);              // a new list, from its first element
    CHECK(doc.array_size("/network/bandwidth") == 2);
    CHECK(doc.get_number("/network/bandwidth/1") == 25);
    CHECK(doc.get_number("/network/latency/1") == 700);
    CHECK(doc.get_number("/fresh/0") == 3);
}

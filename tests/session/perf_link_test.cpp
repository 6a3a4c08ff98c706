// A busbw curve's link (core/session/collective_perf_args.h, config/perf_link.h): the arguments survive the
// trip through a URL exactly, and every kind of damage, or an argument that cannot run, is named.
#include "core/session/collective_perf_args.h"
#include "core/session/share_link.h"

#include <catch2/catch.hpp>

using namespace astrolabe;
using Catch::Matchers::Contains;

namespace {

CollectivePerfArgs two_nodes_allgather() {
    CollectivePerfArgs a;
    a.hardware_json = R"({"gpu": "H100-SXM", "nodes": 2, "gpus_per_node": 8, "nvls": true})";
    a.op = "all_gather";
    a.min_bytes = "1M";
    a.max_bytes = "1G";
    a.type = "bfloat16";
    a.red_op = "max";
    a.astra_reference = true;
    return a;
}

// A link whose document is `doc` (what a hand-edited or hostile link would carry).
std::string link_of(const std::string& doc) {
    return "#perf=" + encode_share_fragment(doc).substr(2);
}

} // namespace

TEST_CASE("perf link: the arguments round-trip through the fragment", "[session][share]") {
    const CollectivePerfArgs a = two_nodes_allgather();
    auto frag = collective_perf_link_fragment(a);
    REQUIRE(frag.is_ok());
    REQUIRE(frag.value().rfind("perf=", 0) == 0);
    for (const std::string& link :
         {frag.value(), "https://example.org/app/#" + frag.value(), "#x=1&" + frag.value()}) {
        auto back = parse_collective_perf_link(link);
        REQUIRE(back.is_ok());
        CHECK(back.value().op == "all_gather");
        CHECK(back.value().min_bytes == "1M");
        CHECK(back.value().max_bytes == "1G");
        CHECK(back.value().type == "bfloat16");
        CHECK(back.value().red_op == "max");
        CHECK(back.value().astra_reference);
        // The description comes back as the same JSON object (its text re-serialised).
        CHECK(back.value().hardware_json == R"({"gpu":"H100-SXM","gpus_per_node":8,"nodes":2,"nvls":true})");
    }
    // The request from the link is the one from the arguments: same sizes (bfloat16 cut per rank), op, type.
    auto direct = collective_perf_request(a);
    auto via = collective_perf_request(parse_collective_perf_link(frag.value()).value());
    REQUIRE(direct.is_ok());
    REQUIRE(via.is_ok());
    CHECK(collective_perf_sizes(direct.value()) == collective_perf_sizes(via.value()));
    CHECK(via.value().type == hardware::NcclType::Bfloat16);
    CHECK(via.value().op == hardware::CollOp::AllGather);
}

TEST_CASE("perf link: damaged links and documents are refused with the reason", "[session][share]") {
    auto no_part = parse_collective_perf_link("https://example.org/#s=abc");
    REQUIRE_FALSE(no_part.is_ok());
    CHECK_THAT(no_part.status().message(), Contains("no curve in it; a fragment #perf=<data> was expected"));
    auto corrupt = parse_collective_perf_link("#perf=zzzz");
    REQUIRE_FALSE(corrupt.is_ok());
    CHECK_THAT(corrupt.status().message(), Contains("the perf= part cannot be read"));
    auto scenario = parse_collective_perf_link(link_of(R"({"network": {}})"));
    REQUIRE_FALSE(scenario.is_ok());
    CHECK_THAT(scenario.status().message(), Contains("not a curve (\"astrolabe.perf-link/1\" was expected)"));
    // Keys of the wrong kind: one message each.
    auto kinds = parse_collective_perf_link(
        link_of(R"({"schema": "astrolabe.perf-link/1", "hardware": [], "op": 3, "reference": "yes"})"));
    REQUIRE_FALSE(kinds.is_ok());
    const std::string m = kinds.status().message();
    CHECK_THAT(m, Contains("hardware: an astrolabe.hardware/1 object was expected"));
    CHECK_THAT(m, Contains("op: a string was expected, not 3"));
    CHECK_THAT(m, Contains("reference: true or false was expected"));
    // A description that is not JSON cannot be linked.
    CollectivePerfArgs bad = two_nodes_allgather();
    bad.hardware_json = "{gpu";
    CHECK_FALSE(collective_perf_link_fragment(bad).is_ok());
}

TEST_CASE("perf request: every problem named by its key, forced algorithms checked", "[session][hardware]") {
    CollectivePerfArgs a = two_nodes_allgather();
    a.min_bytes = "2G";
    a.algo = "rign";
    auto r = collective_perf_request(a);
    REQUIRE_FALSE(r.is_ok());
    CHECK_THAT(r.status().message(), Contains("algo: 'rign'; auto, ring, tree, nvls, nvls_tree or collnet"));
    a.algo = "auto";
    r = collective_perf_request(a);
    REQUIRE_FALSE(r.is_ok());
    CHECK_THAT(r.status().message(), Contains("minBytes: 2G is larger than maxBytes: 1G; nothing to run"));
    // NVLS forced on a product of floats (the switch only adds floats), then on a system without it.
    a = two_nodes_allgather();
    a.op = "all_reduce";
    a.algo = "nvls_tree";
    a.type = "float";
    a.red_op = "prod";
    r = collective_perf_request(a);
    REQUIRE_FALSE(r.is_ok());
    CHECK_THAT(r.status().message(), Contains("algo: nvls_tree cannot prod float"));
    a.red_op = "sum";
    a.hardware_json = R"({"gpu": "H100-SXM", "nodes": 2, "nvls": false})";
    r = collective_perf_request(a);
    REQUIRE_FALSE(r.is_ok());
    CHECK_THAT(r.status().message(),
               Contains("algo: nvls_tree needs NVLink SHARP, and the hardware says nvls: false"));
}

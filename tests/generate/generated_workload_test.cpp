// A scenario's {"generate": {...}} workload: parsed by the scenario reader, generated in memory by the
// session layer, and run like any other workload (what `run --scenario` and a shared browser link do).
#include "core/config/scenario.h"
#include "core/generate/trace_sink.h"
#include "core/session/generated_workload.h"
#include "support/test_support.h"

#include <catch2/catch.hpp>

using namespace astrolabe;
using Catch::Matchers::Contains;

namespace {

const char* kSystem = R"("system": {"scheduling-policy": "LIFO", "endpoint-delay": 10,
  "active-chunks-per-dimension": 1, "preferred-dataset-splits": 4,
  "all-reduce-implementation": ["ring"], "all-gather-implementation": ["ring"],
  "reduce-scatter-implementation": ["ring"], "all-to-all-implementation": ["ring"],
  "collective-optimization": "localBWAware", "local-mem-bw": 1600})";

RunResult run_scenario(const std::string& text, uint32_t npus) {
    auto sc = config::parse_scenario_json(text, "s.json");
    INFO(sc.status().message());
    REQUIRE(sc.is_ok());
    REQUIRE(sc.value().workload_kind == config::Scenario::WorkloadKind::Generate);
    auto gen = generate_workload(sc.value().workload, sc.value().generate_params);
    INFO(gen.status().message());
    REQUIRE(gen.is_ok());
    REQUIRE(gen.value().npus == npus);
    config::Scenario cfg;
    cfg.network = sc.value().network;
    cfg.system = sc.value().system;
    cfg.groups = gen.value().groups;
    return test::run(cfg, gen.value().traces);
}

} // namespace

TEST_CASE("scenario generate workload: a handful of parameters is a whole workload", "[generate][scenario]") {
    SECTION("microbench: 4 all-gathers of 64 KiB on a 4-NPU ring finish") {
        RunResult r = run_scenario(std::string(R"({"workload": {"generate": {"kind": "microbench",
            "collective": "all_gather", "size": "64KiB", "npus": 4, "repeat": 4}},
            "network": {"topology": ["Ring"], "npus_count": [4], "bandwidth": [50], "latency": [500]},)") +
                                       kSystem + "}",
                                   4);
        CHECK(r.complete);
        CHECK(r.total_ns > 0);
    }
    SECTION("transformer: dp 2 x tp 2 with its generated groups, twice, the same result") {
        const std::string text = std::string(R"({"workload": {"generate": {"kind": "transformer",
            "layers": 2, "hidden": 128, "heads": 4, "vocab": 256, "seq": 32, "batch": 4, "micro-batch": 2,
            "dp": 2, "tp": 2, "dtype-bytes": 2, "recompute": true}},
            "network": {"topology": ["Ring"], "npus_count": [4], "bandwidth": [50], "latency": [500]},)") +
                                 kSystem + "}";
        RunResult a = run_scenario(text, 4);
        RunResult b = run_scenario(text, 4);
        CHECK(a.complete);
        CHECK(a.total_ns == b.total_ns);
    }
    SECTION("bad generator parameters name the key") {
        auto sc = config::parse_scenario_json(R"({"workload": {"generate": {"kind": "transformer", "tp": 3,
            "hidden": 128, "heads": 4, "layers": [1]}}, "network": {}, "system": {}})",
                                              "s.json");
        REQUIRE_FALSE(sc.is_ok());
        CHECK_THAT(sc.status().message(),
                   Contains("s.json: workload.generate.layers: a string, a whole number"));
        auto gen = generate_workload("transformer", {{"tp", "3"}, {"hidden", "128"}, {"heads", "4"}});
        REQUIRE_FALSE(gen.is_ok());
        CHECK_THAT(gen.status().message(), Contains("workload.generate.tp: 3; a divisor of hidden (128)"));
        CHECK_FALSE(generate_workload("resnet", {}).is_ok());
    }
}

TEST_CASE("generated workload: more trace bytes than memory holds is refused before they are made",
          "[generate][scenario]") {
    // 16777216 NPUs x 1000 all-reduces: one rank's trace is tens of KB, so the whole set would be about a
    // terabyte. The projection from rank 0 refuses it at once (a few parameters in a link must not kill
    // the process). A small set passes.
    auto huge = generate_workload(
        "microbench",
        {{"collective", "all_reduce"}, {"size", "1MiB"}, {"npus", "16777216"}, {"repeat", "1000"}});
    REQUIRE_FALSE(huge.is_ok());
    CHECK_THAT(huge.status().message(), Contains("workload.generate: the generated traces need about "));
    CHECK_THAT(huge.status().message(), Contains("(16777216 ranks); at most "));
    auto small =
        generate_workload("microbench", {{"collective", "all_reduce"}, {"size", "1MiB"}, {"npus", "4"}});
    REQUIRE(small.is_ok());
    CHECK(small.value().npus == 4);
}

TEST_CASE("generated workload: the memory sink's budget, projected and actual", "[generate]") {
    // 100 bytes at most, 10 ranks expected: a first rank of 20 bytes projects 200 and is refused; with no
    // expectation, ranks of 40 bytes are kept until the third passes 100.
    generate::MemorySink projected(100, 10);
    CHECK_THAT(projected.write_rank(0, std::string(20, 'x')).message(), Contains("need about 200 bytes"));
    generate::MemorySink actual(100, 0);
    CHECK(actual.write_rank(0, std::string(40, 'x')).is_ok());
    CHECK(actual.write_rank(1, std::string(40, 'x')).is_ok());
    CHECK_THAT(actual.write_rank(2, std::string(40, 'x')).message(), Contains("need more than 120 bytes"));
    CHECK(actual.ranks.size() == 2);
}

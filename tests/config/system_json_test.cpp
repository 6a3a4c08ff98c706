// ASTRA-sim's system JSON: defaults, every key it defines, warnings for keys we ignore, all errors at once.
#include "core/config/config_parse.h"
#include "support/test_support.h"

#include <catch2/catch.hpp>

using namespace astrolabe;
using namespace astrolabe::config;
using Catch::Matchers::Contains;

TEST_CASE("system JSON: an empty object gives ASTRA-sim's defaults", "[config][system]") {
    // Defaults (config_types.h): LIFO, endpoint-delay 10 ns, 1 active chunk, 1 split, baseline, no
    // local-mem-bw (0 = no reduction cost), no roofline, no implementation lists (= ring per dimension).
    SystemConfig s = test::system_json("{}");
    CHECK(s.scheduling_policy == SchedulingPolicy::LIFO);
    CHECK(s.endpoint_delay_ns == 10);
    CHECK(s.active_chunks_per_dimension == 1);
    CHECK(s.preferred_dataset_splits == 1);
    CHECK(s.collective_optimization == CollectiveOptimization::Baseline);
    CHECK(s.local_mem_bw_gbps == 0.0);
    CHECK_FALSE(s.roofline_enabled);
    CHECK_FALSE(s.replay_only);
    for (int k = 0; k < kCollectiveKinds; ++k) {
        CHECK(s.implementation[k].empty());
        CHECK(s.custom_implementation[k].empty());
    }
    CHECK(s.warnings.empty());
}

TEST_CASE("system JSON: an ASTRA-sim config file is read unchanged", "[config][system]") {
    // sys_ring_d2_s4_a1_LIFO_ep10_mem3350_localBWAware_roof989.json (from shared/anchors/astra-sim/configs):
    // 4 splits, localBWAware, local-mem-bw 3350, roofline on at 989 TFLOPS, ring on both dimensions.
    // "boost-mode": 0 is ASTRA-sim's default for a key with no effect here, so no warning.
    auto r = parse_system_json(
        test::read_data("configs/sys_ring_d2_s4_a1_LIFO_ep10_mem3350_localBWAware_roof989.json"), "sys.json");
    INFO(r.status().message());
    REQUIRE(r.is_ok());
    const SystemConfig& s = r.value();
    CHECK(s.preferred_dataset_splits == 4);
    CHECK(s.collective_optimization == CollectiveOptimization::LocalBWAware);
    CHECK(s.local_mem_bw_gbps == 3350.0);
    CHECK(s.roofline_enabled);
    CHECK(s.peak_perf_tflops == 989.0);
    for (int k = 0; k < kCollectiveKinds; ++k) {
        REQUIRE(s.implementation[k].size() == 2);
        CHECK(s.implementation[k][0] == AlgorithmChoice{CollectiveAlgorithm::Ring, -1});
    }
    CHECK(s.warnings.empty());
}

TEST_CASE("system JSON: unknown keys and inert keys are warnings", "[config][system]") {
    // An unknown key is listed (not silently dropped); a key ASTRA-sim has but that changes nothing in our
    // models warns only when set to a non-default value ("boost-mode": 1, but not "boost-mode": 0).
    SystemConfig s = test::system_json(R"({"frobnicate": 3, "boost-mode": 1, "model-shared-bus": 0})");
    REQUIRE(s.warnings.size() == 2);
    CHECK_THAT(s.warnings[0] + s.warnings[1], Contains("test.json: frobnicate: unknown key (ignored)"));
    CHECK_THAT(s.warnings[0] + s.warnings[1], Contains("test.json: boost-mode: 1 has no effect"));
}

TEST_CASE("system JSON: a bad value is an error naming the file and the key", "[config][system]") {
    auto r = parse_system_json(R"({"endpoint-delay": "ten"})", "s.json");
    REQUIRE_FALSE(r.is_ok());
    CHECK(r.status().message() ==
          "s.json: endpoint-delay: is the string \"ten\"; an integer (from 1 to 1000000000) was expected");
}

TEST_CASE("system JSON: every problem is reported at once", "[config][system]") {
    // Four independent mistakes -> four lines, in the order found, each naming its key.
    auto r = parse_system_json(R"({"scheduling-policy": "RANDOM", "active-chunks-per-dimension": 0,
                                   "all-reduce-implementation": ["ring", "bogus"], "local-mem-bw": -5})",
                               "s.json");
    REQUIRE_FALSE(r.is_ok());
    const auto& p = r.status().problems();
    REQUIRE(p.size() == 4);
    CHECK_THAT(p[0], Contains("s.json: scheduling-policy: is \"RANDOM\""));
    CHECK_THAT(p[1], Contains("s.json: active-chunks-per-dimension: is 0"));
    CHECK_THAT(p[2], Contains("s.json: all-reduce-implementation[1]: unknown algorithm \"bogus\""));
    CHECK_THAT(p[3], Contains("s.json: local-mem-bw: is -5"));
}

TEST_CASE("system JSON: algorithm names as ASTRA-sim spells them", "[config][system]") {
    // directK limits Direct to K peers at once; "direct0" and "directX" are not algorithms.
    SystemConfig s = test::system_json(
        R"({"all-reduce-implementation": ["direct4", "halvingDoubling", "doubleBinaryTree"],
            "all-to-all-implementation": ["direct"]})");
    REQUIRE(s.implementation[0].size() == 3);
    CHECK(s.implementation[0][0] == AlgorithmChoice{CollectiveAlgorithm::Direct, 4});
    CHECK(s.implementation[0][1] == AlgorithmChoice{CollectiveAlgorithm::HalvingDoubling, -1});
    CHECK(s.implementation[0][2] == AlgorithmChoice{CollectiveAlgorithm::DoubleBinaryTree, -1});
    CHECK(s.implementation[3][0] == AlgorithmChoice{CollectiveAlgorithm::Direct, -1});
    CHECK(algorithm_spelling(s.implementation[0][0]) == "direct4");
    AlgorithmChoice a;
    CHECK_FALSE(parse_algorithm("direct0", a));
    CHECK_FALSE(parse_algorithm("directX", a));
    CHECK_FALSE(parse_algorithm("Ring", a)); // case matters, as in ASTRA-sim
}

TEST_CASE("system JSON: refusals ASTRA-sim would crash or misbehave on", "[config][system]") {
    // endpoint-delay 0 aborts ASTRA-sim (ERR_endpoint_delay_0); roofline without its parameters; a
    // custom implementation that is not a one-element list; text that is not JSON; JSON that is not an
    // object.
    auto msg = [](const char* text) {
        auto r = parse_system_json(text, "s.json");
        CHECK_FALSE(r.is_ok());
        return r.status().message();
    };
    CHECK_THAT(msg(R"({"endpoint-delay": 0})"), Contains("endpoint-delay: is 0"));
    CHECK_THAT(msg(R"({"roofline-enabled": 1})"), Contains("peak-perf: is missing"));
    CHECK_THAT(msg(R"({"roofline-enabled": 1})"), Contains("local-mem-bw: is missing"));
    CHECK_THAT(msg(R"({"all-reduce-implementation-custom": ["a", "b"]})"),
               Contains("exactly one Chakra trace prefix"));
    CHECK_THAT(msg(R"({"scheduling-policy": "LIFO",)"), Contains("s.json: invalid JSON"));
    CHECK_THAT(msg("[1, 2]"), Contains("s.json: the system configuration is an array"));
}

TEST_CASE("system JSON: a custom implementation names its ET prefix", "[config][system]") {
    // sys_custom_collective.json: the prefix of the MSCCL ring ET (rewritten relative to tests/data), FIFO,
    // 1 split, local-mem-bw 50; the built-in all-reduce list stays empty.
    auto r = parse_system_json(test::read_data("configs/sys_custom_collective.json"), "custom.json");
    REQUIRE(r.is_ok());
    CHECK(r.value().custom_implementation[0] ==
          "traces/astra-sim-custom-collective/custom_ring_allreduce_8npus_1MB/custom_allreduce");
    CHECK(r.value().scheduling_policy == SchedulingPolicy::FIFO);
    CHECK(r.value().implementation[0].empty());
}

TEST_CASE("system JSON: a number too large for a double is an error, not an exception", "[config][system]") {
    // nlohmann throws out_of_range (not parse_error) for 1e999; found by fuzz_configs
    // (tests/fuzz/regressions/fuzz_configs/number-out-of-range-812941bd, the text "189e933.6").
    for (const char* text : {"189e933.6", R"({"local-mem-bw": 1e999})"}) {
        auto r = parse_system_json(text, "s.json");
        REQUIRE_FALSE(r.is_ok());
        CHECK_THAT(r.status().message(), Contains("s.json: invalid JSON: number overflow"));
    }
}

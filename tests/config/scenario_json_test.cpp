// The scenario JSON (one object with workload, configs and models): what the CLI's --scenario and the
// browser's shared URL hold. Embedded traces must reproduce the run bit for bit.
#include "core/base/base64.h"
#include "core/config/scenario.h"
#include "core/session/session.h"
#include "support/test_support.h"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

using namespace astrolabe;
using namespace astrolabe::config;
using Catch::Matchers::Contains;

TEST_CASE("scenario JSON: embedded traces and inline configs reproduce an ASTRA-sim anchor",
          "[config][scenario]") {
    // ar8_ring_Ring_unaware as one scenario: the 8 microbenchmark traces embedded as base64, the network,
    // system and memory configs inline with ASTRA-sim's keys. Expected: 64440 ns on every NPU, as ASTRA-sim.
    nlohmann::json traces = nlohmann::json::array();
    for (int i = 0; i < 8; ++i) {
        std::string name = "all_reduce." + std::to_string(i) + ".et";
        traces.push_back({{"name", name},
                          {"base64", base64_encode(test::read_data(
                                         "traces/astra-sim-microbenchmarks/all_reduce/8npus_1MB/" + name))}});
    }
    nlohmann::json sc = {
        {"schema", "astrolabe.scenario/1"},
        {"workload", {{"traces", traces}}},
        {"network",
         {{"topology", {"Ring"}}, {"npus_count", {8}}, {"bandwidth", {50.0}}, {"latency", {500.0}}}},
        {"system", nlohmann::json::parse(
                       test::read_data("configs/sys_ring_d1_s4_a1_LIFO_ep10_mem1600_localBWAware.json"))},
        {"memory", {{"memory-type", "NO_MEMORY_EXPANSION"}}},
        {"network_model", "analytical"},
    };
    auto r = parse_scenario_json(sc.dump(), "s.json");
    INFO(r.status().message());
    REQUIRE(r.is_ok());
    Scenario& s = r.value();
    CHECK(s.workload_kind == Scenario::WorkloadKind::Embedded);
    REQUIRE(s.traces.size() == 8);
    CHECK(s.traces[3].first == "all_reduce.3.et");
    CHECK(s.network.npus() == 8);
    CHECK(s.system.preferred_dataset_splits == 4);

    MemoryTraceSource src;
    for (auto& t : s.traces)
        src.add(t.first, t.second);
    config::Scenario cfg;
    cfg.network = s.network;
    cfg.system = s.system;
    cfg.memory = s.memory;
    RunResult res = test::run(cfg, src);
    REQUIRE(res.complete);
    for (const auto& n : res.stats.npus)
        CHECK(n.finish_ns == 64440);
}

TEST_CASE("scenario JSON: every problem at once with its path", "[config][scenario]") {
    // An unknown top-level key, a wrong schema, bad base64, and a bad value inside the system section:
    // four problems, the nested one prefixed with the section name.
    auto r = parse_scenario_json(R"({"schema": "v0", "extra": 1,
        "workload": {"traces": [{"name": "a.0.et", "base64": "***"}]},
        "network": {"topology": ["Ring"], "npus_count": [2], "bandwidth": [1], "latency": [1]},
        "system": {"endpoint-delay": -3}})",
                                 "s.json");
    REQUIRE_FALSE(r.is_ok());
    const std::string m = r.status().message();
    CHECK(r.status().problems().size() == 4);
    CHECK_THAT(m, Contains("s.json: extra: unknown key"));
    CHECK_THAT(m, Contains("s.json: schema: \"astrolabe.scenario/1\" was expected"));
    CHECK_THAT(m, Contains("s.json: workload.traces[0].base64: not valid base64"));
    CHECK_THAT(m, Contains("s.json: system: endpoint-delay: is -3"));
}

TEST_CASE("scenario JSON: compute_model as a string or as the systolic array with its parameters",
          "[config][scenario][systolic]") {
    const std::string head =
        R"({"workload": {"sample": "x"}, "network": {"topology": ["Ring"], "npus_count": [2],
        "bandwidth": [50], "latency": [500]}, "system": {}, "compute_model": )";
    SECTION("a string keeps the default array (128x128 ws at 1 GHz)") {
        auto r = parse_scenario_json(head + R"("systolic"})", "s.json");
        REQUIRE(r.is_ok());
        CHECK(r.value().compute_model == config::ComputeModel::Systolic);
        CHECK(r.value().systolic.rows == 128);
        CHECK(r.value().systolic.dataflow == config::Dataflow::WeightStationary);
    }
    SECTION("an object gives the array") {
        auto r = parse_scenario_json(
            head +
                R"({"model": "systolic", "array_rows": 32, "array_cols": 64, "dataflow": "is", "clock_ghz": 0.7}})",
            "s.json");
        REQUIRE(r.is_ok());
        const Scenario& s = r.value();
        CHECK(s.compute_model == config::ComputeModel::Systolic);
        CHECK(s.systolic.rows == 32);
        CHECK(s.systolic.cols == 64);
        CHECK(s.systolic.dataflow == config::Dataflow::InputStationary);
        CHECK(s.systolic.clock_ghz == 0.7);
    }
    SECTION("every bad parameter is named") {
        auto r = parse_scenario_json(
            head + R"({"array_rows": 0, "dataflow": "rs", "clock_ghz": -1, "size": 3}})", "s.json");
        REQUIRE_FALSE(r.is_ok());
        const std::string m = r.status().message();
        CHECK_THAT(m,
                   Contains("s.json: compute_model.array_rows: is 0; a whole number 1..65536 was expected"));
        CHECK_THAT(m, Contains("compute_model.dataflow: is \"rs\"; \"os\", \"ws\" or \"is\" was expected"));
        CHECK_THAT(m, Contains("compute_model.clock_ghz: is -1"));
        CHECK_THAT(m, Contains("compute_model.size: unknown key"));
        CHECK_THAT(m, Contains("compute_model.model: missing"));
    }
}

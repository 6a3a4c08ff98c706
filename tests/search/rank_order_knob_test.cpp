// The generator's rank order as a search knob (`workload.generate.rank-order`): no code of its own, the
// knob sets the parameter and the evaluator generates and runs each point as `run --scenario` does. On two
// HGX H100 nodes with dp 2 x tp 8 the tp-first point keeps the tensor-parallel groups inside a node and is
// the faster one (tests/hardware/hardware_generated_test.cpp times each collective); a misspelt value is
// an infeasible point whose reason names the nearest spelling.
#include "core/search/scenario_evaluator.h"
#include "core/search/search_run.h"

#include "support/search_support.h"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

using namespace astrolabe;
using namespace astrolabe::search;
using nlohmann::json;

namespace {

const char* kBase = R"({"schema": "astrolabe.scenario/1",
  "workload": {"generate": {"kind": "transformer", "model": "gpt", "hidden": 4096, "heads": 32, "layers": 8,
    "seq": 4096, "batch": 16, "micro-batch": 2, "dp": 2, "tp": 8, "dtype-bytes": 2, "grad-sync": "step",
    "rank-order": "dp-first"}},
  "hardware": {"gpu": "H100-SXM", "nodes": 2, "gpus_per_node": 8, "nics_per_node": 8, "nic_gbps": 400,
    "fabric": "infiniband"}})";

} // namespace

TEST_CASE("search: workload.generate.rank-order is a knob like any generator parameter",
          "[search][rank-order]") {
    const json spec = {{"schema", "astrolabe.search/1"},
                       {"base", json::parse(kBase)},
                       {"knobs", json::parse(R"([{"path": "workload.generate.rank-order",
                                   "values": ["dp-first", "tp-first", "tp-frist"]}])")}};
    SearchOptions opt;
    opt.agent = "grid";
    opt.budget = 10;
    auto made = SearchRun::create(
        spec.dump(), "spec",
        [](const std::string& p) -> Result<std::string> { return Status::error("no file " + p); }, opt);
    INFO(made.status().message());
    REQUIRE(made.is_ok());
    SearchRun& run = made.value();
    SessionHost host;
    ScenarioEvaluator ev(host);
    const auto lines = test::run_search(run, ev);
    REQUIRE(lines.size() == 3);
    std::map<std::string, json> by_value;
    for (const auto& l : lines) {
        json j = json::parse(l);
        by_value[j["knobs"]["workload.generate.rank-order"].get<std::string>()] = j;
    }
    json base = json::parse(kBase);
    auto point = [&](const char* order) {
        json s = base;
        s["workload"]["generate"]["rank-order"] = order;
        return s.dump();
    };
    const int64_t dp_first = test::session_step_time(point("dp-first")),
                  tp_first = test::session_step_time(point("tp-first"));
    CHECK(by_value["dp-first"]["metrics"]["step_time_ns"].get<int64_t>() == dp_first);
    CHECK(by_value["tp-first"]["metrics"]["step_time_ns"].get<int64_t>() == tp_first);
    CHECK(tp_first < dp_first);
    CHECK(run.best_step_time_ns() == tp_first);
    CHECK(by_value["tp-frist"]["status"] == "infeasible");
    CHECK_THAT(by_value["tp-frist"]["reason"].get<std::string>(),
               Catch::Matchers::Contains("rank-order: 'tp-frist'; dp-first or tp-first was expected (did you "
                                         "mean 'tp-first'?)"));
}

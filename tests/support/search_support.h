// Driving a search in process and the reference a logged step time is checked against.
#pragma once

#include "core/config/config_parse.h"
#include "core/search/search_run.h"
#include "core/session/session.h"
#include "support/test_support.h"

#include <catch2/catch.hpp>

#include <cstdint>
#include <string>
#include <vector>

namespace astrolabe::test {

// Every evaluations.jsonl line of `run`, in order: the core's one-thread driver, then the lines it left.
inline std::vector<std::string> run_search(search::SearchRun& run, search::Evaluator& ev) {
    search::run_search(run, ev);
    return run.take_lines();
}

// The step time Session gives for a scenario's text: the path of `astrolabe run --scenario`.
inline int64_t session_step_time(const std::string& scenario_text) {
    auto sc = config::parse_scenario_json(scenario_text, "point");
    REQUIRE(sc.is_ok());
    RunOptions options;
    options.keep_timeline = false;
    auto session = run_session(std::move(sc.value()), options);
    REQUIRE(session->result().complete);
    return static_cast<int64_t>(session->result().total_ns);
}

} // namespace astrolabe::test

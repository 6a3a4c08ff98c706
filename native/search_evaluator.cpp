// The native evaluator of search points (search_evaluator.h).
#include "native/search_evaluator.h"

#include "core/config/scenario.h"
#include "core/session/scenario_setup.h"
#include "core/session/session.h"
#include "native/scenario_traces.h"

namespace astrolabe::cli {

search::EvalResult ScenarioEvaluator::evaluate(const std::string& scenario_json) {
    using S = search::EvalResult::Status;
    auto infeasible = [](S status, const std::string& why) {
        search::EvalResult r;
        r.status = status;
        r.reason = why;
        return r;
    };
    // Configs that do not parse and workloads the generator refuses are designs that cannot exist.
    auto sc = config::parse_scenario_json(scenario_json, "point");
    if (!sc.is_ok()) return infeasible(S::Infeasible, sc.status().message());
    const auto kind = sc.value().workload_kind;
    const std::string workload = sc.value().workload;
    auto setup = scenario_setup(std::move(sc.value()));
    if (!setup.is_ok()) return infeasible(S::Infeasible, setup.status().message());
    auto traces = scenario_traces(setup.value(), kind, workload, base_dir_);
    if (!traces.is_ok()) return infeasible(S::Error, traces.status().message());
    // The same settings as `run --scenario` without options: no timeline, symmetry on.
    SessionConfig cfg = std::move(setup.value().config);
    cfg.keep_timeline = false;
    cfg.keep_names = false;
    cfg.read_file = custom_collective_reader();
    std::vector<std::string> warnings;
    auto built = build_simulation(std::move(cfg), *traces.value(), warnings);
    traces.value().reset();
    if (!built.is_ok()) return infeasible(S::Infeasible, built.status().message());
    Simulation& sim = *built.value();
    while (sim.run_slice(uint64_t(1) << 16, kTimeNever)) {
    }
    RunResult result = sim.result();
    if (!result.complete)
        return infeasible(S::Error,
                          "the run did not complete: " +
                              (result.stuck.empty() ? std::string("NPUs stuck")
                                                    : "NPU " + std::to_string(result.stuck.front().npu) +
                                                          ": " + result.stuck.front().what));
    search::EvalResult r;
    r.step_time_ns = static_cast<int64_t>(result.total_ns);
    return r;
}

} // namespace astrolabe::cli

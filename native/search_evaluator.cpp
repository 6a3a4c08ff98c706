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
    std::unique_ptr<TraceSource> traces;
    TraceSource* source = nullptr;
    SessionConfig cfg;
    if (kind == config::Scenario::WorkloadKind::Generate) {
        // What scenario_setup does for a generated workload, with the generator's output kept for the next
        // point: the configs come from scenario_setup on the scenario without its workload, the traces and
        // groups from generate_workload (the same function scenario_setup calls).
        std::string key = workload;
        for (const auto& p : sc.value().generate_params)
            key += "\x1f" + p.first + "=" + p.second;
        config::Scenario rest = std::move(sc.value());
        auto params = std::move(rest.generate_params);
        rest.workload_kind = config::Scenario::WorkloadKind::Embedded;
        rest.generate_params.clear();
        auto setup = scenario_setup(std::move(rest)); // models first, as scenario_setup checks them first
        if (!setup.is_ok()) return infeasible(S::Infeasible, setup.status().message());
        cfg = std::move(setup.value().config);
        if (!generated_ || generated_->key != key) {
            generated_.reset(); // the old traces go before the new ones are made
            generated_ = std::make_unique<Generated>();
            generated_->key = key;
            generated_->workload = generate_workload(workload, params);
        }
        if (!generated_->workload.is_ok())
            return infeasible(S::Infeasible, generated_->workload.status().message());
        const GeneratedWorkload& g = generated_->workload.value();
        if (g.has_groups) {
            if (!cfg.groups.groups.empty())
                return infeasible(S::Infeasible, "comm_groups: leave it out with a generated workload (the "
                                                 "generator defines its own groups)");
            cfg.groups = g.groups;
        }
        source = &generated_->workload.value().traces;
    } else {
        auto setup = scenario_setup(std::move(sc.value()));
        if (!setup.is_ok()) return infeasible(S::Infeasible, setup.status().message());
        auto opened = scenario_traces(setup.value(), kind, workload, base_dir_);
        if (!opened.is_ok()) return infeasible(S::Error, opened.status().message());
        cfg = std::move(setup.value().config);
        traces = std::move(opened.value());
        source = traces.get();
    }
    // The same settings as `run --scenario` without options: no timeline, symmetry on.
    cfg.keep_timeline = false;
    cfg.keep_names = false;
    cfg.read_file = custom_collective_reader();
    std::vector<std::string> warnings;
    auto built = build_simulation(std::move(cfg), *source, warnings);
    traces.reset();
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

// The evaluator of search points (scenario_evaluator.h).
#include "core/search/scenario_evaluator.h"

#include "core/base/assert.h"
#include "core/config/scenario.h"

namespace astrolabe::search {

EvalResult ScenarioEvaluator::evaluate(const std::string& scenario_json) {
    using S = EvalResult::Status;
    auto infeasible = [](S status, const std::string& why) {
        EvalResult r;
        r.status = status;
        r.reason = why;
        return r;
    };
    // Configs that do not parse and workloads the generator refuses are designs that cannot exist.
    auto sc = config::parse_scenario_json(scenario_json, "point");
    if (!sc.is_ok()) return infeasible(S::Infeasible, sc.status().message());
    // The same settings as `run --scenario` without options: no timeline, symmetry on.
    RunOptions options;
    options.keep_timeline = false;
    options.keep_names = false;
    std::unique_ptr<Session> session;
    std::unique_ptr<Simulation> built_sim;
    if (sc.value().workload_kind == config::Scenario::WorkloadKind::Generate) {
        // What Session::open does for a generated workload, with the generator's source kept for the next
        // point (only network or collective knobs changed: the same traces).
        const std::string workload = sc.value().workload;
        std::string key = workload;
        for (const auto& p : sc.value().generate_params)
            key += "\x1f" + p.first + "=" + p.second;
        config::Scenario rest = std::move(sc.value());
        auto params = std::move(rest.generate_params);
        rest.generate_params.clear();
        if (!generated_ || generated_->key != key) {
            generated_.reset(); // the old traces go before the new ones are made
            generated_ = std::make_unique<Generated>();
            generated_->key = key;
            generated_->workload = generated_source(workload, params);
        }
        if (!generated_->workload.is_ok())
            return infeasible(S::Infeasible, generated_->workload.status().message());
        GeneratedSource& g = generated_->workload.value();
        Status groups = adopt_groups(g.groups, g.has_groups, rest.groups); // g is kept for the next point
        if (!groups.is_ok()) return infeasible(S::Infeasible, groups.message());
        std::vector<std::string> warnings;
        auto built = build_simulation(std::move(rest), *g.traces, warnings, options, &host_);
        if (!built.is_ok()) return infeasible(S::Infeasible, built.status().message());
        built_sim = std::move(built.value());
        try { // as Session::step: an internal error ends this point, not the search
            while (built_sim->run_slice(uint64_t(1) << 16, kTimeNever)) {
            }
        } catch (const InternalError& e) {
            return infeasible(S::Error, std::string("internal error: ") + e.what());
        }
    } else {
        auto opened = Session::open(std::move(sc.value()), options, host_);
        if (!opened.is_ok()) return infeasible(S::Infeasible, opened.status().message());
        session = std::move(opened.value());
        session->run();
        if (session->phase() == SessionPhase::Failed) return infeasible(S::Error, session->stop_reason());
    }
    const RunResult result = built_sim ? built_sim->result() : session->result();
    if (!result.complete)
        return infeasible(S::Error,
                          "the run did not complete: " +
                              (result.stuck.empty() ? std::string("NPUs stuck")
                                                    : "NPU " + std::to_string(result.stuck.front().npu) +
                                                          ": " + result.stuck.front().what));
    EvalResult r;
    r.step_time_ns = static_cast<int64_t>(result.total_ns);
    return r;
}

} // namespace astrolabe::search

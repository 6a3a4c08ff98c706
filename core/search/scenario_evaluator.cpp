// The evaluator of search points (scenario_evaluator.h).
#include "core/search/scenario_evaluator.h"

#include "core/base/assert.h"
#include "core/config/scenario.h"

#include <chrono>

namespace astrolabe::search {

namespace {

EvalResult verdict(EvalResult::Status status, const std::string& why) {
    EvalResult r;
    r.status = status;
    r.reason = why;
    return r;
}

double ms_since(std::chrono::steady_clock::time_point t0) {
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
}

} // namespace

ScenarioEvaluator::~ScenarioEvaluator() = default;

EvalResult ScenarioEvaluator::evaluate(const std::string& scenario_json) {
    begin(scenario_json);
    while (advance(1e9)) {
    }
    return finish();
}

void ScenarioEvaluator::begin(const std::string& scenario_json) {
    using S = EvalResult::Status;
    session_.reset();
    sim_.reset();
    decided_ = false;
    auto decide = [this](S status, const std::string& why) {
        early_ = verdict(status, why);
        decided_ = true;
    };
    // Configs that do not parse and workloads the generator refuses are designs that cannot exist.
    auto sc = config::parse_scenario_json(scenario_json, "point");
    if (!sc.is_ok()) return decide(S::Infeasible, sc.status().message());
    // The same settings as `run --scenario` without options: no timeline, symmetry on.
    RunOptions options;
    options.keep_timeline = false;
    options.keep_names = false;
    options.slice_events = slice_events;
    if (sc.value().workload_kind != config::Scenario::WorkloadKind::Generate) {
        auto opened = Session::open(std::move(sc.value()), options, host_);
        if (!opened.is_ok()) return decide(S::Infeasible, opened.status().message());
        session_ = std::move(opened.value());
        return;
    }
    // What Session::open does for a generated workload, with the generator's source kept for the next
    // point (only network or collective knobs changed: the same traces).
    const std::string workload = sc.value().workload;
    std::string note; // the session's note on a default rank order; a search point shows no warnings
    auto params = run_generate_params(sc.value(), note);
    std::string key = workload;
    for (const auto& p : params)
        key += "\x1f" + p.first + "=" + p.second;
    config::Scenario rest = std::move(sc.value());
    rest.generate_params.clear();
    if (!generated_ || generated_->key != key) {
        generated_.reset(); // the old traces go before the new ones are made
        generated_ = std::make_unique<Generated>();
        generated_->key = key;
        generated_->workload = generated_source(workload, params);
    }
    if (!generated_->workload.is_ok()) return decide(S::Infeasible, generated_->workload.status().message());
    GeneratedSource& g = generated_->workload.value();
    Status groups = adopt_groups(g.groups, g.has_groups, rest.groups); // g is kept for the next point
    if (!groups.is_ok()) return decide(S::Infeasible, groups.message());
    std::vector<std::string> warnings;
    auto built = build_simulation(std::move(rest), *g.traces, warnings, options, &host_);
    if (!built.is_ok()) return decide(S::Infeasible, built.status().message());
    sim_ = std::move(built.value());
}

bool ScenarioEvaluator::advance(double budget_ms) {
    if (decided_) return false;
    if (session_) {
        session_->step(budget_ms);
        if (session_->running()) return true;
        if (session_->phase() == SessionPhase::Failed) {
            early_ = verdict(EvalResult::Status::Error, session_->stop_reason());
            decided_ = true;
        }
        return false;
    }
    SIM_ASSERT(sim_ != nullptr, "ScenarioEvaluator::advance without begin()");
    const auto t0 = std::chrono::steady_clock::now();
    try { // as Session::step: an internal error ends this point, not the search
        while (sim_->run_slice(slice_events, kTimeNever))
            if (ms_since(t0) >= budget_ms) return true;
    } catch (const InternalError& e) {
        early_ = verdict(EvalResult::Status::Error, std::string("internal error: ") + e.what());
        decided_ = true;
    }
    return false;
}

EvalResult ScenarioEvaluator::finish() {
    EvalResult r;
    if (decided_) {
        r = std::move(early_);
    } else {
        const RunResult result = sim_ ? sim_->result() : session_->result();
        if (!result.complete)
            r = verdict(EvalResult::Status::Error,
                        "the run did not complete: " +
                            (result.stuck.empty() ? std::string("NPUs stuck")
                                                  : "NPU " + std::to_string(result.stuck.front().npu) + ": " +
                                                        result.stuck.front().what));
        else
            r.step_time_ns = static_cast<int64_t>(result.total_ns);
    }
    session_.reset();
    sim_.reset();
    decided_ = false;
    early_ = EvalResult();
    return r;
}

} // namespace astrolabe::search

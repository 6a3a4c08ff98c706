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

// The same settings as `run --scenario` without options: no timeline, symmetry on.
RunOptions point_options(uint64_t slice_events) {
    RunOptions options;
    options.keep_timeline = false;
    options.keep_names = false;
    options.slice_events = slice_events;
    return options;
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
    session_.reset();
    build_.reset();
    sim_.reset();
    scenario_.reset();
    generating_.reset(); // a point abandoned while generating: its workload is not kept
    text_ = scenario_json;
    stage_ = Stage::Parse;
    has_verdict_ = false;
    setup_pieces_ = 0;
    generate_pieces_ = 0;
    longest_piece_ms_ = 0;
    longest_piece_.clear();
}

void ScenarioEvaluator::decide(EvalResult::Status status, const std::string& why) {
    early_ = verdict(status, why);
    has_verdict_ = true;
    stage_ = Stage::Decided;
    build_.reset();
    scenario_.reset();
    generating_.reset();
}

bool ScenarioEvaluator::advance(double budget_ms) {
    const auto t0 = std::chrono::steady_clock::now();
    bool worked = false; // at least one piece per call, then as many as the budget allows
    while (stage_ != Stage::Run && stage_ != Stage::Decided) {
        if (worked && ms_since(t0) >= budget_ms) return true;
        const auto p0 = std::chrono::steady_clock::now();
        const std::string name = stage_ == Stage::Build   ? "build: " + build_->stage_name()
                                 : stage_ == Stage::Parse ? "parse"
                                 : stage_ == Stage::GenerateStages
                                     ? std::string("generate: ") + generating_->piece_name()
                                     : "generate";
        if (stage_ == Stage::Generate || stage_ == Stage::GenerateStages) ++generate_pieces_;
        piece();
        worked = true;
        ++setup_pieces_;
        const double took = ms_since(p0);
        last_piece_ms_ = took, last_piece_ = name;
        if (took > longest_piece_ms_) longest_piece_ms_ = took, longest_piece_ = name;
    }
    if (stage_ == Stage::Decided) return false;
    if (worked && ms_since(t0) >= budget_ms) return true;
    if (session_) {
        session_->step(std::max(0.0, budget_ms - ms_since(t0)));
        if (session_->running()) return true;
        if (session_->phase() == SessionPhase::Failed)
            decide(EvalResult::Status::Error, session_->stop_reason());
        else
            stage_ = Stage::Decided;
        return false;
    }
    SIM_ASSERT(sim_ != nullptr, "ScenarioEvaluator::advance without begin()");
    try { // as Session::step: an internal error ends this point, not the search
        while (sim_->run_slice(slice_events, kTimeNever))
            if (ms_since(t0) >= budget_ms) return true;
        stage_ = Stage::Decided;
    } catch (const InternalError& e) {
        decide(EvalResult::Status::Error, std::string("internal error: ") + e.what());
    }
    return false;
}

// The set-up, a piece per call: parse; generate the workload (or find it kept), a new transformer shape
// two pieces per pipeline stage; the build's pieces.
void ScenarioEvaluator::piece() {
    using S = EvalResult::Status;
    const RunOptions options = point_options(slice_events);
    switch (stage_) {
    case Stage::Parse: {
        // Configs that do not parse and workloads the generator refuses are designs that cannot exist.
        auto sc = config::parse_scenario_json(text_, "point");
        if (!sc.is_ok()) return decide(S::Infeasible, sc.status().message());
        if (sc.value().workload_kind != config::Scenario::WorkloadKind::Generate) {
            // A workload of files or samples: Session::open builds it in one piece.
            auto opened = Session::open(std::move(sc.value()), options, host_);
            if (!opened.is_ok()) return decide(S::Infeasible, opened.status().message());
            session_ = std::move(opened.value());
            stage_ = Stage::Run;
            return;
        }
        scenario_ = std::make_unique<config::Scenario>(std::move(sc.value()));
        stage_ = Stage::Generate;
        return;
    }
    case Stage::Generate: {
        // What Session::open does for a generated workload, with the generator's source kept for the next
        // point (only network or collective knobs changed: the same traces). A new workload shape is made
        // in pieces (GeneratedSourceBuild: for a transformer, the groups, then per pipeline stage its trace,
        // to learn the translations, and its encoding); this piece is its first.
        config::Scenario& rest = *scenario_;
        std::string note; // the session's note on a default rank order; a search point shows no warnings
        auto params = run_generate_params(rest, note);
        std::string key = rest.workload;
        for (const auto& p : params)
            key += "\x1f" + p.first + "=" + p.second;
        rest.generate_params.clear();
        if (generated_ && generated_->key == key) return start_build();
        generated_.reset(); // the old traces go before the new ones are made
        generating_ = std::make_unique<GeneratedSourceBuild>(rest.workload, std::move(params));
        generating_key_ = std::move(key);
        stage_ = Stage::GenerateStages;
        [[fallthrough]];
    }
    case Stage::GenerateStages: {
        if (generating_->step()) return;
        generated_ = std::make_unique<Generated>();
        generated_->key = std::move(generating_key_);
        generated_->workload = generating_->take();
        generating_.reset();
        return start_build();
    }
    case Stage::Build: {
        if (build_->step()) return;
        auto built = build_->take();
        if (!built.is_ok()) return decide(S::Infeasible, built.status().message());
        sim_ = std::move(built.value());
        build_.reset();
        stage_ = Stage::Run;
        return;
    }
    case Stage::Run:
    case Stage::Decided:
        return;
    }
}

void ScenarioEvaluator::start_build() {
    using S = EvalResult::Status;
    if (!generated_->workload.is_ok()) return decide(S::Infeasible, generated_->workload.status().message());
    GeneratedSource& g = generated_->workload.value();
    config::Scenario& rest = *scenario_;
    Status groups = adopt_groups(g.groups, g.has_groups, rest.groups); // g is kept for the next point
    if (!groups.is_ok()) return decide(S::Infeasible, groups.message());
    build_ = std::make_unique<StagedBuild>(std::move(rest), *g.traces, point_options(slice_events), &host_);
    build_->graphs_per_step = graphs_per_piece;
    scenario_.reset();
    stage_ = Stage::Build;
}

EvalResult ScenarioEvaluator::finish() {
    EvalResult r;
    if (has_verdict_) {
        r = std::move(early_);
    } else if (sim_ && sim_->complete()) {
        // The step time without building the whole result (for a symmetric run of 1024 NPUs that copies
        // every representative's figures and collectives: tens of milliseconds).
        r.step_time_ns = static_cast<int64_t>(sim_->finish_ns());
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
    build_.reset();
    scenario_.reset();
    generating_.reset();
    stage_ = Stage::Decided;
    has_verdict_ = false;
    early_ = EvalResult();
    return r;
}

} // namespace astrolabe::search

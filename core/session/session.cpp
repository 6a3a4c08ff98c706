#include "core/session/session.h"

#include "core/base/assert.h"
#include "core/config/spellings.h"
#include "core/session/generated_source.h"

#include <chrono>
#include <new>

namespace astrolabe {

const char* session_phase_name(SessionPhase p) {
    switch (p) {
    case SessionPhase::Loading:
        return "loading";
    case SessionPhase::Running:
        return "running";
    case SessionPhase::Done:
        return "done";
    case SessionPhase::Stopped:
        return "stopped";
    case SessionPhase::Failed:
        return "failed";
    }
    return "?";
}

Status SessionHost::read_file(const std::string& path, std::string&) {
    return Status::error(path + ": files cannot be read here (custom collective ETs need the astrolabe CLI)");
}

Result<std::unique_ptr<TraceSource>> SessionHost::open_workload(config::Scenario::WorkloadKind kind,
                                                                const std::string& name) {
    return Status::error(std::string("workload: ") +
                         (kind == config::Scenario::WorkloadKind::Sample ? "sample '" : "prefix '") + name +
                         "': no files can be read here; embed the traces or generate the workload");
}

namespace {

// [SECTION] the workload: embedded, generated (in memory, here) or named (the host opens it)
struct Workload {
    std::unique_ptr<TraceSource> traces;
    std::string label; // the report's `workload`: prefix, sample name, "embedded (N traces)", ...
};

Result<Workload> open_workload(config::Scenario& s, SessionHost& host, std::vector<std::string>& warnings) {
    Workload out;
    switch (s.workload_kind) {
    case config::Scenario::WorkloadKind::Embedded: {
        auto mem = std::make_unique<MemoryTraceSource>();
        const size_t n = s.traces.size();
        for (auto& t : s.traces)
            mem->add(std::move(t.first), std::move(t.second));
        s.traces.clear();
        out.traces = std::move(mem);
        out.label = "embedded (" + std::to_string(n) + " traces)";
        break;
    }
    case config::Scenario::WorkloadKind::Generate: {
        std::string note;
        auto gen = generated_source(s.workload, run_generate_params(s, note));
        if (!note.empty()) warnings.push_back(note);
        if (!gen.is_ok()) return gen.status();
        Status groups = adopt_groups(std::move(gen.value().groups), gen.value().has_groups, s.groups);
        if (!groups.is_ok()) return groups;
        out.traces = std::move(gen.value().traces);
        out.label = "(generated " + s.workload + ")";
        break;
    }
    case config::Scenario::WorkloadKind::Prefix:
    case config::Scenario::WorkloadKind::Sample: {
        auto src = host.open_workload(s.workload_kind, s.workload);
        if (!src.is_ok()) return src.status();
        out.traces = std::move(src.value());
        out.label = s.workload;
        break;
    }
    }
    return out;
}

double seconds_since(std::chrono::steady_clock::time_point t0) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

} // namespace

// [SECTION] open
Result<std::unique_ptr<Session>> Session::open(config::Scenario scenario, const RunOptions& options,
                                               SessionHost& host) {
    std::unique_ptr<Session> s(new Session());
    s->host_ = &host;
    s->options_ = options;
    if (s->options_.slice_events == 0) s->options_.slice_events = 1;
    // Running out of memory while decoding (a trace set too large for the browser's 4 GiB) or a failed
    // assert while building are refusals like any other, not crashes.
    try {
        auto workload = open_workload(scenario, host, s->warnings_);
        if (!workload.is_ok()) return workload.status();
        s->workload_label_ = std::move(workload.value().label);
        auto built =
            build_simulation(std::move(scenario), *workload.value().traces, s->warnings_, options, &host);
        if (!built.is_ok()) return built.status();
        s->sim_ = std::move(built.value());
    } catch (const std::bad_alloc&) {
        return Status::error("out of memory while loading the traces");
    } catch (const std::exception& e) {
        return Status::error(e.what()); // InternalError above all: a bug, reported, not a crash
    }
    s->phase_ = SessionPhase::Running;
    return s;
}

Session::~Session() = default;

// [SECTION] running
bool Session::step(double budget_ms) {
    if (phase_ != SessionPhase::Running) return false;
    const auto t0 = std::chrono::steady_clock::now();
    const TimeNs until = options_.max_sim_ns ? options_.max_sim_ns : kTimeNever;
    bool more = true;
    double spent_s = 0;
    try {
        do {
            SIM_ASSERT(!inject_error_,
                       "an internal error injected by a test (Session::inject_internal_error)");
            more = sim_->run_slice(options_.slice_events, until);
            spent_s = seconds_since(t0);
            if (more && options_.max_sim_ns && sim_->next_event_time() > until) {
                wall_s_ += spent_s;
                finish(SessionPhase::Stopped,
                       "max-sim-time " + std::to_string(options_.max_sim_ns) + " ns reached");
                return false;
            }
            if (more && options_.max_wall_s > 0 && wall_s_ + spent_s >= options_.max_wall_s) {
                wall_s_ += spent_s;
                char secs[32];
                std::snprintf(secs, sizeof secs, "%g", options_.max_wall_s);
                finish(SessionPhase::Stopped, std::string("max-wall-time ") + secs +
                                                  " s reached at simulated time " +
                                                  std::to_string(sim_->now()) + " ns");
                return false;
            }
            report_progress(SessionPhase::Running);
        } while (more && spent_s * 1000.0 < budget_ms);
    } catch (const std::bad_alloc&) {
        fail("out of memory during the run");
        return false;
    } catch (const std::exception& e) {
        // InternalError (a failed SIM_ASSERT) above all: a bug, but the front end must live on.
        fail(e.what());
        return false;
    }
    wall_s_ += spent_s;
    if (!more) finish(SessionPhase::Done, "");
    return more;
}

void Session::run() {
    while (step(1e300)) {
    }
}

void Session::cancel(const std::string& reason) {
    if (phase_ == SessionPhase::Running) finish(SessionPhase::Stopped, reason);
}

void Session::finish(SessionPhase end, std::string reason) {
    try {
        result_ = sim_->result(options_.runner);
    } catch (const std::exception& e) {
        fail(e.what());
        return;
    }
    phase_ = end;
    stop_reason_ = std::move(reason);
}

void Session::fail(std::string why) {
    phase_ = SessionPhase::Failed;
    stop_reason_ = std::move(why);
    result_ = RunResult();
}

void Session::report_progress(SessionPhase phase) const {
    SessionProgress p;
    p.phase = phase;
    p.done = sim_->nodes_done();
    p.total = sim_->nodes_total();
    p.sim_ns = sim_->now();
    p.events = sim_->events();
    p.wall_s = wall_s_;
    host_->progress(p);
}

uint64_t Session::nodes_done() const {
    return sim_ ? sim_->nodes_done() : 0;
}
uint64_t Session::nodes_total() const {
    return sim_ ? sim_->nodes_total() : 0;
}
uint64_t Session::events() const {
    return sim_ ? sim_->events() : 0;
}
TimeNs Session::sim_now() const {
    return sim_ ? sim_->now() : 0;
}

// [SECTION] results
ReportContext Session::context() const {
    ReportContext ctx;
    ctx.workload = workload_label_;
    ctx.network_model = config::name_of(sim_->input().network_model);
    ctx.compute_model = sim_->compute_model_label();
    ctx.wall_s = wall_s_;
    ctx.partial = phase_ == SessionPhase::Stopped;
    ctx.partial_reason = ctx.partial ? stop_reason_ : "";
    ctx.load_warnings = warnings_;
    return ctx;
}

std::string Session::report_json() const {
    return astrolabe::report_json(result_, context(), options_.runner);
}

void Session::write_report_json(ByteSink& sink) const {
    astrolabe::write_report_json(sink, result_, context(), options_.runner);
}

std::string Session::report_summary() const {
    return astrolabe::report_summary(result_, context());
}

std::string Session::timeline_json() const {
    return astrolabe::timeline_json(*sim_, result_);
}

// [SECTION] evaluate
Result<Evaluation> evaluate_scenario(std::string_view scenario_json, SessionHost& host,
                                     const RunOptions& options) {
    auto scenario = config::parse_scenario_json(scenario_json, "scenario");
    if (!scenario.is_ok()) return scenario.status();
    auto session = Session::open(std::move(scenario.value()), options, host);
    if (!session.is_ok()) return session.status();
    Session& s = *session.value();
    s.run();
    if (s.phase() == SessionPhase::Failed) return Status::error(s.stop_reason());
    Evaluation e;
    e.report_json = s.report_json();
    e.result = s.result();
    return e;
}

} // namespace astrolabe

// The one run pipeline: a scenario in; the built simulation, run in slices under a time budget, limits
// and cancel; the report, timeline and warnings out. `astrolabe run`, the browser, the golden tests and a
// search all drive this class, so the same scenario gives the same report everywhere by construction.
//
// Front ends supply a small SessionHost (read a file, open a workload by name, hear progress). A Session
// holds no global or static mutable state, so many may run at once on different threads; building one is
// as cheap as decoding its traces, which suits evaluating thousands of scenarios in one process.
//
// Nothing escapes: bad input comes back as a Status from open(), and an internal error (a failed
// SIM_ASSERT) or running out of memory during the run ends the session in phase Failed with a message.
#pragma once

#include "core/base/status.h"
#include "core/config/scenario.h"
#include "core/report/report.h"
#include "core/session/trace_source.h"
#include "core/simulation/simulation.h"

#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace astrolabe {

// What a front end chooses about a run beyond the scenario itself.
struct RunOptions {
    bool keep_timeline = false;      // record every node's interval (the timeline panel, --timeline)
    bool keep_names = true;          // node names, for the timeline's labels
    bool symmetry = true;            // one representative per class of identical NPUs when provably exact
    bool fast_ring = true;           // ring collectives by max-plus recurrence when provably exact
    bool fast_ring_tie_guard = true; // for tests only: false blinds the fast path's guard (fast_ring_watch.h)
    bool ignore_ctrl_deps = false;   // traces whose ctrl_deps encode CPU call nesting, not ordering
    TimeNs max_sim_ns = 0;           // stop once simulated time would pass this (0: no limit); exact
    double max_wall_s = 0;           // stop after this much wall time in step() (0: no limit)
    uint64_t slice_events = 4096;    // events between clock and cancel checks
    // Threads for the deterministic parallel parts (decoding a full run's traces, expanding a symmetric
    // result, formatting the report); not owned. nullptr: the calling thread. Never changes a result.
    TaskRunner* runner = nullptr;
};

enum class SessionPhase : uint8_t { Loading, Running, Done, Stopped, Failed };
const char* session_phase_name(SessionPhase p);

struct SessionProgress {
    SessionPhase phase = SessionPhase::Loading;
    uint64_t done = 0, total = 0; // traces loaded (Loading) or nodes finished (Running)
    TimeNs sim_ns = 0;
    uint64_t events = 0;
    double wall_s = 0; // run wall time so far
};

// The platform side of a run. The defaults suit a host without files (a search over generated or
// embedded workloads): every file read fails with a clear message.
class SessionHost {
public:
    virtual ~SessionHost() = default;
    // The bytes of a file a config names (custom collective ETs, `<prefix>.<position>.et`).
    virtual Status read_file(const std::string& path, std::string& bytes);
    // The traces of a workload the scenario names: a path prefix (Prefix) or a bundled sample (Sample).
    virtual Result<std::unique_ptr<TraceSource>> open_workload(config::Scenario::WorkloadKind kind,
                                                               const std::string& name);
    // Called after each trace loads and after each slice of the run; hosts throttle their own output.
    virtual void progress(const SessionProgress&) {}
};

class Session {
public:
    // Builds the simulation of `scenario` (the traces are decoded now and released after). Every problem
    // found in the inputs comes back at once.
    static Result<std::unique_ptr<Session>> open(config::Scenario scenario, const RunOptions& options,
                                                 SessionHost& host);
    ~Session();

    // [SECTION] running
    // Runs slices until `budget_ms` of wall time is spent (at least one slice), the run ends, a limit is
    // reached or the session fails. True while the run can go on.
    bool step(double budget_ms);
    // Runs to the end or to a limit.
    void run();
    // Stops the run at the current slice boundary; the result is partial, with `reason` in the report.
    void cancel(const std::string& reason);
    // Test hook: the next slice fails a SIM_ASSERT, as a bug would (checks that errors never escape).
    void inject_internal_error() { inject_error_ = true; }

    SessionPhase phase() const { return phase_; }
    bool running() const { return phase_ == SessionPhase::Running; }
    // Why the run stopped early (phase Stopped), or the internal error (phase Failed).
    const std::string& stop_reason() const { return stop_reason_; }
    uint64_t nodes_done() const;
    uint64_t nodes_total() const;
    uint64_t events() const;
    TimeNs sim_now() const;
    double wall_s() const { return wall_s_; }

    // [SECTION] results: valid in phases Done and Stopped (a partial result); Failed has none.
    const RunResult& result() const { return result_; }
    const Simulation& simulation() const { return *sim_; }
    // The report's description of the run: workload, models, wall time, partial reason, load warnings.
    ReportContext context() const;
    std::string report_json() const;
    void write_report_json(ByteSink& sink) const; // the same bytes, streamed (a file)
    std::string report_summary() const;
    std::string timeline_json() const; // needs RunOptions::keep_timeline
    // Notes on the inputs that did not stop the run, one per occurrence (load time).
    const std::vector<std::string>& warnings() const { return warnings_; }
    const std::string& workload_label() const { return workload_label_; }

private:
    Session() = default;
    void finish(SessionPhase end, std::string reason);
    void fail(std::string why);
    void report_progress(SessionPhase phase) const;

    SessionHost* host_ = nullptr;
    RunOptions options_;
    std::unique_ptr<Simulation> sim_;
    std::string workload_label_;
    std::vector<std::string> warnings_;
    SessionPhase phase_ = SessionPhase::Loading;
    std::string stop_reason_;
    double wall_s_ = 0;
    bool inject_error_ = false;
    RunResult result_;
};

// The search's one call: a scenario JSON text run to the end (or its limits) with no files. Bad input
// comes back as the Status; an internal error too.
struct Evaluation {
    RunResult result;
    std::string report_json;
};
Result<Evaluation> evaluate_scenario(std::string_view scenario_json, SessionHost& host,
                                     const RunOptions& options = {});

// Lower level, for tests that build inputs by hand: loads one trace per NPU of the scenario's network and
// builds the simulation (the scenario's workload fields are not used). `warnings` receives the notes.
Result<std::unique_ptr<Simulation>> build_simulation(config::Scenario scenario, TraceSource& traces,
                                                     std::vector<std::string>& warnings,
                                                     const RunOptions& options = {},
                                                     SessionHost* host = nullptr);

// The communicator groups as the simulation indexes them (index 0 = the whole system).
GroupTable make_group_table(const config::CommGroups& groups);

} // namespace astrolabe

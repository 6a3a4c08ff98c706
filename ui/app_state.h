// The browser app's state and logic, without any drawing: the scenario being edited, the run stepped a
// slice at a time, and its results. The ImGui panels (ui/*_panel.cpp) and the JS bridge (wasm/bridge.cpp)
// both act on one App, so what a click does and what `window.astrolabe` does are the same code.
//
// Nothing here throws out or aborts on bad input: every failure lands in `message()` (and the phase says
// whether a run failed), so the page keeps working whatever the user loads.
#pragma once

#include "core/base/status.h"
#include "core/config/scenario_doc.h"
#include "core/report/critical_path.h"
#include "core/session/session.h"

#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace astrolabe::ui {

// What the Compare tab keeps of a finished run: enough for both summaries and the per-NPU difference.
struct RunSnapshot {
    uint32_t number = 0; // 1 for the session's first finished run
    std::string label;   // the scenario's source and network, e.g. "sample allreduce_ring8, Ring(8) 50 GB/s"
    std::string network_model, compute_model;
    TimeNs total_ns = 0;
    std::vector<NpuStats> npus;
};

struct SampleInfo {
    std::string name;
    std::string summary; // "8 NPUs, Ring" and the like
};

enum class RunPhase : uint8_t { Idle, Loading, Running, Done, Failed, Cancelled };
const char* run_phase_name(RunPhase p);

class App {
public:
    // `samples_root` holds one folder per bundled sample, each with a scenario.json and its traces.
    explicit App(std::string samples_root);
    ~App();

    // [SECTION] scenario
    // Each load returns an error only when it refuses the input (the scenario is then unchanged and the
    // reason is also in message()); problems inside a scenario it took are in validation().
    const std::vector<SampleInfo>& samples() const { return samples_; }
    Status load_sample(const std::string& name);
    Status load_scenario_text(const std::string& text, const std::string& source);
    Status load_link(const std::string& link);
    // Opened or dropped .et files: ordered by the rank in their names and embedded in the scenario. A
    // one-dimensional network is resized to the number of traces.
    Status load_traces(std::vector<std::pair<std::string, std::string>> files);
    config::ScenarioDoc& doc() { return doc_; }
    const config::ScenarioDoc& doc() const { return doc_; }
    // Call after editing doc(): re-validates it with the same parser `astrolabe run --scenario` uses.
    void doc_changed();
    // The current scenario's problems, one per line, each "scenario: <section>: <key>: <what>".
    const Status& validation() const { return validation_; }
    // Problems whose key path contains `key` (for messages beside a form field).
    std::vector<std::string> problems_for(const std::string& section, const std::string& key) const;
    const std::string& scenario_source() const { return source_; }
    // Scenarios adopted so far (a sample, a file, a link, the JS API): what a view's state about "this
    // scenario" compares against to know it still holds.
    uint64_t scenarios_adopted() const { return adopted_; }

    // [SECTION] run
    // Builds the simulation from the scenario (traces decoded now) and starts stepping. False on failure,
    // with the reason in message().
    bool start_run();
    // Runs events until `budget_ms` of wall time is spent or the run ends. An internal error ends the run
    // with a message (phase Failed); the app keeps working.
    void step(double budget_ms);
    void cancel();
    // Test hook (browser tests): the next step fails a SIM_ASSERT inside the simulator, as a bug would.
    void inject_internal_error() { inject_error_ = true; }
    RunPhase phase() const { return phase_; }
    double progress() const; // 0..1, nodes done over nodes
    double events_per_s() const;
    uint64_t events() const;
    TimeNs sim_now() const;

    // [SECTION] results (valid in phase Done; Cancelled keeps a partial result)
    const Session* session() const { return session_.get(); }
    const RunResult* result() const;
    const std::string& report_json() const { return report_; }
    std::string timeline_json() const;
    const std::vector<std::string>& warnings() const;
    // The chain of nodes that set the total time (core/report/critical_path.h), computed on first use.
    const CriticalPath& critical_path() const;
    bool on_critical_path(uint32_t npu, uint32_t node) const;

    // [SECTION] comparison: the last two runs that finished (Done), newest last.
    const RunSnapshot* current_run() const { return runs_.empty() ? nullptr : &runs_.back(); }
    const RunSnapshot* previous_run() const { return runs_.size() < 2 ? nullptr : &runs_.front(); }

    // [SECTION] sharing
    // The link fragment ("s=...") for the scenario, or an error when it would be too long to share.
    Result<std::string> share_fragment() const;

    // [SECTION] hosting: the files a scenario may name (bundled samples), for other runs of the page (the
    // Search tab's points) to read as the app's own runs do.
    const std::string& samples_root() const { return samples_root_; }
    SessionHost& session_host();

    // The latest error or notice for the status line; empty when there is none.
    const std::string& message() const { return message_; }
    void set_message(std::string m) { message_ = std::move(m); }

private:
    Status adopt(config::ScenarioDoc doc, const std::string& source);
    class Host;
    void settle();

    std::string samples_root_;
    std::vector<SampleInfo> samples_;
    config::ScenarioDoc doc_;
    std::string source_;
    uint64_t adopted_ = 0;
    Status validation_;

    RunPhase phase_ = RunPhase::Idle;
    std::unique_ptr<Host> host_;
    std::unique_ptr<Session> session_;
    bool inject_error_ = false;
    std::string report_;
    std::string message_;
    mutable std::unique_ptr<CriticalPath> critical_;
    mutable std::vector<uint64_t> critical_keys_; // npu << 32 | node, sorted
    std::vector<RunSnapshot> runs_;               // at most two
    uint32_t runs_done_ = 0;
};

} // namespace astrolabe::ui

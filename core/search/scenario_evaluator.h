// The one evaluator of search points, shared by the CLI (one per worker thread) and the browser (stepped a
// point at a time between frames): scenario text -> simulation -> step time, by the same path as
// `astrolabe run --scenario` (so best.scenario.json re-run alone gives the logged step time).
//
// Files come through the front end's SessionHost (workload prefixes, bundled samples, custom collective
// ETs); nothing here reads a file or starts a thread. Instances share nothing, so one per thread is safe.
// Points run through the Session pipeline (core/session); a generated workload goes through its
// build step directly (StagedBuild, build_simulation in pieces), so the generator's source can be kept for
// the next point.
#pragma once

#include "core/search/evaluator.h"
#include "core/session/generated_source.h"
#include "core/session/session.h"
#include "core/session/staged_build.h"

#include <memory>
#include <string>

namespace astrolabe::search {

class ScenarioEvaluator final : public Evaluator {
public:
    // `host` must outlive the evaluator.
    explicit ScenarioEvaluator(SessionHost& host) : host_(host) {}
    ~ScenarioEvaluator() override;
    // begin(); advance() until it returns false; finish().
    EvalResult evaluate(const std::string& scenario_json) override;

    // [SECTION] one point in pieces, for a front end that must not block (the browser's frames): the
    // result is the same whatever the pieces are, since neither a build's pieces nor a run's slices change
    // it. Takes the point; the work is all in advance().
    void begin(const std::string& scenario_json);
    // Works on the point for about `budget_ms` of wall time, one piece at a time and at least one piece:
    // parsing; generating the workload or finding it kept (a new transformer shape: two pieces per pipeline
    // stage, GeneratedSourceBuild); the build's pieces (a few graphs each, the symmetry search, the
    // executor: core/session/staged_build.h); then simulation slices. False once the point is decided.
    // advance(0) does exactly one piece.
    bool advance(double budget_ms);
    // The point's result; the evaluator is then ready for the next begin().
    EvalResult finish();
    // Events per slice of advance() (a slice is never cut, so this bounds the time a frame can overrun).
    uint64_t slice_events = uint64_t(1) << 16;
    // Graphs built or copied per piece of the set-up (a generated stage graph is decoded a window of nodes
    // a piece whatever this is: StagedBuild::nodes_per_step). 1: copying a representative's graph of
    // GPT-3 175B with 128 micro-batches (samples/search/cosmic.json) is 1 to 5 ms; building one without
    // the cache, about 30 ms.
    uint32_t graphs_per_piece = 1;
    // Pieces of the current point's set-up done so far, and the longest one (ms) with its name, for tests
    // and measurements.
    uint32_t setup_pieces() const { return setup_pieces_; }
    // Of those, the generator's (0 when the workload was kept from the last point).
    uint32_t generate_pieces() const { return generate_pieces_; }
    double longest_piece_ms() const { return longest_piece_ms_; }
    const std::string& longest_piece() const { return longest_piece_; }
    // The last piece done and how long it took (ms), for measurements piece by piece (advance(0)).
    const std::string& last_piece() const { return last_piece_; }
    double last_piece_ms() const { return last_piece_ms_; }

private:
    // The last generated workload: points that change only network or collective knobs (most neighbours in a
    // search) reuse its traces instead of generating them again. One entry per evaluator (per thread).
    struct Generated {
        std::string key; // generator kind and parameters
        Result<GeneratedSource> workload = Status::error("none");
    };
    // Generate: the generator's key, and (for a new workload shape) its first piece; GenerateStages: the
    // generator's remaining pieces (a transformer's pipeline stages, two pieces each), one per call.
    enum class Stage : uint8_t { Parse, Generate, GenerateStages, Build, Run, Decided };
    // One piece of work on the point.
    void piece();
    // Once the workload is made or kept: adopts its groups and starts the build.
    void start_build();
    void decide(EvalResult::Status status, const std::string& why);

    SessionHost& host_;
    std::unique_ptr<Generated> generated_;
    // The point in flight: its text, then a Session (workload from files or samples, built at once) or a
    // StagedBuild and then a bare Simulation (a generated workload, built from the kept source), or an early
    // verdict when it never got that far.
    Stage stage_ = Stage::Decided;
    std::string text_;
    std::unique_ptr<config::Scenario> scenario_;       // between parsing and the build
    std::unique_ptr<GeneratedSourceBuild> generating_; // a new workload shape, in pieces
    std::string generating_key_;
    std::unique_ptr<StagedBuild> build_;
    std::unique_ptr<Session> session_;
    std::unique_ptr<Simulation> sim_;
    EvalResult early_;
    bool has_verdict_ = false; // early_ is the point's result
    uint32_t setup_pieces_ = 0;
    uint32_t generate_pieces_ = 0;
    double longest_piece_ms_ = 0;
    std::string longest_piece_;
    double last_piece_ms_ = 0;
    std::string last_piece_;
};

} // namespace astrolabe::search

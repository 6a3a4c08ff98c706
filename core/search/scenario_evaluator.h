// The one evaluator of search points, shared by the CLI (one per worker thread) and the browser (stepped a
// point at a time between frames): scenario text -> simulation -> step time, by the same path as
// `astrolabe run --scenario` (so best.scenario.json re-run alone gives the logged step time).
//
// Files come through the front end's SessionHost (workload prefixes, bundled samples, custom collective
// ETs); nothing here reads a file or starts a thread. Instances share nothing, so one per thread is safe.
// Points run through the Session pipeline (core/session); a generated workload goes through its
// build_simulation step directly, so the generator's source can be kept for the next point.
#pragma once

#include "core/search/evaluator.h"
#include "core/session/generated_source.h"
#include "core/session/session.h"

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
    // result is the same whatever the pieces are, since a run's slices do not change it.
    // Sets the point up (parse, generate or reuse the traces, build the simulation).
    void begin(const std::string& scenario_json);
    // Simulates for about `budget_ms` of wall time (at least one slice); false once the point is decided.
    bool advance(double budget_ms);
    // The point's result; the evaluator is then ready for the next begin().
    EvalResult finish();
    // Events per slice of advance() (a slice is never cut, so this bounds the time a frame can overrun).
    uint64_t slice_events = uint64_t(1) << 16;

private:
    // The last generated workload: points that change only network or collective knobs (most neighbours in a
    // search) reuse its traces instead of generating them again. One entry per evaluator (per thread).
    struct Generated {
        std::string key; // generator kind and parameters
        Result<GeneratedSource> workload = Status::error("none");
    };
    SessionHost& host_;
    std::unique_ptr<Generated> generated_;
    // The point in flight: a Session (workload from files or samples) or a bare Simulation (a generated
    // workload, built from the kept source), or an early verdict when it never got that far.
    std::unique_ptr<Session> session_;
    std::unique_ptr<Simulation> sim_;
    bool decided_ = false;
    EvalResult early_;
};

} // namespace astrolabe::search

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
    EvalResult evaluate(const std::string& scenario_json) override;

private:
    // The last generated workload: points that change only network or collective knobs (most neighbours in a
    // search) reuse its traces instead of generating them again. One entry per evaluator (per thread).
    struct Generated {
        std::string key; // generator kind and parameters
        Result<GeneratedSource> workload = Status::error("none");
    };
    SessionHost& host_;
    std::unique_ptr<Generated> generated_;
};

} // namespace astrolabe::search

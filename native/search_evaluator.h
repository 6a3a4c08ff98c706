// The native evaluator of search points: scenario text -> simulation -> step time, by the same path as
// `astrolabe run --scenario` (so best.scenario.json re-run alone gives the logged step time).
//
// One instance per worker thread; instances share nothing (no globals), so --jobs threads are safe.
// Points run through the Session pipeline (core/session); a generated workload goes through its
// build_simulation step directly, so the generator's source can be kept for the next point.
#pragma once

#include "core/search/evaluator.h"
#include "core/session/generated_source.h"

#include <filesystem>
#include <memory>
#include <string>

namespace astrolabe::cli {

class ScenarioEvaluator final : public search::Evaluator {
public:
    // Relative workload prefixes are taken from `base_dir` (the spec's folder).
    explicit ScenarioEvaluator(std::filesystem::path base_dir) : base_dir_(std::move(base_dir)) {}
    search::EvalResult evaluate(const std::string& scenario_json) override;

private:
    // The last generated workload: points that change only network or collective knobs (most neighbours in a
    // search) reuse its traces instead of generating them again. One entry, per evaluator (per thread).
    struct Generated {
        std::string key; // generator kind and parameters
        Result<GeneratedSource> workload = Status::error("none");
    };
    std::filesystem::path base_dir_;
    std::unique_ptr<Generated> generated_;
};

} // namespace astrolabe::cli

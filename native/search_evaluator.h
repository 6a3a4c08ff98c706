// The CLI's evaluator of search points: the core one (core/search/scenario_evaluator.h, shared with the
// browser) over the CLI's files, relative workload prefixes taken from the spec's folder.
//
// One instance per worker thread; instances share nothing (no globals), so --jobs threads are safe.
#pragma once

#include "core/search/scenario_evaluator.h"
#include "native/cli_host.h"

#include <filesystem>

namespace astrolabe::cli {

class ScenarioEvaluator final : public search::Evaluator {
public:
    // Relative workload prefixes are taken from `base_dir` (the spec's folder); no progress bars.
    explicit ScenarioEvaluator(const std::filesystem::path& base_dir)
        : host_(base_dir.string(), false), evaluator_(host_) {}
    search::EvalResult evaluate(const std::string& scenario_json) override {
        return evaluator_.evaluate(scenario_json);
    }

private:
    CliHost host_; // before evaluator_, which holds a reference to it
    search::ScenarioEvaluator evaluator_;
};

} // namespace astrolabe::cli

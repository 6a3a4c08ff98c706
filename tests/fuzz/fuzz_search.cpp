// libFuzzer harness: what `astrolabe search SPEC.json` reaches before and around simulating: the spec parser
// (knob paths, values tried in the base, constraint expressions), the agents, the driver, the outputs, and
// the stdio protocol, with a stand-in evaluator (a step time hashed from the scenario) instead of runs.
#include "core/search/search_run.h"

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>

namespace {

struct HashEvaluator : astrolabe::search::Evaluator {
    astrolabe::search::EvalResult evaluate(const std::string& scenario) override {
        astrolabe::search::EvalResult r;
        r.step_time_ns = static_cast<int64_t>(std::hash<std::string>()(scenario) % 1000000 + 1);
        return r;
    }
};

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    using namespace astrolabe;
    using namespace astrolabe::search;
    std::string_view text(reinterpret_cast<const char*>(data), size);
    auto no_file = [](const std::string& p) -> Result<std::string> { return Status::error("no file " + p); };
    // The input as a spec, searched by each agent for a few points, every output written.
    for (const char* agent : {"grid", "random", "ga", "aco", "bo"}) {
        SearchOptions opt;
        opt.agent = agent;
        opt.budget = 6;
        auto run = SearchRun::create(text, "fuzz.json", no_file, opt);
        if (!run.is_ok()) continue; // grid alone refuses large spaces
        HashEvaluator ev;
        run_search(run.value(), ev);
        (void)run.value().take_lines();
        (void)run.value().csv();
        (void)run.value().best_scenario_json();
        (void)run.value().pareto_jsonl();
        (void)run.value().summary_json(1.0);
        (void)run.value().best_so_far_svg();
        (void)run.value().pareto_svg();
        // Its own log read back as an earlier log; the input as a stdio point.
        (void)run.value().load_previous(text);
        auto stdio = SearchRun::create(text, "fuzz.json", no_file, SearchOptions{"stdio", 4, 1});
        if (stdio.is_ok() && stdio.value().submit(text).is_ok()) {
            auto batch = stdio.value().submitted_batch();
            std::vector<EvalResult> results;
            for (const auto& s : batch)
                results.push_back(ev.evaluate(s));
            if (!batch.empty()) stdio.value().complete_batch(results);
            (void)stdio.value().take_answers();
        }
    }
    return 0;
}

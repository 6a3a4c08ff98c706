// One design-space search: a spec, an agent, a budget and a seed in; the evaluation log, the best
// scenario, the Pareto front, a summary and pictures out. docs/search.md describes the outputs.
//
// The front end drives it: next_batch() gives the scenarios to simulate (points answered from an earlier
// log or refused by a constraint are settled inside, without simulating), complete_batch() takes their
// results in the same order, take_lines() returns the finished log lines to append. Results are taken in
// proposal order, so the log is the same whatever evaluates the batches and in whatever order they finish.
#pragma once

#include "core/base/status.h"
#include "core/search/evaluator.h"

#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace astrolabe::search {

struct SearchOptions {
    std::string agent =
        "random";          // grid, random, ga, aco, bo; "stdio" = points given by the caller (propose())
    uint64_t budget = 100; // evaluations logged at most (distinct points)
    uint64_t seed = 1;
};

struct SearchCounts {
    uint64_t evaluations = 0; // logged points
    uint64_t simulated = 0;   // simulated in this process
    uint64_t cached = 0;      // answered from an earlier log
    uint64_t infeasible = 0;
    uint64_t errors = 0;
};

class SearchRun {
public:
    ~SearchRun();
    SearchRun(SearchRun&&) noexcept;
    SearchRun& operator=(SearchRun&&) noexcept;

    // Parses the spec and builds the agent; every problem at once (one line each). `read_base` reads the
    // spec's `base_file` (the front end resolves it).
    static Result<SearchRun> create(std::string_view spec_text, const std::string& source,
                                    const std::function<Result<std::string>(const std::string&)>& read_base,
                                    const SearchOptions& options);

    // Rewrites the base's `workload.prefix` (a path relative to the spec, say) so that the scenarios the
    // search hands out, and best.scenario.json, run from anywhere.
    void resolve_prefix(const std::function<std::string(const std::string&)>& resolve);

    // The lines of an earlier evaluations.jsonl of the same spec: their points are not simulated again.
    // Lines that do not parse (a line cut short by a kill) are skipped; returns how many were usable.
    size_t load_previous(std::string_view jsonl);

    // The scenarios of the next batch to simulate (JSON text, one per point); empty when the search is over.
    std::vector<std::string> next_batch();
    // Their results, in order.
    void complete_batch(const std::vector<EvalResult>& results);
    // Ends a search whose batch in flight was cut short (Cancel): `results` are the batch's first results,
    // in order. The batch's points are logged up to the first one without a result, so the log is a prefix
    // of the uncut search's; the agent hears nothing more, and done() is then true.
    void complete_prefix(const std::vector<EvalResult>& results);
    // Log lines (evaluations.jsonl, each without its newline) finished since the last call.
    std::vector<std::string> take_lines();

    // --agent stdio: the caller proposes points, one JSON object {knob path: value} or a list of them.
    // submitted_batch() then gives the scenarios to simulate (maybe none: repeats and points refused by a
    // constraint are answered at once), complete_batch() takes their results, and take_answers() gives one
    // line per submitted point: its log line (a repeat gets the earlier one; a point past the budget an
    // error line). A malformed point is an error naming the knob, and nothing is evaluated.
    Status submit(std::string_view points_json);
    std::vector<std::string> submitted_batch();
    std::vector<std::string> take_answers();

    bool done() const;
    std::string stop_reason() const;
    const SearchCounts& counts() const;
    bool has_best() const;
    double best_objective() const;
    int64_t best_step_time_ns() const;
    uint64_t budget() const;
    double space_size() const;
    std::string fingerprint() const; // the spec's canonical text: a DIR holds the search of one spec

    std::string csv() const;
    std::string best_scenario_json() const; // "" when no point succeeded
    std::string pareto_jsonl() const;       // non-dominated points (step time, network cost)
    std::string summary_json(double wall_s) const;
    std::string best_so_far_svg() const;
    std::string pareto_svg() const;

    // [SECTION] the log as data, for live charts (search_points.cpp)
    struct LoggedPoint {
        uint64_t index = 0;
        EvalResult::Status status = EvalResult::Status::Ok;
        int64_t step_time_ns = 0; // when Ok
        double network_cost = 0;  // NaN when the cost model has no price for the point
        double objective = 0;     // NaN when not Ok
        std::string knobs;        // "path = value" per knob, one per line
    };
    size_t logged() const;
    LoggedPoint logged_point(size_t i) const;
    // The runnable scenario of log entry `i` (as best.scenario.json is for the best one).
    std::string point_scenario_json(size_t i) const;
    // Log entries on the Pareto front of (step time, network cost), cost ascending.
    std::vector<size_t> pareto_points() const;

    struct Impl; // defined in search_state.h, internal to core/search

private:
    explicit SearchRun(std::unique_ptr<Impl> impl);
    std::unique_ptr<Impl> impl_;
};

// Runs a whole search on one evaluator, in this thread (tests, simple front ends).
void run_search(SearchRun& run, Evaluator& evaluator);

} // namespace astrolabe::search

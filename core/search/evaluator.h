// The one thing a search needs from a front end: the step time of a scenario.
//
// The core search (search_run.h) has no threads, MPI or files; it hands scenarios (astrolabe.scenario/1 JSON
// text) to the front end, which evaluates them however it likes (a thread pool of Evaluators natively, MPI
// ranks, slices of a browser frame) and gives the results back in the order they were asked for.
#pragma once

#include <cstdint>
#include <string>

namespace astrolabe::search {

struct EvalResult {
    enum class Status { Ok, Infeasible, Error };
    Status status = Status::Ok;
    int64_t step_time_ns = 0; // the report's total_ns when Ok
    std::string
        reason; // why not Ok: a generator refusal or config problem (Infeasible), a run failure (Error)
};

// Evaluates one scenario. One instance per worker thread: implementations may keep caches, so they need
// not be thread-safe, but must not share mutable state between instances.
class Evaluator {
public:
    virtual ~Evaluator() = default;
    virtual EvalResult evaluate(const std::string& scenario_json) = 0;
};

} // namespace astrolabe::search

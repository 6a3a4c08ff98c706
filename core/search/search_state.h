// Internal to core/search: the state of one SearchRun, shared by the driver (search_run.cpp) and the
// writers of its outputs (search_outputs.cpp, search_svg.cpp).
#pragma once

#include "core/search/agent.h"
#include "core/search/search_run.h"
#include "core/search/search_spec.h"

#include <limits>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

namespace astrolabe::search {

struct Record {
    uint64_t index = 0;
    Point point;
    EvalResult::Status status = EvalResult::Status::Ok;
    std::string reason;
    int64_t step_time_ns = 0;
    double network_cost = std::numeric_limits<double>::quiet_NaN();
    double objective = std::numeric_limits<double>::quiet_NaN();
    bool ok() const { return status == EvalResult::Status::Ok; }
};

// A point of the proposal being processed: settled (a record or a repeat) or waiting for a simulation.
struct Slot {
    Point point;
    enum class Kind { New, Repeat, Dropped } kind = Kind::New;
    bool waiting = false; // needs a simulation
    Record record;
    nlohmann::json scenario;
    double repeat_fitness = 0;
};

struct SearchRun::Impl {
    SearchSpec spec;
    SearchOptions options;
    std::unique_ptr<Agent> agent; // null for stdio
    SearchSpace space;

    std::vector<Record> log;                    // in evaluation order
    std::map<Point, size_t> seen;               // point -> index into log
    std::map<std::string, EvalResult> previous; // point key -> result from an earlier log
    SearchCounts counts;
    std::vector<std::string> pending_lines;

    std::vector<Slot> slots; // the current proposal
    bool in_flight = false;  // slots wait for complete_batch
    int stalls = 0;          // proposals in a row that brought no new point
    bool stopped = false;
    std::string stop_reason;
    std::vector<std::string> stdio_queue; // scenarios of the submitted points to simulate
    std::vector<std::string> answers;     // stdio: one line per submitted point

    // Point <-> text.
    std::string key(const Point& p) const;
    nlohmann::json scenario_of(const Point& p) const;
    bool feasible(const nlohmann::json& scenario, std::string& reason) const;
    void fill_metrics(Record& r, const nlohmann::json& scenario) const;
    double fitness(const Record& r) const;
    std::string line(const Record& r) const;
    const Record* best() const;
};

// Shortest round-trip text of a double (nlohmann's), "null" for NaN.
std::string number_text(double v);

} // namespace astrolabe::search

namespace astrolabe::search {
// Indices (into the log) of the ok points on the Pareto front of (step time, network cost), cost ascending.
std::vector<size_t> pareto_indices(const std::vector<Record>& log);
} // namespace astrolabe::search

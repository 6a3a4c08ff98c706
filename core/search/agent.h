// Search agents: they propose design points in batches and learn from the results.
//
// A point is one value index per knob. Agents never see scenarios or simulations: the driver (search_run.h)
// turns points into scenarios, answers repeated points from memory, and hands back a fitness per point
// (lower is better; +infinity for an infeasible or failed point). Batches have a size fixed by the agent's
// parameters, never by the number of workers, so a search is the same whatever --jobs or MPI ranks it runs
// on. Every agent draws its randomness from its own Rng seeded by --seed. docs/search.md lists the
// parameters.
#pragma once

#include "core/base/status.h"

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace astrolabe::search {

using Point = std::vector<uint32_t>;

struct SearchSpace {
    std::vector<uint32_t> sizes;                     // values per knob
    std::vector<std::vector<double>> numeric_values; // per knob: its values when all are numbers, else empty
    // True when the point satisfies the constraints (checked without simulating).
    std::function<bool(const Point&)> feasible;
    // True when the point has already been evaluated in this search.
    std::function<bool(const Point&)> seen;
    double size() const; // number of points (a double: spaces reach 1e13 and beyond)
};

class Agent {
public:
    virtual ~Agent() = default;
    // The next batch of points; empty when the agent has nothing more to propose.
    virtual std::vector<Point> propose() = 0;
    // The results of (a prefix of) the last batch, in its order.
    virtual void observe(const std::vector<Point>& points, const std::vector<double>& fitness) = 0;
};

using AgentParams = std::map<std::string, double>;

// The agents by name: grid, random, ga, aco, bo. Unknown names or parameters are errors naming them.
Result<std::unique_ptr<Agent>> make_agent(const std::string& name, const SearchSpace& space,
                                          const AgentParams& params, uint64_t seed);

// The agent names make_agent knows, for messages.
const std::vector<std::string>& agent_names();

} // namespace astrolabe::search

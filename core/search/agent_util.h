// Helpers the agents share: reading parameters with defaults, drawing fresh feasible points.
#pragma once

#include "core/search/agent.h"
#include "core/search/rng.h"

#include <set>

namespace astrolabe::search {

// Reads an agent's parameters; a name it does not know is an error listing the ones it does.
class ParamReader {
public:
    ParamReader(std::string agent, const AgentParams& params) : agent_(std::move(agent)), params_(params) {}
    double get(const std::string& name, double fallback, double min, double max);
    Status finish(); // unknown names and out-of-range values

private:
    std::string agent_;
    const AgentParams& params_;
    std::set<std::string> known_;
    Status problems_;
};

Point random_point(const SearchSpace& space, Rng& rng);

// A uniformly drawn point that is feasible, not yet evaluated and not in `taken`; up to `tries` draws.
// False when none was found.
bool draw_fresh(const SearchSpace& space, Rng& rng, const std::set<Point>& taken, int tries, Point& out);

// True when p is feasible, unseen and not taken.
bool fresh(const SearchSpace& space, const std::set<Point>& taken, const Point& p);

// Appends fresh uniform draws to `out`, each also put in `taken`, until `out` holds `want` points or a
// point could not be found in 1000 draws.
void add_random(const SearchSpace& space, Rng& rng, std::set<Point>& taken, size_t want,
                std::vector<Point>& out);

// Appends points to `out`, each also put in `taken`, until it holds `want`: the first fresh one of up to 50
// calls of `make()` (an ant's walk, a child bred), else a fresh uniform draw; stops when neither is found.
template <class Make>
void add_made(const SearchSpace& space, Rng& rng, std::set<Point>& taken, size_t want,
              std::vector<Point>& out, Make make) {
    while (out.size() < want) {
        Point p;
        bool found = false;
        for (int t = 0; t < 50 && !found; ++t) {
            Point made = make();
            if (fresh(space, taken, made)) {
                p = std::move(made);
                found = true;
            }
        }
        if (!found && !draw_fresh(space, rng, taken, 1000, p)) break;
        taken.insert(p);
        out.push_back(std::move(p));
    }
}

std::unique_ptr<Agent> make_grid_agent(const SearchSpace& space, ParamReader& params, Status& problems);
std::unique_ptr<Agent> make_random_agent(const SearchSpace& space, ParamReader& params, uint64_t seed);
std::unique_ptr<Agent> make_ga_agent(const SearchSpace& space, ParamReader& params, uint64_t seed);
std::unique_ptr<Agent> make_aco_agent(const SearchSpace& space, ParamReader& params, uint64_t seed);
std::unique_ptr<Agent> make_bo_agent(const SearchSpace& space, ParamReader& params, uint64_t seed);

} // namespace astrolabe::search

// The agent registry, shared helpers, and the two simplest agents: grid and random.
//
// [SECTION] Helpers
// [SECTION] Grid
// [SECTION] Random
// [SECTION] Registry
#include "core/search/agent.h"

#include "core/search/agent_util.h"

#include <cmath>
#include <cstdio>

namespace astrolabe::search {

// [SECTION] Helpers

double SearchSpace::size() const {
    double n = 1;
    for (uint32_t s : sizes)
        n *= s;
    return n;
}

double ParamReader::get(const std::string& name, double fallback, double min, double max) {
    known_.insert(name);
    auto it = params_.find(name);
    if (it == params_.end()) return fallback;
    if (!(it->second >= min && it->second <= max)) {
        char buf[160];
        std::snprintf(buf, sizeof buf, "agents.%s.%s: %g is out of range [%g, %g]", agent_.c_str(),
                      name.c_str(), it->second, min, max);
        problems_.add(buf);
        return fallback;
    }
    return it->second;
}

Status ParamReader::finish() {
    for (const auto& p : params_)
        if (!known_.count(p.first)) {
            std::string list;
            for (const auto& k : known_)
                list += (list.empty() ? "" : ", ") + k;
            problems_.add("agents." + agent_ + "." + p.first + ": unknown parameter (" + agent_ + " has " +
                          (list.empty() ? "none" : list) + ")");
        }
    return problems_;
}

Point random_point(const SearchSpace& space, Rng& rng) {
    Point p(space.sizes.size());
    for (size_t k = 0; k < p.size(); ++k)
        p[k] = static_cast<uint32_t>(rng.below(space.sizes[k]));
    return p;
}

bool fresh(const SearchSpace& space, const std::set<Point>& taken, const Point& p) {
    return !taken.count(p) && !space.seen(p) && space.feasible(p);
}

bool draw_fresh(const SearchSpace& space, Rng& rng, const std::set<Point>& taken, int tries, Point& out) {
    for (int t = 0; t < tries; ++t) {
        Point p = random_point(space, rng);
        if (fresh(space, taken, p)) {
            out = std::move(p);
            return true;
        }
    }
    return false;
}

void add_random(const SearchSpace& space, Rng& rng, std::set<Point>& taken, size_t want,
                std::vector<Point>& out) {
    Point p;
    while (out.size() < want && draw_fresh(space, rng, taken, 1000, p)) {
        taken.insert(p);
        out.push_back(p);
    }
}

// [SECTION] Grid

namespace {

// Every feasible point in order (the first knob varies slowest, as nested loops in spec order would).
class GridAgent final : public Agent {
public:
    GridAgent(const SearchSpace& space, size_t batch)
        : space_(space), batch_(batch), next_(space.sizes.size(), 0) {}
    std::vector<Point> propose() override {
        std::vector<Point> out;
        while (!done_ && out.size() < batch_) {
            if (!space_.seen(next_) && space_.feasible(next_)) out.push_back(next_);
            advance();
        }
        return out;
    }
    void observe(const std::vector<Point>&, const std::vector<double>&) override {}

private:
    void advance() {
        for (size_t k = next_.size(); k-- > 0;) {
            if (++next_[k] < space_.sizes[k]) return;
            next_[k] = 0;
        }
        done_ = true;
    }
    SearchSpace space_;
    size_t batch_;
    Point next_;
    bool done_ = false;
};

// [SECTION] Random

// COSMIC's random walker: independent uniform draws over the feasible, not yet evaluated points.
class RandomAgent final : public Agent {
public:
    RandomAgent(const SearchSpace& space, size_t batch, uint64_t seed)
        : space_(space), batch_(batch), rng_(seed) {}
    std::vector<Point> propose() override {
        std::vector<Point> out;
        std::set<Point> taken;
        add_random(space_, rng_, taken, batch_, out);
        return out;
    }
    void observe(const std::vector<Point>&, const std::vector<double>&) override {}

private:
    SearchSpace space_;
    size_t batch_;
    Rng rng_;
};

} // namespace

std::unique_ptr<Agent> make_grid_agent(const SearchSpace& space, ParamReader& params, Status& problems) {
    double limit = params.get("limit", 1e6, 1, 1e12);
    size_t batch = static_cast<size_t>(params.get("batch", 32, 1, 4096));
    if (space.size() > limit) {
        char buf[200];
        std::snprintf(
            buf, sizeof buf,
            "agent grid: the space has %.4g points, more than the limit of %.4g (agents.grid.limit); "
            "use random, ga, aco or bo",
            space.size(), limit);
        problems.add(buf);
    }
    return std::make_unique<GridAgent>(space, batch);
}

std::unique_ptr<Agent> make_random_agent(const SearchSpace& space, ParamReader& params, uint64_t seed) {
    size_t batch = static_cast<size_t>(params.get("batch", 32, 1, 4096));
    return std::make_unique<RandomAgent>(space, batch, seed);
}

// [SECTION] Registry

const std::vector<std::string>& agent_names() {
    static const std::vector<std::string> kNames = {"grid", "random", "ga", "aco", "bo"};
    return kNames;
}

Result<std::unique_ptr<Agent>> make_agent(const std::string& name, const SearchSpace& space,
                                          const AgentParams& params, uint64_t seed) {
    ParamReader reader(name, params);
    Status problems;
    std::unique_ptr<Agent> agent;
    if (name == "grid")
        agent = make_grid_agent(space, reader, problems);
    else if (name == "random")
        agent = make_random_agent(space, reader, seed);
    else if (name == "ga")
        agent = make_ga_agent(space, reader, seed);
    else if (name == "aco")
        agent = make_aco_agent(space, reader, seed);
    else if (name == "bo")
        agent = make_bo_agent(space, reader, seed);
    else
        return Status::error("--agent: '" + name + "'; grid, random, ga, aco, bo or stdio was expected");
    problems.merge(reader.finish());
    if (!problems.is_ok()) return problems;
    return agent;
}

} // namespace astrolabe::search

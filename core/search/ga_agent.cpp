// The genetic algorithm agent: a (mu + lambda) evolution over knob-value genomes.
//
// Each generation (one batch) breeds `population` children from the best `population` points seen so far:
// two binary tournaments pick the parents, uniform crossover (with probability `crossover`) mixes their
// genes, and each gene mutates with probability `mutation` (default 1 / knobs): a numeric knob steps to a
// neighbouring value, any other knob takes a random value. A child that breaks a constraint or repeats an
// evaluated point is bred again (up to 50 tries), then replaced by a random fresh point. Parents are
// kept by the (mu + lambda) selection, not re-evaluated, so elites are never lost.
#include "core/search/agent_util.h"

#include <algorithm>
#include <cmath>

namespace astrolabe::search {

namespace {

class GaAgent final : public Agent {
public:
    GaAgent(const SearchSpace& space, size_t population, double crossover, double mutation, uint64_t seed)
        : space_(space), population_(population), crossover_(crossover), mutation_(mutation), rng_(seed) {}

    std::vector<Point> propose() override {
        std::vector<Point> out;
        std::set<Point> taken;
        if (pool_.size() < 2) {
            // The first generation, or nothing has worked yet: random fresh points.
            add_random(space_, rng_, taken, population_, out);
            return out;
        }
        add_made(space_, rng_, taken, population_, out, [&] { return breed(); });
        return out;
    }

    void observe(const std::vector<Point>& points, const std::vector<double>& fitness) override {
        for (size_t i = 0; i < points.size(); ++i)
            if (std::isfinite(fitness[i])) pool_.push_back({fitness[i], points[i]});
        // (mu + lambda): keep the best `population` distinct points; ties by point for a fixed order.
        std::sort(pool_.begin(), pool_.end());
        pool_.erase(std::unique(pool_.begin(), pool_.end(),
                                [](const auto& a, const auto& b) { return a.second == b.second; }),
                    pool_.end());
        if (pool_.size() > population_) pool_.resize(population_);
    }

private:
    const Point& tournament() {
        size_t a = rng_.below(pool_.size()), b = rng_.below(pool_.size());
        return pool_[std::min(a, b)].second; // the pool is sorted: the lower index is the fitter
    }
    Point breed() {
        const Point& x = tournament();
        const Point& y = tournament();
        Point child = x;
        if (rng_.uniform() < crossover_)
            for (size_t k = 0; k < child.size(); ++k)
                if (rng_.next() & 1) child[k] = y[k];
        for (size_t k = 0; k < child.size(); ++k) {
            if (rng_.uniform() >= mutation_ || space_.sizes[k] < 2) continue;
            if (!space_.numeric_values[k].empty() && rng_.uniform() < 0.5) {
                // A step to a neighbouring value of an ordered knob.
                if (child[k] == 0)
                    child[k] = 1;
                else if (child[k] + 1 == space_.sizes[k])
                    child[k] -= 1;
                else
                    child[k] += (rng_.next() & 1) ? 1 : -1;
            } else {
                child[k] = static_cast<uint32_t>(rng_.below(space_.sizes[k]));
            }
        }
        return child;
    }

    SearchSpace space_;
    size_t population_;
    double crossover_, mutation_;
    Rng rng_;
    std::vector<std::pair<double, Point>> pool_; // sorted by fitness
};

} // namespace

std::unique_ptr<Agent> make_ga_agent(const SearchSpace& space, ParamReader& params, uint64_t seed) {
    size_t population = static_cast<size_t>(params.get("population", 8, 2, 4096));
    double crossover = params.get("crossover", 0.9, 0, 1);
    double mutation = params.get("mutation", 1.0 / std::max<size_t>(1, space.sizes.size()), 0, 1);
    return std::make_unique<GaAgent>(space, population, crossover, mutation, seed);
}

} // namespace astrolabe::search

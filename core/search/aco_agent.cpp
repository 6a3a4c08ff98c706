// The ant colony agent (MAX-MIN ant system over knob values).
//
// Every knob value carries a pheromone level (initially tau_max). Each ant (one point of a batch of
// `ants`) picks each knob's value with probability proportional to its pheromone. After a batch, all
// pheromone evaporates by `evaporation`, then the values of the batch's best ant and of the best point so
// far each gain `deposit`; levels are kept within [tau_min, tau_max] = [0.05, 1] so no value is ever
// ruled out. Ants that break a constraint or repeat an evaluated point walk again (up to 50 tries), then a
// random fresh point stands in.
#include "core/search/agent_util.h"

#include <algorithm>
#include <cmath>

namespace astrolabe::search {

namespace {

constexpr double kTauMin = 0.05, kTauMax = 1.0;

class AcoAgent final : public Agent {
public:
    AcoAgent(const SearchSpace& space, size_t ants, double evaporation, double deposit, uint64_t seed)
        : space_(space), ants_(ants), evaporation_(evaporation), deposit_(deposit), rng_(seed) {
        for (uint32_t n : space.sizes)
            tau_.emplace_back(n, kTauMax);
    }

    std::vector<Point> propose() override {
        std::vector<Point> out;
        std::set<Point> taken;
        add_made(space_, rng_, taken, ants_, out, [&] { return walk_once(); });
        return out;
    }

    void observe(const std::vector<Point>& points, const std::vector<double>& fitness) override {
        const Point* batch_best = nullptr;
        double batch_f = INFINITY;
        for (size_t i = 0; i < points.size(); ++i) {
            if (fitness[i] < batch_f) {
                batch_f = fitness[i];
                batch_best = &points[i];
            }
            if (fitness[i] < best_f_) {
                best_f_ = fitness[i];
                best_ = points[i];
            }
        }
        for (auto& knob : tau_)
            for (double& t : knob)
                t *= 1 - evaporation_;
        auto lay = [&](const Point& p) {
            for (size_t k = 0; k < p.size(); ++k)
                tau_[k][p[k]] += deposit_;
        };
        if (batch_best) lay(*batch_best);
        if (!best_.empty()) lay(best_);
        for (auto& knob : tau_)
            for (double& t : knob)
                t = std::min(kTauMax, std::max(kTauMin, t));
    }

private:
    Point walk_once() {
        Point p(tau_.size());
        for (size_t k = 0; k < tau_.size(); ++k) {
            double total = 0;
            for (double t : tau_[k])
                total += t;
            double r = rng_.uniform() * total;
            uint32_t v = 0;
            for (; v + 1 < tau_[k].size() && r >= tau_[k][v]; ++v)
                r -= tau_[k][v];
            p[k] = v;
        }
        return p;
    }

    SearchSpace space_;
    size_t ants_;
    double evaporation_, deposit_;
    Rng rng_;
    std::vector<std::vector<double>> tau_;
    Point best_;
    double best_f_ = INFINITY;
};

} // namespace

std::unique_ptr<Agent> make_aco_agent(const SearchSpace& space, ParamReader& params, uint64_t seed) {
    size_t ants = static_cast<size_t>(params.get("ants", 8, 1, 4096));
    double evaporation = params.get("evaporation", 0.5, 0, 1);
    double deposit = params.get("deposit", 0.3, 0, 1);
    return std::make_unique<AcoAgent>(space, ants, evaporation, deposit, seed);
}

} // namespace astrolabe::search

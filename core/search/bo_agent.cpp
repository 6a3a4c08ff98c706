// The Bayesian-optimisation agent: a Gaussian-process surrogate of log(objective) with expected
// improvement (gp.h).
//
// Points are encoded in [0, 1]^d: an ordered (numeric) knob as its value's rank / (values - 1), any other
// knob one-hot scaled by 1/sqrt(2) (so two different categories are as far apart as the ends of an
// ordered knob). The first `init` points are random. Then each batch: fit the GP on the evaluated points
// (at most `max_train`: the best half and the most recent half), score `candidates` random fresh feasible
// points plus every single-knob neighbour of the 3 best points by expected improvement (margin `xi`, in
// log units), take the best, pretend it scored its predicted mean (the "kriging believer") and repeat
// until the batch of `batch` points is full. Failed points are never re-proposed but not modelled.
#include "core/search/agent_util.h"
#include "core/search/gp.h"

#include <algorithm>
#include <cmath>

namespace astrolabe::search {

namespace {

class BoAgent final : public Agent {
public:
    BoAgent(const SearchSpace& space, size_t init, size_t batch, size_t candidates, size_t max_train,
            double xi, uint64_t seed)
        : space_(space), init_(init), batch_(batch), candidates_(candidates), max_train_(max_train), xi_(xi),
          rng_(seed) {
        // Ranks of numeric values, so unsorted value lists still encode in order.
        for (size_t k = 0; k < space.sizes.size(); ++k) {
            std::vector<double> pos(space.sizes[k], 0);
            const auto& nums = space.numeric_values[k];
            if (!nums.empty())
                for (size_t v = 0; v < nums.size(); ++v) {
                    size_t rank = 0;
                    for (double o : nums)
                        rank += o < nums[v];
                    pos[v] = nums.size() > 1 ? double(rank) / double(nums.size() - 1) : 0;
                }
            rank_.push_back(std::move(pos));
        }
    }

    std::vector<Point> propose() override {
        std::vector<Point> out;
        std::set<Point> taken;
        if (proposed_random_ < init_ || xs_.size() < 2) {
            // The initial design (or too few successes to model): random fresh points.
            size_t want = proposed_random_ < init_ ? init_ - proposed_random_ : batch_;
            add_random(space_, rng_, taken, want, out);
            proposed_random_ += out.size();
            return out;
        }
        // The training set: all points, or the best and the most recent halves of max_train.
        std::vector<std::vector<double>> x;
        std::vector<double> y;
        std::vector<size_t> order(xs_.size());
        for (size_t i = 0; i < order.size(); ++i)
            order[i] = i;
        if (order.size() > max_train_) {
            std::vector<size_t> by_y = order;
            std::stable_sort(by_y.begin(), by_y.end(), [&](size_t a, size_t b) { return ys_[a] < ys_[b]; });
            std::set<size_t> keep(by_y.begin(), by_y.begin() + long(max_train_ / 2));
            for (size_t i = order.size(); i-- > 0 && keep.size() < max_train_;)
                keep.insert(i);
            order.assign(keep.begin(), keep.end());
        }
        for (size_t i : order) {
            x.push_back(encode(pts_[i]));
            y.push_back(ys_[i]);
        }
        GaussianProcess gp;
        if (!gp.fit(x, y)) return random_batch(taken);
        double best = *std::min_element(ys_.begin(), ys_.end());

        std::vector<Point> cand = candidates(taken);
        std::vector<std::vector<double>> enc;
        for (const auto& c : cand)
            enc.push_back(encode(c));
        std::vector<bool> used(cand.size(), false);
        while (out.size() < batch_) {
            size_t pick = cand.size();
            double pick_ei = -1, pick_mean = 0;
            for (size_t i = 0; i < cand.size(); ++i) {
                if (used[i]) continue;
                double m, s;
                gp.predict(enc[i], m, s);
                double ei = expected_improvement(m, s, best, xi_);
                if (ei > pick_ei) {
                    pick_ei = ei;
                    pick = i;
                    pick_mean = m;
                }
            }
            if (pick == cand.size()) break;
            used[pick] = true;
            out.push_back(cand[pick]);
            if (out.size() < batch_) {
                x.push_back(enc[pick]);
                y.push_back(pick_mean);
                if (!gp.fit(x, y, false)) break;
            }
        }
        return out;
    }

    void observe(const std::vector<Point>& points, const std::vector<double>& fitness) override {
        for (size_t i = 0; i < points.size(); ++i) {
            if (!std::isfinite(fitness[i]) || fitness[i] <= 0 || modelled_.count(points[i])) continue;
            modelled_.insert(points[i]);
            pts_.push_back(points[i]);
            ys_.push_back(std::log(fitness[i]));
            xs_.push_back(encode(points[i]));
        }
    }

private:
    std::vector<double> encode(const Point& p) const {
        std::vector<double> e;
        for (size_t k = 0; k < p.size(); ++k) {
            if (!space_.numeric_values[k].empty()) {
                e.push_back(rank_[k][p[k]]);
            } else {
                for (uint32_t v = 0; v < space_.sizes[k]; ++v)
                    e.push_back(v == p[k] ? std::sqrt(0.5) : 0);
            }
        }
        return e;
    }

    std::vector<Point> candidates(std::set<Point>& taken) {
        std::vector<Point> out;
        std::set<Point> in;
        Point p;
        for (size_t i = 0; i < candidates_ && draw_fresh(space_, rng_, in, 100, p); ++i) {
            in.insert(p);
            out.push_back(p);
        }
        // Every single-knob move from the 3 best points: local refinement the random pool may miss.
        std::vector<size_t> best(ys_.size());
        for (size_t i = 0; i < best.size(); ++i)
            best[i] = i;
        std::stable_sort(best.begin(), best.end(), [&](size_t a, size_t b) { return ys_[a] < ys_[b]; });
        for (size_t b = 0; b < std::min<size_t>(3, best.size()); ++b)
            for (size_t k = 0; k < space_.sizes.size(); ++k)
                for (uint32_t v = 0; v < space_.sizes[k]; ++v) {
                    Point q = pts_[best[b]];
                    if (q[k] == v) continue;
                    q[k] = v;
                    if (fresh(space_, in, q)) {
                        in.insert(q);
                        out.push_back(q);
                    }
                }
        (void)taken;
        return out;
    }

    std::vector<Point> random_batch(std::set<Point>& taken) {
        std::vector<Point> out;
        add_random(space_, rng_, taken, batch_, out);
        return out;
    }

    SearchSpace space_;
    size_t init_, batch_, candidates_, max_train_;
    double xi_;
    Rng rng_;
    std::vector<std::vector<double>> rank_;
    std::vector<Point> pts_;
    std::vector<std::vector<double>> xs_;
    std::vector<double> ys_;
    std::set<Point> modelled_;
    size_t proposed_random_ = 0;
};

} // namespace

std::unique_ptr<Agent> make_bo_agent(const SearchSpace& space, ParamReader& params, uint64_t seed) {
    size_t init = static_cast<size_t>(params.get("init", 10, 2, 4096));
    size_t batch = static_cast<size_t>(params.get("batch", 4, 1, 256));
    size_t candidates = static_cast<size_t>(params.get("candidates", 500, 10, 100000));
    size_t max_train = static_cast<size_t>(params.get("max_train", 256, 8, 2048));
    double xi = params.get("xi", 0.01, 0, 10);
    return std::make_unique<BoAgent>(space, init, batch, candidates, max_train, xi, seed);
}

} // namespace astrolabe::search

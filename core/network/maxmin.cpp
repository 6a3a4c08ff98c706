#include "core/network/maxmin.h"

#include "core/base/assert.h"

#include <algorithm>
#include <limits>

namespace astrolabe {

const std::vector<double>& MaxMinSolver::solve(const MaxMinProblem& p) {
    const uint32_t links = p.links(), flows = p.flows();
    constexpr double kInf = std::numeric_limits<double>::infinity();
    rate_.assign(flows, kInf);
    fixed_.assign(flows, 0);
    left_.resize(links);
    // Each link's flows (one entry per crossing), by counting sort over the routes.
    unfixed_.assign(links, 0);
    for (uint32_t f = 0; f < flows; ++f)
        for (const uint32_t* l = p.route_begin(f); l != p.route_end(f); ++l)
            ++unfixed_[*l];
    flows_begin_.assign(links + 1, 0);
    for (uint32_t l = 0; l < links; ++l)
        flows_begin_[l + 1] = flows_begin_[l] + unfixed_[l];
    flows_of_.resize(flows_begin_[links]);
    fill_.assign(flows_begin_.begin(), flows_begin_.end() - 1);
    for (uint32_t f = 0; f < flows; ++f)
        for (const uint32_t* l = p.route_begin(f); l != p.route_end(f); ++l)
            flows_of_[fill_[*l]++] = f;
    for (uint32_t l = 0; l < links; ++l)
        left_[l] = p.capacity(l);

    // Progressive filling (see the header).
    while (true) {
        double best = kInf;
        for (uint32_t l = 0; l < links; ++l)
            if (unfixed_[l] > 0) best = std::min(best, std::max(0.0, left_[l]) / unfixed_[l]);
        if (best == kInf) break;
        best = std::max(best, p.min_share);
        const double limit = best * (1 + 1e-12);
        uint32_t fixed_now = 0;
        for (uint32_t l = 0; l < links; ++l) {
            if (unfixed_[l] == 0 || std::max(0.0, left_[l]) / unfixed_[l] > limit) continue;
            for (uint32_t k = flows_begin_[l]; k < flows_begin_[l + 1]; ++k) {
                uint32_t f = flows_of_[k];
                if (fixed_[f]) continue;
                fixed_[f] = 1;
                rate_[f] = best;
                ++fixed_now;
                for (const uint32_t* m = p.route_begin(f); m != p.route_end(f); ++m) {
                    left_[*m] -= best;
                    --unfixed_[*m];
                }
            }
        }
        // The link that set `best` always qualifies; a round without progress would loop for ever.
        SIM_ASSERT(fixed_now > 0, "max-min solver: a round fixed no flow");
    }
    return rate_;
}

std::vector<double> maxmin_rates(const MaxMinProblem& p) {
    MaxMinSolver solver;
    return solver.solve(p);
}

} // namespace astrolabe

#include "core/compute/systolic.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace astrolabe {

namespace {

constexpr uint64_t kMax = std::numeric_limits<uint64_t>::max();

// Saturating arithmetic: shapes come from traces, and a absurd one must give a huge time, not a wrapped one.
uint64_t mul_sat(uint64_t a, uint64_t b) {
    if (a != 0 && b > kMax / a) return kMax;
    return a * b;
}
uint64_t add_sat(uint64_t a, uint64_t b) {
    return b > kMax - a ? kMax : a + b;
}
uint64_t ceil_div(uint64_t a, uint64_t b) {
    return a / b + (a % b != 0 ? 1 : 0);
}

} // namespace

SystolicResult systolic_gemm(const SystolicArray& a, const Gemm& g) {
    SystolicResult r;
    if (g.m == 0 || g.n == 0 || g.k == 0 || g.batch == 0 || a.rows == 0 || a.cols == 0) return r;
    const uint64_t R = a.rows, C = a.cols;
    // (Sr, Sc, T) per the table in the header.
    uint64_t sr = 0, sc = 0, t = 0;
    switch (a.dataflow) {
    case Dataflow::OutputStationary:
        sr = g.m, sc = g.n, t = g.k;
        break;
    case Dataflow::WeightStationary:
        sr = g.k, sc = g.n, t = g.m;
        break;
    case Dataflow::InputStationary:
        sr = g.k, sc = g.m, t = g.n;
        break;
    }
    const uint64_t row_folds = ceil_div(sr, R), col_folds = ceil_div(sc, C);
    r.folds = mul_sat(row_folds, col_folds);
    // os: T + R + C - 2; ws/is: 2R + C + T - 2 (R of them preload the stationary operand).
    const uint64_t fill = a.dataflow == Dataflow::OutputStationary ? R + C - 2 : 2 * R + C - 2;
    r.cycles_per_fold = add_sat(t, fill);
    const uint64_t one = mul_sat(r.folds, r.cycles_per_fold);
    r.total_cycles = one - 1;
    r.cycles = mul_sat(one, g.batch);

    const double pes = static_cast<double>(R) * static_cast<double>(C);
    const double macs_one = static_cast<double>(g.m) * static_cast<double>(g.n) * static_cast<double>(g.k);
    r.macs = macs_one * static_cast<double>(g.batch);
    // SCALE-Sim divides by its reported total (the last cycle's index). A one-cycle GEMM (1x1x1 on a 1x1
    // array) reports 0 there; it is fully used.
    r.utilization_pct =
        r.total_cycles == 0 ? 100.0 : 100.0 * macs_one / (static_cast<double>(r.total_cycles) * pes);
    const double mapped = static_cast<double>(sr) * static_cast<double>(sc);
    const double eff = mapped / (pes * static_cast<double>(row_folds) * static_cast<double>(col_folds));
    r.mapping_efficiency_pct = 100.0 * eff;
    const double pu = a.dataflow == Dataflow::OutputStationary
                          ? static_cast<double>(r.cycles_per_fold)
                          : static_cast<double>(2 * R + 2 * C - 3) + static_cast<double>(t);
    r.compute_utilization_pct = 100.0 * eff * static_cast<double>(t) / pu;
    return r;
}

TimeNs systolic_time_ns(uint64_t cycles, double clock_ghz) {
    if (cycles == 0) return 0;
    // Rounded up, except that a quotient within floating-point noise of a whole number is that number
    // (21 cycles at 0.7 GHz are 30 ns, though 21 / 0.7 evaluates to 30.000000000000004).
    double exact = static_cast<double>(cycles) / clock_ghz;
    double nearest = std::nearbyint(exact);
    double ns = std::fabs(exact - nearest) <= 1e-9 * std::max(1.0, nearest) ? nearest : std::ceil(exact);
    return time_from_ns(ns);
}

} // namespace astrolabe

// Fitting net_efficiency to a measured table (measured_fit.h).
#include "core/session/measured_fit.h"

#include "core/base/json_writer.h"
#include "core/hardware/nccl_model.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace astrolabe {

namespace {

// One row the fit reads: its size, measured time and the protocol of its ring (NCCL's pick, which the
// fraction does not change: choose()).
struct FitRow {
    uint64_t size;
    double measured_us;
    config::NcclProto proto;
};

// Mean |ln(estimate / measured)| over `rows` with the description's net_efficiency at `fraction`: the
// tuner's closed form for each row's ring, which is the engine's time (collective-perf's ring rows equal
// it within 1e-4, nccl_model_test), so the search costs microseconds per candidate instead of a run of
// every row.
double estimate_misfit(const config::HardwareConfig& sys, hardware::CollOp op,
                       const std::vector<FitRow>& rows, double fraction) {
    config::HardwareConfig hw = sys;
    hw.net_efficiency = fraction;
    double sum = 0;
    for (const FitRow& r : rows)
        sum += std::fabs(
            std::log(hardware::estimate(hw, op, r.size, config::NcclAlgo::Ring, r.proto).predicted_us /
                     r.measured_us));
    return sum / double(rows.size());
}

// ln(time / measured) of each of `rows` run through the engine at `fraction` (the errors reported).
Status engine_ratios(const CollectivePerfRequest& run, const std::vector<FitRow>& rows, double fraction,
                     std::vector<double>& out) {
    CollectivePerfRequest req = run;
    req.hardware.net_efficiency = fraction;
    req.sizes.clear();
    for (const FitRow& r : rows)
        req.sizes.push_back(r.size);
    auto ran = run_collective_perf(req);
    if (!ran) return ran.status();
    for (size_t i = 0; i < ran.value().size(); ++i)
        out.push_back(std::log(ran.value()[i].time_us / rows[i].measured_us));
    return Status::ok();
}

} // namespace

Result<NetEfficiencyFit> fit_net_efficiency(const CollectivePerfRequest& run,
                                            const hardware::MeasuredTable& table, const std::string& source) {
    if (run.op == hardware::CollOp::AllToAll)
        return Status::error(source + ": all_to_all runs point-to-point, which keeps the fabric's line-rate "
                                      "fraction; --fit reads all_reduce, all_gather or reduce_scatter");
    if (run.hardware.nodes < 2)
        return Status::error(source + ": the system is one node; net_efficiency is the network's, which the "
                                      "table never crosses");
    NetEfficiencyFit fit;
    fit.previous = run.hardware.net_efficiency > 0 ? run.hardware.net_efficiency
                                                   : hardware::fabric_efficiency(run.hardware.fabric);
    // The rows run as rings whose time is mostly bandwidth (NCCL's pick does not depend on the fraction,
    // choose()). A ring's bus bandwidth is the slower of NVLink's ring rate and the node's NICs, so its
    // measured rate either shows the NICs' fraction or says it is above NVLink's; a tree's or
    // NVLS-tree's does not tell the NICs from NVLink SHARP on two nodes (a 2-node tree can carry up to
    // twice the NICs' rate), and a fit on them reads noise as a fraction (0.655 on the bitdeer table,
    // where its rows fit 1.6 % as described).
    const config::HardwareConfig sys = collective_perf_system(run);
    std::vector<FitRow> rows;
    for (size_t i = 0; i < run.sizes.size() && i < table.rows.size(); ++i) {
        if (table.rows[i].time_us <= 0) continue;
        const hardware::NcclChoice c = hardware::choose(sys, run.op, run.sizes[i], run.algo);
        if (c.algo != config::NcclAlgo::Ring || c.predicted_us <= 0) continue;
        if (c.predicted_us - c.latency_us < kFitBandwidthShare * c.predicted_us) continue;
        rows.push_back({run.sizes[i], table.rows[i].time_us, c.proto});
        fit.sizes.push_back(run.sizes[i]);
    }
    if (fit.sizes.size() < 2)
        return Status::error(
            source + ": " + std::to_string(fit.sizes.size()) +
            " of its rows run as rings spending most of their time moving bytes; at least 2 are needed to "
            "fit net_efficiency. Measure up to larger sizes (-e 16G) with rings (NCCL_ALGO=Ring, and "
            "nccl_algo: ring in the description): a tree's or NVLS-tree's rows can be held back by NVLink "
            "or exceed the NICs' rate on two nodes, so they do not show it");
    // Golden-section search: the misfit falls while the NICs are too slow and rises once they are too fast
    // (or stays flat where another limit takes over), one minimum in between.
    auto misfit = [&](double f) { return estimate_misfit(sys, run.op, rows, f); };
    const double phi = (std::sqrt(5.0) - 1) / 2;
    double a = 0.05, b = 1.0;
    double c = b - phi * (b - a), d = a + phi * (b - a);
    double fc = misfit(c), fd = misfit(d);
    for (int it = 0; it < 40; ++it) {
        if (fc <= fd) {
            b = d, d = c, fd = fc;
            c = b - phi * (b - a);
            fc = misfit(c);
        } else {
            a = c, c = d, fc = fd;
            d = a + phi * (b - a);
            fd = misfit(d);
        }
    }
    fit.fitted = std::clamp(std::round((a + b) / 2 * 1000) / 1000, 0.05, 1.0);
    // Where another limit holds the rows back (NVLink, beyond some fraction), a range of fractions fits
    // equally: the description's own is kept when it is as good as the search's.
    if (misfit(fit.previous) <= misfit(fit.fitted) + 1e-12) fit.fitted = fit.previous;
    std::vector<double> before, after;
    if (Status st = engine_ratios(run, rows, fit.previous, before); !st.is_ok()) return st;
    if (Status st = engine_ratios(run, rows, fit.fitted, after); !st.is_ok()) return st;
    fit.before = measured_error(before);
    fit.after = measured_error(after);
    fit.hardware = run.hardware;
    fit.hardware.net_efficiency = fit.fitted;
    return fit;
}

void fit_json(JsonWriter& w, const NetEfficiencyFit& fit) {
    w.key("fit").begin_object();
    w.field("net_efficiency", fit.fitted);
    w.field("previous", fit.previous);
    w.key("sizes").begin_array();
    for (uint64_t s : fit.sizes)
        w.value(s);
    w.end_array();
    measured_error_json(w, "before", fit.before);
    measured_error_json(w, "after", fit.after);
    w.end_object();
}

std::string fit_summary(const NetEfficiencyFit& fit, const std::string& written_to) {
    char line[512];
    std::string out;
    std::snprintf(
        line, sizeof line,
        "# fitted net_efficiency %.3f (was %.3f) on the %zu ring rows mostly moving bytes (%s to %s): "
        "geomean |error| %.1f %% -> %.1f %% (stricter %.1f %% -> %.1f %%)\n",
        fit.fitted, fit.previous, fit.sizes.size(), nccl_size_text(fit.sizes.front()).c_str(),
        nccl_size_text(fit.sizes.back()).c_str(), 100 * fit.before.geomean, 100 * fit.after.geomean,
        100 * fit.before.strict, 100 * fit.after.strict);
    out += line;
    if (!written_to.empty()) out += "# the fitted description: " + written_to + "\n";
    return out;
}

} // namespace astrolabe

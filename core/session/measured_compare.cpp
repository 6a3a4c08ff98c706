// A prediction beside a measured nccl-tests table (measured_compare.h).
#include "core/session/measured_compare.h"

#include "core/base/json_writer.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <set>

namespace astrolabe {

MeasuredError measured_error(const std::vector<double>& log_ratios) {
    MeasuredError e;
    e.rows = log_ratios.size();
    if (log_ratios.empty()) return e;
    double rel = 0, strict = 0;
    for (double r : log_ratios) {
        rel += std::log(std::max(std::fabs(std::exp(r) - 1), 1e-4));
        strict += std::fabs(r);
    }
    e.geomean = std::exp(rel / double(e.rows));
    e.strict = std::exp(strict / double(e.rows)) - 1;
    return e;
}

namespace {

std::string joined(const std::set<std::string>& s) {
    std::string out;
    for (const auto& x : s)
        out += (out.empty() ? "" : ", ") + x;
    return out;
}

std::string fixed3(double v) {
    char b[32];
    std::snprintf(b, sizeof b, "%.3f", v);
    return b;
}

// The collectives and rank counts whose nccl-tests bus factor is `ratio`, in words ("all_reduce on 8
// ranks"), or "" when none is a whole rank count.
std::string ratio_fits(double ratio) {
    std::string out;
    auto add = [&](double n, const char* ops) {
        const double whole = std::round(n);
        if (n > 1.5 && n < 1e7 && std::fabs(n - whole) < 0.05 * whole)
            out += std::string(out.empty() ? "" : "; ") + ops + " on " + std::to_string(uint64_t(whole)) +
                   " ranks";
    };
    if (ratio < 2) add(2 / (2 - ratio), "all_reduce");
    if (ratio < 1) add(1 / (1 - ratio), "all_gather, reduce_scatter or all_to_all");
    return out;
}

} // namespace

Result<CollectivePerfRequest>
measured_request(CollectivePerfRequest req, const hardware::MeasuredTable& table, const std::string& source) {
    Status problems;
    const config::HardwareConfig& hw = req.hardware;
    std::set<std::string> types, redops;
    for (const auto& r : table.rows)
        types.insert(r.type), redops.insert(r.redop);
    if (types.size() > 1)
        problems.add(source + ": rows of types " + joined(types) +
                     "; one nccl-tests run (one -d) was expected");
    else if (!hardware::parse_nccl_type(*types.begin(), req.type))
        problems.add(source + ": " + hardware::nccl_type_problem("type", *types.begin()));
    const bool reduces = hardware::coll_op_reduces(req.op);
    if (redops.size() > 1) {
        problems.add(source + ": rows of reductions " + joined(redops) +
                     "; one nccl-tests run (one -o) was "
                     "expected");
    } else if (reduces) {
        const std::string& op = *redops.begin();
        if (op == "none")
            problems.add(source + ": redop none, as nccl-tests prints for all_gather and all_to_all; " +
                         hardware::coll_op_name(req.op) + " reduces (--op)");
        else if (!hardware::parse_nccl_red_op(op, req.red_op))
            problems.add(source + ": " + hardware::nccl_red_op_problem("redop", op));
    }
    if (table.ranks > 0 && table.ranks != hw.ranks())
        problems.add(source + ": " + std::to_string(table.ranks) +
                     " ranks in its 'Rank' lines; the description "
                     "has nodes x gpus_per_node = " +
                     std::to_string(hw.ranks()));
    const uint32_t per_process = hw.processes == config::ProcessLayout::OnePerNode ? hw.gpus_per_node : 1;
    const uint32_t g = table.gpus_per_process;
    if (g > 0 && g != per_process) {
        std::string fix = "nccl-tests drives 1 or gpus_per_node (" + std::to_string(hw.gpus_per_node) +
                          ") GPUs per process";
        if (g == 1) fix = "processes one-per-gpu (-g 1) runs it as measured";
        if (g == hw.gpus_per_node)
            fix = "processes one-per-node (-g " + std::to_string(g) + ") runs it as measured";
        problems.add(source + ": nGpus " + std::to_string(g) + " (GPUs per process); the description runs " +
                     std::to_string(per_process) + " (" + config::process_layout_name(hw.processes) +
                     "): " + fix);
    }
    // nccl-tests prints busbw = algbw x its factor for the collective and rank count: a table of another
    // collective or system shows in the ratio. Rows under 1 GB/s have too few printed digits to tell.
    std::vector<double> ratios;
    for (const auto& r : table.rows)
        if (r.algbw_gbs >= 1) ratios.push_back(r.busbw_gbs / r.algbw_gbs);
    if (!ratios.empty() && hw.ranks() >= 2) {
        std::nth_element(ratios.begin(), ratios.begin() + ratios.size() / 2, ratios.end());
        const double ratio = ratios[ratios.size() / 2];
        const double factor = hardware::busbw_factor(req.op, hw.ranks());
        if (std::fabs(ratio / factor - 1) > 0.02) {
            const std::string fits = ratio_fits(ratio);
            problems.add(source + ": busbw/algbw is " + fixed3(ratio) + ", nccl-tests' factor for " +
                         hardware::coll_op_name(req.op) + " on " + std::to_string(hw.ranks()) + " ranks is " +
                         fixed3(factor) + "; the table is of another collective or rank count" +
                         (fits.empty() ? "" : " (" + fits + ")"));
        }
    }
    if (table.rows.size() > kMaxMeasuredRows)
        problems.add(source + ": " + std::to_string(table.rows.size()) + " rows; at most " +
                     std::to_string(kMaxMeasuredRows) + " are run");
    if (!problems.is_ok()) return problems;
    req.sizes.clear();
    for (const auto& r : table.rows)
        req.sizes.push_back(r.size_bytes);
    req.cut_sizes = false; // nccl-tests printed them already cut
    return req;
}

void measured_error_json(JsonWriter& w, const char* key, const MeasuredError& e) {
    w.key(key).begin_object();
    w.field("rows", uint64_t(e.rows));
    w.field("geomean_error", e.geomean);
    w.field("strict_error", e.strict);
    w.end_object();
}

void measured_errors_json(JsonWriter& w, const MeasuredComparison& m) {
    measured_error_json(w, "large", m.large);
    measured_error_json(w, "small", m.small);
}

MeasuredComparison compare_measured(const std::vector<CollectivePerfRow>& rows,
                                    const hardware::MeasuredTable& table) {
    MeasuredComparison c;
    std::vector<double> large, small;
    for (size_t i = 0; i < rows.size() && i < table.rows.size(); ++i) {
        const double m = table.rows[i].time_us, p = rows[i].time_us;
        c.measured_us.push_back(m);
        if (m <= 0 || p <= 0) continue; // no ratio to take
        (rows[i].size_bytes >= kLargeRowBytes ? large : small).push_back(std::log(p / m));
    }
    c.large = measured_error(large);
    c.small = measured_error(small);
    return c;
}

} // namespace astrolabe

// `astrolabe compute`: the cycles one GEMM takes on a compute model, printed or as JSON. The numbers are
// SCALE-Sim's (total_cycles is its last-cycle index, F*P-1); see core/compute/systolic.h.
#include "core/base/json_writer.h"
#include "core/compute/systolic.h"
#include "core/config/spellings.h"
#include "native/args.h"
#include "native/command_args.h"
#include "native/commands.h"

#include <algorithm>
#include <cstdio>

namespace astrolabe::cli {

namespace {

const std::vector<OptionSpec> kComputeOptions = {
    {"model", true, nullptr, "systolic (the only compute model with per-GEMM cycles)"},
    {"array", true, nullptr, "RxC: rows and columns of MAC units, e.g. 128x128 (default 128x128)"},
    {"dataflow", true, nullptr, "os, ws or is (default ws)"},
    {"gemm", true, nullptr, "M,N,K: C[MxN] = A[MxK] * B[KxN] (required)"},
    {"batch", true, nullptr, "independent GEMMs of that shape, run one after another (default 1)"},
    {"clock-ghz", true, nullptr, "array clock for the time in ns (default 1)"},
    {"json", false, nullptr, "print a JSON object instead of text"},
    {"help", false, nullptr, "this text"},
};

// A positive decimal integer below 2^32 (GEMM dimensions, batch), spaces around it allowed.
bool parse_dim(std::string s, uint64_t& out) {
    s.erase(0, s.find_first_not_of(' '));
    s.erase(s.find_last_not_of(' ') + 1);
    if (s.empty() || s.size() > 10 ||
        !std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; }))
        return false;
    out = std::stoull(s);
    return out > 0 && out <= UINT32_MAX;
}

// Splits "a<sep>b<sep>c" into exactly `n` positive integers.
bool parse_dims(const std::string& s, char sep, size_t n, std::vector<uint64_t>& out) {
    out.clear();
    size_t start = 0;
    while (true) {
        size_t end = s.find(sep, start);
        uint64_t v = 0;
        if (!parse_dim(s.substr(start, end == std::string::npos ? std::string::npos : end - start), v))
            return false;
        out.push_back(v);
        if (end == std::string::npos) break;
        start = end + 1;
    }
    return out.size() == n;
}

} // namespace

constexpr const char* kComputeUsage =
    "astrolabe compute: cycles of one GEMM on the systolic-array model (SCALE-Sim's conventions)\n\n";

int compute_command(const std::vector<std::string>& argv) {
    Args a;
    if (int rc = parse_command_line(argv, kComputeOptions, kComputeUsage, a); rc != kParsed) return rc;
    Status problems;
    if (!a.positionals.empty()) problems.add("compute: unexpected argument '" + a.positionals[0] + "'");
    std::string model = a.get("model", "systolic");
    if (model != "systolic") problems.add("--model: '" + model + "'; systolic was expected");
    SystolicArray arr;
    std::vector<uint64_t> v;
    if (!parse_array_size(a.get("array", "128x128"), arr.rows, arr.cols))
        problems.add("--array: '" + a.get("array") +
                     "'; RxC with whole numbers 1..65536 (e.g. 128x128) was expected");
    if (!config::parse_name(a.get("dataflow", "ws"), arr.dataflow))
        problems.add("--dataflow: '" + a.get("dataflow") + "'; " +
                     config::expected_choice(config::spellings<config::Dataflow>(), a.get("dataflow")));
    Gemm g;
    if (!a.has("gemm"))
        problems.add("--gemm: missing; M,N,K is required");
    else if (!parse_dims(a.get("gemm"), ',', 3, v))
        problems.add("--gemm: '" + a.get("gemm") + "'; M,N,K with positive integers below 2^32 was expected");
    else
        g.m = v[0], g.n = v[1], g.k = v[2];
    if (a.has("batch") && !parse_dim(a.get("batch"), g.batch))
        problems.add("--batch: '" + a.get("batch") + "'; a positive integer was expected");
    if (a.has("clock-ghz") && !parse_clock_ghz(a.get("clock-ghz"), arr.clock_ghz))
        problems.add("--clock-ghz: '" + a.get("clock-ghz") + "'; a positive number of GHz was expected");
    if (!problems.is_ok()) return fail(problems.message());

    SystolicResult r = systolic_gemm(arr, g);
    TimeNs ns = systolic_time_ns(r.cycles, arr.clock_ghz);
    if (a.has("json")) {
        JsonWriter w;
        w.begin_object();
        w.field("model", "systolic");
        w.field("array_rows", uint64_t(arr.rows)).field("array_cols", uint64_t(arr.cols));
        w.field("dataflow", config::name_of(arr.dataflow));
        w.field("M", g.m).field("N", g.n).field("K", g.k).field("batch", g.batch);
        w.field("total_cycles", r.total_cycles);
        w.field("compute_cycles", r.total_cycles); // no stalls in this model
        w.field("stall_cycles", uint64_t(0));
        w.field("folds", r.folds);
        w.field("cycles_per_fold", r.cycles_per_fold);
        w.field("cycles", r.cycles);
        w.field("time_ns", ns);
        w.field("clock_ghz", arr.clock_ghz);
        w.field("utilization_pct", r.utilization_pct);
        w.field("mapping_efficiency_pct", r.mapping_efficiency_pct);
        w.field("compute_util_pct", r.compute_utilization_pct);
        w.end_object();
        std::fputs((w.str() + "\n").c_str(), stdout);
        return 0;
    }
    using ull = unsigned long long;
    std::printf("systolic %ux%u %s, GEMM M=%llu N=%llu K=%llu", arr.rows, arr.cols,
                config::name_of(arr.dataflow), ull(g.m), ull(g.n), ull(g.k));
    if (g.batch > 1) std::printf(" x %llu", ull(g.batch));
    std::printf("\n  total_cycles %llu (SCALE-Sim's count: the last cycle's index, F*P-1)\n",
                ull(r.total_cycles));
    std::printf("  folds %llu x %llu cycles = %llu cycles busy, %llu ns at %g GHz\n", ull(r.folds),
                ull(r.cycles_per_fold), ull(r.cycles), ull(ns), arr.clock_ghz);
    std::printf("  utilization %.6f %%, mapping efficiency %.6f %%, compute utilization %.6f %%\n",
                r.utilization_pct, r.mapping_efficiency_pct, r.compute_utilization_pct);
    return 0;
}

} // namespace astrolabe::cli

// `astrolabe collective-perf`: nccl-tests' table for a described system, simulated
// (core/session/collective_perf.h).
#include "core/config/config_parse.h"
#include "core/generate/microbench.h"
#include "core/session/collective_perf.h"
#include "core/session/collective_perf_args.h"
#include "core/session/measured_compare.h"
#include "core/session/measured_fit.h"
#include "host/files.h"
#include "native/args.h"
#include "native/command_args.h"
#include "native/commands.h"

#include <cstdio>
#include <initializer_list>
#include <optional>

namespace astrolabe::cli {

namespace {

const std::vector<OptionSpec> kOptions = {
    {"op", true, nullptr, "all_reduce | all_gather | reduce_scatter | all_to_all (default all_reduce)"},
    {"hardware", true, nullptr, "HW.json: an astrolabe.hardware/1 description (required)"},
    {"minbytes", true, nullptr,
     "-b: smallest size (default 8); K, M, G suffixes are powers of 1024. Each size is cut as nccl-tests "
     "cuts it: whole elements, whole 16 bytes per rank for all_gather, reduce_scatter and all_to_all"},
    {"maxbytes", true, nullptr, "-e: largest size (default 16G)"},
    {"stepfactor", true, nullptr, "-f: each size is the previous times this (default 2)"},
    {"stepbytes", true, nullptr, "-i: each size is the previous plus this instead (not with -f)"},
    {"datatype", true, nullptr,
     "-d: int8 | uint8 | int32 | uint32 | int64 | uint64 | half | float | double | bfloat16 | f8e4m3 | "
     "f8e5m2 (default float)"},
    {"redop", true, nullptr, "-o: sum | prod | max | min | avg (default sum; all_reduce, reduce_scatter)"},
    {"ngpus", true, nullptr,
     "-g: GPUs per process: 1 (one per GPU) or the node's gpus_per_node (one per node); default: the file's"},
    {"iters", true, nullptr, "-n: accepted for nccl-tests' command lines; a simulation needs one iteration"},
    {"warmup_iters", true, nullptr, "-w: accepted for nccl-tests' command lines; nothing to warm up"},
    {"check", true, nullptr, "-c: accepted for nccl-tests' command lines; no data is moved to check"},
    {"algo", true, nullptr,
     "auto | ring | tree | nvls | nvls_tree | collnet (default: the file's nccl_algo)"},
    {"reference", true, nullptr, "astra-sim: ASTRA-sim's HGX-H100-validated config instead, for contrast"},
    {"share", false, nullptr,
     "print the browser's link to this curve (#perf=...) instead of running it; the Hardware tab opens it"},
    {"base", true, nullptr, "with --share: the web app's address to put before the fragment"},
    {"link", true, nullptr,
     "URL: a curve shared from the browser's Hardware tab (#perf=...): its system, collective, type, "
     "reduction and sizes, instead of the flags above"},
    {"measured", true, nullptr,
     "FILE: nccl-tests' output (or a tests/data/nccl CSV) measured on this system: run its own sizes, type "
     "and reduction, and print each row's measured time and error, and the geomean errors"},
    {"fit", true, nullptr,
     "OUT.json: with --measured, fit the description's net_efficiency (the line-rate fraction its "
     "collectives reach across nodes) to the table's ring rows, save the description with it to "
     "OUT.json and print the table run on it"},
    {"json", false, nullptr, "print {\"rows\": [{size_bytes, time_us, algbw_gbs, busbw_gbs}, ...]}"},
    {"help", false, nullptr, "this text"},
};

// `collective-perf --link URL [--json]`: the rows of a curve shared from the browser, which holds every
// other argument (so no other flag is taken with it).
int run_link(const Args& a) {
    Status problems;
    for (const auto& o : kOptions)
        if (a.has(o.name) && std::string(o.name) != "link" && std::string(o.name) != "json")
            problems.add(std::string("--") + o.name +
                         ": not taken with --link, which holds the system, the "
                         "collective, the type, the reduction and the sizes");
    if (!a.positionals.empty())
        problems.add("collective-perf: unexpected argument '" + a.positionals[0] + "'");
    if (!problems.is_ok()) return fail(problems.message());
    auto args = parse_collective_perf_link(a.get("link"));
    if (!args) return fail("--link: " + args.status().message());
    auto req = collective_perf_request(args.value());
    if (!req) return fail("--link: " + req.status().message());
    auto rows = run_collective_perf(req.value());
    if (!rows) return fail(rows.status().message());
    std::fputs(a.has("json") ? collective_perf_json(req.value(), rows.value()).c_str()
                             : collective_perf_table(req.value(), rows.value()).c_str(),
               stdout);
    return 0;
}

// Each of `flags` (option name, as the user spells it) that the command line has, refused for `reason`.
Status refuse_flags(const Args& a, std::initializer_list<std::pair<const char*, const char*>> flags,
                    const std::string& reason) {
    Status problems;
    for (auto [key, flag] : flags)
        if (a.has(key)) problems.add(std::string(flag) + ": " + reason);
    return problems;
}

// `--share`: the link the browser's Hardware tab makes for the same curve. The tab steps sizes by doubling
// and drives no flag of nccl-tests' loop, so -f, -i, -n, -w and -c have no place in it.
int print_link(const Args& a, const CollectivePerfRequest& req) {
    Status problems = refuse_flags(
        a,
        {{"stepfactor", "-f"}, {"stepbytes", "-i"}, {"iters", "-n"}, {"warmup_iters", "-w"}, {"check", "-c"}},
        "a link holds no step or loop count (the browser doubles the size); drop it with --share");
    if (!problems.is_ok()) return fail(problems.message());
    CollectivePerfArgs args;
    args.hardware_json = config::hardware_json(req.hardware); // -g already applied
    args.op = hardware::coll_op_name(req.op);
    args.algo = config::nccl_algo_name(req.algo);
    args.min_bytes = a.get("minbytes", "");
    args.max_bytes = a.get("maxbytes", "");
    args.type = a.get("datatype", "float"); // the tab always names a type: the link's sizes are -d's
    args.red_op = a.get("redop", "");
    args.astra_reference = req.astra_reference;
    auto fragment = collective_perf_link_fragment(args);
    if (!fragment) return fail(fragment.status().message());
    std::printf("%s#%s\n", a.get("base", "").c_str(), fragment.value().c_str());
    return 0;
}

// `--measured FILE`: the table's own sizes, type and reduction on the described system, each row beside its
// measured time. The flags that choose sizes, type or reduction would contradict the table.
int run_measured(const Args& a, CollectivePerfRequest req) {
    Status problems = refuse_flags(a,
                                   {{"minbytes", "-b"},
                                    {"maxbytes", "-e"},
                                    {"stepfactor", "-f"},
                                    {"stepbytes", "-i"},
                                    {"datatype", "-d"},
                                    {"redop", "-o"},
                                    {"share", "--share"}},
                                   "not taken with --measured, whose table gives the sizes, the type and the "
                                   "reduction");
    if (!problems.is_ok()) return fail(problems.message());
    const std::string path = a.get("measured");
    auto text = read_file(path, "--measured");
    if (!text) return fail(text.status().message());
    auto table = hardware::parse_nccl_tests_output(text.value(), path);
    if (!table) return fail(table.status().message());
    auto run = measured_request(req, table.value(), path);
    if (!run) return fail(run.status().message());
    problems.merge(collective_perf_algo_problems(run.value(), "--algo"));
    if (!problems.is_ok()) return fail(problems.message());
    // --fit OUT: the description with the net_efficiency that fits the table, saved to OUT; the rows then
    // run on it.
    std::optional<NetEfficiencyFit> fit;
    if (a.has("fit")) {
        if (run.value().astra_reference)
            return fail("--fit: fits the NCCL-like model's description; not with --reference astra-sim");
        auto fitted = fit_net_efficiency(run.value(), table.value(), path);
        if (!fitted) return fail(fitted.status().message());
        if (Status st = write_file(a.get("fit"), config::hardware_json(fitted.value().hardware)); !st.is_ok())
            return fail("--fit: " + st.message());
        run.value().hardware = fitted.value().hardware;
        fit = std::move(fitted.value());
    }
    auto rows = run_collective_perf(run.value());
    if (!rows) return fail(rows.status().message());
    const MeasuredComparison cmp = compare_measured(rows.value(), table.value());
    const NetEfficiencyFit* f = fit ? &*fit : nullptr;
    std::string out = a.has("json") ? collective_perf_json(run.value(), rows.value(), &cmp, f)
                                    : collective_perf_table(run.value(), rows.value(), &cmp);
    if (f && !a.has("json")) out += fit_summary(*f, a.get("fit"));
    std::fputs(out.c_str(), stdout);
    return 0;
}

} // namespace

// The most sizes one command runs (-i can ask for millions).
constexpr uint64_t kMaxSizes = 4096;

constexpr const char* kCollectivePerfUsage =
    "astrolabe collective-perf: nccl-tests' table for a described system, simulated\n\n";

int collective_perf_command(const std::vector<std::string>& argv_in) {
    // nccl-tests' short flags.
    const std::vector<std::string> argv = expand_short_flags(argv_in, {{"-b", "--minbytes"},
                                                                       {"-e", "--maxbytes"},
                                                                       {"-f", "--stepfactor"},
                                                                       {"-i", "--stepbytes"},
                                                                       {"-d", "--datatype"},
                                                                       {"-o", "--redop"},
                                                                       {"-g", "--ngpus"},
                                                                       {"-n", "--iters"},
                                                                       {"-w", "--warmup_iters"},
                                                                       {"-c", "--check"}});
    Args a;
    if (int rc = parse_command_line(argv, kOptions, kCollectivePerfUsage, a); rc != kParsed) return rc;
    if (a.has("link")) return run_link(a);
    Status problems;
    CollectivePerfRequest req;
    if (!a.positionals.empty())
        problems.add("collective-perf: unexpected argument '" + a.positionals[0] + "'");
    std::string op = a.get("op", "all_reduce");
    if (!hardware::parse_coll_op(op, req.op))
        problems.add("--op: '" + op + "'; " + hardware::coll_op_expected(op));
    auto size = [&](const char* key, const char* flag, uint64_t& out) {
        if (a.has(key) && !parse_nccl_size(a.get(key), out))
            problems.add(std::string(flag) + ": '" + a.get(key) +
                         "'; a positive size such as 8, 64K, 16G was expected");
    };
    size("minbytes", "-b", req.min_bytes);
    size("maxbytes", "-e", req.max_bytes);
    if (a.has("stepfactor")) {
        uint64_t f = 0;
        if (!generate::parse_size(a.get("stepfactor"), f) || f < 2 || f > 1024)
            problems.add("-f: '" + a.get("stepfactor") + "'; a whole factor from 2 to 1024 was expected");
        else
            req.factor = f;
    }
    if (a.has("stepbytes")) {
        if (a.has("stepfactor"))
            problems.add("-i: given with -f; nccl-tests steps sizes by one or the other");
        else if (!parse_nccl_size(a.get("stepbytes"), req.step_bytes))
            problems.add("-i: '" + a.get("stepbytes") + "'; a positive size such as 1M was expected");
    }
    if (req.min_bytes > req.max_bytes) problems.add("-b: larger than -e; nothing to run");
    if (problems.is_ok() && collective_perf_size_count(req) > kMaxSizes)
        problems.add("-i: " + a.get("stepbytes") + " from -b to -e gives " +
                     std::to_string(collective_perf_size_count(req)) + " sizes; at most " +
                     std::to_string(kMaxSizes) + " are run (a larger -i, or -f)");
    if (a.has("datatype") && !hardware::parse_nccl_type(a.get("datatype"), req.type))
        problems.add(hardware::nccl_type_problem("-d", a.get("datatype")));
    if (a.has("redop") && !hardware::parse_nccl_red_op(a.get("redop"), req.red_op))
        problems.add(hardware::nccl_red_op_problem("-o", a.get("redop")));
    // Accepted for nccl-tests' command lines, checked, and without effect (docs/cli.md).
    for (auto [key, flag] : {std::pair{"iters", "-n"}, {"warmup_iters", "-w"}, {"check", "-c"}}) {
        const std::string v = a.get(key, "0");
        if (v.empty() || v.size() > 9 || v.find_first_not_of("0123456789") != std::string::npos)
            problems.add(std::string(flag) + ": '" + v + "'; a whole number was expected");
    }
    std::string algo = a.get("algo", "");
    if (!algo.empty()) {
        if (!config::parse_nccl_algo(algo, req.algo))
            problems.add("--algo: '" + algo + "'; auto, ring, tree, nvls, nvls_tree or collnet was expected");
    }
    if (a.has("reference")) {
        if (a.get("reference") == "astra-sim")
            req.astra_reference = true;
        else
            problems.add("--reference: '" + a.get("reference") + "'; astra-sim was expected");
    }
    bool have_hardware = false;
    if (!a.has("hardware")) {
        problems.add(
            "--hardware: missing; an astrolabe.hardware/1 JSON file is required (samples/hardware/)");
    } else {
        auto text = read_file(a.get("hardware"), "--hardware");
        if (!text) {
            problems.merge(text.status());
        } else {
            auto hw = config::parse_hardware_json(text.value(), a.get("hardware"));
            if (!hw)
                problems.merge(hw.status());
            else
                req.hardware = hw.value(), have_hardware = true;
        }
    }
    if (have_hardware && a.has("ngpus")) {
        // nccl-tests -g: the GPUs one process drives, which is what the description's `processes` says.
        const std::string g = a.get("ngpus");
        if (g == "1")
            req.hardware.processes = config::ProcessLayout::OnePerGpu;
        else if (g == std::to_string(req.hardware.gpus_per_node))
            req.hardware.processes = config::ProcessLayout::OnePerNode;
        else
            problems.add("-g: '" + g + "'; 1 (one process per GPU) or " +
                         std::to_string(req.hardware.gpus_per_node) +
                         " (one per node, the hardware's gpus_per_node) was expected");
    }
    if (problems.is_ok() && req.hardware.ranks() < 2)
        problems.add(a.get("hardware") + ": nodes x gpus_per_node is 1; a collective needs two or more GPUs");
    if (problems.is_ok()) problems.merge(collective_perf_algo_problems(req, "--algo"));
    // --measured runs its table's own sizes, not -b to -e (which it refuses).
    if (problems.is_ok() && !a.has("measured"))
        problems.merge(collective_perf_size_problems(req, "-b", "-e"));
    if (a.has("base") && !a.has("share")) problems.add("--base: only with --share");
    if (a.has("fit") && !a.has("measured"))
        problems.add("--fit: only with --measured FILE, the table it fits the description to");
    if (!problems.is_ok()) return fail(problems.message());
    if (a.has("measured")) return run_measured(a, req); // before --share, which it refuses
    if (a.has("share")) return print_link(a, req);
    auto rows = run_collective_perf(req);
    if (!rows) return fail(rows.status().message());
    std::fputs(a.has("json") ? collective_perf_json(req, rows.value()).c_str()
                             : collective_perf_table(req, rows.value()).c_str(),
               stdout);
    return 0;
}

} // namespace astrolabe::cli

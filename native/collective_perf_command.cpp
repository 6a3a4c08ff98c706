// `astrolabe collective-perf`: nccl-tests' table for a described system, simulated
// (core/session/collective_perf.h).
#include "core/config/config_parse.h"
#include "core/generate/microbench.h"
#include "core/session/collective_perf.h"
#include "host/files.h"
#include "native/args.h"
#include "native/command_args.h"
#include "native/commands.h"

#include <cstdio>

namespace astrolabe::cli {

namespace {

const std::vector<OptionSpec> kOptions = {
    {"op", true, nullptr, "all_reduce | all_gather | reduce_scatter | all_to_all (default all_reduce)"},
    {"hardware", true, nullptr, "HW.json: an astrolabe.hardware/1 description (required)"},
    {"minbytes", true, nullptr, "-b: smallest size (default 8); K, M, G suffixes are powers of 1024"},
    {"maxbytes", true, nullptr, "-e: largest size (default 16G)"},
    {"stepfactor", true, nullptr, "-f: each size is the previous times this (default 2)"},
    {"algo", true, nullptr,
     "auto | ring | tree | nvls | nvls_tree | collnet (default: the file's nccl_algo)"},
    {"reference", true, nullptr, "astra-sim: ASTRA-sim's HGX-H100-validated config instead, for contrast"},
    {"json", false, nullptr, "print {\"rows\": [{size_bytes, time_us, algbw_gbs, busbw_gbs}, ...]}"},
    {"help", false, nullptr, "this text"},
};

} // namespace

constexpr const char* kCollectivePerfUsage =
    "astrolabe collective-perf: nccl-tests' table for a described system, simulated\n\n";

int collective_perf_command(const std::vector<std::string>& argv_in) {
    // nccl-tests' short flags.
    const std::vector<std::string> argv =
        expand_short_flags(argv_in, {{"-b", "--minbytes"}, {"-e", "--maxbytes"}, {"-f", "--stepfactor"}});
    Args a;
    if (int rc = parse_command_line(argv, kOptions, kCollectivePerfUsage, a); rc != kParsed) return rc;
    Status problems;
    CollectivePerfRequest req;
    if (!a.positionals.empty())
        problems.add("collective-perf: unexpected argument '" + a.positionals[0] + "'");
    std::string op = a.get("op", "all_reduce");
    if (!hardware::parse_coll_op(op, req.op))
        problems.add("--op: '" + op + "'; all_reduce, all_gather, reduce_scatter or all_to_all was expected");
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
    if (req.min_bytes > req.max_bytes) problems.add("-b: larger than -e; nothing to run");
    std::string algo = a.get("algo", "");
    if (!algo.empty()) {
        const char* names[] = {"auto", "ring", "tree", "nvls", "nvls_tree", "collnet"};
        bool found = false;
        for (int i = 0; i < 6; ++i)
            if (algo == names[i]) req.algo = static_cast<config::NcclAlgo>(i), found = true;
        if (!found)
            problems.add("--algo: '" + algo + "'; auto, ring, tree, nvls, nvls_tree or collnet was expected");
    }
    if (a.has("reference")) {
        if (a.get("reference") == "astra-sim")
            req.astra_reference = true;
        else
            problems.add("--reference: '" + a.get("reference") + "'; astra-sim was expected");
    }
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
                req.hardware = hw.value();
        }
    }
    if (problems.is_ok() && req.hardware.ranks() < 2)
        problems.add(a.get("hardware") + ": nodes x gpus_per_node is 1; a collective needs two or more GPUs");
    if (problems.is_ok() && req.algo != config::NcclAlgo::Auto) {
        // The same checks the file's nccl_algo gets.
        config::HardwareConfig h = req.hardware;
        if ((req.algo == config::NcclAlgo::Nvls || req.algo == config::NcclAlgo::NvlsTree) && !h.nvls)
            problems.add("--algo: " + algo + " needs NVLink SHARP, and the hardware says nvls: false");
        if (req.algo == config::NcclAlgo::CollNet && !h.collnet)
            problems.add("--algo: collnet needs collnet: true (InfiniBand SHARP) in the hardware file");
    }
    if (!problems.is_ok()) return fail(problems.message());
    auto rows = run_collective_perf(req);
    if (!rows) return fail(rows.status().message());
    std::fputs(a.has("json") ? collective_perf_json(req, rows.value()).c_str()
                             : collective_perf_table(req, rows.value()).c_str(),
               stdout);
    return 0;
}

} // namespace astrolabe::cli

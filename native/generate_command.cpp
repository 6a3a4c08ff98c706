// `astrolabe generate`: synthetic workloads written as Chakra .et files, one per NPU.
#include "core/generate/microbench.h"
#include "core/trace/trace_reader.h"
#include "native/args.h"
#include "native/commands.h"
#include "native/files.h"

#include <algorithm>
#include <cctype>
#include <cstdio>

namespace astrolabe::cli {

namespace {

const std::vector<OptionSpec> kMicrobenchOptions = {
    {"collective", true, nullptr,
     "all_reduce, all_gather, reduce_scatter, all_to_all, broadcast, barrier, ..."},
    {"size", true, nullptr, "bytes per collective: 1048576, 64KiB, 1MiB, 1GB ..."},
    {"npus", true, nullptr, "number of NPUs (one .et file each)"},
    {"repeat", true, nullptr, "collectives per NPU, chained (default 1)"},
    {"compute-us", true, nullptr, "a compute node of this many us before each collective (default 0)"},
    {"output", true, nullptr, "(or -o) output prefix P: writes P.0.et ... P.<npus-1>.et"},
    {"help", false, nullptr, "this text"},
};

bool parse_uint(const std::string& s, uint64_t& out) {
    if (s.empty() || s.size() > 19 || !std::all_of(s.begin(), s.end(), ::isdigit)) return false;
    out = std::stoull(s);
    return true;
}

int microbench(const std::vector<std::string>& argv) {
    std::vector<std::string> args = argv;
    for (auto& a : args)
        if (a == "-o") a = "--output";
    auto parsed = parse_args(args, kMicrobenchOptions);
    if (!parsed.is_ok()) return fail(parsed.status().message());
    const Args& a = parsed.value();
    if (a.has("help")) {
        std::printf("astrolabe generate microbench: one collective per step on every NPU\n\n%s",
                    options_help(kMicrobenchOptions).c_str());
        return 0;
    }
    Status problems;
    generate::MicrobenchParams p;
    std::string coll = a.get("collective", "all_reduce");
    std::transform(coll.begin(), coll.end(), coll.begin(), ::toupper);
    if (auto t = trace::collective_type_from_name(coll))
        p.collective = *t;
    else
        problems.add("--collective: '" + a.get("collective") +
                     "' is not a Chakra collective type (all_reduce, all_gather, ...)");
    if (a.has("size") && !generate::parse_size(a.get("size"), p.bytes))
        problems.add("--size: '" + a.get("size") + "'; a byte count such as 1048576 or 1MiB was expected");
    uint64_t v = 0;
    if (!a.has("npus"))
        problems.add("--npus: missing; the number of NPUs is required");
    else if (!parse_uint(a.get("npus"), v) || v > UINT32_MAX)
        problems.add("--npus: '" + a.get("npus") + "'; a positive integer was expected");
    else
        p.npus = static_cast<uint32_t>(v);
    if (a.has("repeat")) {
        if (!parse_uint(a.get("repeat"), v) || v > UINT32_MAX)
            problems.add("--repeat: a positive integer was expected");
        else
            p.repeat = static_cast<uint32_t>(v);
    }
    if (a.has("compute-us") && !parse_uint(a.get("compute-us"), p.compute_us))
        problems.add("--compute-us: a whole number of microseconds was expected");
    if (!a.has("output")) problems.add("-o/--output: missing; the output prefix is required");
    if (problems.is_ok()) problems.merge(generate::check(p));
    if (!problems.is_ok()) return fail(problems.message());
    std::string prefix = a.get("output");
    for (uint32_t r = 0; r < p.npus; ++r) {
        Status st = write_file(prefix + "." + std::to_string(r) + ".et",
                               trace::encode_trace(generate::microbench_trace(p, r)));
        if (!st.is_ok()) return fail(st.message());
    }
    std::printf("wrote %u trace files %s.{0..%u}.et: %u x %s of %llu bytes per NPU\n", p.npus, prefix.c_str(),
                p.npus - 1, p.repeat, trace::collective_type_name(p.collective),
                static_cast<unsigned long long>(p.bytes));
    return 0;
}

} // namespace

int generate_command(const std::vector<std::string>& args) {
    if (args.empty() || args[0] == "--help")
        return args.empty()
                   ? fail("generate: which workload? available: microbench (see generate microbench --help)")
                   : (std::puts("astrolabe generate microbench [options]   (generate microbench --help)"), 0);
    std::vector<std::string> rest(args.begin() + 1, args.end());
    if (args[0] == "microbench") return microbench(rest);
    return fail("generate: unknown workload '" + args[0] +
                "'; available: microbench (transformer is not built yet)");
}

} // namespace astrolabe::cli

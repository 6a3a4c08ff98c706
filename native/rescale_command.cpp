// `astrolabe rescale P --npus M -o Q`: a regular (data-parallel) trace set for N NPUs rewritten for M.
#include "core/config/config_parse.h"
#include "core/generate/rescale.h"
#include "core/trace/trace_reader.h"
#include "host/files.h"
#include "native/args.h"
#include "native/command_args.h"
#include "native/commands.h"

#include <cstdio>
#include <filesystem>

namespace astrolabe::cli {

namespace {

const std::vector<OptionSpec> kRescaleOptions = {
    {"npus", true, nullptr, "NPU count of the output set"},
    {"comm-groups", true, "comm-group-configuration",
     "the input's communicator groups (default: P.json when it exists, as STAGE and generate write it)"},
    {"output", true, nullptr, "(or -o) output prefix Q: writes Q.0.et ... and Q.json when groups are used"},
    {"help", false, nullptr, "this text"},
};

} // namespace

constexpr const char* kRescaleUsage =
    "astrolabe rescale P --npus M -o Q: a data-parallel trace set for N NPUs rewritten for M\n\n";

int rescale_command(const std::vector<std::string>& argv) {
    const std::vector<std::string> args = expand_short_flags(argv, {{"-o", "--output"}});
    Args a;
    if (int rc = parse_command_line(args, kRescaleOptions, kRescaleUsage, a); rc != kParsed) return rc;
    Status problems;
    if (a.positionals.size() != 1) problems.add("rescale: one input workload P was expected (see --help)");
    if (!a.has("output")) problems.add("-o/--output: missing; the output prefix is required");
    uint64_t m = 0;
    const std::string ms = a.get("npus");
    if (ms.empty() || ms.size() > 9 || ms.find_first_not_of("0123456789") != std::string::npos ||
        (m = std::stoull(ms)) == 0)
        problems.add("--npus: '" + ms + "'; a positive NPU count was expected");
    if (!problems.is_ok()) return fail(problems.message());

    const std::string in = a.positionals[0];
    auto src = host::FileTraceSource::open(in);
    if (!src.is_ok()) return fail(src.status().message());
    host::FileTraceSource& files = src.value();
    uint32_t n = 0;
    if (files.count() >= 0) {
        n = static_cast<uint32_t>(files.count());
    } else {
        std::error_code ec;
        while (n < (1u << 24) && std::filesystem::exists(files.path_of(n), ec))
            ++n;
    }
    if (n == 0) return fail(in + ": no trace files found (expected " + in + ".0.et, " + in + ".1.et, ...)");

    generate::RankGroups groups;
    std::string gpath = a.get("comm-groups");
    std::error_code ec;
    if (gpath.empty() && std::filesystem::exists(in + ".json", ec)) gpath = in + ".json";
    if (!gpath.empty()) {
        auto text = host::read_file(gpath, "comm groups");
        if (!text.is_ok()) return fail(text.status().message());
        auto g = config::parse_comm_groups_json(text.value(), gpath, n);
        if (!g.is_ok()) return fail(g.status().message());
        for (const auto& grp : g.value().groups)
            groups.groups.emplace_back(grp.id, grp.ranks);
    }
    trace::ReadOptions opts;
    opts.keep_attributes = true;
    auto read = [&files, &opts](uint32_t rank) -> Result<trace::Trace> {
        std::string bytes, name;
        Status st = files.read(rank, bytes, name);
        if (!st.is_ok()) return st;
        return trace::decode_trace(bytes, name, opts);
    };
    host::FileTraceSink sink(a.get("output"));
    auto plan = generate::rescale(n, groups, read, static_cast<uint32_t>(m), sink);
    if (!plan.is_ok()) return fail(plan.status().message());
    std::printf("rescaled %s: %s\nwrote %u trace files %s.{0..%u}.et", in.c_str(),
                plan.value().describe().c_str(), sink.ranks, a.get("output").c_str(), sink.ranks - 1);
    if (!sink.groups_path.empty()) std::printf(" and communicator groups %s", sink.groups_path.c_str());
    std::printf("\n");
    return 0;
}

} // namespace astrolabe::cli

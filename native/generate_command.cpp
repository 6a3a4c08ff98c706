// `astrolabe generate`: synthetic workloads written as Chakra .et files, one per NPU.
#include "core/generate/microbench.h"
#include "core/generate/system_preset.h"
#include "core/generate/transformer.h"
#include "core/trace/trace_reader.h"
#include "host/files.h"
#include "native/args.h"
#include "native/command_args.h"
#include "native/commands.h"
#include "native/progress.h"
#include "native/suggest.h"

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
    {"system-preset", true, nullptr, "h100: also write P.system.json and P.network.yml for the NPU count"},
    {"help", false, nullptr, "this text"},
};

// Writes the hardware preset's system and network files beside the traces.
Status write_system_preset(const std::string& name, uint32_t npus, const std::string& prefix) {
    auto f = generate::system_preset(name, npus);
    if (!f.is_ok()) return Status::error("--" + f.status().message());
    Status st = host::write_file(prefix + ".system.json", f.value().system_json);
    if (st.is_ok()) st = host::write_file(prefix + ".network.yml", f.value().network_yaml);
    if (st.is_ok())
        std::printf("wrote %s.system.json and %s.network.yml (%s preset)\n", prefix.c_str(), prefix.c_str(),
                    name.c_str());
    return st;
}

// The command that runs what was just written, so the next step is a copy and paste away.
void print_run_hint(const std::string& prefix, const std::string& groups, bool preset, bool needs_memory) {
    std::string cmd = "astrolabe run --workload " + prefix;
    if (!groups.empty()) cmd += " --comm-groups " + groups;
    if (preset)
        cmd += " --system " + prefix + ".system.json --network " + prefix + ".network.yml";
    else
        cmd += " --system S.json --network N.yml";
    if (needs_memory) cmd += " --memory M.json";
    std::printf("run it with:\n  %s\n", cmd.c_str());
    if (!preset)
        std::printf(
            "  (S.json and N.yml: your ASTRA-sim system and network configs for the NPU count, or add "
            "--system-preset h100 to this command to have them written beside the traces)\n");
}

bool parse_uint(const std::string& s, uint64_t& out) {
    if (s.empty() || s.size() > 19 || !std::all_of(s.begin(), s.end(), ::isdigit)) return false;
    out = std::stoull(s);
    return true;
}

constexpr const char* kMicrobenchUsage =
    "astrolabe generate microbench: one collective per step on every NPU\n\n";

int microbench(const std::vector<std::string>& argv) {
    const std::vector<std::string> args = expand_short_flags(argv, {{"-o", "--output"}});
    Args a;
    if (int rc = parse_command_line(args, kMicrobenchOptions, kMicrobenchUsage, a); rc != kParsed) return rc;
    Status problems;
    generate::MicrobenchParams p;
    std::string coll = a.get("collective", "all_reduce");
    std::transform(coll.begin(), coll.end(), coll.begin(), ::toupper);
    if (auto t = trace::collective_type_from_name(coll))
        p.collective = *t;
    else {
        std::string near = nearest_spelling(
            a.get("collective"), {"all_reduce", "reduce", "all_gather", "gather", "scatter", "broadcast",
                                  "all_to_all", "reduce_scatter", "reduce_scatter_block", "barrier"});
        problems.add("--collective: '" + a.get("collective") +
                     "' is not a Chakra collective type (all_reduce, all_gather, ...)" +
                     (near.empty() ? "" : "; did you mean " + near + "?"));
    }
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
    if (a.has("system-preset")) { // checked before anything is written
        auto f = generate::system_preset(a.get("system-preset"), p.npus);
        if (!f.is_ok()) return fail("--" + f.status().message());
    }
    host::FileTraceSink sink(prefix);
    for (uint32_t r = 0; r < p.npus; ++r) {
        Status st = sink.write_rank(r, trace::encode_trace(generate::microbench_trace(p, r)));
        if (!st.is_ok()) return fail(st.message());
    }
    if (a.has("system-preset")) {
        Status st = write_system_preset(a.get("system-preset"), p.npus, prefix);
        if (!st.is_ok()) return fail(st.message());
    }
    std::printf("wrote %u trace files %s.{0..%u}.et: %u x %s of %llu bytes per NPU\n", p.npus, prefix.c_str(),
                p.npus - 1, p.repeat, trace::collective_type_name(p.collective),
                static_cast<unsigned long long>(p.bytes));
    print_run_hint(prefix, "", a.has("system-preset"), false);
    return 0;
}

std::vector<OptionSpec> transformer_options() {
    static std::vector<std::string> names; // OptionSpec holds const char*: keep the strings alive
    std::vector<OptionSpec> specs;
    const auto& help = generate::param_help();
    names.clear();
    names.reserve(help.size());
    for (const auto& h : help)
        names.push_back(h.first);
    for (size_t i = 0; i < help.size(); ++i) {
        // Every parameter takes a value; bare flags get "true" in normalize_flags(). STAGE's option names
        // are accepted as aliases (after underscores become dashes).
        static const std::pair<const char*, const char*> kStageNames[] = {
            {"layers", "num-stacks"}, {"hidden", "dmodel"},   {"ffn", "dff"},
            {"heads", "head"},        {"kv-heads", "kvhead"}, {"model", "model-type"}};
        const char* alias = nullptr;
        for (const auto& sn : kStageNames)
            if (names[i] == sn.first) alias = sn.second;
        // The on/off parameters parse as taking a value (normalize_flags() supplies it) but read as flags.
        const bool is_switch =
            names[i] == "weight-sharded" || names[i] == "recompute" || names[i] == "mixed-precision";
        specs.push_back({names[i].c_str(), true, alias, help[i].second.c_str(), is_switch});
    }
    specs.push_back(
        {"output", true, nullptr, "(or -o) output prefix P: writes P.0.et ... and P.json (groups)"});
    specs.push_back({"system-preset", true, nullptr,
                     "h100: also write P.system.json and P.network.yml for the NPU count (8-GPU nodes)"});
    specs.push_back({"dry-run", false, nullptr,
                     "print the plan (per-stage node counts, bytes per group); write nothing"});
    specs.push_back({"quiet", false, nullptr, "no progress bar"});
    specs.push_back({"help", false, nullptr, "this text"});
    return specs;
}

bool is_bool_word(std::string s) {
    std::transform(s.begin(), s.end(), s.begin(), ::tolower);
    return s == "true" || s == "false" || s == "1" || s == "0" || s == "yes" || s == "no";
}

// Accepts STAGE's spellings too: `--weight_sharded True` as well as `--weight-sharded` (underscores in
// option names become dashes; an on/off option takes an optional true/false value).
std::vector<std::string> normalize_flags(const std::vector<std::string>& argv) {
    static const char* kSwitches[] = {"--weight-sharded", "--recompute", "--mixed-precision",
                                      "--stage-compat", "--tpsp"};
    std::vector<std::string> out;
    for (size_t i = 0; i < argv.size(); ++i) {
        std::string a = argv[i];
        if (a == "-o") a = "--output";
        if (a.rfind("--", 0) == 0) {
            const size_t end = std::min(a.find('='), a.size());
            std::replace(a.begin() + 2, a.begin() + static_cast<std::ptrdiff_t>(end), '_', '-');
        }
        bool is_switch = false;
        for (const char* s : kSwitches)
            is_switch = is_switch || a == s;
        if (is_switch) {
            if (i + 1 < argv.size() && is_bool_word(argv[i + 1]))
                a += "=" + argv[++i];
            else
                a += "=true";
        }
        out.push_back(a);
    }
    return out;
}

// The generator names a bad choice but offers no spelling: add the nearest valid one for the options with a
// fixed set of values ("--preset: 'llama3-7b' ... (did you mean llama3-8b?)").
std::string with_suggestion(const std::string& problem, const Args& a) {
    const std::vector<std::pair<std::string, std::vector<std::string>>> choices = {
        {"preset", generate::preset_names()},
        {"model", {"gpt", "llama"}},
        {"phase", {"training", "prefill", "decode"}},
        {"grad-sync", {"microbatch", "step"}},
        {"system-preset", generate::system_preset_names()}};
    for (const auto& [flag, names] : choices) {
        if (problem.rfind("--" + flag + ": '", 0) != 0 || !a.has(flag)) continue;
        const std::string near = nearest_spelling(a.get(flag), names);
        if (!near.empty() && near != a.get(flag)) return problem + " (did you mean " + near + "?)";
    }
    return problem;
}

// `generate transformer` (training step by default) and `generate inference` (prefill by default).
int transformer(const std::vector<std::string>& argv, generate::Phase default_phase) {
    const std::vector<std::string> args = normalize_flags(argv);
    const std::vector<OptionSpec> specs = transformer_options();
    std::string usage = "astrolabe generate transformer|inference: a transformer training step or inference "
                        "steps as Chakra traces\npresets:";
    for (const auto& n : generate::preset_names())
        usage += " " + n;
    Args a;
    if (int rc = parse_command_line(args, specs, usage + "\n\n", a); rc != kParsed) return rc;
    if (!a.positionals.empty())
        return fail("generate: unexpected argument '" + a.positionals[0] + "' (see --help)");
    generate::TransformerParams p;
    p.phase = default_phase;
    std::vector<std::pair<std::string, std::string>> named;
    for (const auto& kv : a.values)
        if (kv.first != "output" && kv.first != "dry-run" && kv.first != "quiet" &&
            kv.first != "system-preset")
            named.push_back(kv);
    Status problems = generate::apply_params(p, named);
    // Problems name parameters; the CLI spells them as flags.
    Status flagged;
    for (const auto& m : problems.problems())
        flagged.add("--" + m);
    if (flagged.is_ok()) {
        const Status checked = generate::check(p);
        for (const auto& m : checked.problems())
            flagged.add("--" + m);
    }
    if (!a.has("output") && !a.has("dry-run"))
        flagged.add("-o/--output: missing; the output prefix is required");
    if (a.has("system-preset") && flagged.is_ok()) {
        // Checked before anything is written, so a bad preset leaves no half-written output.
        auto f = generate::system_preset(a.get("system-preset"), static_cast<uint32_t>(p.npus()));
        if (!f.is_ok()) flagged.add("--" + f.status().message());
    }
    if (!flagged.is_ok()) {
        Status suggested;
        for (const auto& m : flagged.problems())
            suggested.add(with_suggestion(m, a));
        return fail(suggested.message());
    }
    if (a.has("dry-run")) {
        std::fputs(generate::plan_text(p).c_str(), stdout);
        return 0;
    }
    host::FileTraceSink sink(a.get("output"));
    Status st;
    {
        ProgressBar bar("generating", !a.has("quiet"));
        st = generate::generate_transformer(p, sink, [&bar](uint32_t done, uint32_t total) {
            bar.update(done, total, std::to_string(done) + "/" + std::to_string(total) + " ranks");
        });
    }
    if (!st.is_ok()) return fail(st.message());
    if (a.has("system-preset")) {
        st = write_system_preset(a.get("system-preset"), sink.ranks, a.get("output"));
        if (!st.is_ok()) return fail(st.message());
    }
    std::printf("wrote %u trace files %s.{0..%u}.et", sink.ranks, a.get("output").c_str(), sink.ranks - 1);
    if (!sink.groups_path.empty())
        std::printf(" and communicator groups %s (run with --comm-groups)", sink.groups_path.c_str());
    std::printf("\n");
    print_run_hint(a.get("output"), sink.groups_path, a.has("system-preset"),
                   p.phase == generate::Phase::Decode);
    return 0;
}

} // namespace

int generate_command(const std::vector<std::string>& args) {
    const char* kWhich = "generate: which workload? available: microbench, transformer, inference "
                         "(see generate <workload> --help)";
    if (args.empty()) return fail(kWhich);
    if (args[0] == "--help") {
        std::puts(
            "astrolabe generate microbench|transformer|inference [options]   (generate <workload> --help)");
        return 0;
    }
    std::vector<std::string> rest(args.begin() + 1, args.end());
    if (args[0] == "microbench") return microbench(rest);
    if (args[0] == "transformer") return transformer(rest, generate::Phase::Training);
    if (args[0] == "inference") return transformer(rest, generate::Phase::Prefill);
    std::string near = nearest_spelling(args[0], {"microbench", "transformer", "inference"});
    return fail("generate: unknown workload '" + args[0] +
                "'; available: microbench, transformer, inference" +
                (near.empty() ? "" : " (did you mean " + near + "?)"));
}

} // namespace astrolabe::cli

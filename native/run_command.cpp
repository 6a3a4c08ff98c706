// `astrolabe run`: load configs and traces, simulate, print the summary, write the report and timeline.
#include "core/config/config_parse.h"
#include "core/config/scenario.h"
#include "core/config/spellings.h"
#include "core/hardware/hardware_mapping.h"
#include "core/report/report.h"
#include "core/report/warnings.h"
#include "core/session/session.h"
#include "core/session/share_link.h"
#include "host/files.h"
#include "native/args.h"
#include "native/cli_host.h"
#include "native/command_args.h"
#include "native/commands.h"
#include "native/run_options.h"
#include "native/thread_pool.h"

#include <csignal>
#include <cstdio>
#include <filesystem>
#include <map>

namespace astrolabe::cli {

namespace {

const std::vector<OptionSpec> kRunOptions = {
    {"workload", true, "workload-configuration",
     "trace prefix P (NPU i reads P.i.et), a directory or one .et file"},
    {"system", true, "system-configuration", "ASTRA-sim system JSON"},
    {"network", true, "network-configuration", "ASTRA-sim analytical network YAML"},
    {"hardware", true, nullptr, "astrolabe.hardware/1 JSON: a real system instead of --network/--system"},
    {"memory", true, "remote-memory-configuration", "ASTRA-sim remote-memory JSON"},
    {"comm-groups", true, "comm-group-configuration", "communicator groups JSON ({\"id\": [ranks]})"},
    {"scenario", true, nullptr, "one JSON file with workload, configs and models (docs/scenario.md)"},
    {"link", true, nullptr, "a share link from the browser (or `astrolabe share`): the scenario it holds"},
    {"network-model", true, nullptr, "analytical | congestion | flow"},
    {"compute-model", true, nullptr, "system (roofline-enabled decides), trace, roofline or systolic"},
    {"systolic-array", true, nullptr, "systolic model: RxC array of MAC units (default 128x128)"},
    {"systolic-dataflow", true, nullptr, "systolic model: os, ws or is (default ws)"},
    {"systolic-clock-ghz", true, nullptr, "systolic model: array clock in GHz (default 1)"},
    {"ignore-ctrl-deps", false, nullptr,
     "treat ctrl_deps as call nesting, not ordering (PyTorch host traces)"},
    {"report", true, nullptr, "write the JSON report (docs/report.md) here"},
    {"timeline", true, nullptr, "write a Chrome trace-event timeline here"},
    {"timeline-npus", true, nullptr,
     "timeline of NPUs A-B only (or one NPU A): a smaller file for large runs"},
    {"timeline-window", true, nullptr, "timeline of the nodes overlapping T0:T1 only (ns, or 10ms:12ms)"},
    {"quiet", false, nullptr, "no summary on stdout and no progress bar"},
    {"symmetry", true, nullptr,
     "on (default): simulate one NPU per class of provably identical NPUs, with the full run's results; "
     "off: simulate every NPU"},
    {"fast-ring", true, nullptr,
     "on (default): time ring collectives without per-packet events when provably exact "
     "(docs/performance.md); off: every packet an event"},
    {"strict", false, nullptr, "treat every warning (ignored or approximated input) as an error: exit 2"},
    {"max-sim-time", true, nullptr, "stop once simulated time reaches this many ns (partial report, exit 3)"},
    {"max-wall-time", true, nullptr, "stop after this many seconds of simulation (partial report, exit 3)"},
    {"threads", true, nullptr,
     "threads for decoding traces, expanding symmetric results and writing the report (default: every "
     "core); the results are the same for any number"},
    {"logging-folder", true, nullptr, "accepted for ASTRA-sim compatibility; ignored"},
    {"help", false, nullptr, "this text"},
};

// Set by SIGINT; the run loop checks it between slices (nothing else is safe in a signal handler).
volatile std::sig_atomic_t g_interrupted = 0;
void on_interrupt(int) {
    g_interrupted = 1;
}

bool parse_positive(const std::string& s, uint64_t& out) {
    if (s.empty() || s.size() > 18 || s.find_first_not_of("0123456789") != std::string::npos) return false;
    out = std::stoull(s);
    return out > 0;
}

void print_warnings(const std::vector<std::string>& warnings) {
    // Traces of many NPUs repeat the same note; show each distinct line once, and a bounded number.
    std::map<std::string, size_t> seen;
    std::vector<std::string> order;
    for (const auto& w : warnings)
        if (seen[w]++ == 0) order.push_back(w);
    size_t shown = 0;
    for (const auto& w : order) {
        if (++shown > 10) {
            std::fprintf(stderr, "warning: ... and %zu more distinct warnings\n", order.size() - 10);
            break;
        }
        std::fprintf(stderr, "warning: %s\n", w.c_str());
    }
}

// --strict: every warning is an error. Lists them (distinct, counted, sorted) and gives the exit code.
int fail_strict(const std::vector<WarningCount>& warnings) {
    for (const auto& w : warnings)
        std::fprintf(stderr, "error: --strict: %s (%llu time(s))\n", w.message.c_str(),
                     static_cast<unsigned long long>(w.count));
    return 2;
}

// Reads and parses every config the arguments name, collecting all problems.
Status load_configs(const Args& a, config::Scenario& cfg) {
    Status problems;
    // Reads the file --key names (if any) and parses it into `out`; problems are collected, not returned.
    auto load = [&](const char* key, bool required, auto& out, auto parse) {
        std::string path = a.get(key);
        if (path.empty() || path == "empty") {
            if (required) problems.add(std::string("--") + key + ": missing; it is required");
            return;
        }
        auto text = read_file(path, std::string(key) + " configuration");
        if (!text.is_ok()) return problems.merge(text.status());
        auto parsed = parse(text.value(), path);
        if (parsed.is_ok())
            out = std::move(parsed.value());
        else
            problems.merge(parsed.status());
    };
    if (a.has("hardware")) {
        // A real system (docs/hardware.md) supplies the network and system configs (core/hardware).
        if (a.has("network") || a.has("system"))
            problems.add("--hardware: replaces --network and --system; give one or the other");
        auto text = read_file(a.get("hardware"), "hardware description");
        auto hw = text.is_ok() ? config::parse_hardware_json(text.value(), a.get("hardware"))
                               : Result<config::HardwareConfig>(text.status());
        if (!hw.is_ok()) {
            problems.merge(hw.status());
        } else {
            hardware::MappedSystem m = hardware::map_system(hw.value());
            cfg.network = std::move(m.network);
            cfg.system = std::move(m.system);
            cfg.hardware = hw.value(); // each collective timed by NCCL's choice for it
        }
    } else {
        load("network", true, cfg.network, config::parse_network_yaml);
        load("system", true, cfg.system, config::parse_system_json);
    }
    load("memory", false, cfg.memory, config::parse_memory_json);
    uint64_t npus = cfg.network.npus();
    load("comm-groups", false, cfg.groups, [npus](std::string_view t, const std::string& p) {
        return config::parse_comm_groups_json(t, p, npus);
    });
    return problems;
}

// A choice flag spelled by one of config's tables.
template <class E>
void parse_flag(const Args& a, const char* flag, E& out, Status& problems) {
    if (!a.has(flag)) return;
    const std::string v = a.get(flag);
    if (!config::parse_name(v, out))
        problems.add(std::string("--") + flag + ": '" + v + "'; " +
                     config::expected_choice(config::spellings<E>(), v));
}

// The run's scenario from --scenario, --link or the ASTRA-sim style flags; `base` receives the folder
// relative workload prefixes are read from.
Result<config::Scenario> scenario_from_args(const Args& a, std::string& base) {
    config::Scenario sc;
    if (a.has("scenario") && a.has("link")) return Status::error("run: give --scenario or --link, not both");
    if (a.has("scenario") || a.has("link")) {
        for (const char* k : {"workload", "system", "network", "hardware", "memory", "comm-groups"})
            if (a.has(k))
                return Status::error(std::string("run: --") + k + " cannot be combined with --" +
                                     (a.has("link") ? "link" : "scenario") + " (the scenario holds it)");
        // A link's scenario has no folder of its own: relative prefixes are taken from the working directory.
        const std::string path = a.has("link") ? "share link" : a.get("scenario");
        auto text = a.has("link") ? decode_share_link(a.get("link")) : read_file(path, "scenario");
        if (!text.is_ok()) return text.status();
        auto parsed = config::parse_scenario_json(text.value(), path);
        if (!parsed.is_ok()) return parsed.status();
        sc = std::move(parsed.value());
        if (a.has("scenario")) base = std::filesystem::path(path).parent_path().string();
    } else {
        Status problems = load_configs(a, sc);
        if (!a.has("workload")) problems.add("--workload: missing; it is required");
        sc.workload_kind = config::Scenario::WorkloadKind::Prefix;
        sc.workload = a.get("workload");
        if (!problems.is_ok()) return problems;
    }
    // Flags override the scenario's model choices.
    Status problems;
    parse_flag(a, "network-model", sc.network_model, problems);
    parse_flag(a, "compute-model", sc.compute_model, problems);
    if (a.has("systolic-array") &&
        !parse_array_size(a.get("systolic-array"), sc.systolic.rows, sc.systolic.cols))
        problems.add("--systolic-array: '" + a.get("systolic-array") +
                     "'; RxC with whole numbers 1..65536 (e.g. 128x128) was expected");
    parse_flag(a, "systolic-dataflow", sc.systolic.dataflow, problems);
    if (a.has("systolic-clock-ghz") && !parse_clock_ghz(a.get("systolic-clock-ghz"), sc.systolic.clock_ghz))
        problems.add("--systolic-clock-ghz: '" + a.get("systolic-clock-ghz") +
                     "'; a positive number of GHz was expected");
    if (!problems.is_ok()) return problems;
    const bool systolic_flags =
        a.has("systolic-array") || a.has("systolic-dataflow") || a.has("systolic-clock-ghz");
    if (systolic_flags && sc.compute_model != config::ComputeModel::Systolic)
        return Status::error("--systolic-*: these options need --compute-model systolic");
    return sc;
}

// The run options from the flags: what to keep, symmetry, limits.
Result<RunOptions> options_from_args(const Args& a) {
    RunOptions o;
    Status problems;
    const std::string symmetry = a.get("symmetry", "on");
    if (symmetry != "on" && symmetry != "off")
        problems.add("--symmetry: '" + symmetry + "'; on or off was expected");
    o.symmetry = symmetry == "on";
    const std::string fast_ring = a.get("fast-ring", "on");
    if (fast_ring != "on" && fast_ring != "off")
        problems.add("--fast-ring: '" + fast_ring + "'; on or off was expected");
    o.fast_ring = fast_ring == "on";
    o.keep_timeline = a.has("timeline");
    o.keep_names = a.has("timeline");
    o.ignore_ctrl_deps = a.has("ignore-ctrl-deps");
    uint64_t n = 0;
    if (a.has("max-sim-time") && !parse_positive(a.get("max-sim-time"), n))
        problems.add("--max-sim-time: '" + a.get("max-sim-time") +
                     "'; a whole number of ns > 0 was expected");
    o.max_sim_ns = static_cast<TimeNs>(n);
    n = 0;
    if (a.has("max-wall-time") && !parse_positive(a.get("max-wall-time"), n))
        problems.add("--max-wall-time: '" + a.get("max-wall-time") +
                     "'; a whole number of seconds > 0 was expected");
    o.max_wall_s = static_cast<double>(n);
    n = 0;
    if (a.has("threads") && (!parse_positive(a.get("threads"), n) || n > 256))
        problems.add("--threads: '" + a.get("threads") + "'; a whole number 1..256 was expected");
    // Smaller slices under a wall-time limit, so the run stops close to it.
    o.slice_events = o.max_wall_s > 0 ? 4096 : uint64_t(1) << 16;
    if (!problems.is_ok()) return problems;
    return o;
}

// A run that cannot finish is bad input: the stuck nodes on stderr.
int fail_stuck(const RunResult& r) {
    std::fprintf(stderr, "error: the simulation ended with NPUs that did not finish:\n");
    size_t shown = 0;
    for (const auto& s : r.stuck) {
        if (++shown > 20) break;
        std::fprintf(stderr, "  NPU %u: %s\n", s.npu, s.what.c_str());
    }
    return 2;
}

} // namespace

int fail(const std::string& message) {
    // Messages may quote bytes of a bad file: control bytes (a NUL would cut the line short) are escaped.
    std::string out;
    out.reserve(message.size() + 1);
    for (char c : message) {
        auto b = static_cast<unsigned char>(c);
        if (b < 0x20 && c != '\n' && c != '\t') {
            char hex[8];
            std::snprintf(hex, sizeof hex, "\\x%02x", b);
            out += hex;
        } else {
            out += c;
        }
    }
    out += '\n';
    std::fwrite(out.data(), 1, out.size(), stderr);
    return 2;
}

constexpr const char* kRunUsage = "astrolabe run: simulate a workload\n\n";

int run_command(const std::vector<std::string>& argv) {
    Args a;
    if (int rc = parse_command_line(argv, kRunOptions, kRunUsage, a); rc != kParsed) return rc;
    if (!a.positionals.empty())
        return fail("run: unexpected argument '" + a.positionals[0] + "' (see --help)");
    // Values with a fixed set of choices are checked first, so the message names the flag given.
    if (Status choices = check_run_choices(a); !choices.is_ok()) return fail(choices.message());
    auto tl_filter = timeline_filter(a);
    if (!tl_filter.is_ok()) return fail(tl_filter.status().message());
    std::string base;
    auto scenario = scenario_from_args(a, base);
    if (!scenario.is_ok()) return fail(scenario.status().message());
    auto options = options_from_args(a);
    if (!options.is_ok()) return fail(options.status().message());
    const bool quiet = a.has("quiet"), strict = a.has("strict");
    ThreadPool pool(a.has("threads") ? static_cast<unsigned>(std::stoul(a.get("threads")))
                                     : default_threads());
    options.value().runner = &pool;

    CliHost host(base, !quiet);
    auto opened = Session::open(std::move(scenario.value()), options.value(), host);
    host.end_progress();
    if (!opened.is_ok()) return fail(explain_trace_problems(opened.status(), a));
    Session& session = *opened.value();
    print_warnings(session.warnings());
    // Load warnings stop a strict run before it starts; the run's own (notes, unreceived messages) after it.
    if (strict && !session.warnings().empty()) return fail_strict(count_warnings(session.warnings()));

    // Limits and Ctrl-C stop the run at the next slice boundary and still write a report, marked partial.
    g_interrupted = 0;
    auto previous = std::signal(SIGINT, on_interrupt);
    while (session.step(100))
        if (g_interrupted)
            session.cancel("interrupted (Ctrl-C) at simulated time " + std::to_string(session.sim_now()) +
                           " ns");
    std::signal(SIGINT, previous);
    host.end_progress();
    if (session.phase() == SessionPhase::Failed) return fail("error: " + session.stop_reason());
    const RunResult& result = session.result();
    const bool stopped = session.phase() == SessionPhase::Stopped;
    if (strict && !stopped && result.complete) {
        auto found = collect_warnings(session.warnings(), result);
        if (!found.empty()) return fail_strict(found);
    }

    int rc = 0;
    if (a.has("report")) {
        Status st = write_file_streamed(a.get("report"),
                                        [&session](ByteSink& sink) { session.write_report_json(sink); });
        if (!st.is_ok()) rc = fail(st.message());
    }
    if (a.has("timeline")) {
        const std::string timeline = timeline_json(session.simulation(), result, tl_filter.value());
        // Large runs make timelines of hundreds of MB: say so before writing, and how to keep it smaller.
        if (timeline.size() > (size_t(64) << 20))
            std::fprintf(stderr,
                         "note: the timeline %s is %s; --timeline-npus A-B and --timeline-window T0:T1 "
                         "write part of it\n",
                         a.get("timeline").c_str(), format_bytes(timeline.size()).c_str());
        Status st = write_file(a.get("timeline"), timeline);
        if (!st.is_ok()) rc = fail(st.message());
    }
    // stdout carries only the summary (scripts read it); warnings go to stderr.
    if (!quiet && (result.complete || stopped)) std::fputs(session.report_summary().c_str(), stdout);
    std::fputs(run_warnings_text(result).c_str(), stderr);
    if (stopped) {
        std::fprintf(stderr, "stopped early: %s; the report is partial\n", session.stop_reason().c_str());
        return rc ? rc : 3;
    }
    if (!result.complete) return fail_stuck(result);
    return rc;
}

} // namespace astrolabe::cli

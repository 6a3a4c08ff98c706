// `astrolabe run`: load configs and traces, simulate, print the summary, write the report and timeline.
#include "core/config/config_parse.h"
#include "core/config/scenario.h"
#include "core/hardware/hardware_mapping.h"
#include "core/report/report.h"
#include "core/report/warnings.h"
#include "core/session/scenario_setup.h"
#include "core/session/session.h"
#include "core/session/share_link.h"
#include "native/args.h"
#include "native/commands.h"
#include "native/files.h"
#include "native/progress.h"

#include <chrono>
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
    {"quiet", false, nullptr, "no summary on stdout and no progress bar"},
    {"symmetry", true, nullptr,
     "on (default): simulate one NPU per class of provably identical NPUs, with the full run's results; "
     "off: simulate every NPU"},
    {"strict", false, nullptr, "treat every warning (ignored or approximated input) as an error: exit 2"},
    {"max-sim-time", true, nullptr, "stop once simulated time reaches this many ns (partial report, exit 3)"},
    {"max-wall-time", true, nullptr, "stop after this many seconds of simulation (partial report, exit 3)"},
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

#ifndef ASTROLABE_SAMPLES_DIR
#define ASTROLABE_SAMPLES_DIR "samples"
#endif

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
Status load_configs(const Args& a, SessionConfig& cfg) {
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

// The progress line of a run: nodes done, the simulated time reached and the event rate since the start.
std::string run_progress_detail(const Simulation& sim, const ProgressBar& bar) {
    char buf[160];
    double wall = bar.elapsed_s();
    double rate = wall > 0 ? static_cast<double>(sim.events()) / wall : 0.0;
    std::snprintf(buf, sizeof buf, "%llu/%llu nodes  sim %.3f ms  %.2f M events/s",
                  static_cast<unsigned long long>(sim.nodes_done()),
                  static_cast<unsigned long long>(sim.nodes_total()), static_cast<double>(sim.now()) / 1e6,
                  rate / 1e6);
    return buf;
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

int run_command(const std::vector<std::string>& argv) {
    auto parsed = parse_args(argv, kRunOptions);
    if (!parsed.is_ok()) return fail(parsed.status().message());
    const Args& a = parsed.value();
    if (a.has("help")) {
        std::printf("astrolabe run: simulate a workload\n\n%s", options_help(kRunOptions).c_str());
        return 0;
    }
    if (!a.positionals.empty())
        return fail("run: unexpected argument '" + a.positionals[0] + "' (see --help)");

    SessionConfig cfg;
    std::unique_ptr<TraceSource> traces;
    std::string workload_label;
    if (a.has("scenario") && a.has("link")) return fail("run: give --scenario or --link, not both");
    if (a.has("scenario") || a.has("link")) {
        for (const char* k : {"workload", "system", "network", "hardware", "memory", "comm-groups"})
            if (a.has(k))
                return fail(std::string("run: --") + k + " cannot be combined with --" +
                            (a.has("link") ? "link" : "scenario") + " (the scenario holds it)");
        // A link's scenario has no folder of its own: relative prefixes are taken from the working directory.
        std::string path = a.has("link") ? "share link" : a.get("scenario");
        std::string text;
        if (a.has("link")) {
            auto decoded = decode_share_link(a.get("link"));
            if (!decoded.is_ok()) return fail(decoded.status().message());
            text = std::move(decoded.value());
        } else {
            auto file = read_file(path, "scenario");
            if (!file.is_ok()) return fail(file.status().message());
            text = std::move(file.value());
        }
        auto sc = config::parse_scenario_json(text, path);
        if (!sc.is_ok()) return fail(sc.status().message());
        const auto kind = sc.value().workload_kind;
        const std::string workload = sc.value().workload;
        auto setup = scenario_setup(std::move(sc.value()), a.get("network-model"), a.get("compute-model"));
        if (!setup.is_ok()) return fail(path + ": " + setup.status().message());
        cfg = std::move(setup.value().config);
        workload_label = setup.value().workload_label;
        if (setup.value().embedded) {
            traces = std::move(setup.value().embedded);
        } else {
            std::filesystem::path base =
                a.has("link") ? std::filesystem::path() : std::filesystem::path(path).parent_path();
            std::string w =
                kind == config::Scenario::WorkloadKind::Sample
                    ? std::string(ASTROLABE_SAMPLES_DIR) + "/" + workload
                    : (std::filesystem::path(workload).is_absolute() ? workload : (base / workload).string());
            auto src = FileTraceSource::open(w);
            if (!src.is_ok()) return fail(src.status().message());
            traces = std::make_unique<FileTraceSource>(std::move(src.value()));
        }
    } else {
        Status problems = load_configs(a, cfg);
        auto src = FileTraceSource::open(a.get("workload"));
        if (!src.is_ok()) problems.merge(src.status());
        problems.merge(
            set_models(a.get("network-model", "analytical"), a.get("compute-model", "system"), cfg));
        if (!problems.is_ok()) return fail(problems.message());
        traces = std::make_unique<FileTraceSource>(std::move(src.value()));
        workload_label = a.get("workload");
    }
    {
        Status problems;
        if (a.has("systolic-array") &&
            !parse_array_size(a.get("systolic-array"), cfg.systolic.rows, cfg.systolic.cols))
            problems.add("--systolic-array: '" + a.get("systolic-array") +
                         "'; RxC with whole numbers 1..65536 (e.g. 128x128) was expected");
        if (a.has("systolic-dataflow")) {
            cfg.systolic.dataflow = a.get("systolic-dataflow");
            if (cfg.systolic.dataflow != "os" && cfg.systolic.dataflow != "ws" &&
                cfg.systolic.dataflow != "is")
                problems.add("--systolic-dataflow: '" + cfg.systolic.dataflow +
                             "'; os, ws or is was expected");
        }
        if (a.has("systolic-clock-ghz") &&
            !parse_clock_ghz(a.get("systolic-clock-ghz"), cfg.systolic.clock_ghz))
            problems.add("--systolic-clock-ghz: '" + a.get("systolic-clock-ghz") +
                         "'; a positive number of GHz was expected");
        const std::string symmetry = a.get("symmetry", "on");
        if (symmetry != "on" && symmetry != "off")
            problems.add("--symmetry: '" + symmetry + "'; on or off was expected");
        cfg.symmetry = symmetry == "on";
        if (!problems.is_ok()) return fail(problems.message());
        bool systolic_flags =
            a.has("systolic-array") || a.has("systolic-dataflow") || a.has("systolic-clock-ghz");
        if (systolic_flags && cfg.compute_model != ComputeModelKind::Systolic)
            return fail("--systolic-*: these options need --compute-model systolic");
    }
    cfg.keep_timeline = a.has("timeline");
    cfg.keep_names = a.has("timeline");
    cfg.ignore_ctrl_deps = a.has("ignore-ctrl-deps");
    // Custom collective ETs are named relative to the working directory, as in ASTRA-sim.
    cfg.read_file = [](const std::string& path, std::string& bytes) {
        auto r = read_file(path, "custom collective ET");
        if (!r.is_ok()) return r.status();
        bytes = std::move(r.value());
        return Status::ok();
    };
    const bool quiet = a.has("quiet");

    std::vector<std::string> warnings;
    Result<std::unique_ptr<Simulation>> built = Status::ok();
    {
        ProgressBar load_bar("loading", !quiet);
        built =
            build_simulation(std::move(cfg), *traces, warnings, [&load_bar](uint32_t done, uint32_t total) {
                load_bar.update(done, total, "traces");
            });
    }
    print_warnings(warnings);
    // The simulation holds the decoded graphs; the trace bytes (all of them, for generated or embedded
    // workloads: 235 MB for a 32768-NPU training step) are not needed any more.
    traces.reset();
    if (!built.is_ok()) return fail(built.status().message());
    // Load warnings stop a strict run before it starts; the run's own (notes, unreceived messages) after it.
    const bool strict = a.has("strict");
    if (strict && !warnings.empty()) return fail_strict(count_warnings(warnings));
    Simulation& sim = *built.value();

    // Limits and Ctrl-C stop the run at the next slice boundary and still write a report, marked partial.
    uint64_t max_sim_ns = 0;
    double max_wall_s = 0;
    if (a.has("max-sim-time") && !parse_positive(a.get("max-sim-time"), max_sim_ns))
        return fail("--max-sim-time: '" + a.get("max-sim-time") + "'; a whole number of ns > 0 was expected");
    if (a.has("max-wall-time")) {
        uint64_t ms = 0;
        if (!parse_positive(a.get("max-wall-time"), ms))
            return fail("--max-wall-time: '" + a.get("max-wall-time") +
                        "'; a whole number of seconds > 0 was expected");
        max_wall_s = static_cast<double>(ms);
    }
    // Smaller slices under a wall-time limit, so the run stops close to it; a simulated-time limit is exact
    // (no event after it runs).
    const uint64_t slice = max_wall_s > 0 ? 4096 : uint64_t(1) << 16;
    const TimeNs until = max_sim_ns ? static_cast<TimeNs>(max_sim_ns) : kTimeNever;
    std::string stopped;
    g_interrupted = 0;
    auto previous = std::signal(SIGINT, on_interrupt);
    auto run_start = std::chrono::steady_clock::now();
    {
        ProgressBar bar("simulating", !quiet);
        while (sim.run_slice(slice, until)) {
            if (bar.due()) bar.update(sim.nodes_done(), sim.nodes_total(), run_progress_detail(sim, bar));
            if (g_interrupted) {
                stopped = "interrupted (Ctrl-C) at simulated time " + std::to_string(sim.now()) + " ns";
                break;
            }
            if (max_sim_ns && sim.next_event_time() > until) {
                stopped = "--max-sim-time " + std::to_string(max_sim_ns) + " ns reached";
                break;
            }
            double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - run_start).count();
            if (max_wall_s > 0 && wall >= max_wall_s) {
                stopped = "--max-wall-time " + a.get("max-wall-time") + " s reached at simulated time " +
                          std::to_string(sim.now()) + " ns";
                break;
            }
        }
    }
    std::signal(SIGINT, previous);
    auto end = std::chrono::steady_clock::now();
    RunResult result = sim.result();
    ReportContext ctx = report_context(sim, workload_label);
    ctx.wall_s = std::chrono::duration<double>(end - run_start).count();
    ctx.partial = !stopped.empty();
    ctx.partial_reason = stopped;
    ctx.load_warnings = std::move(warnings);
    if (strict && stopped.empty() && result.complete) {
        auto found = collect_warnings(ctx.load_warnings, result);
        if (!found.empty()) return fail_strict(found);
    }

    int rc = 0;
    if (a.has("report")) {
        Status st = write_file(a.get("report"), report_json(result, ctx));
        if (!st.is_ok()) rc = fail(st.message());
    }
    if (a.has("timeline")) {
        Status st = write_file(a.get("timeline"), timeline_json(sim, result));
        if (!st.is_ok()) rc = fail(st.message());
    }
    // A run that cannot finish is bad input (exit 2, the stuck nodes on stderr): no result on stdout.
    if (!quiet && (result.complete || !stopped.empty()))
        std::fputs(report_summary(result, ctx).c_str(), stdout);
    if (!stopped.empty()) {
        std::fprintf(stderr, "stopped early: %s; the report is partial\n", stopped.c_str());
        return rc ? rc : 3;
    }
    if (!result.complete) {
        std::fprintf(stderr, "error: the simulation ended with NPUs that did not finish:\n");
        size_t shown = 0;
        for (const auto& s : result.stuck) {
            if (++shown > 20) break;
            std::fprintf(stderr, "  NPU %u: %s\n", s.npu, s.what.c_str());
        }
        return 2; // the inputs cannot run to completion: bad input
    }
    if (!result.unreceived.empty() && quiet) {
        const auto& k = result.unreceived.front().key;
        std::fprintf(
            stderr, "warning: %zu message(s) were sent but never received, e.g. NPU %u -> NPU %u, tag %llu\n",
            result.unreceived.size(), k.src, k.dst, static_cast<unsigned long long>(k.tag));
    }
    return rc;
}

} // namespace astrolabe::cli

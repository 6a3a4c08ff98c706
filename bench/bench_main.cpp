// astrolabe_bench: whole simulations at scale and an engine microbenchmark, timed. For each case it runs
// the case several times and prints the median run: NPUs, events, load and run wall time, events/s, the
// peak resident memory of that case, and the simulated time (which must never change between builds).
//
//   astrolabe_bench [--runs N] [--filter SUBSTRING] [--skip SUBSTRING] [--json FILE]
//
//   astrolabe_bench --write-asym DIR NPUS   (the asymmetric workload as .et files, for ASTRA-sim)
//   astrolabe_bench --threads-profile --filter CASE  (the parts --threads spreads, at 1 and 2 threads;
//                                                  generated-step cases only, bench/threads_profile.h)
//   astrolabe_bench --setup-pieces FILE [--runs N]  (a search point's set-up piece by piece,
//   bench/setup_pieces.h) astrolabe_bench --windows NS --filter CASE   (also: how the run splits into windows
//   of lookahead NS,
//                                                  bench/window_profile.h; trace-file cases only)
//
// --filter keeps the cases whose name contains SUBSTRING, --skip drops them (e.g. --skip 32768 leaves out
// the minute-long training steps).
//
// Wall time is the simulation only (`run_s`); building it (decoding traces, or generating them) is `load_s`.
// Peak memory is per case on Linux (the kernel's high-water mark is reset before each case); in the wasm
// build it is the heap size, which only grows, so there it is the peak so far.
#include "bench/asym_workload.h"
#include "bench/engine_microbench.h"
#include "bench/setup_pieces.h"
#ifdef ASTROLABE_BENCH_THREADS
#include "bench/threads_profile.h"
#endif
#include "bench/window_profile.h"
#include "core/config/config_parse.h"
#include "core/config/scenario.h"
#include "core/generate/microbench.h"
#include "core/session/session.h"
#include "core/trace/trace_reader.h"

#ifdef __EMSCRIPTEN__
#include <emscripten/heap.h>
#else
#include <sys/resource.h>
#endif

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

using namespace astrolabe;

namespace {

// [SECTION] cases

enum class CaseKind : uint8_t { Microbench, Scenario, Engine, Asym };

struct Case {
    const char* name;
    CaseKind kind;
    // Microbench: the network YAML, the system JSON and the collective; Scenario: a scenario JSON (a
    // generated workload) in `text`; Engine: the engine microbenchmark, `workload.npus` actors; Asym: the
    // network YAML, the system JSON and bench/asym_workload.h's traces for `workload.npus` ranks.
    const char* network_yaml;
    const char* text;
    generate::MicrobenchParams workload;
    config::NetworkModel model = config::NetworkModel::Analytical;
    uint32_t npus = 0;    // shown in the table
    bool symmetry = true; // false: every NPU simulated (the reference for the symmetric run's result)
};

struct Sample {
    uint64_t events = 0;
    double wall_s = 0;
    double load_s = 0;
    TimeNs total_ns = 0;
    uint32_t simulated = 0; // NPUs actually simulated (one per class under symmetry)
};

// --fast-ring off: every collective through the event path (the reference for the ring fast path).
bool g_fast_ring = true;
// --windows: the lookahead of the PDES window profile (0: none).
TimeNs g_window_ns = 0;
// --threads-profile: time the result expansion and the report at 1 and 2 threads after each Scenario run.
bool g_threads_profile = false;

[[noreturn]] void die(const char* name, const std::string& why) {
    std::fprintf(stderr, "%s: %s\n", name, why.c_str());
    std::exit(2);
}

// [SECTION] peak memory

void reset_peak_memory() {
#if defined(__linux__) && !defined(__EMSCRIPTEN__)
    // "5" resets the process's VmHWM (Linux >= 4.0), so each case reports its own peak.
    if (FILE* f = std::fopen("/proc/self/clear_refs", "w")) {
        std::fputs("5", f);
        std::fclose(f);
    }
#endif
}

double peak_memory_mb() {
#ifdef __EMSCRIPTEN__
    // The wasm heap only grows, so its size now is its peak: the simulator's memory in the wasm build.
    return static_cast<double>(emscripten_get_heap_size()) / (1024.0 * 1024.0);
#else
#if defined(__linux__)
    if (FILE* f = std::fopen("/proc/self/status", "r")) {
        char line[256];
        double kb = -1;
        while (std::fgets(line, sizeof line, f))
            if (!std::strncmp(line, "VmHWM:", 6)) kb = std::atof(line + 6);
        std::fclose(f);
        if (kb >= 0) return kb / 1024.0;
    }
#endif
    rusage u{};
    getrusage(RUSAGE_SELF, &u);
    return static_cast<double>(u.ru_maxrss) / 1024.0; // Linux reports KiB
#endif
}

// [SECTION] running one case

// Takes the traces: they are released once the simulation is built, as the CLI does.
Sample run_simulation(const Case& c, std::chrono::steady_clock::time_point t0, config::Scenario cfg,
                      std::unique_ptr<TraceSource> traces) {
    std::vector<std::string> warnings;
    RunOptions options;
    options.keep_names = false;
    options.symmetry = c.symmetry;
    options.fast_ring = g_fast_ring;
    auto sim = build_simulation(std::move(cfg), *traces, warnings, options);
    traces.reset();
    if (!sim.is_ok()) die(c.name, sim.status().message());
    auto t1 = std::chrono::steady_clock::now();
    if (g_window_ns > 0)
        bench::print_window_profile(c.name, g_window_ns, bench::run_in_windows(*sim.value(), g_window_ns));
    else
        sim.value()->run_to_end();
    auto t2 = std::chrono::steady_clock::now();
    RunResult r = sim.value()->result();
    if (!r.complete) die(c.name, "the run did not complete");
    return {r.events, std::chrono::duration<double>(t2 - t1).count(),
            std::chrono::duration<double>(t1 - t0).count(), r.total_ns, r.simulated_npus};
}

Sample run_once(const Case& c) {
    auto t0 = std::chrono::steady_clock::now();
    if (c.kind == CaseKind::Engine) {
        EngineBenchResult e = run_engine_microbench(c.workload.npus, 20'000'000);
        auto t1 = std::chrono::steady_clock::now();
        return {e.events, std::chrono::duration<double>(t1 - t0).count(), 0.0, e.end_ns, c.workload.npus};
    }
    if (c.kind == CaseKind::Scenario) {
        auto sc = config::parse_scenario_json(c.text, c.name);
        if (!sc.is_ok()) die(c.name, sc.status().message());
        // Through the Session, as `astrolabe run --scenario` runs it (the generator runs inside open()).
        sc.value().network_model =
            c.model == config::NetworkModel::Flow ? c.model : config::NetworkModel::Analytical;
        RunOptions options;
        options.keep_names = false;
        options.symmetry = c.symmetry;
        options.fast_ring = g_fast_ring;
        options.slice_events = uint64_t(1) << 20;
        SessionHost no_files;
        auto session = Session::open(std::move(sc.value()), options, no_files);
        if (!session.is_ok()) die(c.name, session.status().message());
        auto t1 = std::chrono::steady_clock::now();
        session.value()->run();
        auto t2 = std::chrono::steady_clock::now();
        const RunResult& r = session.value()->result();
        if (!r.complete) die(c.name, "the run did not complete");
#ifdef ASTROLABE_BENCH_THREADS
        if (g_threads_profile) bench::print_threads_profile(c.name, *session.value(), {1, 2}, 3);
#endif
        return {r.events, std::chrono::duration<double>(t2 - t1).count(),
                std::chrono::duration<double>(t1 - t0).count(), r.total_ns, r.simulated_npus};
    }
    config::Scenario cfg;
    cfg.network = config::parse_network_yaml(c.network_yaml, "bench network").value();
    cfg.system = config::parse_system_json(c.text, "bench system").value();
    cfg.network_model = c.model;
    auto traces = std::make_unique<MemoryTraceSource>();
    if (c.kind == CaseKind::Asym) {
        for (uint32_t r = 0; r < c.workload.npus; ++r)
            traces->add("asym." + std::to_string(r) + ".et", trace::encode_trace(bench::asym_trace(r)));
        return run_simulation(c, t0, std::move(cfg), std::move(traces));
    }
    // All NPUs run the same DAG: encode once, share the bytes.
    std::string bytes = trace::encode_trace(generate::microbench_trace(c.workload, 0));
    for (uint32_t r = 0; r < c.workload.npus; ++r)
        traces->add("bench." + std::to_string(r) + ".et", bytes);
    return run_simulation(c, t0, std::move(cfg), std::move(traces));
}

// [SECTION] the case list

const char* kRingSys =
    R"({"scheduling-policy": "LIFO", "endpoint-delay": 10, "active-chunks-per-dimension": 1,
    "preferred-dataset-splits": 4, "collective-optimization": "localBWAware", "local-mem-bw": 1600})";
const char* kRing1024 = "topology: [Ring]\nnpus_count: [1024]\nbandwidth: [50]\nlatency: [500]\n";
const char* kRing2048 = "topology: [Ring]\nnpus_count: [2048]\nbandwidth: [50]\nlatency: [500]\n";
const char* kRing4096 = "topology: [Ring]\nnpus_count: [4096]\nbandwidth: [50]\nlatency: [500]\n";
// One Switch of 8192 NPUs: collective-perf's shape (hardware_mapping.h), a whole-system ring on one
// dimension. Its symmetric run had tested every translation of the ring member by member (8192^2).
const char* kSwitch8192 = "topology: [Switch]\nnpus_count: [8192]\nbandwidth: [400]\nlatency: [100]\n";
const char* k2d =
    "topology: [Switch, Ring]\nnpus_count: [32, 32]\nbandwidth: [400, 50]\nlatency: [100, 500]\n";
const char* k3d = "topology: [Switch, Ring, Ring]\nnpus_count: [8, 16, 32]\nbandwidth: [400, 100, 50]\n"
                  "latency: [100, 500, 500]\n";

// A GPT-3-shaped training step at 32768 NPUs (DP 128 x TP 8 x PP 32, 32 layers, 2 micro-batches,
// roofline compute at 900 TFLOPS). A ring all-reduce costs each member 2 (D - 1) packets, so the events grow
// with NPUs x DP; DP 128 keeps the step to a few hundred million events. The
// generator numbers ranks DP fastest, so the network's first dimension is the DP ring, the second the TP
// switch and the third the PP ring. The network model is the
// case's (a scenario override).
// The same step with DP 32 and 64 (8192 and 16384 NPUs): memory and load time against NPUs.
std::string gpt_step(uint32_t dp) {
    const std::string d = std::to_string(dp);
    return R"({"schema": "astrolabe.scenario/1",
  "workload": {"generate": {"kind": "transformer", "preset": "gpt3-175b", "layers": 32, "batch": 16,
               "micro-batch": 8, "dp": )" +
           d + R"(, "tp": 8, "pp": 32}},
  "network": {"topology": ["Ring", "Switch", "Ring"], "npus_count": [)" +
           d + R"(, 8, 32],
              "bandwidth": [50, 400, 50], "latency": [500, 100, 500]},
  "system": {"scheduling-policy": "LIFO", "endpoint-delay": 10, "active-chunks-per-dimension": 1,
             "preferred-dataset-splits": 4, "collective-optimization": "localBWAware", "local-mem-bw": 1600,
             "roofline-enabled": 1, "peak-perf": 900,
             "all-reduce-implementation": ["ring", "ring", "ring"],
             "all-gather-implementation": ["ring", "ring", "ring"],
             "reduce-scatter-implementation": ["ring", "ring", "ring"],
             "all-to-all-implementation": ["direct", "direct", "direct"]},
  "compute_model": "roofline"})";
}
// The same step at 131072 and 1048576 NPUs (DP 512 and 4096): the generator vouches for its translations,
// so only the 32 representatives' traces are ever made (docs/symmetry.md).
const std::string kGen128k = gpt_step(512);
const std::string kGen1m = gpt_step(4096);
const std::string kGen8k = gpt_step(32);
const std::string kGen16k = gpt_step(64);
const std::string kGen32kText = gpt_step(128);
const char* kGen32k = kGen32kText.c_str();

const Case kCases[] = {
    // The event engine alone, with the real mix of same-tick, endpoint-delay and network-delay events.
    {"engine_mix_4096",
     CaseKind::Engine,
     nullptr,
     nullptr,
     {trace::CollectiveType::AllReduce, 0, 4096, 1, 0},
     config::NetworkModel::Analytical,
     4096},
    // ASTRA-sim's reference points: about 7 s and 365 MB at 1024 NPUs, 212 s and 5.6 GB at 4096 (issue 7).
    {"allreduce_ring_1024_1M",
     CaseKind::Microbench,
     kRing1024,
     kRingSys,
     {trace::CollectiveType::AllReduce, 1u << 20, 1024, 1, 0},
     config::NetworkModel::Analytical,
     1024},
    {"allreduce_ring_4096_1M",
     CaseKind::Microbench,
     kRing4096,
     kRingSys,
     {trace::CollectiveType::AllReduce, 1u << 20, 4096, 1, 0},
     config::NetworkModel::Analytical,
     4096},
    // The same two with every NPU simulated: the symmetric runs above must give the same simulated_ns.
    {"allreduce_ring_1024_1M_full",
     CaseKind::Microbench,
     kRing1024,
     kRingSys,
     {trace::CollectiveType::AllReduce, 1u << 20, 1024, 1, 0},
     config::NetworkModel::Analytical,
     1024,
     false},
    {"allreduce_ring_4096_1M_full",
     CaseKind::Microbench,
     kRing4096,
     kRingSys,
     {trace::CollectiveType::AllReduce, 1u << 20, 4096, 1, 0},
     config::NetworkModel::Analytical,
     4096,
     false},
    {"allreduce_switch_8192_1M",
     CaseKind::Microbench,
     kSwitch8192,
     kRingSys,
     {trace::CollectiveType::AllReduce, 1u << 20, 8192, 1, 0},
     config::NetworkModel::Analytical,
     8192},
    {"allreduce_ring_1024",
     CaseKind::Microbench,
     kRing1024,
     kRingSys,
     {trace::CollectiveType::AllReduce, 64u << 20, 1024, 1, 0},
     config::NetworkModel::Analytical,
     1024},
    {"allreduce_2d_32x32",
     CaseKind::Microbench,
     k2d,
     kRingSys,
     {trace::CollectiveType::AllReduce, 64u << 20, 1024, 4, 10},
     config::NetworkModel::Analytical,
     1024},
    {"allgather_3d_4096",
     CaseKind::Microbench,
     k3d,
     kRingSys,
     {trace::CollectiveType::AllGather, 16u << 20, 4096, 2, 10},
     config::NetworkModel::Analytical,
     4096},
    // The congestion-aware (store-and-forward) and flow (max-min fair) models on the same kind of runs.
    // ASTRA-sim's congestion-aware backend takes 9.6 s at 1024 NPUs and 65 s at 2048 (issue 4).
    {"cong_allreduce_ring_1024_1M",
     CaseKind::Microbench,
     kRing1024,
     kRingSys,
     {trace::CollectiveType::AllReduce, 1u << 20, 1024, 1, 0},
     config::NetworkModel::Congestion,
     1024},
    {"flow_allreduce_ring_1024_1M",
     CaseKind::Microbench,
     kRing1024,
     kRingSys,
     {trace::CollectiveType::AllReduce, 1u << 20, 1024, 1, 0},
     config::NetworkModel::Flow,
     1024},
    // Symmetric under both link models (links fold onto the representative's, docs/symmetry.md), and the
    // 1024-NPU runs again with every NPU simulated: the same simulated_ns.
    {"cong_allreduce_ring_4096_1M",
     CaseKind::Microbench,
     kRing4096,
     kRingSys,
     {trace::CollectiveType::AllReduce, 1u << 20, 4096, 1, 0},
     config::NetworkModel::Congestion,
     4096},
    {"flow_allreduce_ring_4096_1M",
     CaseKind::Microbench,
     kRing4096,
     kRingSys,
     {trace::CollectiveType::AllReduce, 1u << 20, 4096, 1, 0},
     config::NetworkModel::Flow,
     4096},
    {"cong_allreduce_ring_1024_1M_full",
     CaseKind::Microbench,
     kRing1024,
     kRingSys,
     {trace::CollectiveType::AllReduce, 1u << 20, 1024, 1, 0},
     config::NetworkModel::Congestion,
     1024,
     false},
    {"flow_allreduce_ring_1024_1M_full",
     CaseKind::Microbench,
     kRing1024,
     kRingSys,
     {trace::CollectiveType::AllReduce, 1u << 20, 1024, 1, 0},
     config::NetworkModel::Flow,
     1024,
     false},
    {"cong_allgather_3d_4096",
     CaseKind::Microbench,
     k3d,
     kRingSys,
     {trace::CollectiveType::AllGather, 16u << 20, 4096, 2, 10},
     config::NetworkModel::Congestion,
     4096},
    {"flow_allgather_3d_4096",
     CaseKind::Microbench,
     k3d,
     kRingSys,
     {trace::CollectiveType::AllGather, 16u << 20, 4096, 2, 10},
     config::NetworkModel::Flow,
     4096},
    // No symmetry to exploit (issue 18): every rank's compute differs (bench/asym_workload.h), 4 chunks
    // per collective, every NPU simulated, under the analytical and the congestion model.
    {"asym_ring_1024",
     CaseKind::Asym,
     kRing1024,
     kRingSys,
     {trace::CollectiveType::AllReduce, 0, 1024, 1, 0},
     config::NetworkModel::Analytical,
     1024},
    {"asym_ring_2048",
     CaseKind::Asym,
     kRing2048,
     kRingSys,
     {trace::CollectiveType::AllReduce, 0, 2048, 1, 0},
     config::NetworkModel::Analytical,
     2048},
    {"cong_asym_ring_1024",
     CaseKind::Asym,
     kRing1024,
     kRingSys,
     {trace::CollectiveType::AllReduce, 0, 1024, 1, 0},
     config::NetworkModel::Congestion,
     1024},
    {"cong_asym_ring_2048",
     CaseKind::Asym,
     kRing2048,
     kRingSys,
     {trace::CollectiveType::AllReduce, 0, 2048, 1, 0},
     config::NetworkModel::Congestion,
     2048},
    // A generated training step at 8192, 16384 and 32768 NPUs, analytical and flow (issue 7).
    {"train_gpt_8192",
     CaseKind::Scenario,
     nullptr,
     kGen8k.c_str(),
     {},
     config::NetworkModel::Analytical,
     8192},
    {"train_gpt_16384",
     CaseKind::Scenario,
     nullptr,
     kGen16k.c_str(),
     {},
     config::NetworkModel::Analytical,
     16384},
    {"train_gpt_32768", CaseKind::Scenario, nullptr, kGen32k, {}, config::NetworkModel::Analytical, 32768},
    {"train_gpt_131072",
     CaseKind::Scenario,
     nullptr,
     kGen128k.c_str(),
     {},
     config::NetworkModel::Analytical,
     131072},
    {"train_gpt_1048576",
     CaseKind::Scenario,
     nullptr,
     kGen1m.c_str(),
     {},
     config::NetworkModel::Analytical,
     1048576},
    {"flow_train_gpt_32768", CaseKind::Scenario, nullptr, kGen32k, {}, config::NetworkModel::Flow, 32768},
    {"train_gpt_32768_full",
     CaseKind::Scenario,
     nullptr,
     kGen32k,
     {},
     config::NetworkModel::Analytical,
     32768,
     false},
};

struct Row {
    const Case* c;
    Sample median;
    double peak_mb;
};

void write_json(const std::string& path, const std::vector<Row>& rows, int runs) {
    FILE* f = std::fopen(path.c_str(), "w");
    if (!f) die("--json", "cannot write '" + path + "'");
    std::fprintf(f, "{\"schema\": \"astrolabe.bench/1\", \"runs\": %d, \"cases\": [", runs);
    for (size_t i = 0; i < rows.size(); ++i) {
        const Row& r = rows[i];
        std::fprintf(
            f,
            "%s\n  {\"case\": \"%s\", \"npus\": %u, \"events\": %llu, \"load_s\": %.3f, \"wall_s\": %.3f, "
            "\"events_per_s\": %.0f, \"peak_mb\": %.1f, \"simulated_ns\": %llu, \"simulated_npus\": %u}",
            i ? "," : "", r.c->name, r.c->npus, static_cast<unsigned long long>(r.median.events),
            r.median.load_s, r.median.wall_s, static_cast<double>(r.median.events) / r.median.wall_s,
            r.peak_mb, static_cast<unsigned long long>(r.median.total_ns), r.median.simulated);
    }
    std::fprintf(f, "\n]}\n");
    std::fclose(f);
}

// Writes the asymmetric workload for `npus` ranks as DIR/asym.<r>.et with DIR/network.yml and
// DIR/system.json, so ASTRA-sim can run the same inputs side by side (docs/performance.md).
int write_asym(const std::string& dir, uint32_t npus) {
    auto write = [&](const std::string& name, const std::string& bytes) {
        FILE* f = std::fopen((dir + "/" + name).c_str(), "wb");
        if (!f) die("--write-asym", "cannot write '" + dir + "/" + name + "' (does the directory exist?)");
        std::fwrite(bytes.data(), 1, bytes.size(), f);
        std::fclose(f);
    };
    for (uint32_t r = 0; r < npus; ++r)
        write("asym." + std::to_string(r) + ".et", trace::encode_trace(bench::asym_trace(r)));
    write("network.yml", "topology: [ Ring ]\nnpus_count: [ " + std::to_string(npus) +
                             " ]\nbandwidth: [ 50 ]\nlatency: [ 500 ]\n");
    write("system.json", std::string(kRingSys) + "\n");
    std::printf("wrote %u traces to %s/asym.<rank>.et with network.yml and system.json\n", npus, dir.c_str());
    return 0;
}

} // namespace

int main(int argc, char** argv) {
    int runs = 3;
    std::string filter, skip, json, setup;
    for (int i = 1; i < argc; ++i) {
        if (!std::strcmp(argv[i], "--runs") && i + 1 < argc)
            runs = std::max(1, std::atoi(argv[++i]));
        else if (!std::strcmp(argv[i], "--filter") && i + 1 < argc)
            filter = argv[++i];
        else if (!std::strcmp(argv[i], "--skip") && i + 1 < argc)
            skip = argv[++i];
        else if (!std::strcmp(argv[i], "--json") && i + 1 < argc)
            json = argv[++i];
        else if (!std::strcmp(argv[i], "--fast-ring") && i + 1 < argc)
            g_fast_ring = std::strcmp(argv[++i], "off") != 0;
        else if (!std::strcmp(argv[i], "--threads-profile"))
            g_threads_profile = true;
        else if (!std::strcmp(argv[i], "--windows") && i + 1 < argc)
            g_window_ns = static_cast<TimeNs>(std::max(1L, std::atol(argv[++i])));
        else if (!std::strcmp(argv[i], "--setup-pieces") && i + 1 < argc)
            setup = argv[++i];
        else if (!std::strcmp(argv[i], "--write-asym") && i + 2 < argc) {
            const long npus = std::atol(argv[i + 2]);
            if (npus < 2 || npus > (1 << 20)) die("--write-asym", "NPUS must be 2..1048576");
            return write_asym(argv[i + 1], static_cast<uint32_t>(npus));
        } else {
            std::fprintf(
                stderr,
                "usage: astrolabe_bench [--runs N] [--filter SUBSTRING] [--skip SUBSTRING] [--json FILE]\n"
                "                       [--fast-ring on|off]\n"
                "                       [--windows LOOKAHEAD_NS] [--threads-profile]\n"
                "       astrolabe_bench --write-asym DIR NPUS\n"
                "       astrolabe_bench --setup-pieces SPEC_OR_SCENARIO [--runs N]\n");
            return 2;
        }
    }
    if (!setup.empty()) return bench::setup_pieces(setup, runs);
    std::printf("%-28s %6s %9s %11s %8s %8s %11s %8s %13s\n", "case", "NPUs", "simulated", "events", "load_s",
                "wall_s", "events/s", "peak_MB", "simulated_ns");
    std::vector<Row> rows;
    for (const auto& c : kCases) {
        if (!filter.empty() && std::string(c.name).find(filter) == std::string::npos) continue;
        if (!skip.empty() && std::string(c.name).find(skip) != std::string::npos) continue;
        reset_peak_memory();
        std::vector<Sample> samples;
        for (int i = 0; i < runs; ++i)
            samples.push_back(run_once(c));
        std::sort(samples.begin(), samples.end(),
                  [](const Sample& a, const Sample& b) { return a.wall_s < b.wall_s; });
        Row row{&c, samples[samples.size() / 2], peak_memory_mb()};
        const Sample& m = row.median;
        std::printf("%-28s %6u %9u %11llu %8.3f %8.3f %11.0f %8.1f %13llu\n", c.name, c.npus, m.simulated,
                    static_cast<unsigned long long>(m.events), m.load_s, m.wall_s,
                    static_cast<double>(m.events) / m.wall_s, row.peak_mb,
                    static_cast<unsigned long long>(m.total_ns));
        std::fflush(stdout);
        rows.push_back(row);
    }
    if (!json.empty()) write_json(json, rows, runs);
    return 0;
}

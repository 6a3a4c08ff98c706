// Symmetric runs (core/system/scheduling/symmetry.h): simulating one representative NPU per class must give
// the full run's report, byte for byte apart from the engine counters that measure the work done.
//
// Each case runs twice, with config::Scenario::symmetry off (every NPU simulated) and on, and compares the
// whole JSON report (per-NPU figures, collectives, messages, notes, stuck nodes, unreceived messages) and the
// timeline. The cases: every ASTRA-sim reference case, generated collectives on 1-, 2- and 3-D networks with
// ring and direct algorithms, LIFO and FIFO, several chunks and active chunks, send/recv rings, generated
// transformer training and inference with DP/TP/PP/SP, stuck and unmatched workloads; and the inputs where
// the reduction must not be used.
#include "core/config/scenario.h"
#include "core/report/report.h"
#include "core/session/generated_source.h"
#include "core/session/generated_workload.h"
#include "core/session/session.h"
#include "core/system/scheduling/symmetry.h"
#include "support/anchor_cases.h"
#include "support/test_support.h"
#include "support/trace_builder.h"

#include <catch2/catch.hpp>

#include <limits>
#include <string>
#include <vector>

using namespace astrolabe;
using namespace astrolabe::test;

namespace {

struct Outcome {
    std::string report;   // without the engine section
    std::string timeline; // Chrome trace JSON
    uint32_t simulated = 0;
    std::string symmetry;
    bool complete = false;
};

// One run to its end, or (with `events` > 0) stopped after that many events: a partial run where every NPU
// has stuck nodes. With `timeline` the Chrome trace is kept and compared too; without it a generator's own
// traces are made only for representatives. `host` reads the files a scenario names (nullptr: none).
Outcome simulate(config::Scenario cfg, TraceSource& traces, bool symmetry, bool timeline, uint64_t events,
                 SessionHost* host) {
    RunOptions options;
    options.symmetry = symmetry;
    options.keep_timeline = timeline;
    // A run cut after `events` events stops where the events fall: every packet an event, so the cut
    // lands mid-run whichever path the full run would take.
    if (events) options.fast_ring = false;
    std::vector<std::string> warnings;
    auto sim = build_simulation(std::move(cfg), traces, warnings, options, host);
    INFO(sim.status().message());
    REQUIRE(sim.is_ok());
    if (events)
        sim.value()->run_slice(events, std::numeric_limits<TimeNs>::max());
    else
        sim.value()->run_to_end();
    RunResult r = sim.value()->result();
    return {test::report_without_engine(*sim.value(), r, warnings),
            timeline ? timeline_json(*sim.value(), r) : "", r.simulated_npus, r.symmetry, r.complete};
}

Outcome run_once(config::Scenario cfg, TraceSource& traces, bool symmetry) {
    return simulate(std::move(cfg), traces, symmetry, true, 0, &test::data_host());
}

// Runs both ways and requires equal reports; returns the symmetric run's outcome.
Outcome compare(const config::Scenario& cfg, const std::function<std::unique_ptr<TraceSource>()>& traces) {
    auto full_traces = traces();
    Outcome full = run_once(cfg, *full_traces, false);
    auto sym_traces = traces();
    Outcome sym = run_once(cfg, *sym_traces, true);
    INFO("symmetry: " << sym.symmetry);
    CHECK(full.simulated == cfg.network.npus());
    CHECK(sym.report == full.report);
    CHECK(sym.timeline == full.timeline);
    return sym;
}

Outcome compare_traces(const config::Scenario& cfg, const std::vector<std::string>& traces) {
    return compare(cfg, [&] {
        auto src = std::make_unique<MemoryTraceSource>();
        for (size_t i = 0; i < traces.size(); ++i)
            src->add("t." + std::to_string(i) + ".et", traces[i]);
        return std::unique_ptr<TraceSource>(std::move(src));
    });
}

// A scenario JSON with a generated workload, run through the Session as the CLI and browser run it.
Outcome session_once(const config::Scenario& sc, bool symmetry) {
    RunOptions options;
    options.symmetry = symmetry;
    options.keep_timeline = true;
    auto session = test::run_session(sc, options);
    Session& s = *session;
    const RunResult& r = s.result();
    return {test::without_engine(s.report_json()), s.timeline_json(), r.simulated_npus, r.symmetry,
            r.complete};
}

// A scenario of a generated workload (`generate`: the members of its "generate" object) on `network` under
// `model`, with the same system, memory and roofline compute settings in every case.
std::string generated_scenario(const char* model, const std::string& generate, const std::string& network) {
    return std::string(R"({"schema": "astrolabe.scenario/1", "network_model": ")") + model +
           R"(", "workload": {"generate": {)" + generate + R"(}}, "network": )" + network +
           R"(, "system": {"endpoint-delay": 10, "local-mem-bw": 1600, "peak-perf": 900,
           "preferred-dataset-splits": 2, "collective-optimization": "localBWAware"},
           "memory": {"memory-type": "LOCAL_MEMORY", "local-mem-latency": 100, "local-mem-bw": 2000},
           "compute_model": "roofline"})";
}

Outcome compare_scenario(const std::string& text) {
    auto sc = config::parse_scenario_json(text, "scenario.json");
    INFO(sc.status().message());
    REQUIRE(sc.is_ok());
    REQUIRE(sc.value().workload_kind == config::Scenario::WorkloadKind::Generate);
    Outcome full = session_once(sc.value(), false);
    Outcome sym = session_once(sc.value(), true);
    INFO("symmetry: " << sym.symmetry);
    CHECK(full.simulated == sc.value().network.npus());
    CHECK(sym.report == full.report);
    CHECK(sym.timeline == full.timeline);
    return sym;
}

std::string microbench(const std::string& collective, uint32_t npus, const std::string& network,
                       const std::string& system_extra, const std::string& model = "analytical") {
    return R"({"schema": "astrolabe.scenario/1", "network_model": ")" + model + R"(",
      "workload": {"generate": {"kind": "microbench", "collective": ")" +
           collective + R"(", "size": "256KiB", "npus": )" + std::to_string(npus) +
           R"(, "repeat": 2, "compute-us": 3}},
      "network": )" +
           network + R"(,
      "system": {"endpoint-delay": 10, "local-mem-bw": 1600, )" +
           system_extra + R"(}})";
}

config::Scenario ring_config(uint32_t npus, const std::string& system_extra = "") {
    config::Scenario cfg;
    cfg.network = network_yaml("topology: [Ring]\nnpus_count: [" + std::to_string(npus) +
                               "]\nbandwidth: [50]\nlatency: [500]\n");
    cfg.system = system_json(R"({"scheduling-policy": "LIFO", "endpoint-delay": 10,
        "active-chunks-per-dimension": 1, "preferred-dataset-splits": 2,
        "all-reduce-implementation": ["ring"], "collective-optimization": "localBWAware", "local-mem-bw": 1600)" +
                             system_extra + "}");
    return cfg;
}

} // namespace

TEST_CASE("rank symmetry: representatives, shifts and classes in closed form", "[system][symmetry]") {
    // Ranks as digits (a, b, c) of sizes 4, 2, 3 (rank = a + 4b + 8c); translations along a and c: classes
    // are the NPUs with equal b, 12 each, represented by a = c = 0 (ranks 0 and 4).
    RankSymmetry sym({4, 2, 3}, 0b101);
    CHECK(sym.order() == 12);
    CHECK(sym.npus() == 24);
    CHECK(sym.is_representative(0));
    CHECK(sym.is_representative(4));
    CHECK_FALSE(sym.is_representative(1));
    CHECK(sym.representative(23) == 4); // (3, 1, 2) -> (0, 1, 0)
    CHECK(sym.representative(17) == 0); // (1, 0, 2) -> (0, 0, 0)
    // 19 = (3, 0, 2) moved by 13 = (1, 1, 1) is (0, 0, 0): b is not a symmetric digit, so it does not move.
    CHECK(sym.shift(19, 13) == 0);
    CHECK(sym.shift(0, 13, true) == 3 + 2 * 8); // (0,0,0) - (1,_,1) = (3, 0, 2)
    std::vector<uint32_t> cls = sym.class_of(4);
    CHECK(cls.size() == 12);
    CHECK(cls.front() == 4);
    CHECK(cls.back() == 23);
}

TEST_CASE("rank symmetry: precomputed tables answer as the arithmetic does", "[system][symmetry]") {
    // precompute() replaces a division per digit by lookups. Expected: for every NPU and every pair, the
    // same representative and the same shifts both ways as the same symmetry without tables, on digit
    // layouts with one, two and three symmetric digits (a split dimension among them).
    const std::vector<std::pair<std::vector<uint32_t>, uint32_t>> layouts = {
        {{4, 2, 3}, 0b101}, {{8, 4, 4, 8}, 0b0100}, {{2, 4, 2, 3}, 0b1011}, {{5}, 0b1}, {{3, 3}, 0b10}};
    for (const auto& [sizes, mask] : layouts) {
        const RankSymmetry plain(sizes, mask);
        RankSymmetry fast(sizes, mask);
        fast.precompute();
        INFO("digits " << sizes.size() << ", mask " << mask);
        size_t mismatches = 0;
        for (uint32_t x = 0; x < plain.npus(); ++x) {
            mismatches += fast.representative(x) != plain.representative(x);
            mismatches += fast.is_representative(x) != plain.is_representative(x);
            for (uint32_t by = 0; by < plain.npus(); ++by)
                mismatches += fast.shift(x, by) != plain.shift(x, by) ||
                              fast.shift(x, by, true) != plain.shift(x, by, true);
        }
        CHECK(mismatches == 0);
    }
}

TEST_CASE("every ASTRA-sim reference case gives the same report with and without symmetry",
          "[system][symmetry]") {
    // 58 congestion-unaware cases. Expected: identical reports and timelines, and the reduction used in
    // 45 of them: every ring and direct case (one NPU simulated, on 1-, 2- and 3-D networks), the
    // send/recv ring, the generated single-node cases and the STAGE traces (by pipeline stage). Not in
    // the 13 others: 12 run halving-doubling or double binary tree, one a custom collective ET.
    size_t reduced = 0, cases = 0;
    for (const auto& c : load_anchors()) {
        INFO("case " << c.name);
        config::Scenario cfg = load_configs(c);
        Outcome o =
            compare(cfg, [&] { return std::unique_ptr<TraceSource>(new PrefixTraceSource(c.workload)); });
        CHECK(o.complete);
        reduced += o.simulated < cfg.network.npus();
        ++cases;
    }
    CHECK(cases == 58);
    CHECK(reduced == 45);
}

namespace {

struct CollectiveCase {
    const char* collective;
    uint32_t npus;
    std::string network;
    std::string system;
};

// Collectives of every type on Ring, Switch and FullyConnected dimensions, 1 to 3 of them, ring and direct,
// LIFO and FIFO, 1 to 4 chunks, 1 or 2 active chunks.
std::vector<CollectiveCase> collective_cases() {
    const std::string ring64 =
        R"({"topology": ["Ring"], "npus_count": [64], "bandwidth": [50], "latency": [500]})";
    const std::string sw16 =
        R"({"topology": ["Switch"], "npus_count": [16], "bandwidth": [100], "latency": [300]})";
    const std::string fc8 =
        R"({"topology": ["FullyConnected"], "npus_count": [8], "bandwidth": [25], "latency": [100]})";
    const std::string rs4x4 =
        R"({"topology": ["Ring", "Switch"], "npus_count": [4, 4], "bandwidth": [200, 50], "latency": [100, 700]})";
    const std::string rfs2x3x4 =
        R"({"topology": ["Ring", "FullyConnected", "Switch"], "npus_count": [2, 3, 4],
        "bandwidth": [300, 100, 25], "latency": [50, 200, 900]})";
    const std::string ring12 =
        R"({"topology": ["Ring"], "npus_count": [12], "bandwidth": [50], "latency": [500]})";
    const std::string rr6x4 =
        R"({"topology": ["Ring", "Ring"], "npus_count": [6, 4], "bandwidth": [100, 25], "latency": [300, 800]})";
    return {
        {"all_reduce", 64, ring64,
         R"("scheduling-policy": "LIFO", "preferred-dataset-splits": 4, "active-chunks-per-dimension": 1)"},
        {"all_reduce", 64, ring64,
         R"("scheduling-policy": "FIFO", "preferred-dataset-splits": 4, "active-chunks-per-dimension": 2)"},
        {"all_gather", 16, sw16, R"("all-gather-implementation": ["direct"], "preferred-dataset-splits": 3)"},
        {"reduce_scatter", 16, sw16,
         R"("reduce-scatter-implementation": ["ring"], "preferred-dataset-splits": 1)"},
        {"all_to_all", 8, fc8, R"("all-to-all-implementation": ["direct"], "preferred-dataset-splits": 2)"},
        {"all_reduce", 16, rs4x4,
         R"("all-reduce-implementation": ["ring", "direct"], "collective-optimization": "localBWAware", "preferred-dataset-splits": 4)"},
        {"all_reduce", 16, rs4x4,
         R"("all-reduce-implementation": ["direct", "ring"], "collective-optimization": "baseline", "scheduling-policy": "FIFO", "active-chunks-per-dimension": 2)"},
        {"all_gather", 24, rfs2x3x4,
         R"("all-gather-implementation": ["ring", "direct", "ring"], "preferred-dataset-splits": 2)"},
        {"all_to_all", 24, rfs2x3x4,
         R"("all-to-all-implementation": ["direct", "ring", "direct"], "preferred-dataset-splits": 2)"},
        // Direct on a ring: messages of several hops share links with other NPUs' messages.
        {"all_to_all", 12, ring12,
         R"("all-to-all-implementation": ["direct"], "preferred-dataset-splits": 3)"},
        {"all_reduce", 12, ring12,
         R"("all-reduce-implementation": ["direct"], "scheduling-policy": "FIFO", "active-chunks-per-dimension": 2, "preferred-dataset-splits": 4)"},
        {"reduce_scatter", 24, rr6x4,
         R"("reduce-scatter-implementation": ["direct", "ring"], "preferred-dataset-splits": 2)"},
    };
}

} // namespace

TEST_CASE("generated collectives give the same report with and without symmetry", "[system][symmetry]") {
    // Expected: identical reports; every case is symmetric in all its dimensions, so one NPU is simulated.
    for (const auto& c : collective_cases()) {
        DYNAMIC_SECTION(c.collective << " on " << c.npus << " NPUs, " << c.system) {
            Outcome o = compare_scenario(microbench(c.collective, c.npus, c.network, c.system));
            CHECK(o.complete);
            CHECK(o.simulated == 1);
        }
    }
}

TEST_CASE("generated collectives under the congestion and flow models give the same report with symmetry",
          "[system][symmetry]") {
    // The links of Ring, Switch and FullyConnected dimensions map onto themselves under the translations,
    // so each representative's links stand for their translates' (link_topology.h). Expected: identical
    // reports, link tables included, with one NPU simulated.
    for (const char* model : {"congestion", "flow"})
        for (const auto& c : collective_cases()) {
            DYNAMIC_SECTION(model << ": " << c.collective << " on " << c.npus << " NPUs, " << c.system) {
                Outcome o = compare_scenario(microbench(c.collective, c.npus, c.network, c.system, model));
                CHECK(o.complete);
                CHECK(o.simulated == 1);
                CHECK(o.report.find("\"links\": [\n  {") != std::string::npos);
            }
        }
}

TEST_CASE("generated transformer workloads give the same report with and without symmetry",
          "[system][symmetry][generate]") {
    // DP x TP x PP (x SP) training and inference with communicator groups and pipeline send/recv. Expected:
    // identical reports; the pipeline stages differ, so there is one class per stage.
    struct Case {
        const char* name;
        const char* generate;
        const char* network;
        uint32_t simulated; // expected representatives
    };
    const std::vector<Case> cases = {
        {"dp2 tp2 pp2 on Switch(4) x Switch(2)",
         R"("kind": "transformer", "model": "gpt", "layers": 2, "hidden": 512, "heads": 8, "seq": 256, "batch": 4, "micro-batch": 2, "dp": 2, "tp": 2, "pp": 2)",
         R"({"topology": ["Switch", "Switch"], "npus_count": [4, 2], "bandwidth": [300, 25], "latency": [100, 1000]})",
         2},
        {"dp4 tp2 pp2 on Ring(4) x Switch(2) x Ring(2)",
         R"("kind": "transformer", "model": "gpt", "layers": 2, "hidden": 512, "heads": 8, "seq": 256, "batch": 8, "micro-batch": 2, "dp": 4, "tp": 2, "pp": 2)",
         R"({"topology": ["Ring", "Switch", "Ring"], "npus_count": [4, 2, 2], "bandwidth": [50, 300, 50], "latency": [500, 100, 500]})",
         2},
        // Groups as STAGE forms them: data {0, 1}, tensor {0, 2} and context {0, 4} (gradients summed over
        // data, then context). Each lies along one network dimension (the switch, the ring), so every NPU is
        // a translation of NPU 0: one class.
        {"dp2 tp2 sp2 with ZeRO-3 and recomputation",
         R"("kind": "transformer", "model": "gpt", "layers": 2, "hidden": 512, "heads": 8, "seq": 512, "batch": 4, "micro-batch": 2, "dp": 2, "tp": 2, "sp": 2, "weight-sharded": true, "recompute": true)",
         R"({"topology": ["Switch", "Ring"], "npus_count": [4, 2], "bandwidth": [300, 50], "latency": [100, 500]})",
         1},
        // Megatron's order: tensor groups {0..3}, {4..7}, ... along the first switch, data groups {i, i+4}
        // along the second, stages along the ring. Moves along the first two digits keep the traces (one
        // class per stage).
        {"tp-first dp2 tp4 pp2 on Switch(4) x Switch(2) x Ring(2)",
         R"("kind": "transformer", "model": "gpt", "layers": 2, "hidden": 512, "heads": 8, "seq": 256, "batch": 4, "micro-batch": 2, "dp": 2, "tp": 4, "pp": 2, "rank-order": "tp-first")",
         R"({"topology": ["Switch", "Switch", "Ring"], "npus_count": [4, 2, 2], "bandwidth": [300, 25, 50], "latency": [100, 1000, 500]})",
         2},
        {"inference (decode) dp2 tp4",
         R"("kind": "transformer", "phase": "decode", "decode-steps": 2, "model": "gpt", "layers": 2, "hidden": 512, "heads": 8, "seq": 128, "batch": 4, "micro-batch": 2, "dp": 2, "tp": 4)",
         R"({"topology": ["Switch"], "npus_count": [8], "bandwidth": [300], "latency": [100]})", 1},
    };
    // Under the congestion and flow models too: pipeline send/recv and the groups' collectives share links.
    for (const char* model : {"analytical", "congestion", "flow"})
        for (const auto& c : cases) {
            DYNAMIC_SECTION(model << ": " << c.name) {
                const std::string text = generated_scenario(model, c.generate, c.network);
                Outcome o = compare_scenario(text);
                INFO("symmetry: " << o.symmetry);
                CHECK(o.complete);
                CHECK(o.simulated == c.simulated);
            }
        }
}

namespace {

// One run without a timeline (a generator's own traces are then made only for representatives).
// `events` > 0 stops the run after that many events (a partial run: every NPU has stuck nodes).
Outcome run_plain(config::Scenario cfg, TraceSource& traces, bool symmetry, uint64_t events = 0) {
    return simulate(std::move(cfg), traces, symmetry, false, events, nullptr);
}

} // namespace

TEST_CASE("generator-proven symmetry equals trace-proven symmetry and the full run",
          "[system][symmetry][generate]") {
    // A generated transformer workload runs three ways: every NPU simulated; symmetric with every rank's
    // trace made and compared; symmetric with the generator vouching for the translations, only the
    // representatives' traces made. Expected: the same report each way, and the same symmetry found by
    // the generator's parameters as by comparing the traces.
    struct Case {
        const char* name;
        const char* generate;
        const char* network;
    };
    const std::vector<Case> cases = {
        {"dp4 tp2 pp2 on Ring(4) x Switch(2) x Ring(2)",
         R"("kind": "transformer", "model": "gpt", "layers": 2, "hidden": 512, "heads": 8, "seq": 256, "batch": 8, "micro-batch": 2, "dp": 4, "tp": 2, "pp": 2)",
         R"({"topology": ["Ring", "Switch", "Ring"], "npus_count": [4, 2, 2], "bandwidth": [50, 300, 50], "latency": [500, 100, 500]})"},
        {"dp2 tp2 pp2 sharing one switch (a split digit)",
         R"("kind": "transformer", "model": "gpt", "layers": 2, "hidden": 512, "heads": 8, "seq": 256, "batch": 4, "micro-batch": 2, "dp": 2, "tp": 2, "pp": 2)",
         R"({"topology": ["Switch", "Switch"], "npus_count": [4, 2], "bandwidth": [300, 25], "latency": [100, 1000]})"},
        {"dp2 tp2 sp2 with ZeRO-3 and recomputation",
         R"("kind": "transformer", "model": "gpt", "layers": 2, "hidden": 512, "heads": 8, "seq": 512, "batch": 4, "micro-batch": 2, "dp": 2, "tp": 2, "sp": 2, "weight-sharded": true, "recompute": true)",
         R"({"topology": ["Switch", "Ring"], "npus_count": [4, 2], "bandwidth": [300, 50], "latency": [100, 500]})"},
        {"MoE dp4 ep2 tp2 pp2",
         R"("kind": "transformer", "model": "gpt", "layers": 2, "hidden": 512, "heads": 8, "seq": 256, "batch": 8, "micro-batch": 4, "dp": 4, "tp": 2, "pp": 2, "experts": 4, "ep": 2)",
         R"({"topology": ["Ring", "Switch", "Ring"], "npus_count": [4, 2, 2], "bandwidth": [50, 300, 50], "latency": [500, 100, 500]})"},
        {"tp-first dp2 tp2 sp2 with ZeRO-3 and recomputation",
         R"("kind": "transformer", "model": "gpt", "layers": 2, "hidden": 512, "heads": 8, "seq": 512, "batch": 4, "micro-batch": 2, "dp": 2, "tp": 2, "sp": 2, "weight-sharded": true, "recompute": true, "rank-order": "tp-first")",
         R"({"topology": ["Switch", "Ring"], "npus_count": [4, 2], "bandwidth": [300, 50], "latency": [100, 500]})"},
        {"tp-first MoE dp4 ep2 tp2 pp2",
         R"("kind": "transformer", "model": "gpt", "layers": 2, "hidden": 512, "heads": 8, "seq": 256, "batch": 8, "micro-batch": 4, "dp": 4, "tp": 2, "pp": 2, "experts": 4, "ep": 2, "rank-order": "tp-first")",
         R"({"topology": ["Ring", "Switch", "Ring"], "npus_count": [2, 4, 2], "bandwidth": [50, 300, 50], "latency": [500, 100, 500]})"},
        {"tp-first dp2 tp4 pp2 on 8-NPU switches x 2 (one stage per node)",
         R"("kind": "transformer", "model": "gpt", "layers": 2, "hidden": 512, "heads": 8, "seq": 256, "batch": 4, "micro-batch": 2, "dp": 2, "tp": 4, "pp": 2, "rank-order": "tp-first")",
         R"({"topology": ["Switch", "Switch"], "npus_count": [8, 2], "bandwidth": [300, 25], "latency": [100, 1000]})"},
        {"prefill dp2 tp4 pp2",
         R"("kind": "transformer", "phase": "prefill", "model": "llama", "layers": 2, "hidden": 512, "heads": 8, "seq": 128, "batch": 4, "micro-batch": 2, "dp": 2, "tp": 4, "pp": 2)",
         R"({"topology": ["FullyConnected", "Switch", "Ring"], "npus_count": [2, 4, 2], "bandwidth": [100, 300, 50], "latency": [200, 100, 500]})"},
    };
    for (const char* model : {"analytical", "congestion"})
        for (const auto& c : cases) {
            DYNAMIC_SECTION(model << ": " << c.name) {
                const std::string text = generated_scenario(model, c.generate, c.network);
                auto sc = config::parse_scenario_json(text, "scenario.json");
                REQUIRE(sc.is_ok());
                auto setup = generated_source(sc.value().workload, sc.value().generate_params);
                INFO(setup.status().message());
                REQUIRE(setup.is_ok());
                REQUIRE(setup.value().traces->vouches_for_translations());
                config::Scenario cfg = sc.value();
                cfg.generate_params.clear();
                if (setup.value().has_groups) cfg.groups = setup.value().groups;
                Outcome full = run_plain(cfg, *setup.value().traces, false);

                auto gen = generate_workload(sc.value().workload, sc.value().generate_params);
                REQUIRE(gen.is_ok());
                Outcome compared = run_plain(cfg, gen.value().traces, true);

                auto again = generated_source(sc.value().workload, sc.value().generate_params);
                REQUIRE(again.is_ok());
                Outcome vouched = run_plain(cfg, *again.value().traces, true);

                INFO("compared: " << compared.symmetry << "; vouched: " << vouched.symmetry);
                CHECK(full.complete);
                CHECK(full.simulated == cfg.network.npus());
                CHECK(compared.report == full.report);
                CHECK(vouched.report == full.report);
                CHECK(vouched.symmetry == compared.symmetry);
                CHECK(vouched.simulated == compared.simulated);
                CHECK(vouched.simulated < full.simulated);

                // Cut short, every NPU has stuck nodes: those of NPUs whose traces were never made are
                // described from their representative's, moved. Expected: the same report as when every
                // trace was made and compared (the same representatives ran the same events).
                auto gen2 = generate_workload(sc.value().workload, sc.value().generate_params);
                REQUIRE(gen2.is_ok());
                Outcome compared_cut = run_plain(cfg, gen2.value().traces, true, 300);
                auto third = generated_source(sc.value().workload, sc.value().generate_params);
                REQUIRE(third.is_ok());
                Outcome vouched_cut = run_plain(cfg, *third.value().traces, true, 300);
                CHECK_FALSE(vouched_cut.complete);
                CHECK(vouched_cut.report.find("\"stuck\": [\n  {") != std::string::npos);
                CHECK(vouched_cut.report == compared_cut.report);
            }
        }
}

TEST_CASE("send/recv rings, stuck receives and unreceived sends give the same report with symmetry",
          "[system][symmetry]") {
    const uint32_t n = 16;
    SECTION("each NPU sends to the next and receives from the previous, twice") {
        // Expected: complete, identical; one NPU simulated.
        std::vector<std::string> traces;
        for (uint32_t r = 0; r < n; ++r) {
            TraceBuilder t;
            t.comp(1, 5);
            t.send(2, (r + 1) % n, 65536, 7, {1});
            t.recv(3, (r + n - 1) % n, 65536, 7, {1});
            t.send(4, (r + 3) % n, 1024, 9, {2, 3});
            t.recv(5, (r + n - 3) % n, 1024, 9, {2, 3});
            traces.push_back(t.bytes());
        }
        Outcome o = compare_traces(ring_config(n), traces);
        CHECK(o.complete);
        CHECK(o.simulated == 1);
    }
    SECTION("a receive nobody sends, and a send nobody receives") {
        // Expected: incomplete, with the same stuck nodes and unreceived messages listed for every NPU.
        std::vector<std::string> traces;
        for (uint32_t r = 0; r < n; ++r) {
            TraceBuilder t;
            t.coll(1, trace::CollectiveType::AllReduce, 1 << 16);
            t.send(2, (r + 2) % n, 4096, 3, {1});
            t.recv(3, (r + n - 1) % n, 4096, 4, {1});
            traces.push_back(t.bytes());
        }
        Outcome o = compare_traces(ring_config(n), traces);
        CHECK_FALSE(o.complete);
        CHECK(o.simulated == 1);
        CHECK(o.report.find("never sent") != std::string::npos);
    }
}

TEST_CASE("symmetry is not used where it would not be exact", "[system][symmetry]") {
    const uint32_t n = 8;
    TraceBuilder t;
    t.comp(1, 10);
    t.coll(2, trace::CollectiveType::AllReduce, 1 << 20, {1});
    const std::vector<std::string> same = same_on_all(t, n);
    // The same traces but NPU 5's: its compute 1 ns longer.
    auto npu5_slower = [&] {
        std::vector<std::string> traces = same;
        TraceBuilder slow;
        slow.comp(1, 11);
        slow.coll(2, trace::CollectiveType::AllReduce, 1 << 20, {1});
        traces[5] = slow.bytes();
        return traces;
    };
    // Every NPU simulated, and the symmetry note says why (it names `why`).
    auto check_all_simulated = [&](const Outcome& o, const char* why) {
        CHECK(o.simulated == n);
        CHECK(o.symmetry.find(why) != std::string::npos);
    };
    SECTION("halving-doubling partners are not translation-invariant") {
        config::Scenario cfg = ring_config(n);
        cfg.system.implementation[0] = {{config::CollectiveAlgorithm::HalvingDoubling, -1}};
        Outcome o = compare_traces(cfg, same);
        check_all_simulated(o, "halvingDoubling");
    }
    SECTION("links shared between NPUs are no obstacle (flow model), a differing trace still is") {
        // The flow model's links fold onto the representative's: one NPU simulated, the same report.
        // With NPU 5's compute 1 ns longer, no translation maps the run onto itself: all 8 simulated.
        config::Scenario cfg = ring_config(n);
        cfg.network_model = config::NetworkModel::Flow;
        CHECK(compare_traces(cfg, same).simulated == 1);
        const std::vector<std::string> traces = npu5_slower();
        Outcome o = compare_traces(cfg, traces);
        check_all_simulated(o, "differ");
    }
    SECTION("halving-doubling under the congestion model") {
        // Its partners (distance 1, 2, 4, ...) are not translation-invariant whatever the network model.
        config::Scenario cfg = ring_config(n);
        cfg.network_model = config::NetworkModel::Congestion;
        cfg.system.implementation[0] = {{config::CollectiveAlgorithm::HalvingDoubling, -1}};
        Outcome o = compare_traces(cfg, same);
        check_all_simulated(o, "halvingDoubling");
    }
    SECTION("one NPU's trace differs") {
        const std::vector<std::string> traces = npu5_slower();
        Outcome o = compare_traces(ring_config(n), traces);
        check_all_simulated(o, "differ");
    }
    SECTION("a straggler set by npu-overrides") {
        config::Scenario cfg = ring_config(n, R"(, "npu-overrides": [{"npus": [3], "compute-slowdown": 2}])");
        Outcome o = compare_traces(cfg, same);
        CHECK(o.simulated == n);
    }
}

// core/simulation/symmetry_search.h: the group check of the symmetry search in pieces (SymmetryClosing, as
// the browser's search sets a point up between frames) finds the symmetry and the reason close_symmetry
// finds in one piece, on a check that passes (a generated transformer) and on one that fails and falls back
// to fewer digits (pairs of neighbours as communicator groups).
#include "core/config/config_parse.h"
#include "core/config/scenario.h"
#include "core/session/generated_source.h"
#include "core/session/session.h"
#include "core/simulation/simulation.h"
#include "core/simulation/symmetry_search.h"
#include "support/test_support.h"
#include "support/trace_builder.h"

#include <catch2/catch.hpp>

#include <string>
#include <vector>

using namespace astrolabe;

namespace {

// The built simulation's input with every NPU's graph (a run without symmetry builds them all), for the
// symmetry search to compare.
SimulationInput built_input(config::Scenario cfg, TraceSource& traces) {
    RunOptions options;
    options.symmetry = false;
    std::vector<std::string> warnings;
    auto sim = build_simulation(std::move(cfg), traces, warnings, options, &test::data_host());
    INFO(sim.status().message());
    REQUIRE(sim.is_ok());
    return sim.value()->input();
}

// close_symmetry in one piece and SymmetryClosing one node a piece: the same symmetry and reason; returns
// the pieces taken.
uint64_t compare_cuts(const SimulationInput& built, std::string& why) {
    SimulationInput whole = built, cut = built;
    const RankSymmetry one = close_symmetry(whole, symmetry_candidate(whole), why);
    SymmetryClosing closing(cut, symmetry_candidate(cut));
    uint64_t pieces = 1;
    while (closing.step(1))
        ++pieces;
    CHECK(closing.symmetry().order() == one.order());
    CHECK(closing.symmetry().describe() == one.describe());
    CHECK(closing.why_not() == why);
    return pieces;
}

} // namespace

TEST_CASE("the symmetry's group check in pieces finds what it finds in one piece", "[system][symmetry]") {
    SECTION("every group closed: a generated transformer, 2 of 8 NPUs simulated") {
        // dp 2 x tp 2 x pp 2 on [2, 2, 2]: the data and tensor digits are symmetric (docs/symmetry.md).
        const std::string text = R"({"schema": "astrolabe.scenario/1",
          "workload": {"generate": {"kind": "transformer", "model": "gpt", "layers": 2, "hidden": 128, "heads": 4,
                                    "seq": 64, "batch": 8, "micro-batch": 2, "dp": 2, "tp": 2, "pp": 2}},
          "network": {"topology": ["Ring", "Ring", "Ring"], "npus_count": [2, 2, 2], "bandwidth": [100, 100, 100],
                      "latency": [500, 500, 500]},
          "system": {"all-reduce-implementation": ["ring", "ring", "ring"],
                     "all-gather-implementation": ["ring", "ring", "ring"],
                     "reduce-scatter-implementation": ["ring", "ring", "ring"],
                     "all-to-all-implementation": ["direct", "direct", "direct"], "local-mem-bw": 1600}})";
        auto sc = config::parse_scenario_json(text, "point");
        REQUIRE(sc.is_ok());
        config::Scenario cfg = std::move(sc.value());
        auto gen = generated_source(cfg.workload, cfg.generate_params);
        REQUIRE(gen.is_ok());
        REQUIRE(adopt_groups(gen.value().groups, gen.value().has_groups, cfg.groups).is_ok());
        const SimulationInput in = built_input(cfg, *gen.value().traces);
        std::string why;
        const uint64_t pieces = compare_cuts(in, why);
        uint64_t rep_nodes = 0; // one piece per node of the representatives (2 of each class of 4)
        std::string unused;
        SimulationInput copy = in;
        const RankSymmetry sym = close_symmetry(copy, symmetry_candidate(copy), unused);
        CHECK(sym.order() == 4);
        for (uint32_t r = 0; r < in.graphs.size(); ++r)
            if (sym.is_representative(r)) rep_nodes += in.graphs[r].nodes.size();
        CHECK(pieces == rep_nodes);
    }
    SECTION("a group not closed: the check falls back to fewer digits, as in one piece") {
        // 8 NPUs on a ring, NPU r in groups {r, r+1} (id r + 1) and {r - 1, r} (id r, 8 for NPU 0): every
        // trace is its neighbour's moved by one, but the move between a group's two members does not map
        // the group onto itself, so no translation is kept.
        const uint32_t n = 8;
        std::vector<std::string> traces;
        std::string groups = "{";
        for (uint32_t r = 0; r < n; ++r) {
            test::TraceBuilder t;
            t.coll(1, trace::CollectiveType::AllReduce, 1 << 16).pg_name = std::to_string(r + 1);
            t.coll(2, trace::CollectiveType::AllReduce, 1 << 16).pg_name = std::to_string(r == 0 ? n : r);
            traces.push_back(t.bytes());
            groups += (r ? ", \"" : "\"") + std::to_string(r + 1) + "\": [" + std::to_string(r) + ", " +
                      std::to_string((r + 1) % n) + "]";
        }
        groups += "}";
        config::Scenario cfg;
        cfg.network = config::parse_network_yaml("topology: [Ring]\nnpus_count: [8]\nbandwidth: [50]\n"
                                                 "latency: [500]\n",
                                                 "network")
                          .value();
        cfg.system = config::parse_system_json(
                         R"({"all-reduce-implementation": ["ring"], "local-mem-bw": 1600})", "system")
                         .value();
        auto g = config::parse_comm_groups_json(groups, "groups", n);
        REQUIRE(g.is_ok());
        cfg.groups = g.value();
        MemoryTraceSource src;
        for (uint32_t r = 0; r < n; ++r)
            src.add("t." + std::to_string(r) + ".et", traces[r]);
        const SimulationInput in = built_input(cfg, src);
        std::string why;
        CHECK(compare_cuts(in, why) > 2);
        CHECK(why.find("communicator group") != std::string::npos);
    }
}

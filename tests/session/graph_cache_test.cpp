// Graphs copied from a model rank (core/session/graph_cache.h): a generated workload's ranks of one
// pipeline stage are one DAG with moved peers and groups, so a symmetric run copies its representatives'
// graphs from one built graph per stage, and a search keeps those between points. Expected: every rank's
// copy equals the graph built from its own trace, field by field; and runs that reuse one trace source
// over several networks give, each, the report of a full run (every NPU simulated, every trace made).
#include "core/config/scenario.h"
#include "core/session/generated_source.h"
#include "core/session/graph_cache.h"
#include "core/session/session.h"
#include "core/trace/trace_reader.h"
#include "support/test_support.h"

#include <catch2/catch.hpp>

#include <memory>
#include <string>
#include <tuple>
#include <vector>

using namespace astrolabe;

namespace {

struct Shape {
    const char* name;
    const char* generate; // the members of the scenario's "generate" object
};

// Shapes with every group kind and pipeline send/recv: DP x TP x PP, SP with ZeRO-3, MoE with EP,
// prefill and decode.
const std::vector<Shape> kShapes = {
    {"dp4 tp2 pp2",
     R"("kind": "transformer", "model": "gpt", "layers": 2, "hidden": 512, "heads": 8, "seq": 256, "batch": 8, "micro-batch": 2, "dp": 4, "tp": 2, "pp": 2)"},
    {"dp2 tp2 sp2 pp2 with ZeRO-3 and recomputation",
     R"("kind": "transformer", "model": "gpt", "layers": 2, "hidden": 512, "heads": 8, "seq": 512, "batch": 4, "micro-batch": 2, "dp": 2, "tp": 2, "sp": 2, "pp": 2, "weight-sharded": true, "recompute": true)"},
    {"MoE dp4 ep2 tp2 pp2",
     R"("kind": "transformer", "model": "gpt", "layers": 2, "hidden": 512, "heads": 8, "seq": 256, "batch": 8, "micro-batch": 4, "dp": 4, "tp": 2, "pp": 2, "experts": 4, "ep": 2)"},
    {"prefill dp2 tp2 pp4",
     R"("kind": "transformer", "phase": "prefill", "model": "llama", "layers": 4, "hidden": 512, "heads": 8, "seq": 128, "batch": 4, "micro-batch": 2, "dp": 2, "tp": 2, "pp": 4)"},
    {"decode dp2 tp4",
     R"("kind": "transformer", "phase": "decode", "decode-steps": 2, "model": "gpt", "layers": 2, "hidden": 512, "heads": 8, "seq": 128, "batch": 4, "micro-batch": 2, "dp": 2, "tp": 4)"},
    // Megatron's order: the same stage models, peers and groups at other ranks.
    {"tp-first dp2 tp2 sp2 pp2 with ZeRO-3 and recomputation",
     R"("kind": "transformer", "model": "gpt", "layers": 2, "hidden": 512, "heads": 8, "seq": 512, "batch": 4, "micro-batch": 2, "dp": 2, "tp": 2, "sp": 2, "pp": 2, "weight-sharded": true, "recompute": true, "rank-order": "tp-first")"},
    {"tp-first MoE dp4 ep2 tp2 pp2",
     R"("kind": "transformer", "model": "gpt", "layers": 2, "hidden": 512, "heads": 8, "seq": 256, "batch": 8, "micro-batch": 4, "dp": 4, "tp": 2, "pp": 2, "experts": 4, "ep": 2, "rank-order": "tp-first")"},
    {"tp-first prefill dp2 tp2 pp4",
     R"("kind": "transformer", "phase": "prefill", "model": "llama", "layers": 4, "hidden": 512, "heads": 8, "seq": 128, "batch": 4, "micro-batch": 2, "dp": 2, "tp": 2, "pp": 4, "rank-order": "tp-first")"},
};

std::string scenario(const std::string& generate, const std::string& network, const std::string& system,
                     const std::string& compute_model = "roofline") {
    return std::string(R"({"schema": "astrolabe.scenario/1", "workload": {"generate": {)") + generate +
           R"(}}, "network": )" + network + R"(, "system": )" + system +
           R"(, "memory": {"memory-type": "LOCAL_MEMORY", "local-mem-latency": 100, "local-mem-bw": 2000},
           "compute_model": ")" +
           compute_model + R"("})";
}

const char* kSystem = R"({"endpoint-delay": 10, "local-mem-bw": 1600, "peak-perf": 900,
    "preferred-dataset-splits": 2, "collective-optimization": "localBWAware"})";

config::Scenario parse(const std::string& text) {
    auto sc = config::parse_scenario_json(text, "scenario.json");
    INFO(sc.status().message());
    REQUIRE(sc.is_ok());
    return sc.value();
}

WorkloadGraph build(TraceSource& src, uint32_t rank, const GroupTable& groups, uint32_t npus) {
    std::string bytes, name;
    REQUIRE(src.read_alone(rank, bytes, name).is_ok());
    GraphBuildOptions opt;
    opt.rank = rank;
    opt.npus = npus;
    opt.groups = &groups;
    opt.roofline = true;
    GraphBuilder builder(name, opt);
    trace::GlobalMetadata meta;
    REQUIRE(trace::for_each_node(bytes, name, trace::ReadOptions{}, meta, [&builder](const trace::Node& n) {
                builder.add(n);
            }).is_ok());
    std::vector<std::string> warnings;
    auto g = builder.finish(warnings);
    REQUIRE(g.is_ok());
    CHECK(warnings.empty());
    return g.value();
}

bool same_graph(const WorkloadGraph& a, const WorkloadGraph& b) {
    if (a.rank != b.rank || a.nodes.size() != b.nodes.size() || a.children != b.children ||
        a.names != b.names || a.gemms.size() != b.gemms.size())
        return false;
    for (size_t i = 0; i < a.nodes.size(); ++i) {
        const GraphNode& x = a.nodes[i];
        const GraphNode& y = b.nodes[i];
        if (std::tie(x.id, x.bytes, x.num_ops, x.duration_ns, x.peer, x.tag, x.child_begin, x.parents, x.kind,
                     x.flags, x.collective, x.involved_dims) !=
            std::tie(y.id, y.bytes, y.num_ops, y.duration_ns, y.peer, y.tag, y.child_begin, y.parents, y.kind,
                     y.flags, y.collective, y.involved_dims))
            return false;
    }
    return true;
}

// A thin copy (WorkloadGraph::model) as a graph of its own, read through its accessors.
WorkloadGraph materialize(const WorkloadGraph& thin) {
    WorkloadGraph g;
    g.rank = thin.rank;
    for (size_t i = 0; i < thin.size(); ++i)
        g.nodes.push_back(thin.node(i));
    g.children = thin.shape().children;
    for (size_t i = 0; i < thin.shape().names.size(); ++i)
        g.names.push_back(thin.name(i));
    g.gemms = thin.shape().gemms;
    return g;
}

// The report of one run without a timeline, the engine section left out; `simulated` gets the NPUs run.
std::string run(config::Scenario cfg, TraceSource& traces, bool symmetry, uint32_t* simulated = nullptr) {
    RunOptions options;
    options.symmetry = symmetry;
    options.keep_timeline = false;
    std::vector<std::string> warnings;
    auto sim = build_simulation(std::move(cfg), traces, warnings, options, nullptr);
    INFO(sim.status().message());
    REQUIRE(sim.is_ok());
    sim.value()->run_to_end();
    RunResult r = sim.value()->result();
    if (simulated) *simulated = r.simulated_npus;
    return test::report_without_engine(*sim.value(), r, warnings);
}

} // namespace

TEST_CASE("every generated rank's graph is its stage model's graph with peers and groups moved",
          "[session][generate][symmetry]") {
    for (const auto& s : kShapes) {
        DYNAMIC_SECTION(s.name) {
            config::Scenario sc = parse(scenario(
                s.generate,
                R"({"topology": ["Switch"], "npus_count": [1], "bandwidth": [100], "latency": [100]})",
                kSystem));
            auto src = generated_source(sc.workload, sc.generate_params);
            INFO(src.status().message());
            REQUIRE(src.is_ok());
            TraceSource& traces = *src.value().traces;
            const auto npus = static_cast<uint32_t>(traces.count());
            GroupTable groups = make_group_table(src.value().groups);
            uint32_t moved = 0;
            for (uint32_t rank = 0; rank < npus; ++rank) {
                const int64_t model = traces.model_rank(rank);
                REQUIRE(model >= 0);
                const auto m = std::make_shared<const WorkloadGraph>(
                    build(traces, static_cast<uint32_t>(model), groups, npus));
                auto move_group = [&](uint32_t id) { return traces.moved_group_id(id, rank); };
                const WorkloadGraph own = build(traces, rank, groups, npus);
                INFO("rank " << rank << ", model " << model);
                // The full copy equals the rank's own build field by field.
                WorkloadGraph copy;
                REQUIRE(retarget_graph(*m, rank, npus, groups, move_group, copy));
                CHECK(same_graph(copy, own));
                // The thin copy holds only the model and the peer maps; read through its accessors it is
                // the same graph (every node, edge and name; the peers through the maps).
                WorkloadGraph thin;
                REQUIRE(retarget_graph(m, rank, npus, groups, move_group, thin));
                REQUIRE(thin.model == m);
                CHECK(thin.nodes.empty());
                CHECK(same_graph(materialize(thin), own));
                moved += uint32_t(model) != rank;
            }
            CHECK(moved > 0); // the shapes have more than one rank per stage
        }
    }
}

TEST_CASE("a retargeted copy is refused where the trace's own build would fail",
          "[session][generate][symmetry]") {
    // Rank 0's send to rank 2 moved to rank 3 would go to NPU 5 of a 4-NPU run; a group that does not
    // hold the rank is not its group.
    WorkloadGraph model;
    model.rank = 0;
    GraphNode send;
    send.kind = NodeKind::Send;
    send.peer = 2;
    model.nodes.push_back(send);
    GroupTable groups;
    groups.groups.push_back(GroupTable::Group{7, {0, 1}});
    WorkloadGraph out;
    auto none = [](uint32_t) { return int64_t(-1); };
    CHECK(retarget_graph(model, 1, 4, groups, none, out));
    CHECK(out.nodes[0].peer == 3);
    CHECK_FALSE(retarget_graph(model, 3, 4, groups, none, out));
    GraphNode coll;
    coll.kind = NodeKind::Collective;
    coll.peer = 1; // group 7
    model.nodes = {coll};
    CHECK_FALSE(retarget_graph(model, 1, 4, groups, none, out)); // no group
    CHECK_FALSE(retarget_graph(
        model, 2, 4, groups, [](uint32_t) { return int64_t(7); }, out)); // 2 not in 7
    CHECK(retarget_graph(
        model, 1, 4, groups, [](uint32_t) { return int64_t(7); }, out));
    CHECK(out.nodes[0].peer == 1);
}

TEST_CASE("one generated source reused over several networks gives each network's full-run report",
          "[session][generate][symmetry]") {
    // As a search keeps it between points that change only network or collective knobs: the first run
    // builds one graph per pipeline stage, later runs copy from those. Each report must equal a full run's
    // (every NPU simulated, from a fresh source). The networks change the dimension sizes, topologies and
    // algorithms, so the representatives change from run to run; the last point times compute nodes from
    // the trace instead of the roofline, which builds different graphs (the kept ones are dropped).
    const char* generate = kShapes[0].generate; // 16 NPUs: dp 4 x tp 2 x pp 2
    const std::vector<std::tuple<std::string, std::string, std::string>> points = {
        {R"({"topology": ["Ring", "Switch", "Ring"], "npus_count": [4, 2, 2], "bandwidth": [50, 300, 50], "latency": [500, 100, 500]})",
         kSystem, "roofline"},
        {R"({"topology": ["Switch", "FullyConnected"], "npus_count": [8, 2], "bandwidth": [300, 25], "latency": [100, 1000]})",
         kSystem, "roofline"},
        {R"({"topology": ["Switch", "FullyConnected", "Ring"], "npus_count": [4, 2, 2], "bandwidth": [100, 50, 25], "latency": [200, 500, 1000]})",
         R"({"endpoint-delay": 10, "local-mem-bw": 1600, "peak-perf": 900, "preferred-dataset-splits": 4,
             "scheduling-policy": "FIFO", "all-reduce-implementation": ["direct", "ring", "ring"]})",
         "roofline"},
        {R"({"topology": ["Ring", "Switch", "Ring"], "npus_count": [4, 2, 2], "bandwidth": [50, 300, 50], "latency": [500, 100, 500]})",
         kSystem, "roofline"},
        {R"({"topology": ["Ring", "Switch", "Ring"], "npus_count": [4, 2, 2], "bandwidth": [50, 300, 50], "latency": [500, 100, 500]})",
         kSystem, "trace"},
        // No translation left: a move along dimension 0 turns the data-parallel ring 0-1-2-3 into 1-0-3-2
        // (not a rotation of it), and the pipeline stages differ along the ring of dimension 1. Every NPU
        // runs on a retargeted copy whose nodes and edges the executor reads from the shared model
        // (WorkloadGraph::model).
        {R"({"topology": ["Switch", "Ring"], "npus_count": [2, 8], "bandwidth": [300, 50], "latency": [100, 500]})",
         kSystem, "roofline"},
    };
    config::Scenario first =
        parse(scenario(generate, std::get<0>(points[0]), std::get<1>(points[0]), std::get<2>(points[0])));
    auto kept = generated_source(first.workload, first.generate_params);
    REQUIRE(kept.is_ok());
    // One pass over the points (no sections: Catch2 would re-run the case, and the source, per section).
    for (size_t i = 0; i < points.size(); ++i) {
        INFO("point " << i);
        const auto& [network, system, compute] = points[i];
        config::Scenario sc = parse(scenario(generate, network, system, compute));
        sc.generate_params.clear();
        sc.groups = kept.value().groups;
        auto fresh = generated_source(first.workload, first.generate_params);
        REQUIRE(fresh.is_ok());
        uint32_t full_npus = 0, sym_npus = 0;
        const std::string full = run(sc, *fresh.value().traces, false, &full_npus);
        const std::string reused = run(sc, *kept.value().traces, true, &sym_npus);
        CHECK(full_npus == 16);
        if (i + 1 < points.size())
            CHECK(sym_npus < 16);
        else
            CHECK(sym_npus == 16);
        CHECK(reused == full);
        // Only the two stage models' graphs are kept, whatever the representatives were.
        REQUIRE(kept.value().traces->graph_cache() != nullptr);
        CHECK(kept.value().traces->graph_cache()->size() == 2);
    }
}

// The systolic compute model inside a run: which nodes it times, how, and what the report counts.
#include "core/config/config_parse.h"
#include "core/config/spellings.h"
#include "core/report/report.h"
#include "support/test_support.h"
#include "support/trace_builder.h"

#include <catch2/catch.hpp>

using namespace astrolabe;
using Catch::Matchers::Contains;

namespace {

config::Scenario systolic_config(uint32_t rows, uint32_t cols, const char* dataflow) {
    config::Scenario cfg;
    cfg.network = test::network_yaml("topology: [Ring]\nnpus_count: [2]\nbandwidth: [50]\nlatency: [500]\n");
    cfg.compute_model = config::ComputeModel::Systolic;
    cfg.systolic.rows = rows;
    cfg.systolic.cols = cols;
    REQUIRE(config::parse_name(std::string(dataflow), cfg.systolic.dataflow));
    return cfg;
}

trace::Node& gemm_node(test::TraceBuilder& t, uint64_t id, uint64_t m, uint64_t n, uint64_t k,
                       test::Deps deps = {}) {
    trace::Node& node = t.comp(id, 0, std::move(deps));
    node.gemm_m = m, node.gemm_n = n, node.gemm_k = k;
    return node;
}

} // namespace

TEST_CASE("systolic run: GEMM attributes are timed on the array, and the array size matters", "[systolic]") {
    test::TraceBuilder t;
    gemm_node(t, 1, 64, 64, 64);
    SECTION("32x32 os at 1 GHz: 4 folds of 64 + 32 + 32 - 2 = 126 cycles -> 504 ns") {
        RunResult r = test::run(systolic_config(32, 32, "os"), test::same_on_all(t, 2));
        REQUIRE(r.complete);
        const NpuStats& s = r.stats.npus[0];
        CHECK(s.finish_ns == 504);
        CHECK(s.compute_ns == 504);
        CHECK(s.systolic_ns == 504);
        CHECK(s.systolic_cycles == 504);
        CHECK(s.systolic_nodes == 1);
        // 64^3 MACs over 504 cycles of 1024 PEs = 50.79 %.
        CHECK(s.systolic_macs == 262144.0);
    }
    SECTION("128x128 os: one fold of 64 + 128 + 128 - 2 = 318 cycles -> 318 ns") {
        RunResult r = test::run(systolic_config(128, 128, "os"), test::same_on_all(t, 2));
        CHECK(r.stats.npus[0].finish_ns == 318);
    }
    SECTION("8x8 ws at 2 GHz: 8*8 folds of 16 + 8 + 64 - 2 = 86 cycles = 5504 cycles -> 2752 ns") {
        config::Scenario cfg = systolic_config(8, 8, "ws");
        cfg.systolic.clock_ghz = 2.0;
        RunResult r = test::run(cfg, test::same_on_all(t, 2));
        CHECK(r.stats.npus[0].finish_ns == 2752);
    }
    SECTION("gemm_batch runs the GEMM that many times: 3 x 504 ns") {
        t.trace().nodes[0].gemm_batch = 3;
        RunResult r = test::run(systolic_config(32, 32, "os"), test::same_on_all(t, 2));
        CHECK(r.stats.npus[0].finish_ns == 1512);
    }
}

TEST_CASE("systolic run: nodes without a shape fall back and are counted", "[systolic]") {
    test::TraceBuilder t;
    gemm_node(t, 1, 64, 64, 64);
    // No shape, but num_ops and tensor_size: the roofline with the array's peak, 2 * 32*32 ops per cycle at
    // 1 GHz = 2.048e12 op/s, and no memory roof (no local-mem-bw): 2048000 ops -> 1000 ns.
    t.roofline_comp(2, 2048000, 1000, {1});
    // Neither: replayed from its duration, 5 us.
    t.comp(3, 5, {2});
    RunResult r = test::run(systolic_config(32, 32, "os"), test::same_on_all(t, 2));
    REQUIRE(r.complete);
    const NpuStats& s = r.stats.npus[1];
    CHECK(s.finish_ns == 504 + 1000 + 5000);
    CHECK(s.systolic_nodes == 1);
    CHECK(s.roofline_fallback_nodes == 1);
    CHECK(s.replayed_nodes == 1);
    CHECK(s.compute_bound_ns == 1000);

    SECTION("the report carries the per-NPU counts and the utilization") {
        ReportContext ctx;
        ctx.compute_model = "systolic";
        std::string json = report_json(r, ctx);
        CHECK_THAT(
            json,
            Contains("\"systolic\": {\n        \"nodes\": 1,\n        \"roofline_fallback_nodes\": 1,\n"
                     "        \"replayed_nodes\": 1,\n        \"ns\": 504,\n        \"cycles\": 504,\n"
                     "        \"utilization_pct\": 50.793651,\n        \"mapping_efficiency_pct\": 100\n"));
    }
    SECTION("with local-mem-bw the fallback has a memory roof: 1000 B at 1 GB/s bounds 2048000 ops to 1 us") {
        // intensity 2048 op/B * 1e9 B/s = 2.048e12 op/s, equal to the peak: 1000 ns either way; at 0.5 GB/s
        // the memory roof halves the rate: 2000 ns, memory-bound.
        config::Scenario cfg = systolic_config(32, 32, "os");
        cfg.system = test::system_json(R"({"local-mem-bw": 0.5})");
        RunResult m = test::run(cfg, test::same_on_all(t, 2));
        CHECK(m.stats.npus[0].finish_ns == 504 + 2000 + 5000);
        CHECK(m.stats.npus[0].memory_bound_ns == 2000);
    }
}

TEST_CASE("systolic run: PyTorch matmul operators give their shapes", "[systolic]") {
    SECTION(
        "host-only trace: the aten::mm host node is the only record of the matmul; it runs on the array") {
        test::TraceBuilder t;
        trace::Node& mm = t.cpu(1, 7);
        mm.name = "aten::mm";
        mm.inputs.shapes = "[[64, 64], [64, 64]]";
        std::vector<std::string> warnings;
        auto sim = test::build(systolic_config(32, 32, "os"), test::same_on_all(t, 2), &warnings);
        REQUIRE(sim.is_ok());
        sim.value()->run_to_end();
        RunResult r = sim.value()->result();
        CHECK(r.stats.npus[0].finish_ns == 504);
        CHECK(r.stats.npus[0].cpu_ns == 0);
        CHECK(r.stats.npus[0].systolic_nodes == 1);
        REQUIRE_FALSE(warnings.empty());
        CHECK_THAT(warnings[0], Contains("run on the systolic array as NPU work"));
    }
    SECTION("with kernel nodes, the kernel a matmul launches (its ctrl_deps child) takes the GEMM") {
        // The host aten::mm stays host work (7 us replayed on the CPU slot); its kernel, named after itself
        // with no shapes, runs the 64^3 GEMM on the array (504 ns) after it. The other kernel has no
        // launching matmul and is replayed (3 us). The matmul is counted once.
        test::TraceBuilder t;
        trace::Node& mm = t.cpu(1, 7);
        mm.name = "aten::mm";
        mm.inputs.shapes = "[[64, 64], [64, 64]]";
        t.comp(2, 9).ctrl_deps = {1}; // ampere_sgemm_...: its 9 us measured time is not used
        t.comp(3, 3, {2});
        RunResult r = test::run(systolic_config(32, 32, "os"), test::same_on_all(t, 2));
        CHECK(r.stats.npus[0].finish_ns == 7000 + 504 + 3000);
        CHECK(r.stats.npus[0].cpu_ns == 7000);
        CHECK(r.stats.npus[0].systolic_nodes == 1);
        CHECK(r.stats.npus[0].replayed_nodes == 1);
    }
    SECTION("with kernel nodes, a matmul that launched none stays host work and is not counted") {
        test::TraceBuilder t;
        trace::Node& mm = t.cpu(1, 7);
        mm.name = "aten::mm";
        mm.inputs.shapes = "[[64, 64], [64, 64]]";
        t.comp(2, 3, {1}); // a data dependency only: not launched by the matmul
        RunResult r = test::run(systolic_config(32, 32, "os"), test::same_on_all(t, 2));
        CHECK(r.stats.npus[0].finish_ns == 7000 + 3000);
        CHECK(r.stats.npus[0].systolic_nodes == 0);
        CHECK(r.stats.npus[0].replayed_nodes == 1);
    }
}

TEST_CASE("systolic run: incomplete GEMM attributes are refused with the node named", "[systolic]") {
    test::TraceBuilder t;
    trace::Node& n = t.comp(7, 1);
    n.gemm_m = 64;
    n.gemm_n = 0;
    auto sim = test::build(systolic_config(32, 32, "os"), test::same_on_all(t, 2));
    REQUIRE_FALSE(sim.is_ok());
    CHECK_THAT(sim.status().message(), Contains("node 7"));
    CHECK_THAT(sim.status().message(), Contains("attribute 'gemm_n' is 0"));
    CHECK_THAT(sim.status().message(), Contains("attribute 'gemm_k' is missing"));
}

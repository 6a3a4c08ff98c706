// Compute time: replay of measured durations, and the roofline model.
#include "core/compute/compute_time.h"
#include "support/check_error.h"
#include "support/test_support.h"
#include "support/trace_builder.h"

#include <catch2/catch.hpp>

using namespace astrolabe;
using Catch::Matchers::Contains;

TEST_CASE("replay: the measured duration or 1 ns when the trace has none", "[compute]") {
    // ASTRA-sim replays duration_micros * 1000 ns and charges 1 ns to a node without a duration.
    CHECK(replay_time(5000) == 5000);
    CHECK(replay_time(1) == 1);
    CHECK(replay_time(0) == 1);
}

TEST_CASE("roofline: num_ops over the lower of the compute and memory roofs truncated to ns", "[compute]") {
    // H100-like: 989 TFLOPS peak, local-mem-bw 3350 GB/s (1 GB = 1e9 B).
    RooflineParams h100{989, 3350};
    SECTION("compute bound") {
        // 1e9 ops on 1e6 bytes: intensity 1000 op/B, memory roof 3.35e15 > peak 9.89e14, so
        // 1e9 / 9.89e14 s = 1011.12 ns -> 1011.
        RooflineResult r = roofline_time(1000000000, 1000000, h100);
        CHECK(r.time == 1011);
        CHECK_FALSE(r.memory_bound);
    }
    SECTION("memory bound") {
        // 1e6 ops on 1e6 bytes: intensity 1, memory roof 3.35e12 op/s < peak: 1e6 / 3.35e12 s = 298.5 ns ->
        // 298.
        RooflineResult r = roofline_time(1000000, 1000000, h100);
        CHECK(r.time == 298);
        CHECK(r.memory_bound);
        // STAGE's first node (num_ops 1310720, tensor_size 262144): intensity 5, 1310720 / 1.675e13 s = 78.25
        // ns.
        CHECK(roofline_time(1310720, 262144, h100).time == 78);
    }
    SECTION("no operational intensity: 0 ns, as ASTRA-sim skips the node") {
        CHECK(roofline_time(1000, 0, h100).time == 0);
        CHECK(roofline_time(0, 1000, h100).time == 0);
    }
}

TEST_CASE("compute through the executor: replay and roofline", "[compute][executor]") {
    config::Scenario cfg;
    cfg.network = test::network_yaml("topology: [Ring]\nnpus_count: [2]\nbandwidth: [50]\nlatency: [500]\n");

    SECTION("replay: 5 us then a node without duration -> 5000 + 1 = 5001 ns, all of it GPU compute") {
        test::TraceBuilder t;
        t.comp(1, 5);
        t.comp(2, 0, {1});
        RunResult r = test::run(cfg, test::same_on_all(t, 2));
        REQUIRE(r.complete);
        CHECK(r.stats.npus[0].finish_ns == 5001);
        CHECK(r.stats.npus[0].compute_ns == 5001);
        CHECK(r.stats.npus[0].exposed_comm_ns() == 0);
    }
    SECTION("roofline: 1011 ns compute-bound then 298 ns memory-bound -> 1309 ns") {
        // roofline-enabled with peak-perf 989 and local-mem-bw 3350, the two nodes of the previous test case.
        cfg.system = test::system_json(R"({"roofline-enabled": 1, "peak-perf": 989, "local-mem-bw": 3350})");
        test::TraceBuilder t;
        t.roofline_comp(1, 1000000000, 1000000);
        t.roofline_comp(2, 1000000, 1000000, {1});
        RunResult r = test::run(cfg, test::same_on_all(t, 2));
        REQUIRE(r.complete);
        CHECK(r.stats.npus[1].finish_ns == 1309);
        CHECK(r.stats.npus[1].compute_ns == 1309);
        CHECK(r.stats.npus[1].compute_bound_ns == 1011);
        CHECK(r.stats.npus[1].memory_bound_ns == 298);
    }
    SECTION("--compute-model trace overrides roofline-enabled: durations are replayed") {
        // Same system config as above, but the trace model asked for: 5 us + (no duration) 1 ns = 5001.
        cfg.system = test::system_json(R"({"roofline-enabled": 1, "peak-perf": 989, "local-mem-bw": 3350})");
        cfg.compute_model = config::ComputeModel::Trace;
        test::TraceBuilder t;
        t.comp(1, 5);
        t.comp(2, 0, {1});
        RunResult r = test::run(cfg, test::same_on_all(t, 2));
        CHECK(r.stats.npus[0].finish_ns == 5001);
        CHECK(r.stats.npus[0].compute_bound_ns == 0);
    }
    SECTION("roofline needs num_ops and tensor_size on GPU compute nodes") {
        // A replay-only node (duration, no num_ops) cannot be timed by the roofline: refused, naming it.
        cfg.system = test::system_json(R"({"roofline-enabled": 1, "peak-perf": 989, "local-mem-bw": 3350})");
        test::TraceBuilder t;
        t.comp(7, 5);
        auto sim = test::build(cfg, test::same_on_all(t, 2));
        test::check_error(sim,
                          {"node 7", "attribute 'num_ops' is missing; the roofline compute model needs it"});
    }
    SECTION("host CPU ops run beside GPU compute and are always replayed") {
        // CPU op of 3 us and GPU op of 5 us, independent: they use different slots, so the NPU finishes at
        // 5000, not 8000. Only the GPU op counts as compute (exposed communication = 5000 - 5000 = 0).
        test::TraceBuilder t;
        t.cpu(1, 3);
        t.comp(2, 5);
        RunResult r = test::run(cfg, test::same_on_all(t, 2));
        CHECK(r.stats.npus[0].finish_ns == 5000);
        CHECK(r.stats.npus[0].compute_ns == 5000);
        CHECK(r.stats.npus[0].cpu_ns == 3000);
        CHECK(r.stats.npus[0].exposed_comm_ns() == 0);
    }
}

// `run --hardware`: compute nodes on the described GPU's roofline (datasheet peak and HBM bandwidth, or the
// description's own figures), nodes without num_ops/tensor_size on their trace duration, and collectives
// still exactly collective-perf's time (no local-memory reduction cost on top of NCCL's figures).
#include "core/config/config_parse.h"
#include "core/config/scenario.h"
#include "core/hardware/hardware_mapping.h"
#include "core/trace/trace_reader.h"
#include "support/collective_perf_ns.h"
#include "support/test_support.h"
#include "support/trace_builder.h"

#include <catch2/catch.hpp>

#include <cmath>
#include <string>

using namespace astrolabe;
using trace::CollectiveType;

namespace {

config::Scenario scenario(const config::HardwareConfig& hw) {
    config::Scenario sc;
    hardware::MappedSystem m = hardware::map_system(hw);
    sc.network = m.network;
    sc.system = m.system;
    sc.hardware = hw;
    return sc;
}

// Every rank: a compute-bound node (oi = 10^6 ops per byte), a node with only a duration (7 us), a
// memory-bound node (oi = 1), then optionally an all-reduce of `ar_bytes`, each after the previous one.
std::vector<std::string> step(uint32_t ranks, uint64_t flops, uint64_t mem_ops, uint64_t ar_bytes) {
    std::vector<std::string> out;
    for (uint32_t r = 0; r < ranks; ++r) {
        test::TraceBuilder b;
        b.roofline_comp(0, flops, flops / 1000000);
        b.comp(1, 7, {0});
        b.roofline_comp(2, mem_ops, mem_ops, {1});
        if (ar_bytes) b.coll(3, CollectiveType::AllReduce, ar_bytes, {2});
        out.push_back(trace::encode_trace(b.trace()));
    }
    return out;
}

const char* kH100x8 = R"({"gpu": "H100-SXM", "nodes": 1, "gpus_per_node": 8})";

} // namespace

TEST_CASE("run --hardware: compute on the GPU's datasheet roofline", "[hardware][run]") {
    // H100 SXM: 989.4 TFLOPS dense BF16, 3350 GB/s HBM3. 989.4e9 ops at oi 10^6 are compute bound:
    // 989.4e9 / 989.4e12 s = 1 ms. 3.35e9 ops at oi 1 are memory bound: 3.35e9 / (3350e9 * 1) s = 1 ms.
    // The 7 us node has no num_ops: it replays its duration. Each roofline time is truncated to whole ns
    // (the double quotient may land a hair under 10^6), so each may be 1 ns short.
    const auto hw = test::hardware_json(kH100x8);
    CHECK(hw.peak_tflops == 989.4);
    CHECK(hw.hbm_gbs == 3350);
    RunResult r = test::run(scenario(hw), step(8, 989400000000ull, 3350000000ull, 0));
    REQUIRE(r.complete);
    CHECK(r.total_ns <= 2007000);
    CHECK(r.total_ns >= 2006998);
    CHECK(r.stats.notes.count("COMP nodes without tensor_size or num_ops replay their trace duration "
                              "(hardware description: the roofline times the others)") == 1);

    SECTION("collectives keep collective-perf's time: no reduction cost on top of NCCL's figures") {
        const uint64_t ar = 256ull << 20;
        RunResult with_ar = test::run(scenario(hw), step(8, 989400000000ull, 3350000000ull, ar));
        REQUIRE(with_ar.complete);
        CHECK(with_ar.total_ns == r.total_ns + test::collective_perf_ns(hw, hardware::CollOp::AllReduce, ar));
    }
}

TEST_CASE("run --hardware: each GPU's figures, and the description's own", "[hardware][run]") {
    // A100 SXM4 80GB: 312 TFLOPS, 2039 GB/s. The compute-bound node takes 989.4e9 / 312e12 s = 3171.15 us,
    // the memory-bound one 3.35e9 / 2039e9 s = 1642.96 us; with the 7 us node 4821.11 us in all.
    const auto a100 = test::hardware_json(R"({"gpu": "A100-SXM4-80GB", "nodes": 1, "gpus_per_node": 8})");
    CHECK(a100.peak_tflops == 312);
    CHECK(a100.hbm_gbs == 2039);
    const double expected = 989.4e9 / 312e12 * 1e9 + 7000 + 3.35e9 / 2039e9 * 1e9;
    RunResult r = test::run(scenario(a100), step(8, 989400000000ull, 3350000000ull, 0));
    REQUIRE(r.complete);
    CHECK(std::fabs(double(r.total_ns) - expected) < 2.5);

    // The 40 GB part has HBM2 at 1555 GB/s.
    CHECK(test::hardware_json(R"({"gpu": "A100-SXM4-40GB"})").hbm_gbs == 1555);

    // A description that states its sustained figures (say 60% of peak, 90% of HBM) times compute on them.
    const auto own = test::hardware_json(
        R"({"gpu": "H100-SXM", "nodes": 1, "gpus_per_node": 8, "peak_tflops": 593.64, "hbm_gbs": 3015})");
    const double own_expected = 989.4e9 / 593.64e12 * 1e9 + 7000 + 3.35e9 / 3015e9 * 1e9;
    RunResult o = test::run(scenario(own), step(8, 989400000000ull, 3350000000ull, 0));
    REQUIRE(o.complete);
    CHECK(std::fabs(double(o.total_ns) - own_expected) < 2.5);
}

TEST_CASE("hardware description: compute figures must be positive, and misspellings are named",
          "[hardware][bad_input]") {
    auto zero = config::parse_hardware_json(R"({"gpu": "H100-SXM", "peak_tflops": 0})", "hw.json");
    REQUIRE_FALSE(zero.is_ok());
    CHECK(zero.status().message().find("peak_tflops") != std::string::npos);
    auto typo = config::parse_hardware_json(R"({"gpu": "H100-SXM", "hbm_gb": 3000})", "hw.json");
    REQUIRE_FALSE(typo.is_ok());
    CHECK(typo.status().message().find("did you mean 'hbm_gbs'") != std::string::npos);
}

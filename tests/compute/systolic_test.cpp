// The systolic-array model against SCALE-Sim v2's own reports (tests/data/scalesim, from
// shared/anchors/scalesim): every row, exactly. The README there gives SCALE-Sim's conventions: GEMM
// (M, N, K) = C[MxN] = A[MxK] * B[KxN], and total_cycles is the index of the last cycle (F*P - 1).
#include "core/compute/systolic.h"
#include "core/config/spellings.h"
#include "support/test_support.h"

#include <catch2/catch.hpp>

#include <fstream>
#include <sstream>
#include <string>
#include <vector>

using namespace astrolabe;

namespace {

struct Row {
    SystolicArray array;
    Gemm gemm;
    uint64_t total_cycles = 0, compute_cycles = 0, stall_cycles = 0, folds = 0;
    double utilization = 0, mapping_eff = 0, compute_util = 0;
    std::string label;
};

std::vector<Row> read_csv(const std::string& file) {
    std::ifstream in(std::string(ASTROLABE_TEST_DATA) + "/scalesim/" + file);
    REQUIRE(in.good());
    std::string line;
    std::getline(in, line);
    REQUIRE(line.rfind("array_rows,array_cols,dataflow,M,N,K,total_cycles,compute_cycles,stall_cycles,"
                       "utilization_pct,mapping_eff_pct,compute_util_pct,folds",
                       0) == 0);
    std::vector<Row> rows;
    while (std::getline(in, line)) {
        if (line.empty()) continue;
        std::vector<std::string> f;
        std::stringstream ss(line);
        for (std::string cell; std::getline(ss, cell, ',');)
            f.push_back(cell);
        REQUIRE(f.size() >= 13);
        Row r;
        r.label = line;
        r.array.rows = static_cast<uint32_t>(std::stoul(f[0]));
        r.array.cols = static_cast<uint32_t>(std::stoul(f[1]));
        REQUIRE(config::parse_name(f[2], r.array.dataflow));
        r.gemm.m = std::stoull(f[3]), r.gemm.n = std::stoull(f[4]), r.gemm.k = std::stoull(f[5]);
        r.total_cycles = std::stoull(f[6]), r.compute_cycles = std::stoull(f[7]);
        r.stall_cycles = std::stoull(f[8]);
        r.utilization = std::stod(f[9]), r.mapping_eff = std::stod(f[10]), r.compute_util = std::stod(f[11]);
        r.folds = std::stoull(f[12]);
        rows.push_back(r);
    }
    return rows;
}

} // namespace

TEST_CASE("systolic: every row of SCALE-Sim's stall-free GEMM reference, exactly", "[compute][systolic]") {
    // 63 runs of SCALE-Sim v2 (CALC bandwidth mode, so no stalls): 32x32, 128x128 and 256x256 arrays,
    // os/ws/is, 11 shapes. Cycles and folds must be equal; the percentages are printed by SCALE-Sim with 6
    // decimals, so they must agree to 5e-7 (rounding of the last printed digit).
    auto rows = read_csv("gemm_reference.csv");
    REQUIRE(rows.size() == 63);
    for (const auto& row : rows) {
        INFO(row.label);
        SystolicResult r = systolic_gemm(row.array, row.gemm);
        CHECK(row.stall_cycles == 0);
        CHECK(r.total_cycles == row.total_cycles);
        CHECK(r.total_cycles == row.compute_cycles);
        CHECK(r.folds == row.folds);
        CHECK(r.utilization_pct == Approx(row.utilization).margin(5e-7));
        CHECK(r.mapping_efficiency_pct == Approx(row.mapping_eff).margin(5e-7));
        CHECK(r.compute_utilization_pct == Approx(row.compute_util).margin(5e-7));
    }
}

TEST_CASE("systolic: SCALE-Sim's bandwidth-limited runs match in their compute cycles",
          "[compute][systolic]") {
    // The six USER-bandwidth runs (10 words/cycle, 64 KB SRAMs) add 75-98% stall cycles from SCALE-Sim's
    // DRAM prefetch model, which the stall-free model does not have; their compute part (total - stalls)
    // is still F*P - 1, and the mapping efficiency and compute utilization do not depend on stalls.
    auto rows = read_csv("gemm_reference_user_bw.csv");
    REQUIRE(rows.size() == 6);
    for (const auto& row : rows) {
        INFO(row.label);
        SystolicResult r = systolic_gemm(row.array, row.gemm);
        CHECK(row.total_cycles - row.stall_cycles == row.compute_cycles);
        CHECK(r.total_cycles == row.compute_cycles);
        CHECK(r.folds == row.folds);
        CHECK(r.mapping_efficiency_pct == Approx(row.mapping_eff).margin(5e-7));
        CHECK(r.compute_utilization_pct == Approx(row.compute_util).margin(5e-7));
    }
}

TEST_CASE("systolic: closed form on shapes outside the reference", "[compute][systolic]") {
    SECTION("a non-square array: 8x4 ws, GEMM 10x6x20") {
        // ws maps K=20 onto 8 rows (3 folds) and N=6 onto 4 cols (2 folds): F = 6; P = 2*8 + 4 + M(10) - 2
        // = 28. Count 168 cycles, reported 167. Mapping efficiency 20*6 / (32*6) = 62.5 %.
        SystolicResult r = systolic_gemm({8, 4, Dataflow::WeightStationary, 1.0}, {10, 6, 20, 1});
        CHECK(r.folds == 6);
        CHECK(r.cycles_per_fold == 28);
        CHECK(r.cycles == 168);
        CHECK(r.total_cycles == 167);
        CHECK(r.mapping_efficiency_pct == Approx(62.5));
    }
    SECTION("is swaps which of R and C the output rows use: 8x4 is, GEMM 10x6x20") {
        // is: K=20 on rows (3 folds), M=10 on cols (3 folds): F = 9, P = 16 + 4 + N(6) - 2 = 24 -> 216
        // cycles.
        SystolicResult r = systolic_gemm({8, 4, Dataflow::InputStationary, 1.0}, {10, 6, 20, 1});
        CHECK(r.folds == 9);
        CHECK(r.cycles == 216);
    }
    SECTION("a batch runs its GEMMs one after another; the clock turns cycles into ns, rounded up") {
        // os 32x32, 64x64x64: 4 folds of 126 cycles = 504 per GEMM; batch 3 -> 1512 cycles;
        // at 2 GHz 756 ns; 1 cycle at 3 GHz is 0.33 ns -> 1 ns.
        SystolicResult r = systolic_gemm({32, 32, Dataflow::OutputStationary, 1.0}, {64, 64, 64, 3});
        CHECK(r.cycles == 1512);
        CHECK(r.total_cycles == 503); // one GEMM, as SCALE-Sim reports it
        CHECK(systolic_time_ns(r.cycles, 2.0) == 756);
        CHECK(systolic_time_ns(21, 0.7) == 30);     // not 31 from 21 / 0.7 = 30.000000000000004
        CHECK(systolic_time_ns(1000, 0.3) == 3334); // 3333.33 rounds up
        CHECK(systolic_time_ns(1, 3.0) == 1);
        CHECK(systolic_time_ns(0, 1.0) == 0);
    }
    SECTION("a zero dimension takes no cycles; absurd shapes saturate instead of wrapping") {
        CHECK(systolic_gemm({32, 32, Dataflow::OutputStationary, 1.0}, {0, 64, 64, 1}).cycles == 0);
        SystolicResult huge = systolic_gemm({1, 1, Dataflow::OutputStationary, 1.0},
                                            {uint64_t(1) << 40, uint64_t(1) << 40, uint64_t(1) << 40, 1});
        CHECK(huge.cycles == UINT64_MAX);
    }
}

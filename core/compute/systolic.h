// A SCALE-Sim-style systolic array: how many cycles an R x C array of MAC units takes for one GEMM.
//
// GEMM convention (SCALE-Sim's `-i gemm` topology row "M, N, K"): C[M x N] = A[M x K] * B[K x N].
//   M = rows of the output (SCALE-Sim's ofmap pixels), N = columns of the output (its filters),
//   K = the reduction (dot-product) length. MACs = M*N*K. A batch of B independent GEMMs runs B times.
//
// Each dataflow keeps one operand in place, maps two GEMM dimensions onto the array (Sr onto the R rows,
// Sc onto the C columns) and streams the third, T, through it:
//   dataflow                 Sr  Sc  T   cycles per fold P
//   os (output stationary)   M   N   K   K + R + C - 2          (stream K, skew R-1 rows and C-1 cols)
//   ws (weight stationary)   K   N   M   2R + C + M - 2         (preload R, stream M, skew R-1, drain C-1)
//   is (input stationary)    K   M   N   2R + C + N - 2         (as ws with the input held in place)
// Folds F = ceil(Sr/R) * ceil(Sc/C) run one after another without overlap, and an edge fold that uses only
// part of the array still takes the full P (SCALE-Sim pads it with null requests). So:
//   cycles (a count)            = F * P
//   total_cycles (SCALE-Sim)    = F * P - 1: SCALE-Sim reports the 0-based index of the cycle in which the
//                                 last output is written, one less than the count; `astrolabe compute`
//                                 prints that number so it compares with SCALE-Sim's reports directly
//   mapping efficiency          = Sr*Sc / (R*C*F): the mean over folds of the fraction of PEs mapped
//   utilization (SCALE-Sim's "Overall Util")  = M*N*K / (total_cycles * R * C)
//   compute utilization (its "Compute Util")  = mapping efficiency * T / Pu, with Pu = P for os and
//                                 2R + 2C + T - 3 for ws/is (SCALE-Sim measures those folds by their
//                                 filter-demand length, C-1 longer than the fold)
// This is the stall-free model: operands are assumed to arrive in time (SCALE-Sim's CALC bandwidth mode),
// which is how docs/compute.md ties it to SCALE-Sim v2 exactly. Memory stalls are not modelled here.
#pragma once

#include "core/base/time.h"
#include "core/config/config_types.h"

#include <cstdint>
#include <string>

namespace astrolabe {

// Spelled "os", "ws", "is" by config's table (config::name_of, config::parse_name).
using Dataflow = config::Dataflow;

struct SystolicArray {
    uint32_t rows = 128;
    uint32_t cols = 128;
    Dataflow dataflow = Dataflow::WeightStationary;
    double clock_ghz = 1.0; // cycles per ns
};

struct Gemm {
    uint64_t m = 0, n = 0, k = 0;
    uint64_t batch = 1; // independent GEMMs of the same shape, run one after another
};

struct SystolicResult {
    uint64_t folds = 0;           // F, per GEMM of the batch
    uint64_t cycles_per_fold = 0; // P
    uint64_t cycles = 0;          // batch * F * P, saturating: what the array is busy for
    uint64_t total_cycles = 0;    // SCALE-Sim's reported value for one GEMM: F * P - 1
    double macs = 0;              // batch * M * N * K
    double utilization_pct = 0;   // SCALE-Sim's Overall Util %, one GEMM
    double mapping_efficiency_pct = 0;
    double compute_utilization_pct = 0; // SCALE-Sim's Compute Util %
};

// The cycle count and efficiencies of `g` on `a`. A GEMM with a zero dimension takes no cycles.
SystolicResult systolic_gemm(const SystolicArray& a, const Gemm& g);

// `cycles` at the array's clock, rounded up to whole ns (a GEMM that takes any cycle takes at least 1 ns).
TimeNs systolic_time_ns(uint64_t cycles, double clock_ghz);

} // namespace astrolabe

// A workload in which no two NPUs are alike (issue 18): every rank computes for its own time before and
// between its collectives, so symmetry finds nothing and every NPU is simulated. This is the general case
// of traces captured from real jobs, where ranks differ in compute time.
//
// Rank r runs: compute d0(r), all-reduce 1 MiB, compute d1(r), all-reduce 256 KiB, compute d2(r),
// all-reduce 1 MiB, with d_i(r) = 20 + ((r * m_i) mod 4099) microseconds for three odd multipliers m_i, so
// the slowest rank differs per phase and the collectives start at different times on every NPU.
#pragma once

#include "core/trace/trace_types.h"

#include <cstdint>

namespace astrolabe::bench {

// The compute time (us) of rank `rank` before its collective number `phase` (0, 1 or 2).
uint64_t asym_compute_us(uint32_t rank, uint32_t phase);

// The trace of one rank of the asymmetric workload.
trace::Trace asym_trace(uint32_t rank);

} // namespace astrolabe::bench

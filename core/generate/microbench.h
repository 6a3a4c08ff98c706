// Microbenchmark workloads: every NPU runs the same collective `repeat` times, optionally with a compute
// node before each one, chained by data dependencies. The simplest workload that exercises the collective
// and network models, and what ASTRA-sim's own microbenchmark generators write.
#pragma once

#include "core/base/status.h"
#include "core/trace/trace_types.h"

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace astrolabe::generate {

struct MicrobenchParams {
    trace::CollectiveType collective = trace::CollectiveType::AllReduce;
    uint64_t bytes = 1 << 20; // comm_size of each collective
    uint32_t npus = 8;
    uint32_t repeat = 1;
    uint64_t compute_us = 0; // a compute node of this duration before each collective (0 = none)
};

// Checks the parameters; every problem at once.
Status check(const MicrobenchParams& p);
// The trace of one NPU (all NPUs get the same DAG).
trace::Trace microbench_trace(const MicrobenchParams& p, uint32_t rank);

// Sets parameters by name, as the CLI flags spell them without dashes (collective, size, npus, repeat,
// compute-us); the scenario's {"generate": {"kind": "microbench", ...}} form. Every problem at once.
Status apply_params(MicrobenchParams& p, const std::vector<std::pair<std::string, std::string>>& named);

// Parses sizes such as "1048576", "64KiB", "1MiB", "2GiB", "1MB" (powers of 10 for KB/MB/GB).
bool parse_size(const std::string& text, uint64_t& bytes);

} // namespace astrolabe::generate

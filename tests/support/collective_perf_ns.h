// collective-perf's time for one size on a described system, in ns (its per-iteration time is a whole
// number of ns): the reference the `run --hardware` tests compare a run's collectives with.
#pragma once

#include "core/session/collective_perf.h"

#include <catch2/catch.hpp>

#include <cmath>
#include <cstdint>

namespace astrolabe::test {

// Two HGX H100 nodes on 8 x 400 Gb/s InfiniBand (samples/hardware/h100x16.json).
constexpr const char* kH100x16 = R"({"gpu": "H100-SXM", "nodes": 2, "gpus_per_node": 8, "nvls": true,
  "nics_per_node": 8, "nic_gbps": 400, "fabric": "infiniband", "processes": "one-per-gpu"})";

inline uint64_t collective_perf_ns(const config::HardwareConfig& hw, hardware::CollOp op, uint64_t bytes) {
    CollectivePerfRequest req;
    req.hardware = hw;
    req.op = op;
    auto row = run_collective_perf_row(req, bytes);
    REQUIRE(row.is_ok());
    return static_cast<uint64_t>(std::llround(row.value().time_us * 1e3));
}

} // namespace astrolabe::test

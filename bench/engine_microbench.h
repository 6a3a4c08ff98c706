// The engine alone under the event mix of a real collective run, for the events/s target (issue 7).
//
// A 1 MiB ring all-reduce spends its events on three kinds of delay, per NPU and in near lockstep across
// NPUs: zero-delay completions (a receive matched at this tick), the endpoint delay (10 ns) and the
// local-memory reduction, and the network delivery of a packet (500 ns latency plus bytes / bandwidth).
// Each actor here stands for one NPU and cycles through that mix, so the queue holds one pending event per
// NPU, many of them at the same tick, as in the real run. The callbacks do almost nothing: what is measured
// is the queue and the dispatch.
#pragma once

#include "core/base/time.h"

#include <cstdint>

namespace astrolabe {

struct EngineBenchResult {
    uint64_t events = 0;
    TimeNs end_ns = 0; // the simulated time reached: a checksum that the run did the same work
};

// Runs `actors` actors until `events` events have run.
EngineBenchResult run_engine_microbench(uint32_t actors, uint64_t events);

} // namespace astrolabe

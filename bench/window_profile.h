// How much one simulation could gain from conservative parallel simulation (PDES) with lookahead L: the
// run is cut into the windows such an engine would process between two barriers (each starts at the
// earliest pending event and holds the events before it + L, which no other NPU can affect when every
// message between NPUs takes at least L), and the events per window are counted. From those counts and
// the one-thread cost per event, the time on P threads is estimated for a given barrier cost. It measures
// the available parallelism only; the engine has no parallel mode (docs/performance.md).
#pragma once

#include "core/simulation/simulation.h"

#include <cstdint>
#include <vector>

namespace astrolabe::bench {

struct WindowProfile {
    uint64_t windows = 0;
    uint64_t events = 0;
    double cpu_s = 0;                 // processor time of the run in windows (one thread)
    std::vector<uint64_t> per_window; // events in each window
};

// Runs `sim` to its end in windows of `lookahead_ns`.
WindowProfile run_in_windows(Simulation& sim, TimeNs lookahead_ns);

// Prints the window statistics and, for P = 2, 4, 8, 16 threads and barrier costs of 1 and 5 us, the
// estimated event-loop speedup: sum over windows of (events / P x cost per event + barrier), with the
// window's events spread perfectly over the P threads (an upper bound: NPUs are not split that evenly).
void print_window_profile(const char* name, TimeNs lookahead_ns, const WindowProfile& p);

} // namespace astrolabe::bench

#include "bench/window_profile.h"

#include <algorithm>
#include <cstdio>
#include <ctime>

namespace astrolabe::bench {

WindowProfile run_in_windows(Simulation& sim, TimeNs lookahead_ns) {
    WindowProfile p;
    // Processor time, not wall: the machine is shared, and the estimate wants the work per event.
    const std::clock_t t0 = std::clock();
    uint64_t before = sim.events();
    for (;;) {
        const TimeNs start = sim.next_event_time();
        if (start == kTimeNever) break;
        // Events at times start .. start + L - 1: none of them can be caused by another NPU's event of
        // the same window when every cross-NPU delay is at least L.
        const bool more = sim.run_slice(UINT64_MAX, start + lookahead_ns - 1);
        const uint64_t now = sim.events();
        p.per_window.push_back(now - before);
        before = now;
        if (!more) break;
    }
    p.cpu_s = static_cast<double>(std::clock() - t0) / CLOCKS_PER_SEC;
    p.windows = p.per_window.size();
    p.events = sim.events();
    return p;
}

void print_window_profile(const char* name, TimeNs lookahead_ns, const WindowProfile& p) {
    if (p.windows == 0) return;
    std::vector<uint64_t> sorted = p.per_window;
    std::sort(sorted.begin(), sorted.end());
    const double per_event = p.cpu_s / static_cast<double>(std::max<uint64_t>(1, p.events));
    std::printf(
        "%s: lookahead %llu ns: %llu windows, %llu events, events per window: mean %.0f, median %llu, "
        "p10 %llu, p90 %llu; %.1f ns (processor time) per event on one thread\n",
        name, static_cast<unsigned long long>(lookahead_ns), static_cast<unsigned long long>(p.windows),
        static_cast<unsigned long long>(p.events), double(p.events) / double(p.windows),
        static_cast<unsigned long long>(sorted[sorted.size() / 2]),
        static_cast<unsigned long long>(sorted[sorted.size() / 10]),
        static_cast<unsigned long long>(sorted[sorted.size() * 9 / 10]), per_event * 1e9);
    for (double barrier_us : {1.0, 5.0}) {
        std::printf("  barrier %.0f us: estimated event-loop speedup", barrier_us);
        for (unsigned threads : {2u, 4u, 8u, 16u}) {
            double t = 0;
            for (uint64_t e : p.per_window)
                t += static_cast<double>(e) / threads * per_event + barrier_us * 1e-6;
            std::printf("  %u: %.2fx", threads, p.cpu_s / t);
        }
        std::printf("\n");
    }
}

} // namespace astrolabe::bench

#include "core/engine/engine.h"

#include <string>

namespace astrolabe {

void time_limit_passed(TimeNs now, TimeNs dt) {
    // dt may be kTimeNever (a duration that saturated): say "beyond", not a 20-digit number.
    const std::string when = dt >= kTimeLimit ? std::string("more than 2^62 ns") : std::to_string(dt) + " ns";
    throw TimeLimitError("the simulated time would pass 2^62 ns (about 146 years): an event " + when +
                         " after " + std::to_string(now) +
                         " ns; a rate in the inputs is near zero (a peak-perf, a memory or link bandwidth) "
                         "or a duration is out of range");
}

uint64_t Engine::run(uint64_t max_events, TimeNs until) {
    uint64_t ran = 0;
    // One queue call per event: pop_due checks the time limit itself against the slot being drained, so the
    // loop asks no next_time() (an out-of-line call per event, and in WebAssembly every call spills the
    // caller's live values). An earlier attempt to skip next_time() only without a time limit made the
    // wasm build 33% slower (docs/performance.md, WebAssembly).
    TimeNs t;
    Callback cb;
    while (ran < max_events && queue_.pop_due(until, t, cb)) {
        now_ = t;
        if (!cb) continue; // cancelled
        ++ran;
        ++stats_.events;
        cb.invoke();
    }
    return ran;
}

} // namespace astrolabe

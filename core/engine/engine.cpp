#include "core/engine/engine.h"

namespace astrolabe {

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

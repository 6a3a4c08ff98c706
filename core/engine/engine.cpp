#include "core/engine/engine.h"

namespace astrolabe {

uint64_t Engine::run(uint64_t max_events, TimeNs until) {
    uint64_t ran = 0;
    // next_time() looks for the next tick; skip it when nothing limits the time.
    while (ran < max_events && !queue_.empty() && (until == kTimeNever || queue_.next_time() <= until)) {
        TimeNs t;
        Callback cb = queue_.pop(t);
        now_ = t;
        if (!cb) continue; // cancelled
        ++ran;
        ++stats_.events;
        cb.invoke();
    }
    return ran;
}

} // namespace astrolabe

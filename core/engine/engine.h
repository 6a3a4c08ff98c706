// The discrete-event engine: a clock and the queue of pending events.
//
// Components schedule typed callbacks (see callback.h) at absolute or relative times; time is integer ns.
// The engine can run to completion or in slices (an event budget, a simulated-time limit), which is how
// the browser keeps its page responsive and how the CLI shows progress. Nothing here allocates per event.
#pragma once

#include "core/base/time.h"
#include "core/engine/event_queue.h"

#include <cstdint>
#include <stdexcept>

namespace astrolabe {

// Simulated time ends at 2^62 ns (about 146 years). An event past it comes from a rate near zero in the
// inputs (a peak-perf, a memory or link bandwidth) or a duration out of range, and would overflow the
// clock; the run stops with TimeLimitError instead, which says so (an input problem, not a bug).
constexpr TimeNs kTimeLimit = TimeNs(1) << 62;
struct TimeLimitError : std::runtime_error {
    using std::runtime_error::runtime_error;
};
[[noreturn, gnu::cold, gnu::noinline]] void time_limit_passed(TimeNs now, TimeNs dt);

struct EngineStats {
    uint64_t events = 0;     // events run (cancelled ones are not counted)
    uint64_t peak_queue = 0; // most events pending at once
};

class Engine {
public:
    TimeNs now() const { return now_; }
    bool idle() const { return queue_.empty(); }
    uint64_t pending() const { return queue_.size(); }
    // When the next pending event is due; kTimeNever when none is.
    TimeNs next_time() const { return queue_.empty() ? kTimeNever : queue_.next_time(); }
    const EngineStats& stats() const { return stats_; }

    EventId schedule_at(TimeNs t, const Callback& cb) {
        if (t > kTimeLimit) time_limit_passed(now_, t - now_); // now_ <= kTimeLimit always
        EventId id = queue_.push(t, cb);
        if (queue_.size() > stats_.peak_queue) stats_.peak_queue = queue_.size();
        return id;
    }
    EventId schedule_in(TimeNs dt, const Callback& cb) {
        if (dt > kTimeLimit - now_) time_limit_passed(now_, dt); // before now_ + dt can wrap
        return schedule_at(now_ + dt, cb);
    }
    // The event will be skipped. Cancelling "none" or an event that already ran does nothing.
    void cancel(EventId id) { queue_.cancel(id); }

    // Runs until nothing is pending, `max_events` events have run, or the next event lies after `until`.
    // Returns the number of events run.
    uint64_t run(uint64_t max_events = UINT64_MAX, TimeNs until = kTimeNever);
    // Runs one event; false when nothing was left to run.
    bool step() { return run(1) == 1; }

private:
    EventQueue queue_;
    TimeNs now_ = 0;
    EngineStats stats_;
};

} // namespace astrolabe

// The discrete-event engine: a clock and a queue of typed events.
//
// Components derive from EventTarget and receive (kind, arg) when their event fires; no std::function per
// event, no void* payloads. The engine can run to completion or in slices (an event budget or a simulated
// time limit), which is how the browser keeps its page responsive. It never allocates per event.
#pragma once

#include "core/base/time.h"
#include "core/engine/event_queue.h"

#include <cstdint>
#include <unordered_set>

namespace astrolabe {

class EventTarget {
public:
    virtual void on_event(uint32_t kind, uint64_t arg) = 0;

protected:
    ~EventTarget() = default;
};

// A handle to a scheduled event. Default-constructed handles mean "none" and are always safe to cancel.
struct EventId {
    uint64_t seq = 0;
    bool valid() const { return seq != 0; }
};

struct EngineStats {
    uint64_t events = 0;     // events executed (cancelled ones are not counted)
    uint64_t peak_queue = 0; // largest number of pending events seen
};

class Engine {
public:
    TimeNs now() const { return now_; }
    bool idle() const { return queue_.empty(); }
    const EngineStats& stats() const { return stats_; }

    EventId schedule_at(TimeNs t, EventTarget* target, uint32_t kind, uint64_t arg = 0);
    EventId schedule_in(TimeNs dt, EventTarget* target, uint32_t kind, uint64_t arg = 0) {
        return schedule_at(now_ + dt, target, kind, arg);
    }
    // Marks the event so it is skipped when popped. Cancelling "none" or a fired event does nothing.
    void cancel(EventId id);

    // Runs one event. Returns false when nothing is pending.
    bool step();
    // Runs until the queue is empty, `max_events` events have run, or the next event lies after `until`.
    // Returns the number of events run.
    uint64_t run(uint64_t max_events = UINT64_MAX, TimeNs until = kTimeNever);

private:
    void drop_cancelled_top();

    EventQueue queue_;
    TimeNs now_ = 0;
    uint64_t next_seq_ = 1;
    std::unordered_set<uint64_t> cancelled_;
    EngineStats stats_;
};

} // namespace astrolabe

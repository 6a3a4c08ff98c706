// The pending-event queue: events grouped by time, each time's events kept in scheduling order.
//
// Order is (time, scheduling sequence): equal-time events run FIFO, and an event scheduled for the time
// being drained runs after those already queued for it, in the same pass. This is exactly the order of
// ASTRA-sim's analytical event queue, which we need to reproduce its same-tick decisions. Distinct times sit
// in a binary min-heap; events of one time are appended to a pooled vector, so the common case (many events
// at the same few ticks) costs an append, and steady state never allocates.
#pragma once

#include "core/base/hash_index.h"
#include "core/base/slab.h"
#include "core/base/time.h"
#include "core/engine/callback.h"

#include <cstddef>
#include <cstdint>
#include <vector>

namespace astrolabe {

// Identifies a scheduled event: its time and position among that time's events. Default = "none".
struct EventId {
    TimeNs time = kTimeNever;
    uint32_t index = 0;
    bool valid() const { return time != kTimeNever; }
};

class EventQueue {
public:
    bool empty() const { return pending_ == 0; }
    uint64_t size() const { return pending_; }
    // Time of the next event; only valid when not empty.
    TimeNs next_time() const;

    // `t` must not be earlier than the time of the last popped event.
    EventId push(TimeNs t, const Callback& cb);
    // Removes and returns the next event; `t` receives its time. Returns a null callback if the next
    // event was cancelled (it still counts as popped).
    Callback pop(TimeNs& t);
    // Makes a pending event a no-op. Unknown or already-run events are ignored.
    void cancel(EventId id);

private:
    struct Slot {
        TimeNs time = 0;
        std::vector<Callback> events;
    };
    uint32_t slot_for(TimeNs t);
    void release_current();
    void heap_push(TimeNs t, uint32_t slot);
    void heap_pop();

    Slab<Slot> slots_;                              // a released slot keeps its vector's capacity
    std::vector<std::pair<TimeNs, uint32_t>> heap_; // (time, slot) of times not yet being drained
    HashIndex slot_of_time_; // time -> its slot, for times not yet being drained (no allocation per time)
    static uint64_t time_hash(TimeNs t) {
        // splitmix64's finaliser: nearby times must land far apart in the index.
        uint64_t h = static_cast<uint64_t>(t);
        h = (h ^ (h >> 30)) * 0xBF58476D1CE4E5B9ull;
        h = (h ^ (h >> 27)) * 0x94D049BB133111EBull;
        return h ^ (h >> 31);
    }
    uint32_t find_slot(TimeNs t) const {
        return slot_of_time_.find(time_hash(t), [&](uint32_t s) { return slots_[s].time == t; });
    }
    static constexpr uint32_t kNoSlot = UINT32_MAX;
    uint32_t current_ = kNoSlot;    // the slot being drained
    size_t cursor_ = 0;             // next event of the current slot
    TimeNs last_time_ = kTimeNever; // one-entry cache of slot_of_time_
    uint32_t last_slot_ = kNoSlot;
    uint64_t pending_ = 0;
};

} // namespace astrolabe

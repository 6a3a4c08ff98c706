// The pending-event queue: events grouped by time, each time's events kept in scheduling order.
//
// Order is (time, scheduling sequence): equal-time events run FIFO, and an event scheduled for the time
// being drained runs after those already queued for it, in the same pass. This is exactly the order of
// ASTRA-sim's analytical event queue, which we need to reproduce its same-tick decisions. Events of one
// time are appended to a pooled vector (a slot), so steady state never allocates.
//
// Finding a time's slot: almost every event is due within a few microseconds (endpoint delays, memory
// costs, network deliveries: 99.7% within 4096 ns in the COSMIC runs), so times in the window
// [now, now + kWheel) sit on a timing wheel, one entry per ns with a bitmap of occupied entries: a push is
// an array access and the next time a bit scan. Later times wait in an overflow (a binary min-heap and a
// hash index, the former whole design) and move onto the wheel when the window reaches them, before
// anything can be pushed there directly, so each time's events keep their scheduling order.
#pragma once

#include "core/base/assert.h"
#include "core/base/hash_index.h"
#include "core/base/hash_mix.h"
#include "core/base/slab.h"
#include "core/base/time.h"
#include "core/engine/callback.h"

#include <cstddef>
#include <cstdint>
#include <memory>
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
    // Removes the next event if it is due at or before `until`: its time into `t`, its callback into `cb`
    // (a null callback if it was cancelled; it still counts as popped). False, and nothing removed, when
    // the queue is empty or the next event is later than `until`. One call per event: the time limit is
    // checked against the slot being drained, so no separate next_time() per event.
    bool pop_due(TimeNs until, TimeNs& t, Callback& cb);
    // Makes a pending event a no-op. Unknown or already-run events are ignored.
    void cancel(EventId id);

private:
    // A time's events. Not a std::vector: appending is the hottest store of the engine, and its check and
    // store must sit inline in push() with only the growth out of line (libc++'s push_back was a call of
    // its own per event in the wasm build, 6% of a full ring run under node). A released slot keeps its
    // buffer.
    struct Slot {
        TimeNs time = 0;
        uint32_t size = 0;
        uint32_t capacity = 0;
        std::unique_ptr<Callback[]> events;
    };
    void grow(Slot& s);
    uint32_t new_slot_for(TimeNs t); // t has no slot on the wheel: a new wheel slot, or the overflow's
    uint32_t overflow_slot_for(TimeNs t);
    bool pop_next_slot(TimeNs until, TimeNs& t, Callback& cb); // the current slot is drained (or none)
    void release_current();
    void heap_push(TimeNs t, uint32_t slot);
    void heap_pop();
    // The wheel's first occupied entry at or after ns offset `from` of the window, as an offset; kWheel
    // when the wheel is empty there.
    uint32_t next_on_wheel(uint32_t from) const;
    void advance_to(TimeNs t); // the window starts at t; overflow times now inside it move onto the wheel

    static constexpr uint32_t kWheelBits = 12;
    static constexpr uint32_t kWheel = 1u << kWheelBits; // ns the wheel spans
    static constexpr uint32_t kWheelMask = kWheel - 1;

    Slab<Slot> slots_; // a released slot keeps its vector's capacity
    std::vector<uint32_t> wheel_ = std::vector<uint32_t>(kWheel, UINT32_MAX); // time & mask -> slot
    std::vector<uint64_t> occupied_ = std::vector<uint64_t>(kWheel / 64, 0);  // bit per wheel entry
    uint64_t occupied_words_ = 0; // bit w: occupied_[w] != 0, so a scan skips empty words at once
    static_assert(kWheel / 64 == 64, "occupied_words_ has one bit per word of occupied_");
    void mark(uint32_t at) {
        occupied_[at >> 6] |= uint64_t(1) << (at & 63);
        occupied_words_ |= uint64_t(1) << (at >> 6);
    }
    void unmark(uint32_t at) {
        occupied_[at >> 6] &= ~(uint64_t(1) << (at & 63));
        if (occupied_[at >> 6] == 0) occupied_words_ &= ~(uint64_t(1) << (at >> 6));
    }
    TimeNs window_ = 0; // the wheel holds the times in [window_, window_ + kWheel): window_ = last popped
    std::vector<std::pair<TimeNs, uint32_t>> heap_; // (time, slot) of overflow times
    HashIndex slot_of_time_;                        // overflow time -> its slot (no allocation per time)
    static uint64_t time_hash(TimeNs t) { return mix64(static_cast<uint64_t>(t)); } // nearby times far apart
    uint32_t find_slot(TimeNs t) const {
        return slot_of_time_.find(time_hash(t), [&](uint32_t s) { return slots_[s].time == t; });
    }
    static constexpr uint32_t kNoSlot = UINT32_MAX;
    uint32_t current_ = kNoSlot;    // the slot being drained
    uint32_t cursor_ = 0;           // next event of the current slot
    TimeNs last_time_ = kTimeNever; // one-entry cache of slot_of_time_ (overflow times)
    uint32_t last_slot_ = kNoSlot;
    uint64_t pending_ = 0;
};

// [SECTION] the inline paths: appending to a known time, and popping inside the slot being drained

inline EventId EventQueue::push(TimeNs t, const Callback& cb) {
    uint32_t slot = current_;
    if (slot == kNoSlot || slots_[slot].time != t) {
        SIM_ASSERT(t >= window_ && (slot == kNoSlot || t > slots_[slot].time),
                   "an event may not be scheduled in the past");
        slot = t - window_ < kWheel ? wheel_[t & kWheelMask] : kNoSlot;
        if (slot == kNoSlot) slot = new_slot_for(t);
    }
    Slot& s = slots_[slot];
    if (s.size == s.capacity) grow(s);
    s.events[s.size] = cb;
    ++pending_;
    return EventId{t, s.size++};
}

inline bool EventQueue::pop_due(TimeNs until, TimeNs& t, Callback& cb) {
    if (current_ != kNoSlot) {
        const Slot& s = slots_[current_];
        if (cursor_ < s.size) {
            if (s.time > until) return false;
            t = s.time;
            cb = s.events[cursor_++];
            --pending_;
            return true;
        }
    }
    return pop_next_slot(until, t, cb);
}

} // namespace astrolabe

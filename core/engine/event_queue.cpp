#include "core/engine/event_queue.h"

#include "core/base/assert.h"

#include <algorithm>

namespace astrolabe {

namespace {
struct LaterTime {
    bool operator()(const std::pair<TimeNs, uint32_t>& a, const std::pair<TimeNs, uint32_t>& b) const {
        return a.first > b.first;
    }
};
} // namespace

// [SECTION] the wheel and the overflow

uint32_t EventQueue::next_on_wheel(uint32_t from) const {
    // The first occupied entry cyclically from entry (window_ + from): first in the rest of its word, then
    // in the first later non-empty word, then (wrapping round) in the first non-empty word at all, which is
    // then at or before the starting word and whose lowest bit is the answer. An entry found at an offset
    // below `from` (only the window's own entry) means there is none in between.
    const uint32_t pos = static_cast<uint32_t>((window_ + from) & kWheelMask);
    const uint32_t w = pos >> 6;
    uint32_t at;
    uint64_t bits = occupied_[w] & (~uint64_t(0) << (pos & 63));
    if (bits) {
        at = (w << 6) | static_cast<uint32_t>(__builtin_ctzll(bits));
    } else {
        uint64_t words = w < 63 ? occupied_words_ & (~uint64_t(0) << (w + 1)) : 0;
        if (!words) words = occupied_words_;
        if (!words) return kWheel;
        const uint32_t w2 = static_cast<uint32_t>(__builtin_ctzll(words));
        at = (w2 << 6) | static_cast<uint32_t>(__builtin_ctzll(occupied_[w2]));
    }
    const uint32_t offset = (at - static_cast<uint32_t>(window_ & kWheelMask)) & kWheelMask;
    return offset >= from ? offset : kWheel;
}

void EventQueue::advance_to(TimeNs t) {
    window_ = t;
    while (!heap_.empty() && heap_.front().first - window_ < kWheel) {
        auto [time, slot] = heap_.front();
        heap_pop();
        slot_of_time_.erase(time_hash(time), slot);
        if (last_slot_ == slot) last_time_ = kTimeNever;
        // No event can have been pushed for `time` onto the wheel yet: it was outside the window until now.
        const uint32_t at = static_cast<uint32_t>(time & kWheelMask);
        wheel_[at] = slot;
        mark(at);
    }
}

TimeNs EventQueue::next_time() const {
    if (current_ != kNoSlot && cursor_ < slots_[current_].size) return slots_[current_].time;
    // An exhausted current slot (at window_) is still on the wheel until the next pop releases it.
    uint32_t offset = next_on_wheel(current_ != kNoSlot ? 1 : 0);
    if (offset < kWheel) return window_ + offset;
    return heap_.front().first;
}

void EventQueue::heap_push(TimeNs t, uint32_t slot) {
    heap_.emplace_back(t, slot);
    std::push_heap(heap_.begin(), heap_.end(), LaterTime{});
}

void EventQueue::heap_pop() {
    std::pop_heap(heap_.begin(), heap_.end(), LaterTime{});
    heap_.pop_back();
}

uint32_t EventQueue::overflow_slot_for(TimeNs t) {
    if (t == last_time_) return last_slot_;
    uint32_t slot;
    slot = find_slot(t);
    if (slot == HashIndex::kNone) {
        slot = slots_.acquire();
        slots_[slot].time = t;
        slot_of_time_.insert(time_hash(t), slot);
        heap_push(t, slot);
    }
    last_time_ = t;
    last_slot_ = slot;
    return slot;
}

uint32_t EventQueue::new_slot_for(TimeNs t) {
    if (t - window_ >= kWheel) return overflow_slot_for(t);
    const uint32_t at = static_cast<uint32_t>(t & kWheelMask);
    const uint32_t slot = slots_.acquire();
    slots_[slot].time = t;
    wheel_[at] = slot;
    mark(at);
    return slot;
}

void EventQueue::grow(Slot& s) {
    const uint32_t capacity = s.capacity ? 2 * s.capacity : 8;
    std::unique_ptr<Callback[]> events(new Callback[capacity]);
    for (uint32_t i = 0; i < s.size; ++i)
        events[i] = s.events[i];
    s.events = std::move(events);
    s.capacity = capacity;
}

// [SECTION] push, pop, cancel

void EventQueue::release_current() {
    const uint32_t at = static_cast<uint32_t>(slots_[current_].time & kWheelMask);
    wheel_[at] = kNoSlot;
    unmark(at);
    slots_[current_].size = 0;
    slots_.release(current_);
    current_ = kNoSlot;
    cursor_ = 0;
}

bool EventQueue::pop_next_slot(TimeNs until, TimeNs& t, Callback& cb) {
    if (pending_ == 0) return false;
    if (current_ != kNoSlot) release_current(); // drained (pop_due only comes here then)
    // Every overflow time lies after every wheel time, so the wheel goes first. The window moves only
    // when the time is due: events may still be scheduled before a time that lies after `until`.
    const uint32_t offset = next_on_wheel(0);
    const TimeNs next = offset < kWheel ? window_ + offset : heap_.front().first;
    if (next > until) return false;
    advance_to(next);
    current_ = wheel_[window_ & kWheelMask];
    cursor_ = 1;
    --pending_;
    t = next;
    cb = slots_[current_].events[0];
    return true;
}

void EventQueue::cancel(EventId id) {
    if (!id.valid()) return;
    if (current_ != kNoSlot && slots_[current_].time == id.time) {
        Slot& s = slots_[current_];
        if (id.index >= cursor_ && id.index < s.size) s.events[id.index].target = nullptr;
        return;
    }
    if (id.time < window_) return; // already ran
    uint32_t slot = kNoSlot;
    if (id.time - window_ < kWheel) {
        slot = wheel_[id.time & kWheelMask];
        if (slot != kNoSlot && slots_[slot].time != id.time) slot = kNoSlot;
    } else {
        slot = find_slot(id.time);
        if (slot == HashIndex::kNone) slot = kNoSlot;
    }
    if (slot == kNoSlot) return;
    Slot& s = slots_[slot];
    if (id.index < s.size) s.events[id.index].target = nullptr;
}

} // namespace astrolabe

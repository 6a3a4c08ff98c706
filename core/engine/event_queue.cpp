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

TimeNs EventQueue::next_time() const {
    if (current_ != kNoSlot && cursor_ < slots_[current_].events.size()) return slots_[current_].time;
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

uint32_t EventQueue::slot_for(TimeNs t) {
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

EventId EventQueue::push(TimeNs t, const Callback& cb) {
    uint32_t slot;
    if (current_ != kNoSlot && slots_[current_].time == t) {
        slot = current_;
    } else {
        SIM_ASSERT(current_ == kNoSlot || t > slots_[current_].time,
                   "an event may not be scheduled in the past");
        slot = slot_for(t);
    }
    auto& events = slots_[slot].events;
    events.push_back(cb);
    ++pending_;
    return EventId{t, static_cast<uint32_t>(events.size() - 1)};
}

void EventQueue::release_current() {
    slots_[current_].events.clear();
    slots_.release(current_);
    current_ = kNoSlot;
    cursor_ = 0;
}

Callback EventQueue::pop(TimeNs& t) {
    SIM_ASSERT(pending_ > 0, "pop from an empty event queue");
    if (current_ != kNoSlot && cursor_ >= slots_[current_].events.size()) release_current();
    if (current_ == kNoSlot) {
        current_ = heap_.front().second;
        heap_pop();
        slot_of_time_.erase(time_hash(slots_[current_].time), current_);
        if (last_slot_ == current_) last_time_ = kTimeNever;
        cursor_ = 0;
    }
    --pending_;
    t = slots_[current_].time;
    return slots_[current_].events[cursor_++];
}

void EventQueue::cancel(EventId id) {
    if (!id.valid()) return;
    if (current_ != kNoSlot && slots_[current_].time == id.time) {
        auto& events = slots_[current_].events;
        if (id.index >= cursor_ && id.index < events.size()) events[id.index].target = nullptr;
        return;
    }
    uint32_t slot = find_slot(id.time);
    if (slot == HashIndex::kNone) return;
    auto& events = slots_[slot].events;
    if (id.index < events.size()) events[id.index].target = nullptr;
}

} // namespace astrolabe

// The pending-event queue: a binary heap of small records ordered by (time, insertion sequence).
//
// Equal-time events pop in the order they were scheduled (FIFO), which makes every run deterministic.
// Records are 32 bytes and hold no heap memory, so scheduling never allocates once the vector has grown.
#pragma once

#include "core/base/time.h"

#include <cstdint>
#include <vector>

namespace astrolabe {

class EventTarget;

struct Event {
    TimeNs time = 0;
    uint64_t seq = 0; // insertion order; also the event's id
    EventTarget* target = nullptr;
    uint32_t kind = 0; // meaning chosen by the target
    uint64_t arg = 0;  // meaning chosen by the target
};

class EventQueue {
public:
    bool empty() const { return heap_.empty(); }
    size_t size() const { return heap_.size(); }
    const Event& top() const { return heap_.front(); }
    void push(const Event& e);
    Event pop();
    void reserve(size_t n) { heap_.reserve(n); }

private:
    std::vector<Event> heap_;
};

} // namespace astrolabe

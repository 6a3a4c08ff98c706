// Typed callbacks: who to call when an event fires, with no allocation and no void* payload.
//
// A component derives from EventTarget and decodes (kind, arg) itself: kind names the event, arg carries
// an index or packed ids. A Callback is 24 bytes of plain data, so queues of them never allocate per event.
#pragma once

#include <cstdint>

namespace astrolabe {

class EventTarget {
public:
    virtual void on_event(uint32_t kind, uint64_t arg) = 0;

protected:
    ~EventTarget() = default;
};

struct Callback {
    EventTarget* target = nullptr;
    uint32_t kind = 0;
    uint64_t arg = 0;

    explicit operator bool() const { return target != nullptr; }
    void invoke() const { target->on_event(kind, arg); }
};

} // namespace astrolabe

// Typed callbacks: who to call when an event fires, with no allocation and no void* payload.
//
// A component derives from EventTarget and decodes (kind, arg) itself: kind names the event, arg carries
// an index or packed ids. A Callback is 24 bytes of plain data (no owned memory), so queues of them never
// allocate per event.
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

    Callback() = default;
    Callback(EventTarget* t, uint32_t k, uint64_t a) : target(t), kind(k), arg(a) {}
    // Copied field by field, never as one block. A Callback is usually built on the stack just before it
    // is handed over (three scalar stores); the implicit copy loads it in 16-byte pieces, and a load that
    // spans two pending stores cannot be forwarded from them, so every copy waited for the stores to
    // retire (a stall that was a third of NpuBuckets::add and EventQueue::push in the COSMIC profile).
    Callback(const Callback& o) : target(o.target), kind(o.kind), arg(o.arg) {}
    Callback& operator=(const Callback& o) {
        target = o.target;
        kind = o.kind;
        arg = o.arg;
        return *this;
    }

    explicit operator bool() const { return target != nullptr; }
    void invoke() const { target->on_event(kind, arg); }
};

} // namespace astrolabe

#include "core/engine/engine.h"

#include "core/base/assert.h"

namespace astrolabe {

EventId Engine::schedule_at(TimeNs t, EventTarget* target, uint32_t kind, uint64_t arg) {
    SIM_ASSERT(t >= now_, "an event may not be scheduled in the past");
    SIM_ASSERT(target != nullptr, "an event needs a target");
    Event e{t, next_seq_++, target, kind, arg};
    queue_.push(e);
    if (queue_.size() > stats_.peak_queue) stats_.peak_queue = queue_.size();
    return EventId{e.seq};
}

void Engine::cancel(EventId id) {
    if (id.valid() && id.seq < next_seq_) cancelled_.insert(id.seq);
}

void Engine::drop_cancelled_top() {
    while (!cancelled_.empty() && !queue_.empty() && cancelled_.count(queue_.top().seq)) {
        cancelled_.erase(queue_.pop().seq);
    }
}

bool Engine::step() {
    drop_cancelled_top();
    if (queue_.empty()) return false;
    Event e = queue_.pop();
    now_ = e.time;
    ++stats_.events;
    e.target->on_event(e.kind, e.arg);
    return true;
}

uint64_t Engine::run(uint64_t max_events, TimeNs until) {
    uint64_t ran = 0;
    while (ran < max_events) {
        drop_cancelled_top();
        if (queue_.empty() || queue_.top().time > until) break;
        step();
        ++ran;
    }
    return ran;
}

} // namespace astrolabe

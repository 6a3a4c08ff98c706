#include "core/engine/event_queue.h"

#include <algorithm>

namespace astrolabe {

namespace {
// std heap algorithms build a max-heap, so "less" here means "runs later".
struct RunsLater {
    bool operator()(const Event& a, const Event& b) const {
        return a.time != b.time ? a.time > b.time : a.seq > b.seq;
    }
};
} // namespace

void EventQueue::push(const Event& e) {
    heap_.push_back(e);
    std::push_heap(heap_.begin(), heap_.end(), RunsLater{});
}

Event EventQueue::pop() {
    std::pop_heap(heap_.begin(), heap_.end(), RunsLater{});
    Event e = heap_.back();
    heap_.pop_back();
    return e;
}

} // namespace astrolabe

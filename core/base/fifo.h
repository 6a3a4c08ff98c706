// A first-in first-out queue on one vector, for the hot per-stream queues of the collective engine.
//
// Why not std::deque: a deque allocates a block (and its map) up front and, in libc++ (the wasm build's
// library), trims and re-adds spare blocks as a queue of one or two entries drains and refills; in the
// 32768-NPU full run the two deques of every collective stream were a fifth of the wasm profile. Here
// the vector keeps its capacity, emptying resets the head, and a queue that never drains is compacted
// when its consumed prefix outgrows what is left, so memory stays proportional to the entries queued.
#pragma once

#include <cstddef>
#include <vector>

namespace astrolabe {

template <typename T>
class Fifo {
public:
    bool empty() const { return head_ == items_.size(); }
    size_t size() const { return items_.size() - head_; }
    T& front() { return items_[head_]; }
    const T& front() const { return items_[head_]; }
    T& back() { return items_.back(); }

    void push_back(const T& v) { items_.push_back(v); }
    void pop_front() {
        ++head_;
        if (head_ == items_.size()) {
            clear();
        } else if (head_ >= 64 && 2 * head_ >= items_.size()) {
            items_.erase(items_.begin(), items_.begin() + static_cast<std::ptrdiff_t>(head_));
            head_ = 0;
        }
    }
    void clear() { // keeps the capacity
        items_.clear();
        head_ = 0;
    }

private:
    std::vector<T> items_;
    size_t head_ = 0;
};

} // namespace astrolabe

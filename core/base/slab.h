// A slab of records addressed by dense uint32_t indices, with a free list: the one pool behind every
// "record per thing in flight" of the kernel (event-queue time slots, congestion chunks, flows, collective
// streams and data sets, P2P channels and in-flight messages).
//
// Why indices and not pointers: records are named by events (Callback's 64-bit argument) and by intrusive
// lists, and the vector may grow while a record is in use. Why reuse as-is: a released record keeps its
// contents, so its buffers keep their capacity (steady traffic allocates nothing) and counters that must
// outlive one use (a flow's version, a stream's generation) survive; the caller resets what it needs.
// Reuse order is LIFO (the most recently released index first), which keeps the hot records in cache and
// is part of the simulator's determinism: the same run hands out the same indices.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace astrolabe {

template <typename T>
class Slab {
public:
    // A record for a new use: the last released one, left as it was, or else a new default-constructed one.
    uint32_t acquire() {
        if (free_.empty()) {
            items_.emplace_back();
            return static_cast<uint32_t>(items_.size() - 1);
        }
        uint32_t i = free_.back();
        free_.pop_back();
        return i;
    }
    // Gives record i back; it must be in use, and is not touched.
    void release(uint32_t i) { free_.push_back(i); }

    T& operator[](uint32_t i) { return items_[i]; }
    const T& operator[](uint32_t i) const { return items_[i]; }

    // Every record ever made, in use or free, in index order (for reports that must not depend on timing).
    const std::vector<T>& all() const { return items_; }
    size_t size() const { return items_.size(); }
    size_t in_use() const { return items_.size() - free_.size(); }

private:
    std::vector<T> items_;
    std::vector<uint32_t> free_;
};

} // namespace astrolabe

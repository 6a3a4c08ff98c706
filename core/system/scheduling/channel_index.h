// An open-addressing hash index from a message key to its channel in the P2P matcher's pool.
//
// Why not std::unordered_map: every collective stream has its own tag, so almost every packet opens a new
// key and every drained channel erases it again; the node-based map paid a heap allocation and a cache
// miss per key (a third of a 4096-NPU ring all-reduce). Here a slot is 8 bytes (a 32-bit hash and the
// channel number) in one power-of-two array, probed linearly, kept at most half full, with backward-shift
// deletion (no tombstones), so inserts and erases never allocate once the table has grown to the peak
// number of open channels. Keys live in the channels; the index compares them through a callback-free
// accessor (the caller's pool), so this class stores no key copies.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace astrolabe {

class ChannelIndex {
public:
    static constexpr uint32_t kNone = UINT32_MAX;

    // The channel stored for `hash` whose key satisfies `same(channel)`, or kNone.
    template <typename Same>
    uint32_t find(uint64_t hash, const Same& same) const {
        if (slots_.empty()) return kNone;
        uint32_t h = fold(hash);
        for (size_t i = h & mask_;; i = (i + 1) & mask_) {
            const Slot& s = slots_[i];
            if (s.channel == kNone) return kNone;
            if (s.hash == h && same(s.channel)) return s.channel;
        }
    }

    // Adds a key known to be absent.
    void insert(uint64_t hash, uint32_t channel);

    // Removes the slot of `channel` (stored under `hash`); it must be present.
    void erase(uint64_t hash, uint32_t channel);

    size_t size() const { return size_; }

private:
    struct Slot {
        uint32_t hash = 0;
        uint32_t channel = kNone;
    };
    static uint32_t fold(uint64_t h) { return static_cast<uint32_t>(h ^ (h >> 32)); }
    void grow();

    std::vector<Slot> slots_;
    size_t mask_ = 0;
    size_t size_ = 0;
};

} // namespace astrolabe

// An open-addressing hash index from a key to a slot number in the caller's pool (the P2P matcher's
// channels, the event queue's per-time slots).
//
// Why not std::unordered_map: keys churn (every collective stream has its own tag, every tick its own
// time), and the node-based map paid a heap allocation and a cache miss per key (a third of a 1 MiB ring
// all-reduce). Here an entry is 8 bytes (a 32-bit hash and the slot number) in one power-of-two array,
// probed linearly, kept at most half full, with backward-shift deletion (no tombstones), so inserts and
// erases never allocate once the table has grown to the peak number of live keys. Keys live in the
// caller's pool; lookups compare them through the caller's `same(slot)`, so no key copies are stored.
// The caller's hash must mix its low bits well (they pick the home entry).
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace astrolabe {

class HashIndex {
public:
    static constexpr uint32_t kNone = UINT32_MAX;

    // The slot stored for `hash` whose key satisfies `same(slot)`, or kNone.
    template <typename Same>
    uint32_t find(uint64_t hash, const Same& same) const {
        if (entries_.empty()) return kNone;
        uint32_t h = fold(hash);
        for (size_t i = h & mask_;; i = (i + 1) & mask_) {
            const Entry& s = entries_[i];
            if (s.slot == kNone) return kNone;
            if (s.hash == h && same(s.slot)) return s.slot;
        }
    }

    // Adds a key known to be absent.
    void insert(uint64_t hash, uint32_t slot);

    // Removes `slot` (stored under `hash`); it must be present.
    void erase(uint64_t hash, uint32_t slot);

    size_t size() const { return size_; }

private:
    struct Entry {
        uint32_t hash = 0;
        uint32_t slot = kNone;
    };
    static uint32_t fold(uint64_t h) { return static_cast<uint32_t>(h ^ (h >> 32)); }
    void grow();

    std::vector<Entry> entries_;
    size_t mask_ = 0;
    size_t size_ = 0;
};

} // namespace astrolabe

#include "core/base/hash_index.h"

#include "core/base/assert.h"

namespace astrolabe {

void HashIndex::grow() {
    std::vector<Entry> old;
    old.swap(entries_);
    size_t cap = old.empty() ? 64 : old.size() * 2;
    entries_.assign(cap, Entry{});
    mask_ = cap - 1;
    for (const Entry& s : old) {
        if (s.slot == kNone) continue;
        size_t i = s.hash & mask_;
        while (entries_[i].slot != kNone)
            i = (i + 1) & mask_;
        entries_[i] = s;
    }
}

void HashIndex::insert(uint64_t hash, uint32_t slot) {
    if ((size_ + 1) * 2 > entries_.size()) grow(); // at most half full: probe runs stay short
    uint32_t h = fold(hash);
    size_t i = h & mask_;
    while (entries_[i].slot != kNone)
        i = (i + 1) & mask_;
    entries_[i] = {h, slot};
    ++size_;
}

void HashIndex::erase(uint64_t hash, uint32_t slot) {
    uint32_t h = fold(hash);
    size_t i = h & mask_;
    while (entries_[i].slot != slot) {
        SIM_ASSERT(entries_[i].slot != kNone, "erasing a slot that is not in the index");
        i = (i + 1) & mask_;
    }
    // Backward-shift deletion: pull later members of the probe run into the hole, so lookups can keep
    // stopping at the first empty slot without tombstones.
    size_t hole = i;
    for (size_t j = (i + 1) & mask_; entries_[j].slot != kNone; j = (j + 1) & mask_) {
        size_t home = entries_[j].hash & mask_;
        // Move j into the hole unless its home lies cyclically in (hole, j].
        bool home_after_hole = hole <= j ? (hole < home && home <= j) : (hole < home || home <= j);
        if (home_after_hole) continue;
        entries_[hole] = entries_[j];
        hole = j;
    }
    entries_[hole] = Entry{};
    --size_;
}

} // namespace astrolabe

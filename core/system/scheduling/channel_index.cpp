#include "core/system/scheduling/channel_index.h"

#include "core/base/assert.h"

namespace astrolabe {

void ChannelIndex::grow() {
    std::vector<Slot> old;
    old.swap(slots_);
    size_t cap = old.empty() ? 64 : old.size() * 2;
    slots_.assign(cap, Slot{});
    mask_ = cap - 1;
    for (const Slot& s : old) {
        if (s.channel == kNone) continue;
        size_t i = s.hash & mask_;
        while (slots_[i].channel != kNone)
            i = (i + 1) & mask_;
        slots_[i] = s;
    }
}

void ChannelIndex::insert(uint64_t hash, uint32_t channel) {
    if ((size_ + 1) * 2 > slots_.size()) grow(); // at most half full: probe runs stay short
    uint32_t h = fold(hash);
    size_t i = h & mask_;
    while (slots_[i].channel != kNone)
        i = (i + 1) & mask_;
    slots_[i] = {h, channel};
    ++size_;
}

void ChannelIndex::erase(uint64_t hash, uint32_t channel) {
    uint32_t h = fold(hash);
    size_t i = h & mask_;
    while (slots_[i].channel != channel) {
        SIM_ASSERT(slots_[i].channel != kNone, "erasing a channel that is not in the index");
        i = (i + 1) & mask_;
    }
    // Backward-shift deletion: pull later members of the probe run into the hole, so lookups can keep
    // stopping at the first empty slot without tombstones.
    size_t hole = i;
    for (size_t j = (i + 1) & mask_; slots_[j].channel != kNone; j = (j + 1) & mask_) {
        size_t home = slots_[j].hash & mask_;
        // Move j into the hole unless its home lies cyclically in (hole, j].
        bool home_after_hole = hole <= j ? (hole < home && home <= j) : (hole < home || home <= j);
        if (home_after_hole) continue;
        slots_[hole] = slots_[j];
        hole = j;
    }
    slots_[hole] = Slot{};
    --size_;
}

} // namespace astrolabe

#include "core/engine/npu_buckets.h"

#include "core/base/assert.h"

namespace astrolabe {

uint32_t NpuBuckets::new_list() {
    if (!free_lists_.empty()) {
        uint32_t l = free_lists_.back();
        free_lists_.pop_back();
        return l;
    }
    lists_.emplace_back();
    return static_cast<uint32_t>(lists_.size() - 1);
}

void NpuBuckets::add(uint32_t npu, TimeNs delay, const Callback& cb) {
    TimeNs t = engine_.now() + delay;
    auto& buckets = pending_[npu];
    for (const Bucket& b : buckets) {
        if (b.time == t) {
            lists_[b.list].push_back(cb);
            return;
        }
    }
    uint32_t l = new_list();
    lists_[l].push_back(cb);
    buckets.push_back({t, l});
    engine_.schedule_at(t, Callback{this, 0, npu});
}

void NpuBuckets::on_event(uint32_t, uint64_t arg) {
    auto npu = static_cast<uint32_t>(arg);
    TimeNs now = engine_.now();
    auto& buckets = pending_[npu];
    uint32_t l = UINT32_MAX;
    for (const Bucket& b : buckets)
        if (b.time == now) l = b.list;
    SIM_ASSERT(l != UINT32_MAX, "an NPU bucket event fired with no bucket for its tick");
    // Index loop, fresh lookup each time: callbacks may append to this bucket (zero delay) or grow lists_.
    for (size_t i = 0; i < lists_[l].size(); ++i) {
        Callback cb = lists_[l][i];
        cb.invoke();
    }
    lists_[l].clear();
    free_lists_.push_back(l);
    auto& after = pending_[npu]; // the callbacks may not add NPUs, but re-take the reference anyway
    for (size_t i = 0; i < after.size(); ++i) {
        if (after[i].time == now) {
            after[i] = after.back();
            after.pop_back();
            break;
        }
    }
}

} // namespace astrolabe

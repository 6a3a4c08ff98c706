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

NpuBuckets::Bucket* NpuBuckets::find(uint32_t npu, TimeNs t) {
    for (Bucket& b : pending_[npu])
        if (b.time == t) return &b;
    return nullptr;
}

void NpuBuckets::add(uint32_t npu, TimeNs delay, const Callback& cb) {
    TimeNs t = engine_.now() + delay;
    if (Bucket* b = find(npu, t)) {
        if (b->list == kNoList) b->list = new_list();
        lists_[b->list].push_back(cb);
        return;
    }
    pending_[npu].push_back({t, cb, kNoList});
    engine_.schedule_at(t, Callback{this, 0, npu});
}

void NpuBuckets::on_event(uint32_t, uint64_t arg) {
    auto npu = static_cast<uint32_t>(arg);
    TimeNs now = engine_.now();
    Bucket* b = find(npu, now);
    SIM_ASSERT(b != nullptr, "an NPU bucket event fired with no bucket for its tick");
    Callback first = b->first;
    first.invoke();
    // The callbacks may append to this bucket (zero delay) or add buckets for later ticks, which can move
    // the NPU's bucket vector and grow lists_: look the bucket and its list up afresh after each call.
    for (size_t i = 0;; ++i) {
        b = find(npu, now);
        if (b->list == kNoList || i >= lists_[b->list].size()) break;
        Callback cb = lists_[b->list][i];
        cb.invoke();
    }
    auto& after = pending_[npu];
    for (size_t i = 0; i < after.size(); ++i) {
        if (after[i].time == now) {
            if (after[i].list != kNoList) {
                lists_[after[i].list].clear();
                free_lists_.push_back(after[i].list);
            }
            after[i] = after.back();
            after.pop_back();
            break;
        }
    }
}

} // namespace astrolabe

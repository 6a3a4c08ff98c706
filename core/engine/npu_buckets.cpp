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
    if (delay > kTimeLimit - engine_.now()) time_limit_passed(engine_.now(), delay); // before the sum wraps
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
    // The callbacks may append to this bucket (zero delay) or add buckets for later ticks, which can move
    // the NPU's bucket vector and grow lists_, but nothing removes a bucket meanwhile (only this function
    // does, for its own tick): the bucket keeps its index, so it is found once and re-read by index.
    std::vector<Bucket>& buckets = pending_[npu];
    Bucket* b = find(npu, now);
    SIM_ASSERT(b != nullptr, "an NPU bucket event fired with no bucket for its tick");
    const size_t at = static_cast<size_t>(b - buckets.data());
    Callback first = b->first;
    first.invoke();
    for (size_t i = 0;; ++i) {
        uint32_t list = buckets[at].list;
        if (list == kNoList || i >= lists_[list].size()) break;
        Callback cb = lists_[list][i];
        cb.invoke();
    }
    if (buckets[at].list != kNoList) {
        lists_[buckets[at].list].clear();
        free_lists_.push_back(buckets[at].list);
    }
    buckets[at] = buckets.back();
    buckets.pop_back();
}

} // namespace astrolabe

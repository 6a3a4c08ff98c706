// Per-NPU event buckets: ASTRA-sim's per-NPU batching of timed callbacks, kept for exact same-tick order.
//
// In ASTRA-sim every NPU keeps a table from absolute tick to a list of callbacks. Only the first callback
// registered for a tick puts an event on the global queue; when it fires, the NPU runs all of that tick's
// callbacks in registration order, including ones appended while it runs. So two callbacks of one NPU at
// one tick run back to back, at the position of the first registration. Compute completions, endpoint
// delays and local-memory costs go through here; network deliveries do not.
#pragma once

#include "core/engine/engine.h"

#include <cstdint>
#include <vector>

namespace astrolabe {

class NpuBuckets final : public EventTarget {
public:
    NpuBuckets(Engine& engine, uint32_t npus) : engine_(engine), pending_(npus) {}

    // Runs `cb` on behalf of `npu` after `delay` ns.
    void add(uint32_t npu, TimeNs delay, const Callback& cb);
    void on_event(uint32_t kind, uint64_t arg) override;
    TimeNs now() const { return engine_.now(); }

private:
    // Most ticks of an NPU carry one callback, so the first lives in the bucket itself and only further
    // ones go to a pooled list: registering a tick then touches no memory beyond the NPU's bucket vector
    // (the list buffers were a cache miss per registration in the 1 MiB ring all-reduce profile).
    static constexpr uint32_t kNoList = UINT32_MAX;
    struct Bucket {
        TimeNs time;
        Callback first;
        uint32_t list; // index into lists_ for the callbacks after `first`, or kNoList
    };
    Bucket* find(uint32_t npu, TimeNs t);
    uint32_t new_list();

    Engine& engine_;
    std::vector<std::vector<Bucket>> pending_; // per NPU, a handful of future ticks
    std::vector<std::vector<Callback>> lists_;
    std::vector<uint32_t> free_lists_;
};

} // namespace astrolabe

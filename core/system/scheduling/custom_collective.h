// Custom (trace-defined) collectives: ASTRA-sim's `*-implementation-custom`.
//
// The system config names an ET prefix; NPU at position p of the collective's group runs `<prefix>.<p>.et`,
// a small DAG of sends, receives and compute nodes (an MSCCL-style algorithm). Its ranks are positions in
// the group, mapped to NPU ids through the group's rank list (identity for the whole system). As in
// ASTRA-sim (docs/research/astra-workload-layer.md, section 7):
// - every ready node is issued at once (no hardware slots), in ascending id;
// - sends and receives are workload point-to-point messages with the ET's own sizes and tags (the
//   collective's comm_size is ignored); compute nodes take their duration (1 ns without one) and do not
//   count as compute time; no endpoint delay or local-memory cost is charged;
// - the collective completes, synchronously, when nothing is left ready or in flight.
// The whole collective runs once, whatever preferred-dataset-splits says (ASTRA-sim would replay the ET
// once per chunk; docs/astra-differences.md).
#pragma once

#include "core/engine/npu_buckets.h"
#include "core/system/scheduling/p2p_matcher.h"
#include "core/system/scheduling/workload_graph.h"

#include <vector>

namespace astrolabe {

class CustomCollectives final : public EventTarget {
public:
    CustomCollectives(NpuBuckets& buckets, P2PMatcher& matcher, uint32_t npus)
        : buckets_(buckets), matcher_(matcher), runs_(npus) {}

    // Runs `algorithm` (the ET of this NPU's position) on `npu`; `ranks` maps algorithm ranks to NPU ids
    // (null = identity). `done` runs when it finishes. One custom collective per NPU at a time (the
    // executor's communication slot guarantees it).
    void start(uint32_t npu, const WorkloadGraph& algorithm, const std::vector<uint32_t>* ranks,
               const Callback& done);
    void on_event(uint32_t kind, uint64_t arg) override;
    bool active(uint32_t npu) const { return runs_[npu].graph != nullptr; }

private:
    struct Run {
        const WorkloadGraph* graph = nullptr;
        const std::vector<uint32_t>* ranks = nullptr;
        std::vector<uint32_t> parents_left;
        std::vector<uint32_t> ready; // made ready, not yet issued
        std::vector<uint32_t> batch; // the pass being issued, ascending
        uint32_t in_flight = 0;
        Callback done;
    };
    enum Kind : uint32_t { kNodeDone = 1, kEmpty = 2 };
    static uint64_t pack(uint32_t npu, uint32_t node) { return uint64_t(npu) << 32 | node; }
    uint32_t npu_of(const Run& r, uint32_t algo_rank) const {
        return r.ranks ? (*r.ranks)[algo_rank] : algo_rank;
    }
    void release_children(Run& r, uint32_t node);
    void issue_ready(uint32_t npu);
    void finish(uint32_t npu, uint32_t node);

    NpuBuckets& buckets_;
    P2PMatcher& matcher_;
    std::vector<Run> runs_;
};

} // namespace astrolabe

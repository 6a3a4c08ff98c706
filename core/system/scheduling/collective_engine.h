// Running collectives: chunks (streams), per-dimension queues and the phase algorithms, for every NPU.
//
// ASTRA-sim's stream machinery, reproduced for exact timing (docs/research/astra-collectives-ring-direct.md):
// - A collective of S bytes is cut into `preferred-dataset-splits` chunks; each chunk is a stream that runs
//   the collective's phases one after another (one per logical dimension, see phase_plan.h).
// - Each dimension has a queue per NPU; at most `active-chunks-per-dimension` streams run in it at once.
//   Waiting streams are ordered by priority: FIFO runs them in creation order, LIFO runs the newest first.
// - A stream entering a queue, finishing a phase or finishing its collective frees or takes a queue place
//   in the same ns; the collective completes (synchronously) when its last stream does.
// - Every packet an algorithm handles costs `endpoint-delay` ns locally; a packet to be reduced also costs
//   3 * floor(bytes / local-mem-bw) ns (one write and two reads of local memory, 1 GB = 1e9 bytes).
// - With per-collective links (a hardware description, collective_link.h) a collective the links function
//   times runs as one chunk through one phase over its members (queue 0), with the link's algorithm, each
//   message on its link.
// Stream ids double as network tags, so NPUs must issue their collectives in the same order (ASTRA-sim's
// convention); communicator groups number their streams separately, from group id * 1000000.
#pragma once

#include "core/base/slab.h"
#include "core/config/config_types.h"
#include "core/engine/npu_buckets.h"
#include "core/system/collectives/collective_link.h"
#include "core/system/collectives/phase_plan.h"
#include "core/system/scheduling/fast_ring.h"
#include "core/system/scheduling/p2p_matcher.h"

#include <map>
#include <memory>
#include <tuple>
#include <vector>

namespace astrolabe {

struct CollectiveRequest {
    PhaseType type = PhaseType::AllReduce;
    uint64_t bytes = 0;
    const std::vector<uint32_t>* group = nullptr; // null = whole system
    uint32_t group_id = 0;                        // the group's id (stream-id space); 0 = whole system
    uint8_t involved_dims = 0xff;
    Callback on_done; // invoked synchronously at the ns the last chunk finishes
};

struct CollectiveEngineStats {
    uint64_t collectives = 0;
    uint64_t streams = 0;
    uint64_t packets = 0;
};

class CollectiveEngine final : public EventTarget {
public:
    CollectiveEngine(NpuBuckets& buckets, P2PMatcher& matcher, const config::SystemConfig& sys,
                     const LogicalTopology& topo, uint32_t endpoint_delay_ns);
    ~CollectiveEngine();

    // Starts a collective on `npu` now. Returns the note of its per-collective link (collective_link.h),
    // for the run's notes, or null.
    const std::string* start(uint32_t npu, const CollectiveRequest& req);
    void on_event(uint32_t kind, uint64_t arg) override;

    // Every collective from now on goes to the ring fast path (a run fast_ring_check.h accepted).
    void set_fast_ring(FastRing* fast) { fast_ = fast; }
    // Every collective `links` times from now on runs on its own link (collective_link.h); null = none.
    void set_links(const CollectiveLinks* links) { links_ = links; }
    const CollectiveEngineStats& stats() const { return stats_; }
    size_t live_streams(uint32_t npu) const;

private:
    struct Stream;
    struct DataSet;
    struct Npu;
    class Actions;
    enum Kind : uint32_t { kBundle = 1, kBundleProcessed = 2, kPacketReceived = 3 };

    uint32_t new_stream(uint32_t npu);
    uint64_t next_tag(uint32_t npu, uint32_t group_id);
    void insert_ordered(std::vector<uint32_t>& list, uint32_t s);
    void proceed_to_next_phase(uint32_t s);
    void let_go_channels(Stream& st);
    void admit(uint32_t npu, uint32_t queue);
    enum class Input { Start, Packet, Bundle };
    void run_actions(uint32_t s, Input input);
    void release_bundle(uint32_t s, bool processing, uint64_t bytes);
    uint64_t mem_cost(uint64_t bytes) const;
    const CollectiveLink* linked_phase(uint32_t npu, const CollectiveRequest& req, PhaseSpec& phase);
    static uint64_t pack(uint32_t s, uint32_t gen) { return uint64_t(s) | uint64_t(gen) << 32; }

    NpuBuckets& buckets_;
    P2PMatcher& matcher_;
    const config::SystemConfig& sys_;
    const LogicalTopology& topo_;
    uint32_t endpoint_delay_;
    uint32_t queue_threshold_;
    std::vector<Npu> npus_;
    Slab<Stream> streams_; // a reused stream keeps its generation (stale packet events stay stale)
    Slab<DataSet> datasets_;
    CollectiveEngineStats stats_;
    FastRing* fast_ = nullptr;
    const CollectiveLinks* links_ = nullptr;
    // (type, bytes, group id, involved dims) -> the link, or none: every NPU asks for the same collective.
    std::map<std::tuple<uint8_t, uint64_t, uint32_t, uint8_t>, std::pair<bool, CollectiveLink>> link_cache_;
};

} // namespace astrolabe

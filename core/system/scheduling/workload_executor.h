// The per-NPU DAG executor: issues ready nodes under ASTRA-sim's resource rules and times them.
//
// Rules (ASTRA-sim's, kept for exact results; docs/research/astra-workload-layer.md):
// - A node is ready when all its data and control parents finished. Ready nodes are tried in ascending id.
// - Each NPU has three single-occupancy slots: CPU (nodes flagged is_cpu_op), GPU compute (COMP) and GPU
//   communication (collectives, sends, memory, metadata and invalid nodes). Receives take no slot.
// - Ready nodes are only re-examined when a node of that NPU completes. Zero-time nodes (metadata, invalid,
//   roofline nodes without work) finish inside the issue pass, so their children wait for the next
//   completion. Where ASTRA-sim would then wait forever (nothing else in flight on that NPU) we look again
//   after a zero-delay event (docs/astra-differences.md).
// - An NPU finishes at the completion of its last node; exposed communication = finish - GPU compute time.
//
// State is per NPU and small (a parent counter per node plus what is in flight), so thousands of NPUs with
// large traces fit; nothing allocates per event once the ready heaps have grown.
#pragma once

#include "core/compute/compute_time.h"
#include "core/compute/systolic.h"
#include "core/engine/engine.h"
#include "core/engine/npu_buckets.h"
#include "core/memory/remote_memory.h"
#include "core/system/scheduling/collective_engine.h"
#include "core/system/scheduling/custom_collective.h"
#include "core/system/scheduling/p2p_matcher.h"
#include "core/system/scheduling/run_stats.h"
#include "core/system/scheduling/symmetry.h"
#include "core/system/scheduling/workload_graph.h"

#include <string>
#include <vector>

namespace astrolabe {

// One NPU's own compute figures (system key npu-overrides): heterogeneous and straggling NPUs.
struct NpuProfile {
    RooflineParams roofline;
    RooflineParams fallback; // the systolic model's roofline for nodes without a GEMM shape
    double slowdown = 1;     // every GPU compute node takes this many times longer (rounded to ns)
};

struct ExecutorOptions {
    bool roofline = false;
    RooflineParams roofline_params;
    bool roofline_or_duration = false; // a node without num_ops or tensor_size replays its duration
    // The systolic model: COMP nodes with a GEMM shape run on `array`; the others use the roofline with
    // `fallback_params` when they have num_ops and tensor_size, else replay their duration.
    bool systolic = false;
    SystolicArray array;
    RooflineParams fallback_params;
    std::vector<NpuProfile> profiles; // per NPU; empty = every NPU uses the values above
    bool replay_only = false;         // every node but no-ops replayed from its duration
    bool keep_timeline = false;
    // Per config::CollectiveKind: the custom implementation's ET per group position (empty = built-in).
    const std::vector<WorkloadGraph>* custom[4] = {};
    // A run of representatives: only they are started, and stand for their classes (symmetry.h).
    const RankSymmetry* symmetry = nullptr;
    // The ring fast path's guard, told of every executor event (fast_ring_watch.h); null = none.
    FastRingWatch* fast_ring_watch = nullptr;
};

// A node that could not finish, for the report when a run ends with unfinished NPUs.
struct StuckNode {
    uint32_t npu = 0;
    uint64_t node_id = 0;
    std::string what;
};

class WorkloadExecutor final : public EventTarget {
public:
    WorkloadExecutor(Engine& engine, NpuBuckets& buckets, P2PMatcher& matcher, CollectiveEngine& collectives,
                     CustomCollectives& custom, RemoteMemory* memory, const GroupTable& groups,
                     const ExecutorOptions& options, const std::vector<WorkloadGraph>& graphs,
                     RunStats& stats);

    // Issues every (simulated) NPU's dependency-free nodes at time 0, NPU 0 first (as ASTRA-sim starts up).
    void start();
    // start() in pieces of at most `npus` simulated NPUs (a build in steps, core/simulation/simulation.h):
    // the NPUs' state, their ready lists, then the first issues, each over every NPU in order, so the calls
    // are start()'s. True while pieces remain; nothing else may touch the executor or the engine in between.
    bool start_step(uint32_t npus);
    void on_event(uint32_t kind, uint64_t arg) override;

    bool all_finished() const { return unfinished_ == 0; }
    uint64_t nodes_done() const { return nodes_done_; }
    // Why the unfinished NPUs are stuck: what is in flight and what is ready but not issued (a few each).
    // In a run of representatives, an NPU that was not simulated is stuck where its representative is.
    std::vector<StuckNode> stuck_nodes(size_t per_npu = 4) const;

private:
    enum Kind : uint32_t { kNodeDone = 1, kKick = 2 };
    enum Slot : uint8_t { kCpu = 0, kGpuComp = 1, kGpuComm = 2, kNoSlot = 3, kSlots = 4 };

    struct Running {
        uint32_t node;
        TimeNs start;
    };
    struct Npu {
        // Where nodes and edges are read (WorkloadGraph::shape): shared by a pipeline stage's ranks, so
        // a completion's walk over children stays in cache. Peers come from the NPU's own graph (peer()).
        const WorkloadGraph* shape = nullptr;
        std::vector<uint32_t> parents_left;
        std::vector<uint32_t> ready[kSlots]; // min-heaps of node indices (index order = id order)
        std::vector<uint32_t> deferred;      // made ready during an issue pass; queued after it
        std::vector<Running> running;
        std::vector<uint32_t>
            group_ordinal; // per group index: collectives finished so far (one runs at a time)
        bool busy[kSlots] = {};
        bool in_pass = false;
        bool kick_pending = false;
        TimeNs busy_since = 0;
    };

    static uint64_t pack(uint32_t npu, uint32_t node) { return uint64_t(npu) << 32 | node; }
    bool simulated(uint32_t npu) const {
        return !options_.symmetry || options_.symmetry->is_representative(npu);
    }
    Slot slot_of(const GraphNode& n) const;
    // A send/recv peer or a collective's group index: the one field the shape does not hold.
    uint32_t peer(uint32_t npu, uint32_t node) const { return graphs_[npu].peer(node); }
    void push_ready(uint32_t npu, uint32_t node);
    void issue_ready(uint32_t npu);
    void issue(uint32_t npu, uint32_t node);
    void issue_collective(uint32_t npu, uint32_t node);
    // How long GPU compute node `n` of `npu` takes under the configured model, with its statistics
    // recorded; `skip` is set for roofline nodes without work (they finish at once, as in ASTRA-sim).
    TimeNs compute_time(uint32_t npu, const GraphNode& n, bool& skip);
    // Whether issue() times node `n` itself, on the per-NPU delay buckets (schedule_done): CPU ops, every
    // node of a replay-only run but no-ops, compute, and collectives replayed from their duration. The
    // fast path's guard keys these events differently from the engine's (watch_tie).
    bool timed_on_buckets(const GraphNode& n) const;
    void schedule_done(uint32_t npu, uint32_t node, TimeNs delay);
    // Where `node` sits in the NPU's running list (it must be running): found once per completion and
    // handed to the guard and the bookkeeping, which both need its start.
    size_t running_at(uint32_t npu, uint32_t node) const;
    void finish_node(uint32_t npu, uint32_t node, size_t at); // bookkeeping, no re-issue
    void check_end(uint32_t npu);
    // Tells the fast path's guard (fast_ring_watch.h); `at`: the node's place in the running list.
    void watch_tie(uint32_t kind, uint64_t arg, size_t at);
    std::string describe(uint32_t npu, uint32_t node, bool running, const GroupLookup* lookup) const;

    Engine& engine_;
    NpuBuckets& buckets_;
    P2PMatcher& matcher_;
    CollectiveEngine& collectives_;
    CustomCollectives& custom_;
    RemoteMemory* memory_;
    const GroupTable& groups_;
    ExecutorOptions options_;
    const std::vector<WorkloadGraph>& graphs_;
    RunStats& stats_;
    std::vector<Npu> npus_;
    std::vector<std::vector<uint32_t>>
        collective_index_; // per group index, per ordinal: stats_.collectives slot
    uint32_t unfinished_ = 0;
    uint32_t start_phase_ = 0, start_next_ = 0; // start_step's place: phase (state, ready, issue) and NPU
    uint64_t nodes_done_ = 0;
};

} // namespace astrolabe

#include "core/system/scheduling/workload_executor.h"

#include "core/base/assert.h"
#include "core/system/scheduling/engine_collective.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <memory>

namespace astrolabe {

using trace::CollectiveType;

// [SECTION] set-up and slots

WorkloadExecutor::WorkloadExecutor(Engine& engine, NpuBuckets& buckets, P2PMatcher& matcher,
                                   CollectiveEngine& collectives, CustomCollectives& custom,
                                   RemoteMemory* memory, const GroupTable& groups,
                                   const ExecutorOptions& options, const std::vector<WorkloadGraph>& graphs,
                                   RunStats& stats)
    : engine_(engine), buckets_(buckets), matcher_(matcher), collectives_(collectives), custom_(custom),
      memory_(memory), groups_(groups), options_(options), graphs_(graphs), stats_(stats),
      npus_(graphs.size()), collective_index_(groups.groups.size()) {
    stats_.npus.assign(graphs.size(), {});
    stats_.systolic_pes = options.systolic ? uint64_t(options.array.rows) * options.array.cols : 0;
    unfinished_ = 0; // the NPUs' state is made by start(), in pieces when asked
}

WorkloadExecutor::Slot WorkloadExecutor::slot_of(const GraphNode& n) const {
    if (n.has(kCpuOp)) return kCpu;
    switch (n.kind) {
    case NodeKind::Compute:
        return kGpuComp;
    case NodeKind::Recv:
        return kNoSlot;
    default:
        return kGpuComm;
    }
}

void WorkloadExecutor::push_ready(uint32_t npu, uint32_t node) {
    Npu& s = npus_[npu];
    if (s.in_pass) {
        s.deferred.push_back(node);
        return;
    }
    auto& heap = s.ready[slot_of(s.shape->nodes[node])];
    heap.push_back(node);
    std::push_heap(heap.begin(), heap.end(), std::greater<uint32_t>());
}

void WorkloadExecutor::start() {
    while (start_step(UINT32_MAX)) {
    }
}

bool WorkloadExecutor::start_step(uint32_t npus) {
    const auto n = static_cast<uint32_t>(npus_.size());
    for (uint32_t done = 0; start_phase_ < 3 && done < std::max(1u, npus);) {
        if (start_next_ == n) { // the phase is over for every NPU: the next one, from NPU 0
            ++start_phase_;
            start_next_ = 0;
            continue;
        }
        const uint32_t npu = start_next_++;
        if (start_phase_ == 0) stats_.npus[npu].nodes = graphs_[npu].size();
        if (!simulated(npu)) continue; // no state: its representative's stands for it
        ++done;
        const WorkloadGraph& g = graphs_[npu].shape();
        if (start_phase_ == 0) {
            ++unfinished_;
            Npu& s = npus_[npu];
            s.shape = &g;
            s.parents_left.resize(g.size());
            for (size_t k = 0; k < g.size(); ++k)
                s.parents_left[k] = g.nodes[k].parents;
            s.group_ordinal.assign(groups_.groups.size(), 0);
        } else if (start_phase_ == 1) {
            for (uint32_t k = 0; k < g.size(); ++k)
                if (g.nodes[k].parents == 0) push_ready(npu, k);
        } else {
            issue_ready(npu);
            check_end(npu);
        }
    }
    return start_phase_ < 3;
}

// [SECTION] issuing nodes

void WorkloadExecutor::issue_ready(uint32_t npu) {
    Npu& s = npus_[npu];
    s.in_pass = true;
    // Ascending id among the nodes whose slot is free. A slot busy at the start of the pass stays busy
    // (only zero-time nodes finish inside a pass, and they give their slot straight back), so this is
    // ASTRA-sim's walk over its ready list in id order, skipping nodes whose slot is taken.
    while (true) {
        int best = -1;
        for (int k = 0; k < kSlots; ++k) {
            if (s.ready[k].empty() || (k != kNoSlot && s.busy[k])) continue;
            if (best < 0 || s.ready[k].front() < s.ready[best].front()) best = k;
        }
        if (best < 0) break;
        auto& heap = s.ready[best];
        std::pop_heap(heap.begin(), heap.end(), std::greater<uint32_t>());
        uint32_t node = heap.back();
        heap.pop_back();
        issue(npu, node);
    }
    s.in_pass = false;
    for (uint32_t node : s.deferred)
        push_ready(npu, node);
    bool had_deferred = !s.deferred.empty();
    s.deferred.clear();
    // Nothing in flight means no completion will come to look at what the pass made ready; ASTRA-sim
    // would stop here for good. We look again after a zero-delay event instead.
    if (had_deferred && s.running.empty() && !s.kick_pending) {
        s.kick_pending = true;
        engine_.schedule_in(0, Callback{this, kKick, npu});
    }
}

bool WorkloadExecutor::timed_on_buckets(const GraphNode& n) const {
    PhaseType type;
    uint64_t bytes;
    return n.has(kCpuOp) || (options_.replay_only && n.kind != NodeKind::Nop) ||
           n.kind == NodeKind::Compute ||
           (n.kind == NodeKind::Collective && !engine_collective(n.collective, n.bytes, type, bytes));
}

void WorkloadExecutor::schedule_done(uint32_t npu, uint32_t node, TimeNs delay) {
    SIM_ASSERT(timed_on_buckets(npus_[npu].shape->nodes[node]),
               "timed_on_buckets() lists what issue() times");
    buckets_.add(npu, delay, Callback{this, kNodeDone, pack(npu, node)});
}

void WorkloadExecutor::issue(uint32_t npu, uint32_t node) {
    Npu& s = npus_[npu];
    NpuStats& st = stats_.npus[npu];
    const GraphNode& n = s.shape->nodes[node];
    Slot slot = slot_of(n);
    if (slot != kNoSlot) s.busy[slot] = true;
    if (s.running.empty()) s.busy_since = engine_.now();
    s.running.push_back({node, engine_.now()});

    if (n.has(kCpuOp)) {
        TimeNs t = replay_time(n.duration_ns);
        st.cpu_ns += t;
        return schedule_done(npu, node, t);
    }
    if (options_.replay_only && n.kind != NodeKind::Nop) {
        TimeNs t = replay_time(n.duration_ns);
        st.compute_ns += t;
        return schedule_done(npu, node, t);
    }
    switch (n.kind) {
    case NodeKind::Nop:
        finish_node(npu, node, s.running.size() - 1); // just pushed
        return;
    case NodeKind::Compute: {
        bool skip = false;
        TimeNs t = compute_time(npu, n, skip);
        if (skip) {
            finish_node(npu, node, s.running.size() - 1);
            return;
        }
        return schedule_done(npu, node, t);
    }
    case NodeKind::MemLoad:
    case NodeKind::MemStore:
        SIM_ASSERT(memory_ != nullptr, "memory nodes are refused up front without a remote memory");
        memory_->access(npu, n.bytes, Callback{this, kNodeDone, pack(npu, node)});
        return;
    case NodeKind::Send:
        matcher_.send(MessageKey{MessageSpace::Workload, workload_tag(n.tag), npu, peer(npu, node), n.bytes},
                      Callback{this, kNodeDone, pack(npu, node)});
        return;
    case NodeKind::Recv:
        matcher_.recv(MessageKey{MessageSpace::Workload, workload_tag(n.tag), peer(npu, node), npu, n.bytes},
                      Callback{this, kNodeDone, pack(npu, node)});
        return;
    case NodeKind::Collective:
        issue_collective(npu, node);
        return;
    }
}

TimeNs WorkloadExecutor::compute_time(uint32_t npu, const GraphNode& n, bool& skip) {
    NpuStats& st = stats_.npus[npu];
    const NpuProfile* profile = options_.profiles.empty() ? nullptr : &options_.profiles[npu];
    const double slowdown = profile ? profile->slowdown : 1.0;
    // A straggler's node takes `slowdown` times as long; rounded to the nearest ns, and saturated like the
    // models' own times (time_from_ns), so an absurd input ends the run with the engine's time-limit message.
    auto scaled = [slowdown](TimeNs t) {
        if (slowdown == 1.0) return t;
        double x = static_cast<double>(t) * slowdown;
        return time_from_ns(std::round(x));
    };
    auto roofline = [&](const RooflineParams& params) {
        RooflineResult r = roofline_time(n.num_ops, n.bytes, params);
        TimeNs t = scaled(r.time);
        (r.memory_bound ? st.memory_bound_ns : st.compute_bound_ns) += t;
        return t;
    };
    TimeNs t = 0;
    if (options_.systolic) {
        if (uint32_t slot = n.gemm_slot()) {
            SystolicResult r = systolic_gemm(options_.array, npus_[npu].shape->gemms[slot - 1]);
            t = scaled(systolic_time_ns(r.cycles, options_.array.clock_ghz));
            st.systolic_ns += t;
            st.systolic_cycles += r.cycles;
            st.systolic_macs += r.macs;
            st.systolic_mapped_cycles += static_cast<double>(r.cycles) * r.mapping_efficiency_pct / 100.0;
            ++st.systolic_nodes;
        } else if (n.has(kHasNumOps) && n.has(kHasTensorSize) && n.num_ops > 0 && n.bytes > 0) {
            t = roofline(profile ? profile->fallback : options_.fallback_params);
            ++st.roofline_fallback_nodes;
        } else {
            t = scaled(replay_time(n.duration_ns));
            ++st.replayed_nodes;
        }
    } else if (options_.roofline) {
        if (n.bytes > 0 && n.num_ops > 0) {
            t = roofline(profile ? profile->roofline : options_.roofline_params);
        } else if (options_.roofline_or_duration) {
            // Static strings: a note per node must not allocate per node.
            static const std::string kReplayed = "COMP nodes without tensor_size or num_ops replay their "
                                                 "trace duration (hardware description: the roofline "
                                                 "times the others)";
            stats_.note(kReplayed);
            t = scaled(replay_time(n.duration_ns));
            ++st.replayed_nodes;
        } else {
            // No operational intensity: ASTRA-sim skips the node (it finishes at once, taking no time).
            static const std::string kSkipped =
                "COMP nodes without tensor_size or num_ops take 0 ns under the roofline model";
            stats_.note(kSkipped);
            skip = true;
            return 0;
        }
    } else {
        t = scaled(replay_time(n.duration_ns));
    }
    st.compute_ns += t;
    return t;
}

void WorkloadExecutor::issue_collective(uint32_t npu, uint32_t node) {
    const GraphNode& n = npus_[npu].shape->nodes[node];
    const GroupTable::Group& group = groups_.groups[peer(npu, node)];
    CollectiveRequest req;
    req.group = group.ranks.empty() ? nullptr : &group.ranks;
    req.group_id = group.id;
    req.involved_dims = n.involved_dims;
    req.on_done = Callback{this, kNodeDone, pack(npu, node)};
    if (!engine_collective(n.collective, n.bytes, req.type, req.bytes)) {
        // ASTRA-sim's analytical front end replays a BROADCAST from its duration (1 ns without one); the
        // reference results depend on it, so we do the same.
        stats_.note("BROADCAST replayed from its duration (1 ns without one), as ASTRA-sim does");
        return schedule_done(npu, node, replay_time(n.duration_ns));
    }
    // The mapped collectives say how they were timed (engine_collective.h).
    switch (n.collective) {
    case CollectiveType::Reduce:
        stats_.note("REDUCE modelled as a reduce-scatter then gather, timed as an ALL_REDUCE with the "
                    "all-reduce algorithms");
        break;
    case CollectiveType::Gather:
    case CollectiveType::Scatter:
        stats_.note(std::string(trace::collective_type_name(n.collective)) +
                    " timed as an ALL_GATHER of comm_size with the all-gather algorithms");
        break;
    case CollectiveType::Barrier:
        stats_.note("BARRIER modelled as the smallest ALL_REDUCE (one byte per NPU per chunk)");
        break;
    default:
        break;
    }
    // PhaseType and config::CollectiveKind list the four collectives in the same order.
    const std::vector<WorkloadGraph>* custom = options_.custom[static_cast<int>(req.type)];
    if (custom && !custom->empty()) {
        uint32_t pos = npu;
        if (req.group)
            pos = static_cast<uint32_t>(std::find(req.group->begin(), req.group->end(), npu) -
                                        req.group->begin());
        custom_.start(npu, (*custom)[pos], req.group, req.on_done);
        return;
    }
    if (const std::string* note = collectives_.start(npu, req)) stats_.note(*note);
}

// [SECTION] completions and the end check

size_t WorkloadExecutor::running_at(uint32_t npu, uint32_t node) const {
    const auto& running = npus_[npu].running;
    auto it =
        std::find_if(running.begin(), running.end(), [node](const Running& r) { return r.node == node; });
    SIM_ASSERT(it != running.end(), "a node finished that was not running");
    return static_cast<size_t>(it - running.begin());
}

void WorkloadExecutor::finish_node(uint32_t npu, uint32_t node, size_t at) {
    Npu& s = npus_[npu];
    const WorkloadGraph& g = *s.shape;
    const GraphNode& n = g.nodes[node];
    NpuStats& st = stats_.npus[npu];
    SIM_ASSERT(at < s.running.size() && s.running[at].node == node, "a node finished that was not running");
    TimeNs start = s.running[at].start;
    s.running[at] = s.running.back();
    s.running.pop_back();
    Slot slot = slot_of(n);
    if (slot != kNoSlot) s.busy[slot] = false;
    TimeNs now = engine_.now();
    TimeNs took = now - start;
    if (!n.has(kCpuOp) && !options_.replay_only) {
        if (n.kind == NodeKind::Collective || n.kind == NodeKind::Send || n.kind == NodeKind::Recv)
            st.comm_ns += took;
        if (n.kind == NodeKind::MemLoad || n.kind == NodeKind::MemStore) st.memory_ns += took;
        if (n.kind == NodeKind::Collective) {
            const uint32_t group = peer(npu, node);
            uint32_t k = s.group_ordinal[group]++;
            auto& index = collective_index_[group];
            if (k == index.size()) {
                index.push_back(static_cast<uint32_t>(stats_.collectives.size()));
                CollectiveRecord rec;
                rec.group_id = groups_.groups[group].id;
                rec.ordinal = k;
                rec.type = n.collective;
                rec.bytes = n.bytes;
                stats_.collectives.push_back(rec);
            }
            CollectiveRecord& rec = stats_.collectives[index[k]];
            ++rec.npus;
            rec.start_ns = std::min(rec.start_ns, start);
            rec.end_ns = std::max(rec.end_ns, now);
        }
    }
    if (options_.keep_timeline) stats_.timeline.push_back({npu, node, start, now});
    if (s.running.empty()) st.busy_ns += now - s.busy_since;
    ++st.nodes_done;
    ++nodes_done_;
    for (uint32_t c = n.child_begin; c < g.child_end(node); ++c) {
        uint32_t child = g.children[c];
        if (--s.parents_left[child] == 0) push_ready(npu, child);
    }
}

void WorkloadExecutor::check_end(uint32_t npu) {
    NpuStats& st = stats_.npus[npu];
    if (st.finished || st.nodes_done != st.nodes) return;
    st.finished = true;
    st.finish_ns = engine_.now();
    --unfinished_;
}

void WorkloadExecutor::on_event(uint32_t kind, uint64_t arg) {
    if (kind == kKick) {
        if (options_.fast_ring_watch) watch_tie(kind, arg, 0);
        auto npu = static_cast<uint32_t>(arg);
        npus_[npu].kick_pending = false;
        issue_ready(npu);
        check_end(npu);
        return;
    }
    auto npu = static_cast<uint32_t>(arg >> 32);
    const auto node = static_cast<uint32_t>(arg);
    const size_t at = running_at(npu, node);
    if (options_.fast_ring_watch) watch_tie(kind, arg, at);
    finish_node(npu, node, at);
    issue_ready(npu);
    check_end(npu);
}

void WorkloadExecutor::watch_tie(uint32_t kind, uint64_t arg, size_t at) {
    // The interval holding this event's key (fast_ring_watch.h); before finish_node, which forgets the
    // node's start.
    FastRingWatch& watch = *options_.fast_ring_watch;
    const TimeNs now = engine_.now();
    const auto npu = static_cast<uint32_t>(kind == kKick ? arg : arg >> 32);
    uint32_t node = FastRingWatch::kNoNode;
    TimeNs lo = now, hi = now;
    bool bucket = false, own = true;
    if (kind != kKick) {
        node = static_cast<uint32_t>(arg);
        const TimeNs start = npus_[npu].running[at].start;
        const GraphNode& n = npus_[npu].shape->nodes[node];
        TimeNs d = 0;
        if (timed_on_buckets(n)) {
            lo = std::min(start, watch.packet_floor(npu, now));
            hi = start;
            bucket = start < now;
            watch.bucket_callback(npu, now, start);
        } else if (n.kind == NodeKind::Collective) {
            lo = std::min(start, watch.earliest_bucket(npu, now));
            watch.collective_ended(npu, now);
        } else if (n.kind == NodeKind::Send) {
            lo = hi = start;
        } else if (n.kind == NodeKind::Recv &&
                   matcher_.network().fixed_delay(peer(npu, node), npu, n.bytes, d) && d <= now) {
            lo = now - d;
            hi = start < now ? lo : now;
            own = false;
        } else {
            lo = 0; // never known: refused on any tie
        }
    }
    uint32_t previous = FastRingWatch::kNoNode;
    if (!watch.uncertain(npu, now, node, lo, hi, bucket, own, previous)) return;
    auto what = [&](uint32_t v) {
        if (v == FastRingWatch::kNoNode) return std::string("a look at its ready nodes");
        const GraphNode& n = graphs_[npu].shape().nodes[v];
        return std::string("the completion of ") + node_kind_name(n.kind) + " node " + std::to_string(n.id);
    };
    watch.fail("NPU " + std::to_string(npu) + " had " + what(previous) + " and " + what(node) +
               " in one ns (" + std::to_string(now) + " ns, scheduled in [" +
               std::to_string(watch.previous_lo) + ", " + std::to_string(watch.previous_hi) + "] and [" +
               std::to_string(lo) + ", " + std::to_string(hi) +
               "] ns), maybe in another order than the event path's");
}

// [SECTION] stuck-node report

std::string WorkloadExecutor::describe(uint32_t npu, uint32_t node, bool running,
                                       const GroupLookup* lookup) const {
    // A class member whose graph was never built (a generator vouched for the symmetry) is described
    // from its representative's graph, with peers and groups moved to the member (symmetry.h).
    const uint32_t rep = options_.symmetry ? options_.symmetry->representative(npu) : npu;
    const bool moved = graphs_[npu].size() == 0 && graphs_[rep].size() != 0;
    const WorkloadGraph& g = moved ? graphs_[rep] : graphs_[npu];
    GraphNode n = g.node(node);
    if (moved && (n.kind == NodeKind::Send || n.kind == NodeKind::Recv))
        n.peer = options_.symmetry->shift(n.peer, npu);
    if (moved && n.kind == NodeKind::Collective && n.peer != 0 && lookup) {
        std::vector<uint32_t> members;
        for (uint32_t r : groups_.groups[n.peer].ranks)
            members.push_back(options_.symmetry->shift(r, npu));
        int j = lookup->find(std::move(members));
        if (j >= 0) n.peer = static_cast<uint32_t>(j);
    }
    std::string label = std::string(node_kind_name(n.kind)) + " node " + std::to_string(n.id);
    if (!g.name(node).empty()) label += " '" + g.name(node) + "'";
    if (!running) {
        static const char* kSlotNames[] = {"CPU", "GPU compute", "GPU communication", "no"};
        return label + " is ready but waits for the " + kSlotNames[slot_of(n)] + " slot";
    }
    switch (n.kind) {
    case NodeKind::Recv:
        return label + " waits for a message from NPU " + std::to_string(n.peer) + " to NPU " +
               std::to_string(npu) + " (tag " + std::to_string(n.tag) + ", " + std::to_string(n.bytes) +
               " bytes) that was never sent";
    case NodeKind::Collective: {
        const auto& group = groups_.groups[n.peer];
        return label + " (" + trace::collective_type_name(n.collective) + ", " + std::to_string(n.bytes) +
               " bytes, " + (group.id == 0 ? std::string("all NPUs") : "group " + std::to_string(group.id)) +
               ") waits for members that never issued a matching collective (same order and size on every "
               "NPU)";
    }
    default:
        return label + " is in flight";
    }
}

std::vector<StuckNode> WorkloadExecutor::stuck_nodes(size_t per_npu) const {
    std::vector<StuckNode> out;
    std::unique_ptr<GroupLookup> lookup; // only when some member's graph was never built
    for (uint32_t npu = 0; npu < npus_.size() && !lookup; ++npu)
        if (graphs_[npu].size() == 0 && options_.symmetry &&
            graphs_[options_.symmetry->representative(npu)].size() != 0)
            lookup = std::make_unique<GroupLookup>(groups_);
    for (uint32_t npu = 0; npu < npus_.size(); ++npu) {
        const uint32_t state = options_.symmetry ? options_.symmetry->representative(npu) : npu;
        if (stats_.npus[state].finished) continue;
        const Npu& s = npus_[state];
        const WorkloadGraph& graph = (graphs_[npu].size() == 0 ? graphs_[state] : graphs_[npu]).shape();
        std::vector<uint32_t> running;
        for (const auto& r : s.running)
            running.push_back(r.node);
        std::sort(running.begin(), running.end());
        size_t shown = 0;
        for (uint32_t node : running) {
            if (shown++ == per_npu) break;
            out.push_back({npu, graph.nodes[node].id, describe(npu, node, true, lookup.get())});
        }
        for (const auto& heap : s.ready) {
            for (uint32_t node : heap) {
                if (shown++ >= per_npu) break;
                out.push_back({npu, graph.nodes[node].id, describe(npu, node, false, lookup.get())});
            }
        }
        if (shown == 0)
            out.push_back({npu, 0,
                           "nothing in flight and nothing ready: " +
                               std::to_string(stats_.npus[state].nodes - stats_.npus[state].nodes_done) +
                               " node(s) wait for parents that never finished"});
    }
    return out;
}

} // namespace astrolabe

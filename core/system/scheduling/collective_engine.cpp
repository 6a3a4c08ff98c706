#include "core/system/scheduling/collective_engine.h"

#include "core/base/assert.h"
#include "core/base/fifo.h"
#include "core/system/collectives/ring.h"
#include "core/system/scheduling/reduce_cost.h"

#include <algorithm>

namespace astrolabe {

// [SECTION] state

// The sizes of a stream's bundles in their endpoint delay, oldest first, run-length coded with the oldest
// run inside the stream record: a ring phase's bundles all have one size, so pushing and popping touch no
// buffer of their own (a std::deque's block was a cache miss per bundle).
class BundleSizes {
public:
    void clear() {
        front_count_ = 0;
        rest_.clear();
    }
    void push_back(uint64_t bytes) {
        if (rest_.empty() && (front_count_ == 0 || front_bytes_ == bytes)) {
            front_bytes_ = bytes;
            ++front_count_;
        } else if (!rest_.empty() && rest_.back().first == bytes) {
            ++rest_.back().second;
        } else {
            rest_.push_back({bytes, 1});
        }
    }
    uint64_t front() const {
        SIM_ASSERT(front_count_ > 0, "a bundle finished that was never released");
        return front_bytes_;
    }
    void pop_front() {
        SIM_ASSERT(front_count_ > 0, "a bundle finished that was never released");
        if (--front_count_ == 0 && !rest_.empty()) {
            front_bytes_ = rest_.front().first;
            front_count_ = rest_.front().second;
            rest_.pop_front();
        }
    }

private:
    uint64_t front_bytes_ = 0;
    uint64_t front_count_ = 0;
    Fifo<std::pair<uint64_t, uint64_t>> rest_; // later runs: (size, count)
};

struct CollectiveEngine::Stream {
    uint32_t npu = 0;
    uint32_t dataset = 0;
    uint32_t next_phase = 0;
    int32_t queue = -1;
    uint32_t generation = 0;
    bool initialized = false;
    bool live = false;
    int64_t priority = 0;
    uint64_t tag = 0;
    uint64_t data_size = 0;     // input of the next phase
    uint32_t min_tree_bits = 0; // bit p: phase p runs on the MIN tree (doubleBinaryTree)
    bool local = false;         // current phase is a group ring (fixed 10 ns packets)
    bool linked = false;        // its data set's `linked`, kept here: a send then reads no data set record
    // The P2P channels this stream holds (P2PMatcher::hold_send/hold_recv) for the peer and size it last
    // sent to / received from: a ring phase uses one of each for all its packets. Let go at phase end.
    uint32_t send_ch = P2PMatcher::kNoChannel, recv_ch = P2PMatcher::kNoChannel;
    uint32_t send_dst = 0, recv_src = 0;
    uint64_t send_bytes = 0, recv_bytes = 0;
    bool send_fixed = false; // the network's delay for the held send is send_delay (fixed_delay())
    TimeNs send_delay = 0;
    BundleSizes bundle_bytes; // sizes of bundles in their endpoint delay, oldest first
    // The current phase: `ring` when it is a ring/direct phase (kept in the record, so a packet's input
    // finds it without a further cache miss, and called without a virtual call), else `algo`.
    bool in_ring = false;
    RingPhase ring;
    std::unique_ptr<PhaseAlgorithm> algo;
};

struct CollectiveEngine::DataSet {
    uint32_t total = 0;
    uint32_t finished = 0;
    std::vector<PhaseSpec> phases;
    Callback on_done;
    bool linked = false; // every message takes `link` (collective_link.h)
    CollectiveLink link;
};

struct CollectiveEngine::Npu {
    std::vector<std::vector<uint32_t>> queues; // per queue: running streams first, then waiting ones
    std::vector<uint32_t> running;
    int64_t priority_counter = 0;
    uint64_t next_stream_id = 0;
    std::vector<std::pair<uint32_t, uint64_t>> group_stream_ids; // (group id, next stream id)
    // doubleBinaryTree: which tree the next chunk takes, per (collective type, dimension); persists
    // across collectives as in ASTRA-sim.
    uint32_t tree_counter[4][8] = {};
};

// The PhaseActions an algorithm sees, bound to one stream for the duration of one input.
class CollectiveEngine::Actions final : public PhaseActions {
public:
    Actions(CollectiveEngine& e, uint32_t s) : e_(e), s_(s) {}
    void release_bundle(bool processing, uint64_t bytes) override {
        e_.release_bundle(s_, processing, bytes);
    }
    void send(uint32_t dst, uint64_t bytes) override {
        Stream& st = e_.streams_[s_];
        ++e_.stats_.packets;
        const CollectiveLink* link = st.linked ? &e_.datasets_[st.dataset].link : nullptr;
        MessageKey key{MessageSpace::Collective, st.tag, st.npu, dst, bytes};
        if (st.send_ch == P2PMatcher::kNoChannel || st.send_dst != dst || st.send_bytes != bytes) {
            if (st.send_ch != P2PMatcher::kNoChannel) e_.matcher_.let_go(st.send_ch);
            st.send_ch = e_.matcher_.hold_send(key);
            st.send_dst = dst;
            st.send_bytes = bytes;
            // A linked message's delay comes from its link, not the network's dimensions.
            st.send_fixed = !link && e_.matcher_.network().fixed_delay(st.npu, dst, bytes, st.send_delay);
        }
        e_.matcher_.send_on(st.send_ch, key, Callback{}, link, st.send_fixed ? &st.send_delay : nullptr);
    }
    void post_recv(uint32_t src, uint64_t bytes) override {
        Stream& st = e_.streams_[s_];
        if (st.recv_ch == P2PMatcher::kNoChannel || st.recv_src != src || st.recv_bytes != bytes) {
            if (st.recv_ch != P2PMatcher::kNoChannel) e_.matcher_.let_go(st.recv_ch);
            st.recv_ch =
                e_.matcher_.hold_recv(MessageKey{MessageSpace::Collective, st.tag, src, st.npu, bytes});
            st.recv_src = src;
            st.recv_bytes = bytes;
        }
        e_.matcher_.recv_on(st.recv_ch, Callback{&e_, kPacketReceived, pack(s_, st.generation)});
    }
    void finish_phase() override { finished = true; }
    bool finished = false;

private:
    CollectiveEngine& e_;
    uint32_t s_;
};

CollectiveEngine::CollectiveEngine(NpuBuckets& buckets, P2PMatcher& matcher, const config::SystemConfig& sys,
                                   const LogicalTopology& topo, uint32_t endpoint_delay_ns)
    : buckets_(buckets), matcher_(matcher), sys_(sys), topo_(topo), endpoint_delay_(endpoint_delay_ns),
      queue_threshold_(std::max<uint32_t>(1, sys.active_chunks_per_dimension)), npus_(topo.npus) {
    size_t queues = std::max<size_t>(1, topo.sizes.size());
    for (auto& n : npus_) {
        n.queues.resize(queues);
        n.running.assign(queues, 0);
    }
}

CollectiveEngine::~CollectiveEngine() = default;

size_t CollectiveEngine::live_streams(uint32_t npu) const {
    size_t n = 0;
    for (const auto& q : npus_[npu].queues)
        n += q.size();
    return n;
}

uint32_t CollectiveEngine::new_stream(uint32_t npu) {
    uint32_t s = streams_.acquire();
    Stream& st = streams_[s];
    st.npu = npu;
    st.next_phase = 0;
    st.queue = -1;
    st.initialized = false;
    st.live = true;
    st.generation = st.generation + 1;
    st.bundle_bytes.clear();
    return s;
}

uint64_t CollectiveEngine::mem_cost(uint64_t bytes) const {
    return reduce_mem_ns(bytes, sys_.local_mem_bw_gbps);
}

// [SECTION] starting a collective: chunks and streams

// One phase over the collective's members (the link's algorithm) and the link its messages take, when the
// links function times this collective. Members: the group, else the one involved dimension, else the whole
// system.
const CollectiveLink* CollectiveEngine::linked_phase(uint32_t npu, const CollectiveRequest& req,
                                                     PhaseSpec& phase) {
    PhaseSpec p;
    p.type = req.type;
    p.queue = 0;
    if (req.group) {
        p.members.list = req.group;
        p.members.size = static_cast<uint32_t>(req.group->size());
        for (uint32_t i = 0; i < req.group->size(); ++i)
            if ((*req.group)[i] == npu) p.my_index = i;
    } else {
        int only = -1, involved = 0;
        for (size_t d = 0; d < topo_.sizes.size(); ++d)
            if (topo_.sizes[d] > 1 && (d >= 8 || (req.involved_dims >> d & 1))) {
                only = static_cast<int>(d);
                ++involved;
            }
        if (involved == 0) return nullptr;
        if (involved == 1) {
            const auto d = static_cast<size_t>(only);
            p.my_index = topo_.index_in_dim(npu, d);
            p.members.base = npu - p.my_index * topo_.strides[d];
            p.members.stride = topo_.strides[d];
            p.members.size = topo_.sizes[d];
        } else {
            p.my_index = npu;
            p.members.size = topo_.npus;
        }
    }
    if (p.members.size < 2) return nullptr;
    auto key = std::make_tuple(static_cast<uint8_t>(req.type), req.bytes, req.group ? req.group_id : 0u,
                               req.group ? uint8_t(0xff) : req.involved_dims);
    auto it = link_cache_.find(key);
    if (it == link_cache_.end()) {
        CollectiveLink l;
        bool ok = (*links_)(req.type, req.bytes, p.members, l);
        SIM_ASSERT(!ok || l.bytes_per_ns > 0, "a per-collective link without bandwidth");
        it = link_cache_.emplace(key, std::make_pair(ok, l)).first;
    }
    if (!it->second.first) return nullptr;
    phase = p;
    phase.algorithm = it->second.second.algorithm; // the plan the link was made for
    return &it->second.second;                     // std::map: stays put while the run lasts
}

const std::string* CollectiveEngine::start(uint32_t npu, const CollectiveRequest& req) {
    ++stats_.collectives;
    PhaseSpec linked;
    const CollectiveLink* link = links_ ? linked_phase(npu, req, linked) : nullptr;
    const bool is_linked = link != nullptr;
    const std::string* note = link && !link->note.empty() ? &link->note : nullptr;
    std::vector<PhaseSpec> phases;
    if (is_linked)
        phases.push_back(linked);
    else
        phases = plan_collective(PlanRequest{req.type, npu, req.group, req.involved_dims}, sys_, topo_);

    uint64_t size = req.bytes;
    // A linked collective is one chunk: its link's bandwidth and latency are the whole collective's.
    uint64_t splits = is_linked ? 1 : std::max<uint32_t>(1, sys_.preferred_dataset_splits);
    uint64_t chunk = size / splits;
    // ASTRA-sim's guard for tiny collectives: a chunk is at least one byte per NPU of the system (not for
    // all-gather), and the collective grows to `splits` whole chunks. A linked collective: per member.
    const uint32_t guard = is_linked ? linked.members.size : topo_.npus;
    if (req.type != PhaseType::AllGather && guard > chunk) {
        chunk = guard;
        size = splits * chunk;
    }
    if (phases.empty() || size == 0 || chunk == 0) {
        // Nothing to communicate (a group of one, only size-1 dimensions, an empty all-gather). ASTRA-sim
        // never completes such a collective; we complete it at once (documented in
        // docs/astra-differences.md).
        buckets_.add(npu, 0, req.on_done);
        return note;
    }

    if (fast_) {
        // A run the fast-ring check accepted: every collective is one ring phase (fast_ring.h).
        SIM_ASSERT(phases.size() == 1, "fast ring: a collective of several phases");
        uint32_t chunks = 0;
        for (uint64_t remaining = size; remaining > 0; ++chunks)
            remaining = chunk > remaining ? 0 : remaining - chunk;
        stats_.streams += chunks;
        fast_->post(npu, req.group_id, phases[0], chunk, chunks, req.on_done);
        return note;
    }

    uint32_t ds = datasets_.acquire();
    DataSet& d = datasets_[ds];
    d.total = 0;
    d.finished = 0;
    d.phases = std::move(phases);
    d.on_done = req.on_done;
    d.linked = is_linked;
    if (link) {
        d.link.latency_ns = link->latency_ns;
        d.link.bytes_per_ns = link->bytes_per_ns;
    }

    Npu& n = npus_[npu];
    // One priority per collective: its chunks queue in creation order under both policies.
    int64_t priority = sys_.scheduling_policy == config::SchedulingPolicy::FIFO ? n.priority_counter--
                                                                                : n.priority_counter++;
    uint32_t count = 0;
    for (uint64_t remaining = size; remaining > 0; ++count)
        remaining = chunk > remaining ? 0 : remaining - chunk;
    d.total = count;
    stats_.streams += count;
    // Chunks are made and started one at a time, as ASTRA-sim does: each may start its first phase
    // before the next exists.
    for (uint32_t c = 0; c < count; ++c) {
        uint32_t s = new_stream(npu);
        Stream& st = streams_[s];
        st.dataset = ds;
        st.linked = is_linked;
        st.data_size = chunk; // every chunk carries the full chunk size, even the last (as ASTRA-sim)
        st.priority = priority;
        st.tag = next_tag(npu, req.group_id);
        st.min_tree_bits = 0;
        const auto& phases_of = datasets_[ds].phases;
        for (size_t p = 0; p < phases_of.size() && p < 32; ++p) {
            if (phases_of[p].algorithm.algorithm != config::CollectiveAlgorithm::DoubleBinaryTree) continue;
            uint32_t& counter = n.tree_counter[static_cast<int>(req.type)][phases_of[p].queue & 7];
            if (counter++ % 2 == 1) st.min_tree_bits |= 1u << p;
        }
        proceed_to_next_phase(s);
    }
    return note;
}

uint64_t CollectiveEngine::next_tag(uint32_t npu, uint32_t group_id) {
    Npu& n = npus_[npu];
    if (group_id == 0) return n.next_stream_id++;
    auto it = std::find_if(n.group_stream_ids.begin(), n.group_stream_ids.end(),
                           [group_id](const auto& p) { return p.first == group_id; });
    if (it == n.group_stream_ids.end()) {
        n.group_stream_ids.emplace_back(group_id, uint64_t(group_id) * 1000000);
        it = n.group_stream_ids.end() - 1;
    }
    return it->second++;
}

// [SECTION] queues: admission and phase changes

void CollectiveEngine::insert_ordered(std::vector<uint32_t>& list, uint32_t s) {
    // Behind every running stream and every waiting stream of equal or higher priority. The list is the
    // running streams, then the waiting ones by non-increasing priority (admit() starts them from the
    // front), so the streams to skip are a prefix: when the last one is skipped, all are. That common case
    // (equal priorities) appends at once; a linear scan per stream would make a collective of a million
    // chunks (preferred-dataset-splits) quadratic, a hang in one event.
    if (list.empty() || streams_[list.back()].initialized ||
        streams_[list.back()].priority >= streams_[s].priority) {
        list.push_back(s);
        return;
    }
    size_t i = 0;
    while (i < list.size() &&
           (streams_[list[i]].initialized || streams_[list[i]].priority >= streams_[s].priority))
        ++i;
    list.insert(list.begin() + static_cast<std::ptrdiff_t>(i), s);
}

void CollectiveEngine::admit(uint32_t npu, uint32_t q) {
    // Streams [0, running) run; start waiting ones in order while there is room.
    while (true) {
        Npu& n = npus_[npu];
        if (n.running[q] >= queue_threshold_ || n.running[q] >= n.queues[q].size()) break;
        uint32_t s = n.queues[q][n.running[q]];
        ++n.running[q];
        streams_[s].initialized = true;
        run_actions(s, Input::Start);
    }
}

void CollectiveEngine::let_go_channels(Stream& st) {
    if (st.send_ch != P2PMatcher::kNoChannel) matcher_.let_go(st.send_ch);
    if (st.recv_ch != P2PMatcher::kNoChannel) matcher_.let_go(st.recv_ch);
    st.send_ch = st.recv_ch = P2PMatcher::kNoChannel;
}

void CollectiveEngine::proceed_to_next_phase(uint32_t s) {
    let_go_channels(streams_[s]); // the next phase has other peers or sizes
    uint32_t npu = streams_[s].npu;
    uint32_t ds_id = streams_[s].dataset;
    bool finished = streams_[s].next_phase == datasets_[ds_id].phases.size();
    if (finished) {
        DataSet& ds = datasets_[ds_id];
        if (++ds.finished == ds.total) {
            Callback done = ds.on_done;
            ds.phases.clear();
            datasets_.release(ds_id);
            // Synchronous, as in ASTRA-sim: the workload may start its next collective in this very call,
            // before this stream has left its queue.
            done.invoke();
        }
    }
    int32_t old_q = streams_[s].queue;
    if (old_q >= 0) {
        auto& list = npus_[npu].queues[static_cast<size_t>(old_q)];
        list.erase(std::find(list.begin(), list.end(), s));
    }
    if (finished) {
        Stream& st = streams_[s];
        st.live = false;
        streams_.release(s); // keeps its finished phase object for the record's next use

        if (old_q >= 0) {
            --npus_[npu].running[static_cast<size_t>(old_q)];
            admit(npu, static_cast<uint32_t>(old_q));
        }
        return;
    }
    Stream& st = streams_[s];
    const PhaseSpec& ph = datasets_[ds_id].phases[st.next_phase++];
    st.in_ring = restart_as_ring(st.ring, ph, st.data_size);
    if (st.in_ring) {
        st.data_size = st.ring.final_data_size();
    } else {
        st.algo = make_phase_algorithm(ph, st.data_size, (st.min_tree_bits >> (st.next_phase - 1)) & 1u,
                                       std::move(st.algo));
        st.data_size = st.algo->final_data_size();
    }
    st.local = ph.local;
    st.queue = static_cast<int32_t>(ph.queue);
    st.initialized = false;
    uint32_t q = ph.queue;
    insert_ordered(npus_[npu].queues[q], s);
    if (old_q >= 0) {
        --npus_[npu].running[static_cast<size_t>(old_q)];
        admit(npu, static_cast<uint32_t>(old_q));
    }
    admit(npu, q);
}

// [SECTION] algorithm actions and events

void CollectiveEngine::run_actions(uint32_t s, Input input) {
    Actions act(*this, s);
    Stream& st = streams_[s];
    // `st` stays put during the input: its actions schedule events and touch P2P channels, but start no
    // stream (which could move the records); proceed_to_next_phase may, so it runs after.
    if (st.in_ring) {
        RingPhase& r = st.ring;
        switch (input) {
        case Input::Start:
            r.on_start(act);
            break;
        case Input::Packet:
            r.on_packet_received(act);
            break;
        case Input::Bundle:
            r.on_bundle_done(act);
            break;
        }
    } else {
        PhaseAlgorithm* algo = st.algo.get();
        switch (input) {
        case Input::Start:
            algo->on_start(act);
            break;
        case Input::Packet:
            algo->on_packet_received(act);
            break;
        case Input::Bundle:
            algo->on_bundle_done(act);
            break;
        }
    }
    if (act.finished) proceed_to_next_phase(s);
}

void CollectiveEngine::release_bundle(uint32_t s, bool processing, uint64_t bytes) {
    Stream& st = streams_[s];
    st.bundle_bytes.push_back(bytes);
    // Group rings take ASTRA-sim's fixed 10 ns local path; everything else pays the endpoint delay.
    uint32_t delay = st.local ? 10 : endpoint_delay_;
    buckets_.add(st.npu, delay,
                 Callback{this, processing ? kBundleProcessed : kBundle, pack(s, st.generation)});
}

void CollectiveEngine::on_event(uint32_t kind, uint64_t arg) {
    auto s = static_cast<uint32_t>(arg);
    auto gen = static_cast<uint32_t>(arg >> 32);
    SIM_ASSERT(s < streams_.size() && streams_[s].live && streams_[s].generation == gen,
               "a collective event arrived for a stream that has already finished");
    switch (kind) {
    case kBundleProcessed: {
        // Endpoint delay over; now the reduction of the received data (ASTRA-sim re-registers the bundle).
        uint64_t bytes = streams_[s].bundle_bytes.front();
        streams_[s].bundle_bytes.pop_front();
        buckets_.add(streams_[s].npu, mem_cost(bytes), Callback{this, kBundle | 0x100u, arg});
        return;
    }
    case kBundle:
        streams_[s].bundle_bytes.pop_front();
        [[fallthrough]];
    case kBundle | 0x100u:
        run_actions(s, Input::Bundle);
        break;
    case kPacketReceived:
        run_actions(s, Input::Packet);
        break;
    default:
        SIM_ASSERT(false, "unknown collective event kind");
    }
}

} // namespace astrolabe

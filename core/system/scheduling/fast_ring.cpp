#include "core/system/scheduling/fast_ring.h"

#include "core/base/assert.h"
#include "core/system/scheduling/reduce_cost.h"

#include <algorithm>
#include <functional>

namespace astrolabe {

// [SECTION] reading a ring phase's template off the algorithm

namespace {

// Records what one input of the algorithm asked for.
class Recorder final : public PhaseActions {
public:
    void release_bundle(bool processing, uint64_t b) override {
        ++bundles;
        processed = processing;
        bundle_bytes = b;
    }
    void send(uint32_t dst_npu, uint64_t b) override {
        ++sends;
        dst = dst_npu;
        send_bytes = b;
    }
    void post_recv(uint32_t src_npu, uint64_t b) override {
        ++recvs;
        src = src_npu;
        recv_bytes = b;
    }
    void finish_phase() override { finished = true; }
    void reset() { *this = Recorder(); }

    int bundles = 0, sends = 0, recvs = 0;
    bool processed = false, finished = false;
    uint64_t bundle_bytes = 0, send_bytes = 0, recv_bytes = 0;
    uint32_t dst = 0, src = 0;
};

} // namespace

bool ring_template(const PhaseSpec& spec, uint64_t chunk, uint32_t endpoint_delay_ns,
                   double local_mem_bw_gbps, RingTemplate& out, std::string& why) {
    out = RingTemplate();
    if (spec.algorithm.algorithm != config::CollectiveAlgorithm::Ring) {
        why = "not the ring algorithm";
        return false;
    }
    const uint32_t n = spec.members.size;
    if (n < 2) {
        why = "a ring of fewer than two members";
        return false;
    }
    // The bundle delay exactly as CollectiveEngine charges it: the endpoint delay (10 ns on a group's
    // local ring), then for a packet to reduce 3 * floor(bytes / local-mem-bw).
    auto delay = [&](const Recorder& r) {
        const TimeNs endpoint = spec.local ? 10 : endpoint_delay_ns;
        const TimeNs reduce = r.processed ? reduce_mem_ns(r.bundle_bytes, local_mem_bw_gbps) : 0;
        // A reduction of 0 ns runs in the endpoint delay's bucket event, so that one is the last.
        out.last_stage.push_back(reduce > 0 ? reduce : endpoint);
        out.max_stage = std::max(out.max_stage, std::max(endpoint, reduce));
        return endpoint + reduce;
    };
    // Member 0's view; every member runs the same code with its own index, so the sequence is theirs too.
    PhaseSpec mine = spec;
    mine.my_index = 0;
    std::unique_ptr<PhaseAlgorithm> algo = make_phase_algorithm(mine, chunk, false);
    Recorder r;
    algo->on_start(r);
    if (r.bundles != 1 || r.sends || r.recvs || r.finished) {
        why = "the phase does not start with one packet";
        return false;
    }
    out.delays.push_back(delay(r));
    const uint32_t next = spec.members.npu(1 % n), prev = spec.members.npu(n - 1);
    while (true) {
        r.reset();
        algo->on_bundle_done(r);
        if (r.finished && !r.sends && !r.recvs && !r.bundles) break;
        if (r.sends != 1 || r.recvs != 1 || r.bundles || r.finished || r.send_bytes != r.recv_bytes) {
            why = "a packet is not one send and one receive";
            return false;
        }
        int dir = r.dst == next && r.src == prev ? 1 : r.dst == prev && r.src == next ? -1 : 0;
        if (dir == 0 || (out.delays.size() > 1 && (dir != out.dir || r.send_bytes != out.message_bytes))) {
            why = "packets do not all go the same way round with the same size";
            return false;
        }
        out.dir = dir;
        out.message_bytes = r.send_bytes;
        r.reset();
        algo->on_packet_received(r);
        if (r.bundles != 1 || r.sends || r.recvs || r.finished) {
            why = "a received packet does not start one bundle";
            return false;
        }
        out.delays.push_back(delay(r));
    }
    if (out.sends() + 1 < n) {
        why = "fewer sends than hops round the ring";
        return false;
    }
    return true;
}

// [SECTION] the recurrence

void ring_finish_by_steps(const RingTemplate& tpl, const std::vector<TimeNs>& in_delay,
                          std::vector<TimeNs>& t) {
    const auto n = static_cast<uint32_t>(t.size());
    for (uint32_t k = 1; k <= tpl.sends(); ++k) {
        // In place, from the last position down: t[q - 1] still holds the previous step's value.
        const TimeNs d = tpl.delays[k];
        const TimeNs wrap = t[n - 1];
        for (uint32_t q = n - 1; q > 0; --q)
            t[q] = std::max(t[q], t[q - 1] + in_delay[q]) + d;
        t[0] = std::max(t[0], wrap + in_delay[0]) + d;
    }
}

namespace {

// out[e] = max of v[e - len + 1 .. e] for e >= len - 1 (a monotone deque, O(size)).
void window_max(const std::vector<int64_t>& v, size_t len, std::vector<int64_t>& out,
                std::vector<uint32_t>& dq) {
    out.assign(v.size(), INT64_MIN);
    if (len == 0) return;
    dq.resize(v.size());
    size_t head = 0, tail = 0;
    for (size_t e = 0; e < v.size(); ++e) {
        while (tail > head && v[dq[tail - 1]] <= v[e])
            --tail;
        dq[tail++] = static_cast<uint32_t>(e);
        if (dq[head] + len <= e) ++head;
        if (e + 1 >= len) out[e] = v[dq[head]];
    }
}

} // namespace

void ring_finish(const RingTemplate& tpl, const std::vector<TimeNs>& in_delay, std::vector<TimeNs>& t,
                 RingScratch& s) {
    // Unrolled, the recurrence is a longest path: each of the K steps either stays (+D_k) or takes the
    // message from one position back (+D_k + its delay), so
    //     T_K(q) = sum D_1..K + max over m <= K of (T_0(q - m) + the delays of the m edges into q).
    // From source position j at distance d = (q - j) mod N, m can be d, d + N, ...; a whole turn adds the
    // ring's total delay W >= 0, so the largest m <= K wins: d + N floor((K - d) / N). With K = a N + r,
    // that is a turns for d <= r and a - 1 for d > r (K >= N - 1, so d <= K always). Over the positions
    // doubled (x in [0, 2N), prefix sums P of the delays), q' = q + N and x = q' - d:
    //     T_K(q) = sum D + P[q'] + max(max_{x in [q'-r, q']} V[x] + a W, max_{x in [q'-N+1, q'-r-1]} V[x] +
    //     (a-1) W)
    // with V[x] = T_0(x mod N) - P[x]: two sliding-window maxima, O(N) instead of O(N K).
    const auto n = static_cast<uint32_t>(t.size());
    const uint64_t k = tpl.sends();
    // Every sum below (a start time, then at most K step delays and K + N message delays) stays under the
    // engine's kTimeLimit = 2^62, so the int64 arithmetic cannot wrap; past it (a bandwidth near zero) the
    // run ends with the engine's time-limit message rather than a wrapped, wrong finish time.
    TimeNs start = 0, most = 0;
    for (TimeNs x : t)
        start = std::max(start, x);
    for (TimeNs d : in_delay)
        most = std::max(most, d);
    for (TimeNs d : tpl.delays)
        most = std::max(most, d);
    if (start > kTimeLimit || most > (kTimeLimit - start) / (2 * (k + n) + 1)) time_limit_passed(start, most);
    // A few steps cost less stepped than the windows' set-up (a tensor-parallel all-gather on 8: 7 steps).
    if (k <= 8) return ring_finish_by_steps(tpl, in_delay, t);
    const uint64_t turns = k / n, r = k % n;
    int64_t sum_d = 0;
    for (uint64_t i = 1; i <= k; ++i)
        sum_d += static_cast<int64_t>(tpl.delays[i]);
    s.prefix.assign(2 * size_t(n), 0);
    for (size_t x = 1; x < 2 * size_t(n); ++x)
        s.prefix[x] = s.prefix[x - 1] + static_cast<int64_t>(in_delay[x % n]);
    const int64_t w = s.prefix[n]; // in_delay[1..n-1] + in_delay[0]: the whole ring
    s.value.resize(2 * size_t(n));
    for (size_t x = 0; x < 2 * size_t(n); ++x)
        s.value[x] = static_cast<int64_t>(t[x % n]) - s.prefix[x];
    window_max(s.value, r + 1, s.near, s.deque);
    window_max(s.value, n - 1 - r, s.far, s.deque);
    for (uint32_t q = 0; q < n; ++q) {
        const size_t qq = size_t(q) + n;
        int64_t best = s.near[qq] + static_cast<int64_t>(turns) * w;
        if (r + 1 < n) best = std::max(best, s.far[qq - r - 1] + static_cast<int64_t>(turns - 1) * w);
        t[q] = static_cast<TimeNs>(sum_d + s.prefix[qq] + best);
    }
}

// [SECTION] posting and completing collectives

FastRing::FastRing(Engine& engine, const AnalyticalNetwork& network, uint32_t endpoint_delay_ns,
                   double local_mem_bw_gbps, uint32_t active_chunks, uint32_t npus, FastRingWatch* watch)
    : engine_(engine), analytical_(&network), endpoint_delay_(endpoint_delay_ns),
      local_mem_bw_(local_mem_bw_gbps), active_chunks_(std::max<uint32_t>(1, active_chunks)), watch_(watch),
      ordinals_(npus) {}

void FastRing::set_symmetry(const RankSymmetry* symmetry) {
    symmetry_ = symmetry && symmetry->active() ? symmetry : nullptr;
    translations_.clear();
    if (symmetry_) translations_ = symmetry_->class_of(0);
}

FastRing::FastRing(Engine& engine, CongestionNetwork& network, uint32_t endpoint_delay_ns,
                   double local_mem_bw_gbps, uint32_t active_chunks, uint32_t npus, bool queues)
    : engine_(engine), congestion_(&network), endpoint_delay_(endpoint_delay_ns),
      local_mem_bw_(local_mem_bw_gbps), active_chunks_(std::max<uint32_t>(1, active_chunks)), ordinals_(npus),
      queues_(queues) {}

namespace {

// Which ring a phase runs on: its member list's address, or base << 32 | stride of a network dimension
// (the Key of fast_ring.h; also keys the images and the ring delays kept per ring).
uint64_t ring_id(const PhaseMembers& m) {
    return m.list ? reinterpret_cast<uintptr_t>(m.list) : uint64_t(m.base) << 32 | m.stride;
}

// Positions in ring order: position q receives from position q - 1 (wrapping). The member at position q of
// a ring of n: q itself clockwise (dir +1), n - 1 - q anticlockwise.
uint32_t member_at(const RingTemplate& tpl, uint32_t n, uint32_t q) {
    return tpl.dir > 0 ? q : n - 1 - q;
}

} // namespace

uint32_t FastRing::next_ordinal(uint32_t npu, uint32_t group_id) {
    auto& list = ordinals_[npu];
    for (auto& [id, next] : list)
        if (id == group_id) return next++;
    list.emplace_back(group_id, 1);
    return 0;
}

void FastRing::post(uint32_t npu, uint32_t group_id, const PhaseSpec& spec, uint64_t chunk, uint32_t chunks,
                    const Callback& on_done) {
    const uint32_t ordinal = next_ordinal(npu, group_id);
    if (watch_) watch_->collective_started(npu, engine_.now(), template_of(spec, chunk).max_stage);
    if (!symmetry_) return fill(group_id, ordinal, spec, spec.my_index, chunk, chunks, on_done);
    for (const Image& im : images(npu, group_id, spec))
        fill(group_id, ordinal, spec, im.index, chunk, chunks, im.self ? on_done : Callback{});
}

const std::vector<FastRing::Image>& FastRing::images(uint32_t npu, uint32_t group_id, const PhaseSpec& spec) {
    const PhaseMembers& m = spec.members;
    auto key = std::make_tuple(npu, group_id, ring_id(m));
    auto it = images_.find(key);
    if (it != images_.end()) return it->second;
    // The translations t with t(g) = g: t(npu) is then member t(npu) of the same ring (the header comment).
    std::vector<std::pair<uint32_t, uint32_t>> members; // (NPU, member index), by NPU
    for (uint32_t i = 0; i < m.size; ++i)
        members.emplace_back(m.npu(i), i);
    std::sort(members.begin(), members.end());
    auto find = [&](uint32_t x) -> int64_t {
        auto at = std::lower_bound(members.begin(), members.end(), std::make_pair(x, 0u));
        return at != members.end() && at->first == x ? int64_t(at->second) : -1;
    };
    // A ring of every NPU (a whole-system collective) maps onto itself under every translation; testing
    // each translation member by member would cost n x order shifts, quadratic in the NPUs (seconds at
    // 4096 NPUs, hours at a million).
    const bool every_npu = m.size == symmetry_->npus();
    std::vector<Image> out;
    for (uint32_t by : translations_) {
        const int64_t index = find(symmetry_->shift(npu, by));
        if (index < 0) continue;
        bool maps_onto_itself = true;
        for (uint32_t i = 0; i < m.size && maps_onto_itself && !every_npu; ++i)
            maps_onto_itself = find(symmetry_->shift(m.npu(i), by)) >= 0;
        if (maps_onto_itself) out.push_back({static_cast<uint32_t>(index), by == 0});
    }
    return images_.emplace(key, std::move(out)).first->second;
}

void FastRing::fill(uint32_t group_id, uint32_t ordinal, const PhaseSpec& spec, uint32_t index,
                    uint64_t chunk, uint32_t chunks, const Callback& on_done) {
    Key key{uint64_t(group_id) << 32 | ordinal, ring_id(spec.members)};
    auto [at, fresh] = pending_.try_emplace(key, 0u);
    if (fresh) {
        if (free_places_.empty()) {
            at->second = static_cast<uint32_t>(pool_.size());
            pool_.emplace_back();
        } else {
            at->second = free_places_.back();
            free_places_.pop_back();
        }
        pool_[at->second].posted = 0;
    }
    const uint32_t place = at->second;
    Pending& p = pool_[place];
    const uint32_t n = spec.members.size;
    if (p.posted == 0) {
        p.spec = spec;
        p.chunk = chunk;
        p.chunks = chunks;
        p.start.assign(n, 0);
        p.done.assign(n, Callback{});
        p.filled.assign(n, false);
    }
    const bool agree =
        p.chunk == chunk && p.chunks == chunks && p.spec.members.size == n && p.spec.type == spec.type &&
        p.spec.local == spec.local && p.spec.clockwise == spec.clockwise &&
        p.spec.algorithm.algorithm == spec.algorithm.algorithm && index < n && !p.filled[index];
    if (!agree) {
        // The event path decides what such a run does (its packets' sizes and tags).
        SIM_ASSERT(watch_ != nullptr,
                   "fast ring: members disagree on a collective (the run check should have refused the run)");
        watch_->fail("the members of group " + std::to_string(group_id) + " disagree on their collective " +
                     std::to_string(ordinal));
        return;
    }
    p.filled[index] = true;
    p.start[index] = engine_.now();
    p.done[index] = on_done;
    if (++p.posted < n) return;
    complete(p);
    pending_.erase(at);
    free_places_.push_back(place);
}

const RingTemplate& FastRing::template_of(const PhaseSpec& spec, uint64_t chunk) {
    auto key = std::make_tuple(static_cast<int>(spec.type), spec.members.size, spec.local, spec.clockwise,
                               static_cast<int>(spec.algorithm.algorithm), chunk);
    auto it = templates_.find(key);
    if (it != templates_.end()) return it->second;
    RingTemplate tpl;
    std::string why;
    bool ok = ring_template(spec, chunk, endpoint_delay_, local_mem_bw_, tpl, why);
    SIM_ASSERT(ok, "fast ring: a collective the run check accepted is not a one-packet ring");
    return templates_.emplace(key, std::move(tpl)).first->second;
}

void FastRing::complete(Pending& p) {
    const RingTemplate& tpl = template_of(p.spec, p.chunk);
    const uint32_t n = p.spec.members.size;
    const uint32_t k_sends = tpl.sends(); // for the message count
    auto member = [&](uint32_t q) { return member_at(tpl, n, q); };
    // Chunks run at once: never more than there are (so the heaps stay small when the limit is large).
    const uint32_t slots = std::max<uint32_t>(1, std::min(active_chunks_, p.chunks));
    const MemoKey memo{&tpl, ring_id(p.spec.members), p.chunks, slots};
    if (!analytical_) {
        solve(p, tpl, slots);
    } else {
        const TimeNs base = *std::min_element(p.start.begin(), p.start.end());
        const uint64_t h = memo_hash(memo, p.start, base);
        if (!recall(memo, h, p.start, base)) {
            solve(p, tpl, slots);
            remember(memo, h, p.start, base);
        }
    }
    // Messages as the network counts them: those of the simulated members (a run of representatives
    // multiplies its counts by the class size).
    uint32_t senders = 0;
    for (const Callback& cb : p.done)
        senders += cb ? 1 : 0;
    const uint64_t sends = uint64_t(senders) * k_sends * p.chunks;
    if (congestion_)
        for (uint32_t q = 0; q < n; ++q)
            congestion_->count_transmitted(in_link_[q], tpl.message_bytes, uint64_t(k_sends) * p.chunks);
    messages_ += sends;
    bytes_ += sends * tpl.message_bytes;
    ++collectives_;
    for (uint32_t q = 0; q < n; ++q) {
        SIM_ASSERT(finish_[q] >= engine_.now(),
                   "fast ring: a member would finish before the last one started");
        if (p.done[member(q)]) engine_.schedule_at(finish_[q], p.done[member(q)]);
    }
}

// [SECTION] finishes seen before (analytical model)

// The recurrence is max and +, so starts later by c give finishes later by c: a collective is the same
// as an earlier one when its ring, template and chunks agree and its starts agree relative to the
// earliest. A training step repeats each layer's collectives with the same pattern of starts, so most
// collectives are recalled, not solved. Exact: only equal inputs share a result.
uint64_t FastRing::memo_hash(const MemoKey& key, const std::vector<TimeNs>& start, TimeNs base) {
    uint64_t h = hash_fold(reinterpret_cast<uintptr_t>(key.tpl), key.ring);
    h = hash_fold(h, uint64_t(key.chunks) << 32 | key.slots);
    for (TimeNs t : start)
        h = hash_fold(h, uint64_t(t - base));
    return mix64(h);
}

bool FastRing::recall(const MemoKey& key, uint64_t h, const std::vector<TimeNs>& start, TimeNs base) {
    const size_t n = start.size();
    auto range = memo_.equal_range(h);
    for (auto it = range.first; it != range.second; ++it) {
        const MemoEntry& e = memo_entries_[it->second];
        if (e.key.tpl != key.tpl || e.key.ring != key.ring || e.key.chunks != key.chunks ||
            e.key.slots != key.slots || e.n != n)
            continue;
        const TimeNs* rel = memo_times_.data() + e.offset;
        bool same = true;
        for (size_t i = 0; i < n && same; ++i)
            same = start[i] - base == rel[i];
        if (!same) continue;
        finish_.resize(n);
        for (size_t q = 0; q < n; ++q)
            finish_[q] = base + rel[n + q];
        return true;
    }
    return false;
}

void FastRing::remember(const MemoKey& key, uint64_t h, const std::vector<TimeNs>& start, TimeNs base) {
    const size_t n = start.size();
    if (memo_times_.size() + 2 * n > kMemoTimes) { // a bound on memory; forgetting costs only speed
        memo_.clear();
        memo_entries_.clear();
        memo_times_.clear();
    }
    memo_.emplace(h, static_cast<uint32_t>(memo_entries_.size()));
    memo_entries_.push_back({key, static_cast<uint32_t>(n), memo_times_.size()});
    for (TimeNs t : start)
        memo_times_.push_back(t - base);
    for (size_t q = 0; q < n; ++q)
        memo_times_.push_back(finish_[q] - base);
}

// [SECTION] solving one collective

void FastRing::solve(Pending& p, const RingTemplate& tpl, uint32_t slots) {
    const uint32_t n = p.spec.members.size;
    auto member = [&](uint32_t q) { return member_at(tpl, n, q); };
    in_delay_.resize(n);
    in_link_.resize(n);
    in_ser_.resize(n);
    // Analytical: a ring's delays depend only on its members, direction and message size, which repeat.
    const auto delay_key = std::make_tuple(ring_id(p.spec.members), tpl.dir, tpl.message_bytes);
    auto known = analytical_ ? ring_delays_.find(delay_key) : ring_delays_.end();
    if (known != ring_delays_.end()) in_delay_ = known->second;
    for (uint32_t q = 0; q < n && known == ring_delays_.end(); ++q) {
        uint32_t from = p.spec.members.npu(member((q + n - 1) % n)), to = p.spec.members.npu(member(q));
        if (analytical_) {
            in_delay_[q] = analytical_->delay(from, to, tpl.message_bytes);
            continue;
        }
        // Congestion: the one link from `from` to `to`, which only `from` uses (the run check proved it).
        in_link_[q] = congestion_->direct_link(from, to);
        SIM_ASSERT(
            in_link_[q] != CongestionNetwork::kNoLink,
            "fast ring: a ring send crosses more than one link (the run check should have refused it)");
        in_delay_[q] = congestion_->arrival_ns(in_link_[q], tpl.message_bytes);
        in_ser_[q] = congestion_->serialisation_ns(in_link_[q], tpl.message_bytes);
        if (queues_ && in_link_[q] >= links_.size()) links_.resize(in_link_[q] + 1);
    }
    if (analytical_ && known == ring_delays_.end()) ring_delays_.emplace(delay_key, in_delay_);
    heap_.assign(size_t(n) * slots, 0); // per position: the finish times of its running chunks (min-heap)
    finish_.assign(n, 0);
    t_.resize(n);
    for (uint32_t c = 0; c < p.chunks; ++c) {
        for (uint32_t q = 0; q < n; ++q) {
            TimeNs start = p.start[member(q)];
            if (c >= slots) {
                // The earliest running chunk's finish frees the place this one takes.
                auto first = heap_.begin() + std::ptrdiff_t(q) * slots, last = first + slots;
                std::pop_heap(first, last, std::greater<TimeNs>());
                start = *(last - 1);
            }
            t_[q] = start + tpl.delays[0];
        }
        if (queues_)
            steps_with_queues(tpl, t_); // one active chunk (the check): chunk c starts when c - 1 ends
        else
            ring_finish(tpl, in_delay_, t_, scratch_);
        for (uint32_t q = 0; q < n; ++q) {
            auto first = heap_.begin() + std::ptrdiff_t(q) * slots;
            // Chunks 0..c-1 are in the heap, less the one popped above once the places were full.
            const size_t used = std::min<size_t>(c, slots - 1);
            *(first + std::ptrdiff_t(used)) = t_[q];
            std::push_heap(first, first + std::ptrdiff_t(used) + 1, std::greater<TimeNs>());
            finish_[q] = std::max(finish_[q], t_[q]);
        }
    }
}

// [SECTION] the recurrence with link queues (congestion model, fast_ring_check.h)

void FastRing::release(LinkQueue& q) {
    if (q.head == q.waiting.size()) {
        q.busy = false;
        return;
    }
    // The head of the queue goes on the wire the moment the link frees.
    q.wire_ser = q.waiting[q.head++];
    q.wire_free += q.wire_ser;
    q.wire_dequeued = true;
    if (q.head == q.waiting.size()) {
        q.waiting.clear();
        q.head = 0;
    } else if (q.head > 1024 && 2 * q.head > q.waiting.size()) {
        q.waiting.erase(q.waiting.begin(), q.waiting.begin() + std::ptrdiff_t(q.head));
        q.head = 0;
    }
}

TimeNs FastRing::send_on(uint32_t link, TimeNs at, TimeNs stage, TimeNs ser) {
    LinkQueue& q = links_[link];
    // Releases due before the send run first; one due in the same ns runs first when the chunk on the wire
    // went at its own send (its release was scheduled in an event before the one that scheduled this
    // send), or when it left the queue at a release `wire_ser` ns before and this send was scheduled
    // `stage` < `wire_ser` ns before (later). The check refused runs where the two can be equal.
    while (q.busy && (q.wire_free < at || (q.wire_free == at && (!q.wire_dequeued || stage < q.wire_ser)))) {
        SIM_ASSERT(q.wire_free < at || !q.wire_dequeued || stage != q.wire_ser,
                   "fast ring: a send meets a release in an order the run check should have refused");
        release(q);
    }
    if (q.busy) {
        q.waiting.push_back(ser);
        congestion_->note_waiting(link, q.waiting.size() - q.head);
    } else {
        q.busy = true;
        q.wire_free = at + ser;
        q.wire_ser = ser;
        q.wire_dequeued = false;
    }
    // FIFO: the chunk starts when the link is free of every chunk sent before it.
    const TimeNs start = std::max(at, q.tail);
    q.tail = start + ser;
    return start;
}

void FastRing::steps_with_queues(const RingTemplate& tpl, std::vector<TimeNs>& t) {
    // The recurrence of the header with the link between: S_k(q) = T_{k-1}(q) goes on q's link at
    // max(S_k, the link free of q's earlier chunks), arrives floor(latency + B / bw) later, and
    // R_k(q + 1) = max(S_k(q + 1), arrival). Each link carries its sender's chunks in the order sent.
    const auto n = static_cast<uint32_t>(t.size());
    arrival_.resize(n);
    for (uint32_t k = 1; k <= tpl.sends(); ++k) {
        const TimeNs stage = tpl.last_stage[k - 1];
        for (uint32_t q = 0; q < n; ++q) {
            const uint32_t to = q + 1 == n ? 0 : q + 1;
            arrival_[to] = send_on(in_link_[to], t[q], stage, in_ser_[to]) + in_delay_[to];
        }
        const TimeNs d = tpl.delays[k];
        for (uint32_t q = 0; q < n; ++q)
            t[q] = std::max(t[q], arrival_[q]) + d;
    }
}

} // namespace astrolabe

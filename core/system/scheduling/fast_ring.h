// The ring fast path: ring collectives under the analytical network computed as a max-plus recurrence,
// with one event per member (its completion) instead of about three per packet.
//
// Why it is exact. Under the analytical model a message costs a fixed delay with no shared state, so in the
// event path (collective_engine.h + ring.h) the times of one chunk stream on member i follow, with S_k the
// k-th send, R_k the k-th receive completion and D_k the bundle delay (endpoint delay, plus the reduction
// cost of packets that are reduced) of the packet inserted after the k-th receive:
//     T_0(i) = start(i) + D_0,   S_k(i) = T_{k-1}(i),
//     R_k(i) = max(S_k(i), S_k(prev(i)) + L(prev(i) -> i)),   T_k(i) = R_k(i) + D_k,   finish(i) = T_K(i)
// (a receive completes at the later of its post and the message's arrival, whichever came first in the
// queue). A ring phase keeps one packet in flight, so these are its only dependencies; the sequence of D_k
// and K are read off the RingPhase object itself (one member, driven without events). Chunks share the
// NPU's queue: the first `active-chunks-per-dimension` start at once, each later one when the earliest
// running one finishes. A member finishes at or after the last member's start (K >= N - 1 hops carry every
// start around the ring), so everything can be computed when the last member posts the collective.
//
// The same-ns order of events is what this skips. Under the analytical model fast_ring_watch.h says why
// nothing else can matter and watches the run for ties, which send it back to the event path; under the
// congestion model fast_ring_check.h proves statically that the order cannot change a result.
//
// A run of representatives (symmetry.h): the image of representative r under a translation t of its
// class does at every ns what r does, with groups moved by t. So r posting its k-th collective of group g
// stands for every t(r) posting its k-th collective of t(g); where t(g) = g, t(r) is another member of
// g's ring. The translations that move g elsewhere lead to groups without a representative (a group
// holding one holds its members' representatives, else the event path's stream tags would not meet), so
// only the ring's own images are filled, and only representatives get a completion.
//
// Under the congestion model each ring send crosses one link that only its sender uses, in its sender's
// order (fast_ring_check.h proves it). Where no chunk ever waits for a link (sends further apart than the
// link is busy), every message costs its link's fixed floor(latency + B / bw), the closed form holds and
// peak queues stay 0. Otherwise the recurrence steps with each link's FIFO between send and arrival:
// start = max(S_k, link free), link free = start + floor(B / bw), arrival = start + floor(latency + B / bw),
// and replays the link's queue with the engine's same-ns order of sends and releases (fast_ring_check.h)
// to count its peak queue. Either way the links' bytes and busy time are counted per collective.
#pragma once

#include "core/base/hash_mix.h"
#include "core/engine/engine.h"
#include "core/network/analytical_network.h"
#include "core/network/congestion_network.h"
#include "core/system/collectives/phase_plan.h"
#include "core/system/scheduling/fast_ring_watch.h"
#include "core/system/scheduling/symmetry.h"

#include <cstdint>
#include <tuple>
#include <unordered_map>
#include <vector>

namespace astrolabe {

// One chunk's phase as the recurrence sees it: K sends to the next member, D[0..K] bundle delays.
struct RingTemplate {
    std::vector<TimeNs> delays; // D_0 .. D_K
    // Per step, the delay of D_k's last registration on the NPU's buckets (the reduction when it costs
    // something, else the endpoint delay): the send that follows is an event scheduled that long before.
    std::vector<TimeNs> last_stage;
    uint64_t message_bytes = 0;
    TimeNs max_stage = 0; // the longest single registration on the NPU's buckets (endpoint or reduction)
    int dir = 1;          // +1: send to member i+1, receive from i-1
    uint32_t sends() const { return static_cast<uint32_t>(delays.size() - 1); }
};

// Drives a ring phase of `spec` for one chunk and reads off its template; false (with `why`) when the
// algorithm does not keep the one-packet chain the recurrence assumes.
bool ring_template(const PhaseSpec& spec, uint64_t chunk, uint32_t endpoint_delay_ns,
                   double local_mem_bw_gbps, RingTemplate& out, std::string& why);

// Scratch buffers of ring_finish, kept between calls.
struct RingScratch {
    std::vector<int64_t> prefix, value, near, far;
    std::vector<uint32_t> deque;
};

// One chunk: `t` holds T_0 per ring position (position q receives from q - 1 over in_delay[q]) and
// receives T_K, the chunk's finish. ring_finish solves the recurrence in closed form in O(N) (for K <= 8
// it steps, which costs less than setting up the windows);
// ring_finish_by_steps steps it K times, O(N K), the reference the tests compare it with.
void ring_finish(const RingTemplate& tpl, const std::vector<TimeNs>& in_delay, std::vector<TimeNs>& t,
                 RingScratch& scratch);
void ring_finish_by_steps(const RingTemplate& tpl, const std::vector<TimeNs>& in_delay,
                          std::vector<TimeNs>& t);

class FastRing {
public:
    // Under the analytical model; `watch` hears of members that disagree on a collective (fast_ring_watch.h).
    FastRing(Engine& engine, const AnalyticalNetwork& network, uint32_t endpoint_delay_ns,
             double local_mem_bw_gbps, uint32_t active_chunks, uint32_t npus, FastRingWatch* watch = nullptr);
    // Under the congestion model, on a run fast_ring_check.h accepted for it; `queues`: chunks may wait
    // for links (the stepped recurrence with each link's FIFO), else none ever does (the closed form).
    FastRing(Engine& engine, CongestionNetwork& network, uint32_t endpoint_delay_ns, double local_mem_bw_gbps,
             uint32_t active_chunks, uint32_t npus, bool queues);

    // A run of representatives: a post stands for its images' (the header comment).
    void set_symmetry(const RankSymmetry* symmetry);

    // Member `npu` starts a collective now: `spec` is its (only) phase, `chunks` streams of `chunk` bytes.
    // `on_done` runs (as an engine event) when its last chunk finishes.
    void post(uint32_t npu, uint32_t group_id, const PhaseSpec& spec, uint64_t chunk, uint32_t chunks,
              const Callback& on_done);
    // Collectives some member has not started yet.
    size_t pending() const { return pending_.size(); }

    uint64_t messages() const { return messages_; }
    uint64_t bytes() const { return bytes_; }
    uint64_t collectives() const { return collectives_; }

private:
    struct Pending {
        PhaseSpec spec; // any member's; members and sizes agree
        uint64_t chunk = 0;
        uint32_t chunks = 0;
        uint32_t posted = 0;
        std::vector<TimeNs> start;
        std::vector<Callback> done; // none for a member that is not simulated
        std::vector<bool> filled;
    };
    // One image of a representative's post (the header comment): its member index in the ring.
    struct Image {
        uint32_t index;
        bool self;
    };
    struct Key {
        uint64_t group_ordinal; // group id << 32 | the collective's ordinal in that group on its members
        uint64_t ring;          // the member list's address, or base << 32 | stride of a network dimension
        bool operator==(const Key& o) const { return group_ordinal == o.group_ordinal && ring == o.ring; }
    };
    struct KeyHash {
        size_t operator()(const Key& k) const {
            return static_cast<size_t>(mix64(hash_fold(k.group_ordinal, k.ring)));
        }
    };
    // Hash of the tuple keys below (integers and flags); the maps are only looked up, never walked, so
    // their order cannot reach a result.
    struct TupleHash {
        template <typename... T>
        size_t operator()(const std::tuple<T...>& t) const {
            uint64_t h = 0;
            std::apply([&h](const T&... x) { ((h = hash_fold(h, uint64_t(x))), ...); }, t);
            return static_cast<size_t>(mix64(h));
        }
    };
    // One link's FIFO as the event path keeps it (congestion_network.h), driven by its sender's sends.
    struct LinkQueue {
        TimeNs tail = 0;      // when the last chunk sent so far frees the link
        TimeNs wire_free = 0; // when the chunk on the wire frees it
        TimeNs wire_ser = 0;  // that chunk's serialisation
        bool busy = false;
        bool wire_dequeued = false;  // that chunk left the queue at a release (else it went at its send)
        std::vector<TimeNs> waiting; // serialisations of the waiting chunks, from index `head`
        size_t head = 0;
    };
    void fill(uint32_t group_id, uint32_t ordinal, const PhaseSpec& spec, uint32_t index, uint64_t chunk,
              uint32_t chunks, const Callback& on_done);
    const std::vector<Image>& images(uint32_t npu, uint32_t group_id, const PhaseSpec& spec);
    const RingTemplate& template_of(const PhaseSpec& spec, uint64_t chunk);
    void complete(Pending& p);
    // What a collective's finishes depend on besides its starts (the memo of complete(), fast_ring.cpp).
    struct MemoKey {
        const RingTemplate* tpl; // templates_ never forgets one, so the address names it
        uint64_t ring;           // ring_id: the members, hence the delays with the template's direction
        uint32_t chunks, slots;
    };
    struct MemoEntry {
        MemoKey key;
        uint32_t n;
        size_t offset; // in memo_times_: n starts, then n finishes, less the earliest start
    };
    static constexpr size_t kMemoTimes = size_t(1) << 22; // 32 MiB of times at most
    // The key and the starts less the earliest (`base`), hashed once for both calls below.
    static uint64_t memo_hash(const MemoKey& key, const std::vector<TimeNs>& start, TimeNs base);
    // finish_ from an equal earlier collective; false when none was seen.
    bool recall(const MemoKey& key, uint64_t hash, const std::vector<TimeNs>& start, TimeNs base);
    void remember(const MemoKey& key, uint64_t hash, const std::vector<TimeNs>& start, TimeNs base);
    void solve(Pending& p, const RingTemplate& tpl, uint32_t slots); // finish_ by the recurrence
    void steps_with_queues(const RingTemplate& tpl, std::vector<TimeNs>& t);
    TimeNs send_on(uint32_t link, TimeNs at, TimeNs stage, TimeNs ser);
    static void release(LinkQueue& q);
    uint32_t next_ordinal(uint32_t npu, uint32_t group_id);

    Engine& engine_;
    const AnalyticalNetwork* analytical_ = nullptr; // one of the two
    CongestionNetwork* congestion_ = nullptr;
    uint32_t endpoint_delay_;
    double local_mem_bw_;
    uint32_t active_chunks_;
    FastRingWatch* watch_ = nullptr;
    const RankSymmetry* symmetry_ = nullptr;
    std::vector<uint32_t> translations_; // the symmetry's, as the NPUs they move NPU 0 to
    // (NPU, group id, ring) -> the images of that NPU's posts there.
    std::unordered_map<std::tuple<uint32_t, uint32_t, uint64_t>, std::vector<Image>, TupleHash> images_;
    // (type, members, local, clockwise, algorithm, chunk) -> the template: collectives repeat.
    std::unordered_map<std::tuple<int, uint32_t, bool, bool, int, uint64_t>, RingTemplate, TupleHash>
        templates_;
    // (ring, direction, message bytes) -> the delay into each ring position (analytical model).
    std::unordered_map<std::tuple<uint64_t, int, uint64_t>, std::vector<TimeNs>, TupleHash> ring_delays_;
    std::vector<std::vector<std::pair<uint32_t, uint32_t>>> ordinals_; // per NPU: (group id, next ordinal)
    // Collectives not all members posted yet, as places in pool_ (reused: their vectors keep their
    // capacity, so a collective allocates nothing once the pool has grown).
    std::unordered_map<Key, uint32_t, KeyHash> pending_;
    std::vector<Pending> pool_;
    std::vector<uint32_t> free_places_;
    // Scratch of complete(), kept to avoid allocating per collective.
    std::vector<TimeNs> t_, in_delay_, finish_, heap_;
    std::vector<uint32_t> in_link_; // congestion: per position, the link it receives over
    std::vector<TimeNs> in_ser_, arrival_;
    bool queues_ = false;
    std::vector<LinkQueue> links_; // per link id, when queues_
    RingScratch scratch_;
    std::unordered_multimap<uint64_t, uint32_t> memo_; // hash -> index in memo_entries_
    std::vector<MemoEntry> memo_entries_;
    std::vector<TimeNs> memo_times_;
    uint64_t messages_ = 0, bytes_ = 0, collectives_ = 0;
};

} // namespace astrolabe

// The ring fast path's run-time guard: it watches a fast run for what the recurrence cannot vouch for, and
// when it sees it the run is redone on the event path (core/simulation/simulation.cpp).
//
// Why the recurrence times a collective exactly beside anything else. Under the analytical model a
// message costs a fixed delay, an endpoint delay or reduction is a fixed delay on the NPU's buckets, and a
// receive completes at the later of its post and its arrival: no time of a chunk depends on what else
// runs (NpuBuckets merges callbacks of one tick, but never moves their tick). The NPU's collective queues
// could couple collectives, but the executor gives every collective the NPU's one GPU-communication slot
// (workload_executor.h), so one collective runs per NPU at a time; the next one starts inside the last
// one's completion, in the same ns, and its first min(chunks, active-chunks-per-dimension) chunks start
// in that ns either way (fast_ring.h). So each member's finish is the recurrence's, from the members'
// start times alone. Pipeline sends and receives, compute overlapping collectives and collectives of
// several groups in turn are therefore all timed exactly.
//
// What the fast path changes is the order of events inside one ns: a member's completion is an event
// scheduled when the last member starts, not the event path's last bundle, and the packets' bucket
// events, which other callbacks of the NPU may join, are gone. The only state whose outcome depends on the
// order of events in one ns is the executor's per NPU (which nodes a completion makes ready, which of them
// the issue pass takes): the collective queues are touched, outside the executor, only by the NPU's one
// running collective; the P2P matcher's k-th send of a key meets its k-th receive, and both come from
// executor events of the sender and the receiver; statistics are sums, minima and maxima, sorted for
// the report. And a single executor event of an NPU in some ns has nothing of that NPU to be ordered
// against: what it sees was settled in earlier ns (by induction the same in both paths), and what other
// NPUs do in that ns reaches it only through messages, which arrive in a later ns or (a zero-delay
// message) as a further executor event of its own.
//
// So the guard looks at consecutive executor events of one NPU in one ns and asks whether the event path
// runs them in the same order. The engine runs the events of one ns in the order they were scheduled
// (their "key": the ns of scheduling, then the order within that ns); an NPU's buckets put every callback
// of one tick at the key of the tick's first registration (npu_buckets.h). Per executor event the guard
// knows an interval [lo, hi] holding its key in both paths. The event path's ring packets register on the
// NPU's buckets too, and one of them may have made the tick's bucket: that takes a collective running on
// the NPU at T, started at s_c, whose longest single registration (endpoint delay or reduction,
// RingTemplate::max_stage) is w_c, so it was made at max(s_c, T - w_c) or later: the "packet floor" F
// (none when no collective of the NPU runs over T; one collective runs at a time, so at most the one
// running and the one that ended at T).
// - a compute, CPU or replayed node's completion (a bucket registered at its start s): [min(s, F), s];
// - a collective's completion: [min(s, B), T], B the earliest start of the NPU's bucket callbacks seen in
//   this ns (the event path runs it in its last packet's bucket, made at s or later unless such a callback
//   made it; the fast path: an event scheduled when the last member started, at or after s; a bucket
//   callback whose bucket came before that runs before it in the fast run too, so it was seen);
// - a send's completion: [s, s] (its delivery was scheduled when it was sent);
// - a receive's completion: [T - d, T - d] with d the network's delay for its message, when posted before
//   T (it completes in the delivery event); [T - d, T] when posted at T (or in a zero-delay event);
// - a look at the ready nodes (a zero-delay event): [T, T].
// Two such events run in the same order in both paths when the first's hi is below the second's lo (keys
// in different ns keep their order); when both are completions of nodes registered on the NPU's buckets
// before T (callbacks of the one bucket of that tick, run in the order they were registered); or when
// both keys are known to the ns, the same ns, and both were scheduled by the NPU's own executor (a send,
// a bucket's first callback, a look at the ready nodes): they then keep the order of the executor events
// that scheduled them. Orders within earlier ns were checked in turn, so they are the event path's. Anything
// else is a tie the guard refuses: the run is redone on the event path. It is conservative: most refused ties
// would have come out the same.
//
// Also refused: members that disagree on a collective (type, size, chunks) and a run that ends with a
// collective some member never started, where the event path's packets, stuck or mismatched, decide what
// happens.
#pragma once

#include "core/base/time.h"

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

namespace astrolabe {

class FastRingWatch {
public:
    explicit FastRingWatch(uint32_t npus) : last_(npus) {}

    // An executor event of `npu` at `now` about `node` (an index of its graph, or kNoNode), whose key lies
    // in [lo, hi]; `bucket`: a callback of the NPU's buckets registered before `now`. True when it may run
    // in another order than in the event path against the NPU's previous event (`previous`: its node).
    static constexpr uint32_t kNoNode = UINT32_MAX;
    // `own`: scheduled by the NPU's own executor (not a message from another NPU).
    bool uncertain(uint32_t npu, TimeNs now, uint32_t node, TimeNs lo, TimeNs hi, bool bucket, bool own,
                   uint32_t& previous) {
        if (!ties_ || failed_) return false;
        Last& l = last_[npu];
        const bool same_ns = l.at == now;
        const bool same_bucket = same_ns && l.bucket && bucket;
        const bool ordered =
            l.hi < lo || (l.own && own && l.lo == l.hi && lo == hi && l.hi == lo && !l.joined);
        const bool tie = same_ns && !same_bucket && !ordered;
        previous = l.node;
        previous_lo = l.lo;
        previous_hi = l.hi;
        l.at = now;
        l.lo = lo;
        l.hi = hi;
        l.node = node;
        l.bucket = bucket;
        l.own = own;
        l.joined = same_bucket;
        return tie;
    }
    TimeNs previous_lo = 0, previous_hi = 0; // the previous event's bounds, after uncertain()
    // Collectives of `npu` (F of the header comment): one starts with packets of at most `stage` ns per
    // registration, or ends.
    void collective_started(uint32_t npu, TimeNs now, TimeNs stage) {
        last_[npu].running = {now, stage, kTimeNever};
    }
    void collective_ended(uint32_t npu, TimeNs now) {
        Last& l = last_[npu];
        if (l.running.start == kTimeNever) return; // one without packets
        l.ended = l.running;
        l.ended.end = now;
        l.running = Window{};
    }
    TimeNs packet_floor(uint32_t npu, TimeNs t) const {
        const Last& l = last_[npu];
        TimeNs floor = kTimeNever;
        for (const Window& w : {l.running, l.ended})
            if (w.start <= t && t <= w.end)
                floor = std::min(floor, std::max(w.start, t > w.stage ? t - w.stage : 0));
        return floor;
    }
    // B of the header comment: noted for every bucket callback, read for a collective's completion.
    void bucket_callback(uint32_t npu, TimeNs now, TimeNs start) {
        Last& l = last_[npu];
        if (l.bucket_ns != now) l.bucket_min = kTimeNever;
        l.bucket_ns = now;
        l.bucket_min = std::min(l.bucket_min, start);
    }
    TimeNs earliest_bucket(uint32_t npu, TimeNs now) const {
        const Last& l = last_[npu];
        return l.bucket_ns == now ? l.bucket_min : kTimeNever;
    }
    void fail(std::string why) {
        if (failed_) return;
        failed_ = true;
        why_ = std::move(why);
    }
    bool failed() const { return failed_; }
    const std::string& why() const { return why_; }
    // For the tests: a watch blind to ties (what the randomised test must catch when the guard is off).
    void ignore_ties() { ties_ = false; }

private:
    struct Window {
        TimeNs start = kTimeNever, stage = 0, end = kTimeNever;
    };
    struct Last {
        TimeNs at = kTimeNever; // the ns of the NPU's last executor event
        TimeNs lo = 0, hi = 0;  // its key's bounds
        uint32_t node = kNoNode;
        bool bucket = false;
        bool own = false;
        bool joined = false;   // a later callback of a bucket: its key is the bucket's, maybe below lo
        Window running, ended; // the NPU's collective running, and the one before
        TimeNs bucket_ns = kTimeNever, bucket_min = kTimeNever;
    };
    std::vector<Last> last_; // per NPU
    bool ties_ = true;
    bool failed_ = false;
    std::string why_;
};

} // namespace astrolabe

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
// So the guard: an executor event (a node's completion, a look at the ready nodes after a zero-time pass)
// of an NPU in an ns where the same NPU already had one. The first such tie stops the fast run, whatever
// its cause (it may be one the event path orders the same way: the guard is conservative, never clever).
// Also: members that disagree on a collective (type, size, chunks) and a run that ends with a collective
// some member never started, where the event path's packets, stuck or mismatched, decide what happens.
#pragma once

#include "core/base/time.h"

#include <cstdint>
#include <string>
#include <vector>

namespace astrolabe {

class FastRingWatch {
public:
    explicit FastRingWatch(uint32_t npus) : last_(npus, kTimeNever) {}

    // An executor event of `npu` at `now`.
    void executor_event(uint32_t npu, TimeNs now) {
        if (!ties_) return;
        TimeNs& last = last_[npu];
        if (last == now && !failed_)
            fail("NPU " + std::to_string(npu) + " had two events in one ns (" + std::to_string(now) +
                 " ns), which the recurrence does not order as the event path would");
        last = now;
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
    std::vector<TimeNs> last_; // per NPU: the ns of its last executor event
    bool ties_ = true;
    bool failed_ = false;
    std::string why_;
};

} // namespace astrolabe

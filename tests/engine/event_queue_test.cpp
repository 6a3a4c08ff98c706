// The event kernel: deterministic (time, insertion) order, cancel, and running in slices.
#include "core/base/assert.h"
#include "core/engine/engine.h"
#include "core/engine/npu_buckets.h"

#include <catch2/catch.hpp>

#include <limits>
#include <map>
#include <utility>
#include <vector>

using namespace astrolabe;

namespace {

// Records (time, arg) of every event it receives. kind 1 additionally schedules `arg + 100` at the
// current time (an event scheduled for the tick being drained).
struct Recorder final : EventTarget {
    explicit Recorder(Engine& e) : engine(e) {}
    void on_event(uint32_t kind, uint64_t arg) override {
        log.emplace_back(engine.now(), arg);
        if (kind == 1) engine.schedule_in(0, Callback{this, 0, arg + 100});
    }
    Engine& engine;
    std::vector<std::pair<TimeNs, uint64_t>> log;
};

using Log = std::vector<std::pair<TimeNs, uint64_t>>;

} // namespace

TEST_CASE("engine: events run by time and equal times in scheduling order", "[engine]") {
    // Scheduled: a@10, b@5, c@10, d@10, e@7 -> run b@5, e@7, then a, c, d at 10 in the order scheduled.
    Engine e;
    Recorder r(e);
    e.schedule_at(10, {&r, 0, 'a'});
    e.schedule_at(5, {&r, 0, 'b'});
    e.schedule_at(10, {&r, 0, 'c'});
    e.schedule_at(10, {&r, 0, 'd'});
    e.schedule_at(7, {&r, 0, 'e'});
    CHECK(e.pending() == 5);
    CHECK(e.run() == 5);
    CHECK(r.log == Log{{5, 'b'}, {7, 'e'}, {10, 'a'}, {10, 'c'}, {10, 'd'}});
    CHECK(e.now() == 10);
    CHECK(e.idle());
    CHECK(e.stats().events == 5);
    CHECK(e.stats().peak_queue == 5);
}

TEST_CASE("engine: an event scheduled for the current tick runs after those already queued for it",
          "[engine]") {
    // x@10 (kind 1) schedules x+100 at 10 while 10 is being drained; y@10 was queued before that, so the
    // order is x, y, x+100 -- all at t = 10 (ASTRA-sim's same-tick order).
    Engine e;
    Recorder r(e);
    e.schedule_at(10, {&r, 1, 1});
    e.schedule_at(10, {&r, 0, 2});
    e.schedule_at(20, {&r, 0, 3});
    e.run();
    CHECK(r.log == Log{{10, 1}, {10, 2}, {10, 101}, {20, 3}});
}

TEST_CASE("engine: cancel skips an event and cancelling none or a past event does nothing", "[engine]") {
    // Three events at 5, 5, 8; cancelling the second at 5 leaves two to run, and only they are counted.
    Engine e;
    Recorder r(e);
    EventId a = e.schedule_at(5, {&r, 0, 1});
    EventId b = e.schedule_at(5, {&r, 0, 2});
    EventId c = e.schedule_at(8, {&r, 0, 3});
    CHECK(b.valid());
    CHECK_FALSE(EventId{}.valid());
    e.cancel(b);
    e.cancel(EventId{}); // "none": no effect
    CHECK(e.run() == 2);
    CHECK(r.log == Log{{5, 1}, {8, 3}});
    CHECK(e.stats().events == 2);
    e.cancel(a); // already ran
    e.cancel(c);
    e.schedule_at(9, {&r, 0, 4});
    CHECK(e.run() == 1);
    CHECK(r.log.back() == std::make_pair(TimeNs(9), uint64_t(4)));

    SECTION("cancelling the later event of the tick being drained") {
        // y@20 is cancelled by x@20 while 20 is being drained: y must not run.
        struct Canceller final : EventTarget {
            Engine* e;
            EventId victim;
            int ran = 0;
            void on_event(uint32_t kind, uint64_t) override {
                ++ran;
                if (kind == 1) e->cancel(victim);
            }
        } k;
        k.e = &e;
        e.schedule_at(20, {&k, 1, 0});
        k.victim = e.schedule_at(20, {&k, 2, 0});
        e.run();
        CHECK(k.ran == 1);
    }
}

TEST_CASE("engine: running in slices by event budget and by time limit", "[engine]") {
    // Five events at 1..5 ns. run(2) runs two; run(max, until 4) runs those at 3 and 4 and stops before 5;
    // step() runs the last; a further step() reports nothing left. The clock never passes the last event run.
    Engine e;
    Recorder r(e);
    for (uint64_t t = 1; t <= 5; ++t)
        e.schedule_at(t, {&r, 0, t});
    CHECK(e.run(2) == 2);
    CHECK(e.now() == 2);
    CHECK(e.run(UINT64_MAX, 4) == 2);
    CHECK(e.now() == 4);
    CHECK(e.pending() == 1);
    CHECK(e.step());
    CHECK(e.now() == 5);
    CHECK_FALSE(e.step());
    CHECK(r.log == Log{{1, 1}, {2, 2}, {3, 3}, {4, 4}, {5, 5}});
}

TEST_CASE("engine: a time limit leaves the queue open for events before the next pending time", "[engine]") {
    // Events at 10, 100 (on the 4096 ns wheel) and 10000 (in its overflow). run(until 50) runs the one at 10
    // and stops with the clock at 10: the queue must not move on to 100, since a front end may still
    // schedule between the slices. Events then put at 60 (wheel) and 5000 (overflow) run in time order, and
    // one at 60 scheduled second runs after the first at 60.
    Engine e;
    Recorder r(e);
    e.schedule_at(10, {&r, 0, 1});
    e.schedule_at(100, {&r, 0, 2});
    e.schedule_at(10000, {&r, 0, 3});
    CHECK(e.run(UINT64_MAX, 50) == 1);
    CHECK(e.now() == 10);
    CHECK(e.next_time() == 100);
    CHECK(e.run(UINT64_MAX, 50) == 0);
    e.schedule_at(60, {&r, 0, 4});
    e.schedule_at(5000, {&r, 0, 5});
    e.schedule_at(60, {&r, 0, 6});
    CHECK(e.next_time() == 60);
    CHECK(e.run() == 5);
    CHECK(r.log == Log{{10, 1}, {60, 4}, {60, 6}, {100, 2}, {5000, 5}, {10000, 3}});
}

TEST_CASE("engine: scheduling in the past is an internal error and not a silent reordering", "[engine]") {
    // After running up to t = 10, an event at t = 5 would break causality: SIM_ASSERT throws InternalError.
    Engine e;
    Recorder r(e);
    e.schedule_at(10, {&r, 0, 1});
    e.run();
    CHECK_THROWS_AS(e.schedule_at(5, {&r, 0, 2}), InternalError);
}

TEST_CASE("NPU buckets: one NPU's callbacks for one tick run together at the first one's position",
          "[engine]") {
    // NPU 0 registers A for t=10, then an unrelated event X is scheduled for 10, then NPU 0 registers B for
    // 10 and NPU 1 registers C for 10. A and B share NPU 0's bucket, queued before X: order A, B, X, C.
    Engine e;
    Recorder r(e);
    NpuBuckets buckets(e, 2);
    buckets.add(0, 10, {&r, 0, 'A'});
    e.schedule_at(10, {&r, 0, 'X'});
    buckets.add(0, 10, {&r, 0, 'B'});
    buckets.add(1, 10, {&r, 0, 'C'});
    buckets.add(0, 3, {&r, 0, 'D'});
    e.run();
    CHECK(r.log == Log{{3, 'D'}, {10, 'A'}, {10, 'B'}, {10, 'X'}, {10, 'C'}});
}

namespace {

// Events that schedule and cancel further events, each choice a function of the event's own id, so a
// queue that runs them in the right order makes the same choices as the reference model.
struct Spawner final : EventTarget {
    explicit Spawner(Engine& e) : engine(e) {}
    static uint64_t mix(uint64_t x) {
        x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
        x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
        return x ^ (x >> 31);
    }
    // Delays around everything the queue treats differently: the tick being drained, the wheel's near
    // entries, both sides of its 4096 ns span, and far times that wait in the overflow.
    static TimeNs delay(uint64_t h) {
        static const TimeNs kChoices[] = {0,    1,    7,    10,   63,   64,    65,     2048,   4094,
                                          4095, 4096, 4097, 8191, 8192, 16384, 100000, 123457, 5000000};
        return kChoices[h % (sizeof(kChoices) / sizeof(kChoices[0]))];
    }
    void on_event(uint32_t, uint64_t id) override {
        log.emplace_back(engine.now(), id);
        uint64_t h = mix(id);
        uint32_t children = created < 20000 ? static_cast<uint32_t>(h % 4) : 0;
        for (uint32_t c = 0; c < children; ++c) {
            uint64_t child = created++;
            ids.push_back(engine.schedule_in(delay(mix(h + c)), Callback{this, 0, child}));
        }
        if (h % 11 == 0 && !ids.empty()) engine.cancel(ids[mix(h + 99) % ids.size()]);
    }
    Engine& engine;
    uint64_t created = 0;
    std::vector<EventId> ids; // spawned events only: ids[j] is event seeds + j
    std::vector<std::pair<TimeNs, uint64_t>> log;
};

// The same process on an obviously correct queue: a sorted set of (time, sequence, id).
Log reference_run(uint64_t seeds) {
    std::vector<std::pair<TimeNs, uint64_t>> log;
    std::map<std::pair<TimeNs, uint64_t>, uint64_t> queue; // (time, scheduling sequence) -> id
    std::vector<std::pair<TimeNs, uint64_t>> key_of;       // by id
    uint64_t seq = 0, created = 0;
    for (uint64_t i = 0; i < seeds; ++i) {
        uint64_t id = created++;
        TimeNs t = Spawner::delay(Spawner::mix(id * 31 + 5)) * (i % 3);
        key_of.push_back({t, seq});
        queue[{t, seq++}] = id;
    }
    while (!queue.empty()) {
        auto it = queue.begin();
        TimeNs now = it->first.first;
        uint64_t id = it->second;
        queue.erase(it);
        log.emplace_back(now, id);
        uint64_t h = Spawner::mix(id);
        uint32_t children = created < 20000 ? static_cast<uint32_t>(h % 4) : 0;
        for (uint32_t c = 0; c < children; ++c) {
            uint64_t child = created++;
            TimeNs t = now + Spawner::delay(Spawner::mix(h + c));
            key_of.push_back({t, seq});
            queue[{t, seq++}] = child;
        }
        if (h % 11 == 0 && created > seeds) {
            // Spawner's ids list holds only spawned children (ids seeds.. created-1).
            uint64_t victim = seeds + Spawner::mix(h + 99) % (created - seeds);
            queue.erase(key_of[victim]); // nothing when it already ran or was cancelled
        }
    }
    return log;
}

} // namespace

TEST_CASE("engine: the timing wheel and its overflow keep (time, scheduling order) on random traffic",
          "[engine]") {
    // 64 seed events at 0 and at various delays spawn about 20000 more with delays on both sides of the
    // wheel's 4096 ns span (and same-tick ones), and cancel some; the run must match a sorted-map reference
    // event for event, times included.
    const uint64_t seeds = 64;
    Engine e;
    Spawner s(e);
    for (uint64_t i = 0; i < seeds; ++i) {
        uint64_t id = s.created++;
        e.schedule_at(Spawner::delay(Spawner::mix(id * 31 + 5)) * (i % 3), Callback{&s, 0, id});
    }
    e.run();
    Log expected = reference_run(seeds);
    REQUIRE(s.log.size() == expected.size());
    CHECK(s.log.size() > 15000);
    CHECK(s.log == expected);
}

TEST_CASE("engine: simulated time ends at 2^62 ns with a message, never wraps", "[engine]") {
    // A rate near zero in the inputs gives durations past the clock's range. Scheduling at 2^62 ns is
    // allowed; one ns later, or a relative time that would carry the clock past it (or wrap uint64), is a
    // TimeLimitError that says what happened: an input problem, not an internal error.
    Engine e;
    Recorder r(e);
    e.schedule_at(kTimeLimit, Callback{&r, 0, 1});
    CHECK_THROWS_AS(e.schedule_at(kTimeLimit + 1, Callback{&r, 0, 2}), TimeLimitError);
    CHECK_THROWS_WITH(
        e.schedule_in(kTimeNever, Callback{&r, 0, 3}),
        Catch::Contains("would pass 2^62 ns (about 146 years): an event more than 2^62 ns after 0 "
                        "ns; a rate in the inputs is near zero"));
    e.run();
    CHECK(e.now() == kTimeLimit);
    CHECK_THROWS_AS(e.schedule_in(1, Callback{&r, 0, 4}), TimeLimitError);
    CHECK(e.schedule_in(0, Callback{&r, 0, 5}).time == kTimeLimit);
    // The NPU buckets add to now() themselves: the same guard before their sum can wrap.
    NpuBuckets b(e, 1);
    CHECK_THROWS_AS(b.add(0, kTimeNever, Callback{&r, 0, 6}), TimeLimitError);
}

TEST_CASE("time_from_ns: truncation in range, saturation outside", "[engine]") {
    // Durations computed in double become whole ns by truncation (as ASTRA-sim's costs); a value past
    // uint64's range or NaN becomes kTimeNever (the engine then refuses it), a negative one 0: a plain cast
    // would be undefined for all three.
    CHECK(time_from_ns(2.9) == 2);
    CHECK(time_from_ns(0.0) == 0);
    CHECK(time_from_ns(-5.0) == 0);
    CHECK(time_from_ns(1e300) == kTimeNever);
    CHECK(time_from_ns(std::numeric_limits<double>::quiet_NaN()) == kTimeNever);
    CHECK(time_from_ns(std::numeric_limits<double>::infinity()) == kTimeNever);
    CHECK(time_add(kTimeNever - 1, 5) == kTimeNever);
    CHECK(time_add(3, 4) == 7);
}

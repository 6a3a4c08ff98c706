// Fifo: first in, first out, whatever the mix of pushes and pops, including the compaction of a queue that
// never drains (expected order: the integers in the order pushed; a plain counter is the reference).
#include "core/base/fifo.h"

#include <catch2/catch.hpp>

using astrolabe::Fifo;

TEST_CASE("Fifo hands entries back in the order pushed", "[base]") {
    Fifo<int> q;
    CHECK(q.empty());
    q.push_back(1);
    q.push_back(2);
    CHECK(q.size() == 2);
    CHECK(q.front() == 1);
    q.pop_front();
    CHECK(q.front() == 2);
    q.pop_front();
    CHECK(q.empty());
    q.push_back(3); // after draining, the queue starts again at the front of its buffer
    CHECK(q.front() == 3);
    q.clear();
    CHECK(q.empty());
}

TEST_CASE("Fifo stays in order across compactions of a queue that never drains", "[base]") {
    // Push two, pop one, 10000 times: the queue never empties and grows by one per round, so the consumed
    // prefix is compacted many times (at 64 and every time it outgrows the rest).
    Fifo<int> q;
    int pushed = 0, popped = 0;
    for (int round = 0; round < 10000; ++round) {
        q.push_back(pushed++);
        q.push_back(pushed++);
        REQUIRE(q.front() == popped);
        q.pop_front();
        ++popped;
    }
    CHECK(q.size() == size_t(pushed - popped));
    while (!q.empty()) {
        REQUIRE(q.front() == popped++);
        q.pop_front();
    }
    CHECK(popped == pushed);
}

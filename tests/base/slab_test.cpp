// The kernel's one pool (core/base/slab.h): dense indices, LIFO reuse, records reused as they were left.
// The models depend on each property: indices name records in events, LIFO reuse keeps runs deterministic,
// and kept contents carry version counters across uses.
#include "core/base/slab.h"

#include <catch2/catch.hpp>

#include <string>
#include <vector>

using namespace astrolabe;

namespace {
struct Record {
    uint32_t version = 0;
    std::vector<int> buffer;
};
} // namespace

TEST_CASE("slab hands out dense indices and reuses the last released first", "[base][slab]") {
    SECTION("three fresh records are 0, 1, 2; releasing 0 then 2 reuses 2, then 0, then makes 3") {
        Slab<Record> slab;
        CHECK(slab.acquire() == 0);
        CHECK(slab.acquire() == 1);
        CHECK(slab.acquire() == 2);
        CHECK(slab.in_use() == 3);
        slab.release(0);
        slab.release(2);
        CHECK(slab.in_use() == 1);
        CHECK(slab.acquire() == 2);
        CHECK(slab.acquire() == 0);
        CHECK(slab.acquire() == 3);
        CHECK(slab.size() == 4);
        CHECK(slab.in_use() == 4);
    }
    SECTION("a reused record keeps its counter and its buffer's capacity") {
        // The flow model bumps `version` per use so a stale drain event of the previous use is ignored.
        Slab<Record> slab;
        uint32_t r = slab.acquire();
        slab[r].version = 7;
        slab[r].buffer.assign(100, 1);
        slab[r].buffer.clear();
        slab.release(r);
        uint32_t again = slab.acquire();
        REQUIRE(again == r);
        CHECK(slab[again].version == 7);
        CHECK(slab[again].buffer.capacity() >= 100);
    }
    SECTION("all() lists every record in index order, free ones included") {
        Slab<std::string> slab;
        slab[slab.acquire()] = "a";
        uint32_t b = slab.acquire();
        slab[b] = "b";
        slab.release(b);
        REQUIRE(slab.all().size() == 2);
        CHECK(slab.all()[0] == "a");
        CHECK(slab.all()[1] == "b");
    }
}

// The P2P matcher's open-addressing index: lookups, inserts and backward-shift erases against a plain
// reference (a vector of live entries), including keys that collide on purpose.
#include "core/base/hash_index.h"

#include <catch2/catch.hpp>

#include <cstdint>
#include <utility>
#include <vector>

using namespace astrolabe;

namespace {

// Live (hash, channel) pairs, looked up by channel: the reference the index must agree with.
struct Model {
    std::vector<std::pair<uint64_t, uint32_t>> live;
    uint32_t find(uint64_t hash, uint32_t channel) const {
        for (const auto& e : live)
            if (e.first == hash && e.second == channel) return channel;
        return HashIndex::kNone;
    }
};

uint32_t lookup(const HashIndex& index, uint64_t hash, uint32_t channel) {
    return index.find(hash, [&](uint32_t c) { return c == channel; });
}

} // namespace

TEST_CASE("hash index: insert, find, erase") {
    SECTION("an empty index finds nothing") {
        // Scenario: no inserts. Expected: kNone, size 0.
        HashIndex index;
        CHECK(lookup(index, 42, 0) == HashIndex::kNone);
        CHECK(index.size() == 0);
    }
    SECTION("colliding hashes stay apart and survive erases in the middle of their probe run") {
        // Scenario: 40 channels whose hashes share their low 16 bits (one long probe run), then every
        // third one erased. Expected: exactly the remaining 26 are found; backward-shift deletion must not
        // cut the run in two (a tombstone-free table that did would lose the members after the hole).
        HashIndex index;
        Model model;
        for (uint32_t c = 0; c < 40; ++c) {
            uint64_t h = (uint64_t(c) << 40) | 0x1234u;
            index.insert(h, c);
            model.live.push_back({h, c});
        }
        for (uint32_t c = 0; c < 40; c += 3) {
            index.erase((uint64_t(c) << 40) | 0x1234u, c);
            model.live.erase(model.live.begin() + (c - c / 3));
        }
        CHECK(index.size() == 26);
        for (uint32_t c = 0; c < 40; ++c) {
            uint64_t h = (uint64_t(c) << 40) | 0x1234u;
            CHECK(lookup(index, h, c) == model.find(h, c));
        }
    }
    SECTION("a long random mix of inserts and erases agrees with the reference, through growth") {
        // Scenario: 20000 operations from a fixed LCG, at most ~3000 live keys (the table grows several
        // times). Expected: after each operation the touched key's presence matches the reference, and at
        // the end every live key is found and the sizes agree.
        HashIndex index;
        Model model;
        uint64_t x = 12345;
        auto next = [&x] {
            x = x * 6364136223846793005ull + 1442695040888963407ull;
            return x;
        };
        uint32_t next_channel = 0;
        for (int op = 0; op < 20000; ++op) {
            bool add = model.live.empty() || (next() >> 33) % 100 < (model.live.size() < 3000 ? 55 : 45);
            if (add) {
                uint64_t h = next() & 0xFFFF'FFFF'0000'03FFull; // few distinct low bits: long probe runs
                uint32_t c = next_channel++;
                index.insert(h, c);
                model.live.push_back({h, c});
                REQUIRE(lookup(index, h, c) == c);
            } else {
                size_t i = (next() >> 33) % model.live.size();
                auto [h, c] = model.live[i];
                index.erase(h, c);
                model.live[i] = model.live.back();
                model.live.pop_back();
                REQUIRE(lookup(index, h, c) == HashIndex::kNone);
            }
        }
        CHECK(index.size() == model.live.size());
        for (const auto& [h, c] : model.live)
            CHECK(lookup(index, h, c) == c);
    }
}

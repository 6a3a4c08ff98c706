// 64-bit mixing for the simulator's hash keys (hash indexes, unordered maps, memo tables).
//
// Every index built on these is only looked up, never walked, so a hash function can change without
// changing a result; what matters is that keys differing in a few bits (nearby times, tags that differ
// only in their high bits) land far apart in the low bits an index masks.
#pragma once

#include <cstdint>

namespace astrolabe {

// splitmix64's finaliser: a full avalanche of one 64-bit value.
inline uint64_t mix64(uint64_t x) {
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
    x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
    return x ^ (x >> 31);
}

// Folds one more value into a running hash (xor, then multiply by the 64-bit golden ratio); finish a
// folded hash with mix64 before an index masks it.
inline uint64_t hash_fold(uint64_t h, uint64_t x) {
    return (h ^ x) * 0x9E3779B97F4A7C15ull;
}

} // namespace astrolabe

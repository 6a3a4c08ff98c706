// A small deterministic random number generator for the search agents (splitmix64).
//
// The standard library's engines are portable but its distributions are not (libstdc++ and libc++ draw
// different numbers), and searches must give the same bytes natively, in wasm and under MPI. So every
// draw the agents make goes through these few functions, defined here bit for bit.
#pragma once

#include "core/base/hash_mix.h"

#include <cstdint>

namespace astrolabe::search {

class Rng {
public:
    explicit Rng(uint64_t seed = 0) : state_(seed ^ 0x9E3779B97F4A7C15ull) {}
    uint64_t next() { return mix64(state_ += 0x9E3779B97F4A7C15ull); } // splitmix64: a Weyl step, mixed
    // Uniform in [0, 1) with 53 random bits.
    double uniform() { return static_cast<double>(next() >> 11) * (1.0 / 9007199254740992.0); }
    // Uniform in [0, n); n > 0. The modulo bias (n / 2^64) is far below anything a search can notice.
    uint64_t below(uint64_t n) { return next() % n; }

private:
    uint64_t state_;
};

} // namespace astrolabe::search

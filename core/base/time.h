// Simulated time: an integer count of nanoseconds.
//
// ASTRA-sim's tick is 1 ns and its per-message costs are truncated to whole ticks, so integer ns lets us
// reproduce its numbers exactly. Reports say ns. uint64 covers 584 years.
#pragma once

#include <cstdint>
#include <limits>

namespace astrolabe {

using TimeNs = uint64_t;
constexpr TimeNs kTimeNever = std::numeric_limits<TimeNs>::max();

} // namespace astrolabe

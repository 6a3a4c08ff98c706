// Simulated time: an integer count of nanoseconds.
//
// ASTRA-sim's tick is 1 ns and its per-message costs are truncated to whole ticks, so integer ns lets us
// reproduce its numbers exactly. Reports say ns. uint64 covers 584 years; the engine ends simulated time
// at 2^62 ns (146 years, engine.h kTimeLimit) so that sums of times never wrap.
#pragma once

#include <cstdint>
#include <limits>

namespace astrolabe {

using TimeNs = uint64_t;
constexpr TimeNs kTimeNever = std::numeric_limits<TimeNs>::max();

// A duration computed in floating point, as whole ns: truncated, as ASTRA-sim truncates its costs. A value
// past the clock's range (a bandwidth or peak near zero in the inputs), or NaN, saturates to kTimeNever,
// which the engine refuses with a message (engine.h kTimeLimit), where a plain cast would be undefined.
inline TimeNs time_from_ns(double ns) {
    if (!(ns < 1.8e19)) return kTimeNever;
    return ns > 0 ? static_cast<TimeNs>(ns) : 0;
}
// a + b, saturating at kTimeNever.
inline TimeNs time_add(TimeNs a, TimeNs b) {
    return b > kTimeNever - a ? kTimeNever : a + b;
}

} // namespace astrolabe

// How long a compute node takes: replay of its measured duration, or the roofline model.
//
// Replay (ASTRA-sim's default): duration_micros * 1000 ns, and 1 ns when the trace gives no duration.
// Roofline (ASTRA-sim's `roofline-enabled`): operational intensity oi = num_ops / tensor_size;
// attainable rate = min(peak, bandwidth * oi); time = num_ops / rate, truncated to whole ns. Evaluated in
// IEEE double in ASTRA-sim's order so results match it to the ns. peak-perf is TFLOPS (1e12 op/s) and
// local-mem-bw GB/s with 1 GB = 1e9 bytes here. A node with tensor_size 0 has no defined intensity:
// ASTRA-sim skips it (0 ns), and so do we; so is a node with no operations. A bandwidth of 0 means no
// memory roof (only the systolic model's fallback uses that; ASTRA-sim's roofline requires local-mem-bw).
#pragma once

#include "core/base/time.h"

#include <cstdint>

namespace astrolabe {

inline TimeNs replay_time(uint64_t duration_ns) {
    return duration_ns > 0 ? duration_ns : 1;
}

struct RooflineParams {
    double peak_tflops = 0;
    double mem_bw_gbps = 0;
};

struct RooflineResult {
    TimeNs time = 0;
    bool memory_bound = false;
};

RooflineResult roofline_time(uint64_t num_ops, uint64_t tensor_size, const RooflineParams& p);

} // namespace astrolabe

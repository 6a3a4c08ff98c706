#include "core/compute/compute_time.h"

#include <algorithm>
#include <limits>

namespace astrolabe {

RooflineResult roofline_time(uint64_t num_ops, uint64_t tensor_size, const RooflineParams& p) {
    if (tensor_size == 0 || num_ops == 0) return {0, false};
    double peak = p.peak_tflops * 1e12;
    double bw = p.mem_bw_gbps * 1e9;
    double ops = static_cast<double>(num_ops);
    double oi = ops / static_cast<double>(tensor_size);
    // No bandwidth given (the systolic model's fallback without local-mem-bw): no memory roof.
    double memory_rate = p.mem_bw_gbps > 0 ? bw * oi : std::numeric_limits<double>::infinity();
    double rate = std::min(memory_rate, peak);
    double seconds = ops / rate;
    double ns = seconds * 1e9;
    RooflineResult r;
    r.time = time_from_ns(ns);
    r.memory_bound = memory_rate < peak;
    return r;
}

} // namespace astrolabe

// What reducing received data costs an endpoint in local memory, as ASTRA-sim charges it. One place for
// the event path (CollectiveEngine::mem_cost) and the fast ring's recurrence (fast_ring.cpp), which must
// agree to the ns.
#pragma once

#include "core/base/time.h"

#include <cstdint>

namespace astrolabe {

// One write and two reads of `bytes` in local memory, each truncated to whole ns (bytes / (GB/s) = ns at
// 1e9), saturating like every computed duration (time.h); 0 without a local-memory bandwidth.
inline TimeNs reduce_mem_ns(uint64_t bytes, double local_mem_bw_gbps) {
    if (local_mem_bw_gbps <= 0) return 0;
    const TimeNs one = time_from_ns(static_cast<double>(bytes) / local_mem_bw_gbps);
    return time_add(one, time_add(one, one));
}

} // namespace astrolabe

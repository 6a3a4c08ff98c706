// What a collective node asks of the collective engine. The collectives ASTRA-sim does not implement are
// mapped onto one it does that moves the same bytes in the same number of steps, with that collective's
// configured algorithms (docs/collectives.md). One table for the executor, which issues the request, and
// the ring fast path's check, which must see the same requests the executor would make.
#pragma once

#include "core/system/collectives/phase_algorithm.h"
#include "core/trace/trace_types.h"

#include <cstdint>

namespace astrolabe {

// Sets `type` and `bytes` for a node of `collective` with `node_bytes`; false when the node never reaches
// the engine (a BROADCAST, which ASTRA-sim's analytical front end replays from its duration).
inline bool engine_collective(trace::CollectiveType collective, uint64_t node_bytes, PhaseType& type,
                              uint64_t& bytes) {
    using trace::CollectiveType;
    bytes = node_bytes;
    switch (collective) {
    case CollectiveType::AllReduce:
    case CollectiveType::Reduce: // a reduce-scatter then gather, timed as an ALL_REDUCE
        type = PhaseType::AllReduce;
        return true;
    case CollectiveType::Barrier:
        type = PhaseType::AllReduce;
        bytes = 1; // grows to ASTRA-sim's smallest collective: one byte per NPU per chunk
        return true;
    case CollectiveType::AllGather:
    case CollectiveType::Gather: // timed as an ALL_GATHER of comm_size
    case CollectiveType::Scatter:
        type = PhaseType::AllGather;
        return true;
    case CollectiveType::ReduceScatter:
    case CollectiveType::ReduceScatterBlock: // the graph builder already maps it to REDUCE_SCATTER
        type = PhaseType::ReduceScatter;
        return true;
    case CollectiveType::AllToAll:
        type = PhaseType::AllToAll;
        return true;
    case CollectiveType::Broadcast:
        return false;
    }
    return false;
}

} // namespace astrolabe

// Per-collective timing: a link of its own for every message of one collective.
//
// ASTRA-sim's inputs time a collective's messages on the network's dimensions. A real system described by
// hardware (core/hardware, docs/hardware.md) times each collective the way NCCL runs it: its own algorithm,
// protocol and channels, chosen per operation, size and group. The run then plans such a collective as ONE
// phase over its members, with the algorithm the link was made for, and each of its messages costs
//     floor(latency_ns + bytes / bytes_per_ns)
// on the analytical network, whatever dimension it crosses (the link is the collective's, not the
// network's). Without a CollectiveLinks function every collective keeps its configured plan.
#pragma once

#include "core/config/config_types.h"
#include "core/system/collectives/phase_algorithm.h"

#include <cstdint>
#include <functional>
#include <string>

namespace astrolabe {

struct CollectiveLink {
    double latency_ns = 0;   // per message
    double bytes_per_ns = 0; // > 0
    // The phase's algorithm: the link's latency and bandwidth give the collective's time for this plan.
    config::AlgorithmChoice algorithm;
    std::string note; // what the link stands for, for the report's notes ("" = none)
};

// The link of a collective of `type` moving `bytes` (the engine's request: all-gather counts one member's
// input) over `members` (in ring order). False: the collective keeps the configured plan.
// Must be a pure function of its arguments (deterministic runs; symmetric runs rely on it).
using CollectiveLinks =
    std::function<bool(PhaseType type, uint64_t bytes, const PhaseMembers& members, CollectiveLink& out)>;

} // namespace astrolabe

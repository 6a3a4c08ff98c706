// Rescaling a regular trace set from N to M NPUs along its data-parallel dimension (weak scaling: each
// replica keeps its work and micro-batch; only the number of replicas changes).
//
// The set must be data-parallel in the layout ASTRA-sim generators and STAGE use: rank = dp + D * q, with
// replicas dp = 0..D-1 of every model shard q running the same DAG. D is read from the communicator groups:
// the group holding rank 0 and D - 1 consecutive ranks whose members are each shard's replicas ({qD ..
// qD+D-1}); every other group and every send/recv must stay inside one replica. A set without groups and
// without point-to-point messages whose files are identical is pure data parallel (D = N). Anything else
// is refused with the reason, as is a generated set whose metadata says rank_order tp-first (its groups of
// consecutive ranks are tensor groups). Output rank dp' + D' q copies the trace of rank D q with group ids
// and peers remapped; all-gathers over the data group scale their shard (comm_size x D / D'), other sizes are
// kept.
#pragma once

#include "core/base/status.h"
#include "core/generate/trace_sink.h"
#include "core/trace/trace_types.h"

#include <cstdint>
#include <functional>
#include <string>
#include <utility>
#include <vector>

namespace astrolabe::generate {

struct RankGroups {
    std::vector<std::pair<uint32_t, std::vector<uint32_t>>> groups; // (id, ranks), ids as pg_name numbers
};

// Reads rank r's trace with every attribute kept (trace::ReadOptions::keep_attributes).
using ReadTrace = std::function<Result<trace::Trace>(uint32_t rank)>;

struct RescalePlan {
    uint32_t npus_in = 0, npus_out = 0;
    uint32_t dp_in = 0, dp_out = 0; // data-parallel degree before and after
    uint32_t shards = 0;            // model shards q (N / D)
    std::string describe() const;   // one line for the CLI
};

// Rescales the set of `npus_in` traces to `npus_out`, writing every output rank and the new groups (when
// the input had any) to `sink`. Errors say why the set is not regular enough.
Result<RescalePlan> rescale(uint32_t npus_in, const RankGroups& groups, const ReadTrace& read,
                            uint32_t npus_out, TraceSink& sink);

} // namespace astrolabe::generate

// When a run may take the ring fast path (fast_ring.h) without changing a single result.
//
// The fast path computes each collective's per-member finish times from the members' start times and skips
// the per-packet events, so the order of events inside one ns changes. That order can only matter where
// two things meet: two nodes of one NPU completing in the same ns (the executor issues what each completion
// makes ready, in completion order), or messages of different activities crossing NPUs. So the run must
// show, from the traces alone:
// - every collective is one phase of the ring algorithm (one packet in flight per chunk);
// - no point-to-point send or receive and no remote-memory access (they cross NPUs or share a pool);
// - on every NPU, every collective is ordered against every other node of its trace (an ancestor or a
//   descendant of each), so nothing else of that NPU runs while it does;
// - every member of a communicator group issues the same sequence of collectives on it (type, size,
//   dimensions), so the k-th collective of a group is the same on every member.
// The caller adds what is not in the traces: the analytical network, no symmetry, no custom collectives.
#pragma once

#include "core/config/config_types.h"
#include "core/system/collectives/phase_plan.h"
#include "core/system/scheduling/workload_graph.h"

#include <string>
#include <vector>

namespace astrolabe {

// True when the traces allow the fast path; else `why` names the first thing that does not.
bool fast_ring_applies(const std::vector<WorkloadGraph>& graphs, const GroupTable& groups,
                       const config::SystemConfig& sys, const LogicalTopology& topo, std::string& why);

// Whether node `v` of `g` is an ancestor or a descendant of every other node, for each node of `nodes`
// (all of them ordered: true). Linear in nodes and edges.
bool totally_ordered(const WorkloadGraph& g, const std::vector<uint32_t>& nodes);

} // namespace astrolabe

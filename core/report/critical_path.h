// The critical path of a run: the chain of nodes that set its total time. Starting from the node that
// ends last, each step goes back to what the node waited for:
//   - a dependency: the parent that ended last, when the node started as it ended;
//   - a resource: otherwise the node on the same NPU that ended last before it started (the compute or
//     communication slot it queued for, ASTRA-sim's one-in-flight-per-kind rule);
//   - a peer: a collective ends when its last member joins, so the chain moves to the member NPU whose
//     copy of that collective (the k-th of its group on each NPU) started last; a receive waits for its
//     send, so the chain moves to the matching send (the j-th send to this NPU with that tag) when it
//     started after the receive was posted.
// Built from the timeline records (SimulationInput::keep_timeline), in time order, first node first.
// The peer rule for a whole-system collective over some dimensions only (involved_dim) counts the
// collective among all of the NPU's group-0 collectives: exact when every NPU runs the same sequence.
#pragma once

#include "core/system/scheduling/run_stats.h"
#include "core/system/scheduling/workload_graph.h"

#include <vector>

namespace astrolabe {

enum class CriticalLink : uint8_t {
    Start,      // the first step: nothing before it held it back
    Dependency, // it started when this parent (the previous step) ended
    Resource,   // it queued behind the previous step on the same NPU
    Peer,       // a collective's last member, or the send a receive waited for
};
const char* critical_link_name(CriticalLink l);

struct CriticalStep {
    uint32_t npu = 0;
    uint32_t node = 0; // index in that NPU's graph
    TimeNs start_ns = 0;
    TimeNs end_ns = 0;
    CriticalLink link = CriticalLink::Start; // how it follows the previous step
};

struct CriticalPath {
    std::vector<CriticalStep> steps; // in time order; empty when there is no timeline
    TimeNs end_ns = 0;               // the last step's end: the run's total time
    // Time along the path by what ran; `wait_ns` is time between a step's predecessor's end and its start
    // that no node of the path covers (issue delays, endpoint overheads).
    TimeNs compute_ns = 0, communication_ns = 0, memory_ns = 0, other_ns = 0, wait_ns = 0;
    bool on_path(uint32_t npu, uint32_t node) const;
};

CriticalPath critical_path(const std::vector<WorkloadGraph>& graphs,
                           const std::vector<TimelineRecord>& timeline);

} // namespace astrolabe

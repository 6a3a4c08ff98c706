// When a run may take the ring fast path (fast_ring.h) without changing a single result.
//
// Under the analytical model (fast_ring_applies) the traces must show only that every collective that
// reaches the collective engine is one phase of the ring algorithm (one packet in flight per chunk: a
// communicator group's ring, or a whole-system collective over one dimension), that no NPU issues a
// collective of a group it is not in, and no remote-memory access (memory shared between NPUs, whose
// order the guard does not watch). Sends, receives, compute beside collectives and collectives of several
// groups are the guard's (fast_ring_watch.h): it redoes the run on the event path when a tie shows.
// The caller adds what is not in the traces: the analytical network, no custom collectives, no
// per-collective links.
//
// The congestion model keeps the static proof of the first version: the order of events inside one ns is
// known only when
// - every collective is one phase of the ring algorithm (one packet in flight per chunk);
// - no point-to-point send or receive and no remote-memory access (they cross NPUs or share a pool);
// - on every NPU, every collective is ordered against every other node of its trace (an ancestor or a
//   descendant of each), so nothing else of that NPU runs while it does;
// - every member of a communicator group issues the same sequence of collectives on it (type, size,
//   dimensions), so the k-th collective of a group is the same on every member.
//
// A message's cost depends on what else its links carry, so the run must show in addition:
// - every ring send crosses exactly one link (from its sender to its ring neighbour: Ring and
//   FullyConnected dimensions whose ring neighbours are adjacent; never a Switch, whose up and down links
//   many senders share). So link a -> b carries only NPU a's ring sends to b;
// - at most one active chunk per NPU (active-chunks-per-dimension <= 1). With the total order above,
//   NPU a's sends are then one chain, in an order the recurrence knows: send k + 1 follows send k by at
//   least D_k, the bundle delay after receive k (S_{k+1} = R_k + D_k and R_k >= S_k), and the first send
//   of the next chunk or collective follows the last one by at least D_K.
// Each link is then a FIFO fed by one chain, and the recurrence carries its state (fast_ring.h). When
// every D_1 .. D_K of every collective exceeds the serialisation floor(B / bw) of its messages, each chunk
// frees its link in an earlier ns than the next send: no chunk ever waits (peak queues stay 0) and every
// message costs floor(latency + B / bw), the analytical closed form with that delay (`queues` false).
// Otherwise chunks may wait, and a link's peak queue depends on which of a send and a release in the same
// ns the engine runs first (a send first counts one more waiting chunk). The engine runs same-ns events in
// the order they were scheduled, and an NPU's send at S is an event its bucket scheduled `stage` ns before
// (the last stage of the bundle delay: the reduction when it costs something, else the endpoint delay).
// A release at S of a chunk that went on the wire at its own send was scheduled in that send's event,
// which came before whatever scheduled this send: the release runs first. A release at S of a chunk that
// left the queue at the release before, `ser` ns earlier, was scheduled then: the release runs first when
// stage < ser, the send when stage > ser. So the run must also have
// - an endpoint delay of at least 1 ns (every stage >= 1 ns, each send its own event), and
// - no bundle stage equal to any message's serialisation,
// or it keeps the event path.
#pragma once

#include "core/config/config_types.h"
#include "core/network/congestion_network.h"
#include "core/system/collectives/phase_plan.h"
#include "core/system/scheduling/workload_graph.h"

#include <string>
#include <vector>

namespace astrolabe {

// True when the traces allow the fast path under the analytical model, with the run's guard; else `why`
// names the first thing that does not.
// `max_stage`: the longest single bucket registration of any ring packet (RingTemplate::max_stage), for
// the guard's window (fast_ring_watch.h).
bool fast_ring_applies(const std::vector<WorkloadGraph>& graphs, const GroupTable& groups,
                       const config::SystemConfig& sys, const LogicalTopology& topo, std::string& why,
                       TimeNs* max_stage = nullptr);

// The same under the congestion model `net` (the header comment's further conditions); `queues` says
// whether chunks may wait for links (the recurrence must then keep the links' FIFOs). May create
// FullyConnected links of `net` (asking for routes), which carry nothing until used.
bool fast_ring_congestion_applies(const std::vector<WorkloadGraph>& graphs, const GroupTable& groups,
                                  const config::SystemConfig& sys, const LogicalTopology& topo,
                                  CongestionNetwork& net, bool& queues, std::string& why);

// Whether node `v` of `g` is an ancestor or a descendant of every other node, for each node of `nodes`
// (all of them ordered: true). Linear in nodes and edges.
bool totally_ordered(const WorkloadGraph& g, const std::vector<uint32_t>& nodes);

} // namespace astrolabe

// The congestion-aware network: ASTRA-sim's congestion-aware analytical backend, reproduced to the ns,
// extended to several dimensions (dimension-ordered routes, see link_topology.h).
//
// A message is one chunk that crosses its route link by link, store and forward. Each unidirectional link
// serves whole chunks in FIFO order; a chunk of B bytes on a link of dimension d, started at t,
//     frees the link at      t + floor(B / bw_d)                 (serialisation)
//     reaches the next device t + floor(latency_d + B / bw_d)    (serialisation plus the hop's latency)
// with bw_d in bytes/ns = GB/s * 2^30 / 1e9 and both floors taken in double, as ASTRA-sim does. The
// uncontended cost is hops * (latency + B / bw); concurrent chunks queue behind each other, so no run beats
// its bottleneck link. Events: one arrival per chunk per hop and one "link free" per transmission.
// Memory: the links (see link_topology.h) plus a pooled record per chunk in flight.
#pragma once

#include "core/base/slab.h"
#include "core/engine/engine.h"
#include "core/network/link_fabric.h"
#include "core/network/network_model.h"

#include <vector>

namespace astrolabe {

class CongestionNetwork final : public NetworkModel, public EventTarget {
public:
    CongestionNetwork(const NetworkTopology& topo, Engine& engine);

    void send(uint32_t src, uint32_t dst, uint64_t bytes, const Callback& on_delivered) override;
    const char* name() const override { return "congestion"; }
    std::vector<LinkStats> link_stats() const override { return fabric_.links.stats(fabric_.counters); }
    void on_event(uint32_t kind, uint64_t arg) override;
    void fold_links(NpuFold fold) override { fabric_.links.fold(std::move(fold)); }

    size_t chunks_in_flight() const { return chunks_.in_use(); }

    // For the ring fast path (core/system/scheduling/fast_ring.h), which moves chunks that provably never
    // wait without events. The link a chunk from `src` to `dst` crosses when its route is that one link,
    // else kNoLink.
    static constexpr uint32_t kNoLink = UINT32_MAX;
    uint32_t direct_link(uint32_t src, uint32_t dst);
    // What `transmit` charges a chunk of `bytes` on `link`: floor(B / bw) of link time, and its arrival
    // floor(latency + B / bw) after it starts.
    TimeNs serialisation_ns(uint32_t link, uint64_t bytes) const;
    TimeNs arrival_ns(uint32_t link, uint64_t bytes) const;
    // Counts `chunks` chunks of `bytes` that crossed `link`, as `transmit` would.
    void count_transmitted(uint32_t link, uint64_t bytes, uint64_t chunks);
    // `waiting` chunks wait behind the one on `link` (its peak queue, as `forward` keeps it).
    void note_waiting(uint32_t link, uint64_t waiting) {
        LinkCounters& c = fabric_.counters[link];
        if (waiting > c.peak_queue) c.peak_queue = waiting;
    }

private:
    static constexpr uint32_t kNone = UINT32_MAX;
    enum Kind : uint32_t { kArrive = 1, kLinkFree = 2 };
    struct Chunk {
        RoutePosition pos; // where the chunk is, or will be once its current hop ends
        uint32_t dst = 0;
        uint32_t next = kNone; // next chunk waiting on the same link
        uint64_t bytes = 0;
        Callback on_delivered;
    };
    struct Link {
        uint32_t head = kNone, tail = kNone; // waiting chunks, FIFO
        uint32_t waiting = 0;
        bool busy = false;
    };

    void forward(uint32_t chunk);
    void transmit(uint32_t link, uint32_t chunk);
    void grow_links();

    LinkFabric fabric_;
    Engine& engine_;
    std::vector<Link> state_; // per link
    Slab<Chunk> chunks_;
};

} // namespace astrolabe

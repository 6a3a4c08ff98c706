#include "core/network/congestion_network.h"

#include "core/base/assert.h"

namespace astrolabe {

CongestionNetwork::CongestionNetwork(const NetworkTopology& topo, Engine& engine)
    : fabric_(topo), engine_(engine) {
    grow_links();
}

void CongestionNetwork::grow_links() {
    // FullyConnected links appear on first use; their state follows.
    fabric_.grow();
    state_.resize(fabric_.links.links());
}

void CongestionNetwork::send(uint32_t src, uint32_t dst, uint64_t bytes, const Callback& on_delivered) {
    if (begin_send(src, dst, bytes, engine_, on_delivered)) return;
    uint32_t c = chunks_.acquire();
    Chunk& ch = chunks_[c];
    ch.pos = {src, -1};
    ch.dst = dst;
    ch.next = kNone;
    ch.bytes = bytes;
    ch.on_delivered = on_delivered;
    forward(c);
}

void CongestionNetwork::forward(uint32_t c) {
    Chunk& ch = chunks_[c];
    RoutePosition after;
    uint32_t l = fabric_.links.next_hop(ch.pos, ch.dst, after);
    if (l >= state_.size()) grow_links();
    ch.pos = after;
    Link& link = state_[l];
    if (!link.busy) {
        transmit(l, c);
        return;
    }
    ch.next = kNone;
    if (link.tail == kNone)
        link.head = c;
    else
        chunks_[link.tail].next = c;
    link.tail = c;
    ++link.waiting;
    if (link.waiting > fabric_.counters[l].peak_queue) fabric_.counters[l].peak_queue = link.waiting;
}

void CongestionNetwork::transmit(uint32_t l, uint32_t c) {
    Link& link = state_[l];
    SIM_ASSERT(!link.busy, "a chunk was put on a busy link");
    link.busy = true;
    const Chunk& ch = chunks_[c];
    const TimeNs ser_ns = serialisation_ns(l, ch.bytes), arrive_ns = arrival_ns(l, ch.bytes);
    fabric_.counters[l].bytes += ch.bytes;
    fabric_.counters[l].busy_ns += ser_ns;
    // Arrival first, then the link's release: ASTRA-sim's order for events of equal time.
    engine_.schedule_in(arrive_ns, Callback{this, kArrive, c});
    engine_.schedule_in(ser_ns, Callback{this, kLinkFree, l});
}

TimeNs CongestionNetwork::serialisation_ns(uint32_t l, uint64_t bytes) const {
    return time_from_ns(static_cast<double>(bytes) / fabric_.bytes_per_ns_of(l));
}

TimeNs CongestionNetwork::arrival_ns(uint32_t l, uint64_t bytes) const {
    // In double, as ASTRA-sim: latency + B / bw, floored once (not latency + floor(B / bw)).
    double ser = static_cast<double>(bytes) / fabric_.bytes_per_ns_of(l);
    return time_from_ns(fabric_.latency_ns_of(l) + ser);
}

uint32_t CongestionNetwork::direct_link(uint32_t src, uint32_t dst) {
    if (src == dst) return kNoLink;
    RoutePosition after;
    uint32_t l = fabric_.links.next_hop(RoutePosition{src, -1}, dst, after);
    if (l >= state_.size()) grow_links();
    return LinkTopology::arrived(after, dst) ? l : kNoLink;
}

void CongestionNetwork::count_transmitted(uint32_t l, uint64_t bytes, uint64_t chunks) {
    fabric_.counters[l].bytes += bytes * chunks;
    fabric_.counters[l].busy_ns += serialisation_ns(l, bytes) * chunks;
}

void CongestionNetwork::on_event(uint32_t kind, uint64_t arg) {
    auto i = static_cast<uint32_t>(arg);
    if (kind == kLinkFree) {
        Link& link = state_[i];
        link.busy = false;
        if (link.head != kNone) {
            uint32_t c = link.head;
            link.head = chunks_[c].next;
            if (link.head == kNone) link.tail = kNone;
            --link.waiting;
            transmit(i, c);
        }
        return;
    }
    SIM_ASSERT(kind == kArrive, "unknown congestion-network event");
    Chunk& ch = chunks_[i];
    if (!LinkTopology::arrived(ch.pos, ch.dst)) {
        forward(i);
        return;
    }
    Callback cb = ch.on_delivered;
    chunks_.release(i);
    cb.invoke();
}

} // namespace astrolabe

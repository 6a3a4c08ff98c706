#include "core/system/scheduling/p2p_matcher.h"

#include "core/base/assert.h"

namespace astrolabe {

uint32_t P2PMatcher::channel_for(const MessageKey& key) {
    uint64_t hash = MessageKeyHash{}(key);
    uint32_t found = index_.find(hash, [&](uint32_t c) { return pool_[c].key == key; });
    if (found != HashIndex::kNone) return found;
    uint32_t c = pool_.acquire();
    Channel& ch = pool_[c];
    ch.key = key;
    ch.hash = hash;
    ch.sends = ch.recvs = ch.base = 0;
    ch.holders = 0;
    ch.head = 0;
    ch.entries.clear(); // keeps its capacity
    index_.insert(hash, c);
    return c;
}

P2PMatcher::Entry& P2PMatcher::entry(Channel& c, uint64_t occurrence) {
    while (c.base + (c.entries.size() - c.head) <= occurrence)
        c.entries.emplace_back();
    return c.entries[c.head + (occurrence - c.base)];
}

void P2PMatcher::retire(uint32_t channel, uint64_t occurrence) {
    Channel& c = pool_[channel];
    c.entries[c.head + (occurrence - c.base)].done = true;
    while (c.head < c.entries.size() && c.entries[c.head].done) {
        ++c.head;
        ++c.base;
    }
    if (c.head == c.entries.size()) {
        c.entries.clear();
        c.head = 0;
        forget_if_drained(channel);
    }
}

void P2PMatcher::forget_if_drained(uint32_t channel) {
    Channel& c = pool_[channel];
    // A drained channel is forgotten so memory tracks messages in flight, not messages ever sent.
    if (c.holders == 0 && c.entries.empty() && c.sends == c.recvs) {
        index_.erase(c.hash, channel);
        pool_.release(channel);
    }
}

MessageKey P2PMatcher::filed(const MessageKey& key) const {
    MessageKey f = key;
    if (symmetry_ && !symmetry_->is_representative(key.dst)) {
        // dst = representative moved by h; by symmetry, (src - h) sends the same to the representative.
        f.src = symmetry_->shift(key.src, key.dst, true);
        f.dst = symmetry_->shift(key.dst, key.dst, true);
    }
    return f;
}

uint32_t P2PMatcher::hold_send(const MessageKey& key) {
    uint32_t ch = channel_for(filed(key));
    ++pool_[ch].holders;
    return ch;
}

uint32_t P2PMatcher::hold_recv(const MessageKey& key) {
    uint32_t ch = channel_for(key);
    ++pool_[ch].holders;
    return ch;
}

void P2PMatcher::let_go(uint32_t channel) {
    SIM_ASSERT(pool_[channel].holders > 0, "a P2P channel let go more often than held");
    --pool_[channel].holders;
    forget_if_drained(channel);
}

void P2PMatcher::send(const MessageKey& key, const Callback& on_sent, const CollectiveLink* link) {
    send_on(channel_for(filed(key)), key, on_sent, link);
}

void P2PMatcher::send_on(uint32_t ch, const MessageKey& key, const Callback& on_sent,
                         const CollectiveLink* link, const TimeNs* known_delay) {
    Channel& c = pool_[ch];
    uint64_t k = c.sends++;
    Entry& e = entry(c, k);
    e.send_cb = on_sent;
    e.has_send = true;
    uint32_t slot = in_flight_.acquire();
    in_flight_[slot] = {ch, k};
    if (known_delay)
        network_.send_after(key.bytes, *known_delay, Callback{this, 0, slot});
    else if (link)
        network_.send_on_link(key.src, key.dst, key.bytes, link->latency_ns, link->bytes_per_ns,
                              Callback{this, 0, slot});
    else
        network_.send(key.src, key.dst, key.bytes, Callback{this, 0, slot});
}

void P2PMatcher::recv(const MessageKey& key, const Callback& on_received) {
    recv_on(channel_for(key), on_received);
}

void P2PMatcher::recv_on(uint32_t ch, const Callback& on_received) {
    Channel& c = pool_[ch];
    uint64_t k = c.recvs++;
    Entry& e = entry(c, k);
    if (e.arrived) {
        // The message is already here: the receive completes now, as a new event at this tick.
        engine_.schedule_in(0, on_received);
        retire(ch, k);
        return;
    }
    e.recv_cb = on_received;
    e.has_recv = true;
}

void P2PMatcher::on_event(uint32_t, uint64_t arg) {
    auto slot = static_cast<uint32_t>(arg);
    InFlight f = in_flight_[slot];
    in_flight_.release(slot);
    Entry& e = entry(pool_[f.channel], f.occurrence);
    SIM_ASSERT(e.has_send && !e.arrived, "a message was delivered twice");
    e.arrived = true;
    Callback send_cb = e.send_cb, recv_cb = e.recv_cb;
    bool matched = e.has_recv;
    if (matched) retire(f.channel, f.occurrence); // before the callbacks, which may send on this key again
    if (send_cb) send_cb.invoke();
    if (matched) recv_cb.invoke();
}

std::vector<UnmatchedMessage> P2PMatcher::unmatched() const {
    std::vector<UnmatchedMessage> out;
    // Pool order, not hash order: the stuck-node report must not depend on the index's layout. Free
    // channels are skipped by their cleared entry buffers.
    for (const Channel& c : pool_.all()) {
        for (size_t i = c.head; i < c.entries.size(); ++i) {
            const Entry& e = c.entries[i];
            if (!e.done && (e.has_recv || e.arrived)) out.push_back({c.key, e.arrived, e.has_recv});
        }
    }
    return out;
}

} // namespace astrolabe

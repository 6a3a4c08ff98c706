#include "core/system/scheduling/p2p_matcher.h"

#include "core/base/assert.h"

namespace astrolabe {

P2PMatcher::Entry& P2PMatcher::entry(Channel& c, uint64_t occurrence) {
    while (c.base + c.entries.size() <= occurrence)
        c.entries.emplace_back();
    return c.entries[occurrence - c.base];
}

void P2PMatcher::retire(ChannelMap::value_type* kv, uint64_t occurrence) {
    Channel& c = kv->second;
    c.entries[occurrence - c.base].done = true;
    while (!c.entries.empty() && c.entries.front().done) {
        c.entries.pop_front();
        ++c.base;
    }
    // A drained channel is forgotten so memory tracks messages in flight, not messages ever sent.
    if (c.entries.empty() && c.sends == c.recvs) {
        MessageKey key = kv->first; // a copy: erasing destroys the element's own key
        channels_.erase(key);
    }
}

void P2PMatcher::send(const MessageKey& key, const Callback& on_sent) {
    auto it = channels_.try_emplace(key).first;
    Channel& c = it->second;
    uint64_t k = c.sends++;
    Entry& e = entry(c, k);
    e.send_cb = on_sent;
    e.has_send = true;
    uint32_t slot;
    if (free_in_flight_.empty()) {
        slot = static_cast<uint32_t>(in_flight_.size());
        in_flight_.emplace_back();
    } else {
        slot = free_in_flight_.back();
        free_in_flight_.pop_back();
    }
    in_flight_[slot] = {&*it, k};
    network_.send(key.src, key.dst, key.bytes, Callback{this, 0, slot});
}

void P2PMatcher::recv(const MessageKey& key, const Callback& on_received) {
    auto it = channels_.try_emplace(key).first;
    Channel& c = it->second;
    uint64_t k = c.recvs++;
    Entry& e = entry(c, k);
    if (e.arrived) {
        // The message is already here: the receive completes now, as a new event at this tick.
        engine_.schedule_in(0, on_received);
        retire(&*it, k);
        return;
    }
    e.recv_cb = on_received;
    e.has_recv = true;
}

void P2PMatcher::on_event(uint32_t, uint64_t arg) {
    auto slot = static_cast<uint32_t>(arg);
    InFlight f = in_flight_[slot];
    free_in_flight_.push_back(slot);
    Entry& e = entry(f.channel->second, f.occurrence);
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
    for (const auto& kv : channels_)
        for (const Entry& e : kv.second.entries)
            if (!e.done && (e.has_recv || e.arrived)) out.push_back({kv.first, e.arrived, e.has_recv});
    return out;
}

} // namespace astrolabe

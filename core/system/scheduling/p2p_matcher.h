// Matching sends with receives, as ASTRA-sim's analytical front end does, for workload send/recv nodes and
// for the packets inside collectives.
//
// A message is keyed by (space, tag, src, dst, bytes); the k-th send and the k-th receive of a key match.
// A send starts moving at once (it never waits for its receive) and its callback runs at delivery. A
// receive completes at delivery if it was posted first, else at the tick it is posted (through a
// zero-delay event, as in ASTRA-sim). Sizes must agree exactly: a mismatched pair never matches and shows
// up in the stuck-node report. `space` keeps workload tags apart from collective stream tags.
#pragma once

#include "core/base/hash_index.h"
#include "core/base/hash_mix.h"
#include "core/base/slab.h"
#include "core/engine/engine.h"
#include "core/network/network_model.h"
#include "core/system/collectives/collective_link.h"
#include "core/system/scheduling/symmetry.h"
#include "core/trace/trace_types.h"

#include <cstdint>
#include <vector>

namespace astrolabe {

enum class MessageSpace : uint8_t { Workload = 0, Collective = 1 };

using trace::workload_tag;

struct MessageKey {
    MessageSpace space = MessageSpace::Workload;
    uint64_t tag = 0;
    uint32_t src = 0;
    uint32_t dst = 0;
    uint64_t bytes = 0;
    bool operator==(const MessageKey& o) const {
        return space == o.space && tag == o.tag && src == o.src && dst == o.dst && bytes == o.bytes;
    }
};

struct MessageKeyHash {
    size_t operator()(const MessageKey& k) const {
        uint64_t h = k.tag * 0x9E3779B97F4A7C15ull ^ (uint64_t(k.src) << 32 | k.dst) * 0xC2B2AE3D27D4EB4Full;
        h ^= (k.bytes + static_cast<uint64_t>(k.space)) * 0x165667B19E3779F9ull;
        // A full avalanche: the index masks the low bits, which the products above leave poorly mixed
        // for keys that differ only in high bits of the tag.
        return static_cast<size_t>(mix64(h));
    }
};

// A message still unmatched when a run ends, for the stuck-node report.
struct UnmatchedMessage {
    MessageKey key;
    bool send_posted = false; // a send with this key was issued (and delivered)
    bool recv_posted = false; // a receive is waiting
};

class P2PMatcher final : public EventTarget {
public:
    P2PMatcher(Engine& engine, NetworkModel& network) : engine_(engine), network_(network) {}

    // A run of representatives (symmetry.h): a message to an NPU that is not simulated is filed as the
    // message its representative receives from the sender's image, arriving at the same ns.
    void set_symmetry(const RankSymmetry* symmetry) { symmetry_ = symmetry; }

    // `link`: the message takes that link instead of the network's dimensions (collective_link.h).
    void send(const MessageKey& key, const Callback& on_sent, const CollectiveLink* link = nullptr);
    void recv(const MessageKey& key, const Callback& on_received);

    // Held channels, for a party that uses one key for many messages (a collective stream's ring phase
    // sends every packet to one peer with one size): it looks the channel up once (hold_send files the key
    // as send() does) and then sends or receives on it without a hash lookup per message. A held channel
    // stays while held, even drained; let_go() forgets it once it is drained and no one holds it. Matching
    // and event order are exactly those of send() and recv().
    static constexpr uint32_t kNoChannel = UINT32_MAX;
    uint32_t hold_send(const MessageKey& key);
    uint32_t hold_recv(const MessageKey& key);
    void let_go(uint32_t channel);
    // `key`: the message as sent (not as filed), for the network. `known_delay`: the network's
    // fixed_delay() for it, remembered by the caller, or null (then the network computes it).
    void send_on(uint32_t channel, const MessageKey& key, const Callback& on_sent, const CollectiveLink* link,
                 const TimeNs* known_delay = nullptr);
    NetworkModel& network() { return network_; }
    void recv_on(uint32_t channel, const Callback& on_received);

    void on_event(uint32_t kind, uint64_t arg) override;

    std::vector<UnmatchedMessage> unmatched() const;
    size_t open_channels() const { return index_.size(); }

private:
    struct Entry {
        Callback send_cb, recv_cb;
        bool has_send = false, has_recv = false, arrived = false, done = false;
    };
    // Channels are pooled and reused with their entry buffers, and the index is open-addressed, so steady
    // traffic allocates nothing even though every collective stream has its own tag, hence its own keys.
    struct Channel {
        MessageKey key;
        uint64_t hash = 0;
        uint64_t sends = 0, recvs = 0; // occurrence counters: the k-th send matches the k-th receive
        uint32_t holders = 0;          // hold_send/hold_recv calls not yet let go
        uint64_t base = 0;             // occurrence index of entries[head]
        size_t head = 0;               // entries before head are retired
        std::vector<Entry> entries;
    };
    struct InFlight {
        uint32_t channel = 0;
        uint64_t occurrence = 0;
    };

    uint32_t channel_for(const MessageKey& key);
    MessageKey filed(const MessageKey& key) const;
    void forget_if_drained(uint32_t channel);
    Entry& entry(Channel& c, uint64_t occurrence);
    void retire(uint32_t channel, uint64_t occurrence);

    Engine& engine_;
    NetworkModel& network_;
    const RankSymmetry* symmetry_ = nullptr;
    HashIndex index_; // key -> channel in pool_
    Slab<Channel> pool_;
    Slab<InFlight> in_flight_;
};

} // namespace astrolabe

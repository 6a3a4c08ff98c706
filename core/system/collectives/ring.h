// Ring and Direct collective phases (ASTRA-sim's `ring` and `direct` algorithms), per NPU.
//
// Ring: every message goes to the next member and is received from the previous one. Per phase an NPU sends
//   ALL_REDUCE 2(N-1), REDUCE_SCATTER and ALL_GATHER N-1, ALL_TO_ALL N(N-1)/2 messages, one at a time.
// Direct: the same bookkeeping with P = N-1 packets in flight (or K for directK), rotating over every peer,
//   so an NPU talks to all peers at once; ALL_REDUCE is a direct reduce-scatter then a direct all-gather.
// Message size: ALL_GATHER sends its whole input per message; the others send input/N (integer division).
// Each packet handled costs one bundle (the endpoint delay); a received packet that must be reduced (the
// first round of ALL_REDUCE, every REDUCE_SCATTER packet) also pays the local-memory cost. The counters
// (rounds of "zero-latency" and "non-zero-latency" packets, free packets) follow ASTRA-sim's so that every
// packet leaves at the same ns as there. See docs/research/astra-collectives-ring-direct.md.
#pragma once

#include "core/system/collectives/phase_algorithm.h"

#include "core/base/fifo.h"

namespace astrolabe {

class RingPhase final : public PhaseAlgorithm {
public:
    // `direct` selects Direct; `window` limits its packets in flight (directK), -1 = all N-1 peers.
    // `clockwise`: send to the next member, receive from the previous one (else the other way round).
    RingPhase(PhaseType type, uint64_t data_size, const PhaseMembers& members, uint32_t my_index, bool direct,
              int window = -1, bool clockwise = true);
    // No phase yet: restart() makes it one (a collective stream keeps one inside its record).
    RingPhase() = default;
    // The same phase as a fresh object, in this one (a collective engine reuses a stream's ring phase
    // from chunk to chunk instead of allocating one per phase).
    void restart(PhaseType type, uint64_t data_size, const PhaseMembers& members, uint32_t my_index,
                 bool direct, int window, bool clockwise);
    RingPhase* as_ring() override { return this; }

    void on_start(PhaseActions& act) override;
    void on_packet_received(PhaseActions& act) override;
    void on_bundle_done(PhaseActions& act) override;
    uint64_t final_data_size() const override { return final_size_; }
    uint64_t message_size() const { return msg_size_; }

private:
    struct Packet {
        uint32_t dst, src; // member indices
    };
    void insert_packet(PhaseActions& act);
    void ready(PhaseActions& act);
    void iteratable(PhaseActions& act);
    uint32_t step(uint32_t index, int delta) const;

    PhaseType type_ = PhaseType::AllReduce;
    PhaseMembers members_;
    uint32_t n_ = 0;
    uint32_t me_ = 0;
    bool direct_ = false;
    int dir_ = 1;                    // +1 clockwise, -1 anticlockwise
    uint32_t parallel_ = 0;          // P: packets in flight
    uint32_t nonzero_per_round_ = 0; // "non-zero-latency" packets per round
    uint32_t middle_point_ = 0;      // N-1
    uint64_t msg_size_ = 0;
    uint64_t final_size_ = 0;
    uint32_t stream_count_ = 0; // messages still to send
    uint32_t free_packets_ = 0;
    uint32_t zero_ = 0, nonzero_ = 0;
    bool toggle_ = false;
    uint32_t received_ = 0;
    uint32_t receiver_ = 0, sender_ = 0; // member indices of the next peers
    // Ring (not Direct) always has the same peers, so its queued packets are only counted, and their NPU
    // ids are computed once per phase: the hot path touches no deque and no member list.
    uint32_t ring_queued_ = 0;
    uint32_t receiver_npu_ = 0, sender_npu_ = 0;
    Fifo<Packet> packets_; // Direct's queued packets
    bool finished_ = false;
};

} // namespace astrolabe

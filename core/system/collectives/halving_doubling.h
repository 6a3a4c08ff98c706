// halvingDoubling collective phases (ASTRA-sim's `halvingDoubling`), per NPU.
//
// Recursive halving and doubling over a power-of-two ring of N = 2^k members; at each step an NPU exchanges
// one message with the member `offset` ring positions away (idx XOR offset):
//   REDUCE_SCATTER  k steps, offsets 1, 2, .., N/2, messages data/2, data/4, .., data/N
//   ALL_GATHER      k steps, offsets N/2, .., 1, messages data, 2 data, .., data N/2
//   ALL_REDUCE      the reduce-scatter steps, then the same steps mirrored (2k messages)
// Packet bookkeeping follows ASTRA-sim (one "zero-latency" packet then k-1 others per round, a bundle per
// packet, the reduction cost charged on the size of the message about to be sent), so every message leaves
// at the same ns as there. See docs/research/astra-collectives-hd-dbt.md. There is no all-to-all.
#pragma once

#include "core/system/collectives/phase_algorithm.h"

#include "core/base/fifo.h"

namespace astrolabe {

class HalvingDoublingPhase final : public PhaseAlgorithm {
public:
    // `type` must not be AllToAll; `members.size` must be a power of two.
    HalvingDoublingPhase(PhaseType type, uint64_t data_size, const PhaseMembers& members, uint32_t my_index);

    void on_start(PhaseActions& act) override;
    void on_packet_received(PhaseActions& act) override;
    void on_bundle_done(PhaseActions& act) override;
    uint64_t final_data_size() const override { return final_size_; }

private:
    struct Packet {
        uint32_t peer; // member index
        uint64_t bytes;
    };
    void insert_packet(PhaseActions& act);
    uint32_t peer() const;

    PhaseType type_;
    PhaseMembers members_;
    uint32_t n_;
    uint32_t me_;
    uint32_t stream_count_;      // messages still to send
    uint32_t nonzero_per_round_; // log2(N) - 1
    uint64_t msg_size_;
    uint64_t final_size_;
    int64_t rank_offset_;
    double multiplier_;
    uint32_t free_packets_ = 0;
    uint32_t zero_ = 0, nonzero_ = 0;
    bool toggle_ = false;
    Fifo<Packet> packets_;
    bool finished_ = false;
};

} // namespace astrolabe

#include "core/system/collectives/halving_doubling.h"

#include "core/base/assert.h"

#include <cmath>

namespace astrolabe {

HalvingDoublingPhase::HalvingDoublingPhase(PhaseType type, uint64_t data_size, const PhaseMembers& members,
                                           uint32_t my_index)
    : type_(type), members_(members), n_(members.size), me_(my_index) {
    SIM_ASSERT(n_ >= 2 && (n_ & (n_ - 1)) == 0, "halvingDoubling needs a power-of-two number of members");
    SIM_ASSERT(type_ != PhaseType::AllToAll, "halvingDoubling has no all-to-all");
    double k = std::log2(static_cast<double>(n_));
    nonzero_per_round_ = static_cast<uint32_t>(k - 1);
    switch (type_) {
    case PhaseType::AllReduce:
        stream_count_ = static_cast<uint32_t>(2 * k);
        msg_size_ = data_size / 2;
        rank_offset_ = 1;
        multiplier_ = 2.0;
        final_size_ = data_size;
        break;
    case PhaseType::ReduceScatter:
        stream_count_ = static_cast<uint32_t>(k);
        msg_size_ = data_size / 2;
        rank_offset_ = 1;
        multiplier_ = 2.0;
        final_size_ = data_size / n_;
        break;
    default: // AllGather
        stream_count_ = static_cast<uint32_t>(k);
        msg_size_ = data_size;
        rank_offset_ = n_ / 2;
        multiplier_ = 0.5;
        final_size_ = data_size * n_;
        break;
    }
}

uint32_t HalvingDoublingPhase::peer() const {
    // Walk rank_offset positions clockwise when (idx / offset) is even, else anticlockwise: idx XOR offset.
    auto off = static_cast<int64_t>(rank_offset_ % n_);
    bool clockwise = rank_offset_ == 0 || (me_ / rank_offset_) % 2 == 0;
    int64_t idx = clockwise ? int64_t(me_) + off : int64_t(me_) - off;
    return static_cast<uint32_t>(((idx % n_) + n_) % n_);
}

void HalvingDoublingPhase::on_start(PhaseActions& act) {
    insert_packet(act);
}

void HalvingDoublingPhase::on_packet_received(PhaseActions& act) {
    insert_packet(act);
}

void HalvingDoublingPhase::on_bundle_done(PhaseActions& act) {
    ++free_packets_;
    if (!packets_.empty() && stream_count_ > 0 && free_packets_ > 0) {
        Packet p = packets_.front();
        packets_.pop_front();
        act.send(members_.npu(p.peer), p.bytes);
        act.post_recv(members_.npu(p.peer), p.bytes);
        --stream_count_;
        --free_packets_;
    }
    if (!finished_ && stream_count_ == 0 && free_packets_ == 1) {
        finished_ = true;
        packets_.clear();
        act.finish_phase();
    }
}

void HalvingDoublingPhase::insert_packet(PhaseActions& act) {
    if (zero_ == 0 && nonzero_ == 0) {
        zero_ = 1;
        nonzero_ = nonzero_per_round_;
        toggle_ = !toggle_;
    }
    bool processed;
    if (zero_ > 0) {
        processed = false;
        --zero_;
    } else {
        processed = type_ == PhaseType::ReduceScatter || (type_ == PhaseType::AllReduce && toggle_);
        --nonzero_;
    }
    packets_.push_back({peer(), msg_size_});
    // The bundle carries the message just created (the next to send), so the reduction is charged on it.
    act.release_bundle(processed, msg_size_);
    rank_offset_ = static_cast<int64_t>(static_cast<double>(rank_offset_) * multiplier_);
    msg_size_ = static_cast<uint64_t>(static_cast<double>(msg_size_) / multiplier_);
    if (type_ == PhaseType::AllReduce && rank_offset_ == n_) {
        // Turning point: the all-gather half retraces the reduce-scatter steps.
        multiplier_ = 0.5;
        rank_offset_ = static_cast<int64_t>(static_cast<double>(rank_offset_) * multiplier_);
        msg_size_ = static_cast<uint64_t>(static_cast<double>(msg_size_) / multiplier_);
    }
}

} // namespace astrolabe

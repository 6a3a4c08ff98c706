#include "core/system/collectives/ring.h"

#include "core/base/assert.h"

namespace astrolabe {

const char* phase_type_name(PhaseType t) {
    switch (t) {
    case PhaseType::AllReduce:
        return "ALL_REDUCE";
    case PhaseType::AllGather:
        return "ALL_GATHER";
    case PhaseType::ReduceScatter:
        return "REDUCE_SCATTER";
    case PhaseType::AllToAll:
        return "ALL_TO_ALL";
    }
    return "?";
}

RingPhase::RingPhase(PhaseType type, uint64_t data_size, const PhaseMembers& members, uint32_t my_index,
                     bool direct, int window, bool clockwise) {
    restart(type, data_size, members, my_index, direct, window, clockwise);
}

void RingPhase::restart(PhaseType type, uint64_t data_size, const PhaseMembers& members, uint32_t my_index,
                        bool direct, int window, bool clockwise) {
    type_ = type;
    members_ = members;
    n_ = members.size;
    me_ = my_index;
    direct_ = direct;
    dir_ = clockwise ? 1 : -1;
    SIM_ASSERT(n_ >= 2, "a ring phase needs at least two members");
    switch (type_) {
    case PhaseType::AllReduce:
        stream_count_ = 2 * (n_ - 1);
        msg_size_ = data_size / n_;
        final_size_ = data_size;
        break;
    case PhaseType::AllGather:
        stream_count_ = n_ - 1;
        msg_size_ = data_size;
        final_size_ = data_size * n_;
        break;
    case PhaseType::ReduceScatter:
        stream_count_ = n_ - 1;
        msg_size_ = data_size / n_;
        final_size_ = data_size / n_;
        break;
    case PhaseType::AllToAll:
        stream_count_ = direct_ ? n_ - 1 : n_ * (n_ - 1) / 2;
        msg_size_ = data_size / n_;
        final_size_ = data_size;
        break;
    }
    if (direct_) {
        parallel_ =
            (window > 0 && static_cast<uint32_t>(window) < n_ - 1) ? static_cast<uint32_t>(window) : n_ - 1;
        nonzero_per_round_ = parallel_;
    } else {
        parallel_ = 1;
        nonzero_per_round_ = n_ - 1;
    }
    middle_point_ = n_ - 1;
    free_packets_ = 0;
    zero_ = nonzero_ = 0;
    toggle_ = false;
    received_ = 0;
    receiver_ = step(me_, dir_);
    sender_ = step(me_, -dir_);
    receiver_npu_ = members_.npu(receiver_);
    sender_npu_ = members_.npu(sender_);
    ring_queued_ = 0;
    packets_.clear(); // keeps the capacity: a reused phase allocates nothing
    finished_ = false;
}

uint32_t RingPhase::step(uint32_t index, int delta) const {
    return static_cast<uint32_t>((static_cast<int64_t>(index) + delta + n_) % n_);
}

void RingPhase::on_start(PhaseActions& act) {
    for (uint32_t i = 0; i < parallel_; ++i)
        insert_packet(act);
}

void RingPhase::on_packet_received(PhaseActions& act) {
    ++received_;
    insert_packet(act);
}

void RingPhase::on_bundle_done(PhaseActions& act) {
    ++free_packets_;
    if (direct_ && type_ == PhaseType::AllReduce && stream_count_ <= middle_point_) {
        // Second half of a direct all-reduce: wait until every reduce-scatter piece has arrived, then send
        // the whole all-gather burst at once.
        if (received_ < middle_point_) return;
        for (uint32_t i = 0; i < parallel_; ++i)
            ready(act);
    } else {
        ready(act);
    }
    iteratable(act);
}

void RingPhase::insert_packet(PhaseActions& act) {
    if (zero_ == 0 && nonzero_ == 0) {
        zero_ = parallel_;
        nonzero_ = nonzero_per_round_;
        toggle_ = !toggle_;
    }
    bool processed;
    if (zero_ > 0) {
        processed = false; // the packets that open a round carry nothing to reduce
        --zero_;
    } else {
        processed = type_ == PhaseType::ReduceScatter || (type_ == PhaseType::AllReduce && toggle_);
        --nonzero_;
    }
    if (direct_)
        packets_.push_back({receiver_, sender_});
    else
        ++ring_queued_;
    act.release_bundle(processed, msg_size_);
    if (direct_) {
        // Direct rotates over all peers: next receiver one further, next sender one further back.
        receiver_ = step(receiver_, dir_);
        if (receiver_ == me_) receiver_ = step(receiver_, dir_);
        sender_ = step(sender_, -dir_);
        if (sender_ == me_) sender_ = step(sender_, -dir_);
    }
}

void RingPhase::ready(PhaseActions& act) {
    if ((direct_ ? packets_.empty() : ring_queued_ == 0) || stream_count_ == 0 || free_packets_ == 0) return;
    if (direct_) {
        Packet p = packets_.front();
        packets_.pop_front();
        act.send(members_.npu(p.dst), msg_size_);
        act.post_recv(members_.npu(p.src), msg_size_);
    } else {
        --ring_queued_;
        act.send(receiver_npu_, msg_size_);
        act.post_recv(sender_npu_, msg_size_);
    }
    --stream_count_;
    --free_packets_;
}

void RingPhase::iteratable(PhaseActions& act) {
    if (!finished_ && stream_count_ == 0 && free_packets_ == parallel_) {
        finished_ = true;
        ring_queued_ = 0;
        packets_.clear();
        act.finish_phase();
    }
}

} // namespace astrolabe

// doubleBinaryTree collective phases (ASTRA-sim's `doubleBinaryTree`), per NPU.
//
// Two binary trees over the N = 2^m members of a dimension, numbered in order with a one-child root on
// top: in the MAX tree the root is member N-1 and the leaves are the even members; in the MIN tree the root
// is member 0 and the leaves are the odd ones, so every NPU is a leaf in one tree and inside the other.
// Whole chunks alternate between the trees. On its tree a chunk is all-reduced: leaves send up, inner
// nodes reduce both children then send up, the root reduces and broadcasts, each node passing the result
// down. Every message is the whole chunk. ASTRA-sim runs this all-reduce whatever collective it is listed
// for (reduce-scatter, all-gather and all-to-all included), and so do we. Roots and inner nodes finish as
// soon as they have sent down; leaves finish last. See docs/research/astra-collectives-hd-dbt.md.
#pragma once

#include "core/system/collectives/phase_algorithm.h"

namespace astrolabe {

// Where one member sits in one of the two trees (member indices; -1 = none).
struct TreePosition {
    int32_t parent = -1;
    int32_t left = -1;
    int32_t right = -1; // the root's single child is in `left`
};
TreePosition tree_position(uint32_t n, uint32_t member, bool min_tree);

class DoubleBinaryTreePhase final : public PhaseAlgorithm {
public:
    // `members.size` must be a power of two; `min_tree` picks the tree this chunk runs on.
    DoubleBinaryTreePhase(uint64_t data_size, const PhaseMembers& members, uint32_t my_index, bool min_tree);

    void on_start(PhaseActions& act) override { run(Input::Start, act); }
    void on_packet_received(PhaseActions& act) override { run(Input::Packet, act); }
    void on_bundle_done(PhaseActions& act) override { run(Input::Bundle, act); }
    uint64_t final_data_size() const override { return size_; }

private:
    enum class Input : uint8_t { Start, Packet, Bundle };
    enum class State : uint8_t { Begin, Wait2, Wait1, SendUp, WaitParent, SendDown, End, Done };
    void run(Input in, PhaseActions& act);
    uint32_t npu(int32_t member) const { return members_.npu(static_cast<uint32_t>(member)); }

    PhaseMembers members_;
    uint64_t size_;
    TreePosition pos_;
    State state_ = State::Begin;
    uint32_t reductions_ = 0;
};

} // namespace astrolabe

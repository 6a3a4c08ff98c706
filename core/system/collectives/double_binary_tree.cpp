#include "core/system/collectives/double_binary_tree.h"

#include "core/base/assert.h"

namespace astrolabe {

namespace {
// In-order numbered complete binary tree over member indices [lo, hi]: its root is the middle one.
void place(int32_t lo, int32_t hi, int32_t parent, uint32_t member, TreePosition& out, bool& found) {
    if (lo > hi || found) return;
    int32_t root = lo + (hi - lo) / 2;
    if (root == static_cast<int32_t>(member)) {
        found = true;
        out.parent = parent;
        if (lo <= root - 1) out.left = lo + (root - 1 - lo) / 2;
        if (root + 1 <= hi) out.right = root + 1 + (hi - root - 1) / 2;
        return;
    }
    if (static_cast<int32_t>(member) < root)
        place(lo, root - 1, root, member, out, found);
    else
        place(root + 1, hi, root, member, out, found);
}
} // namespace

TreePosition tree_position(uint32_t n, uint32_t member, bool min_tree) {
    // The N-1 inner members form a complete tree numbered in order; the extra root (the dummy top node in
    // ASTRA-sim's numbering) is member N-1 for MAX and member 0 for MIN, with that tree's root as its child.
    auto top = static_cast<int32_t>(min_tree ? 0 : n - 1);
    int32_t lo = min_tree ? 1 : 0;
    int32_t hi = min_tree ? static_cast<int32_t>(n) - 1 : static_cast<int32_t>(n) - 2;
    int32_t inner_root = lo + (hi - lo) / 2;
    TreePosition p;
    if (static_cast<int32_t>(member) == top) {
        p.left = inner_root;
        return p;
    }
    bool found = false;
    place(lo, hi, top, member, p, found);
    return p;
}

DoubleBinaryTreePhase::DoubleBinaryTreePhase(uint64_t data_size, const PhaseMembers& members,
                                             uint32_t my_index, bool min_tree)
    : members_(members), size_(data_size) {
    SIM_ASSERT(members.size >= 2 && (members.size & (members.size - 1)) == 0,
               "doubleBinaryTree needs a power-of-two number of members");
    pos_ = tree_position(members.size, my_index, min_tree);
}

void DoubleBinaryTreePhase::run(Input in, PhaseActions& act) {
    bool leaf = pos_.left < 0 && pos_.right < 0;
    bool root = pos_.parent < 0;
    if (leaf) {
        if (state_ == State::Begin) {
            act.release_bundle(false, size_);
            state_ = State::SendUp;
        } else if (state_ == State::SendUp && in == Input::Bundle) {
            act.send(npu(pos_.parent), size_);
            act.post_recv(npu(pos_.parent), size_);
            state_ = State::WaitParent;
        } else if (state_ == State::WaitParent && in == Input::Packet) {
            act.release_bundle(false, size_);
            state_ = State::End;
        } else if (state_ == State::End && in == Input::Bundle) {
            state_ = State::Done;
            act.finish_phase();
        }
        return;
    }
    if (root) {
        if (state_ == State::Begin) {
            state_ = State::Wait1;
            act.post_recv(npu(pos_.left), size_);
        } else if (state_ == State::Wait1) {
            act.release_bundle(true, size_);
            state_ = State::SendDown;
        } else if (state_ == State::SendDown && in == Input::Bundle) {
            act.send(npu(pos_.left), size_);
            state_ = State::Done;
            act.finish_phase();
        }
        return;
    }
    // Inner node. Branch order matters: ASTRA-sim takes the first that matches.
    if (state_ == State::Begin) {
        state_ = State::Wait2;
        act.post_recv(npu(pos_.left), size_);
        act.post_recv(npu(pos_.right), size_);
    } else if (state_ == State::Wait2 && in == Input::Packet) {
        act.release_bundle(true, size_);
        state_ = State::Wait1;
    } else if (state_ == State::Wait1 && in == Input::Packet) {
        act.release_bundle(true, size_);
        state_ = State::SendUp;
    } else if (in == Input::Bundle && reductions_ < 1) {
        ++reductions_; // the first reduction finishing; wait for the second
    } else if (state_ == State::SendUp && in == Input::Bundle) {
        state_ = State::WaitParent;
        act.send(npu(pos_.parent), size_);
        act.post_recv(npu(pos_.parent), size_);
    } else if (state_ == State::WaitParent && in == Input::Packet) {
        act.release_bundle(true, size_);
        state_ = State::SendDown;
    } else if (state_ == State::SendDown && in == Input::Bundle) {
        act.send(npu(pos_.left), size_);
        act.send(npu(pos_.right), size_);
        state_ = State::Done;
        act.finish_phase();
    }
}

} // namespace astrolabe

// Symmetric runs: simulating one representative NPU per class of NPUs that provably behave the same.
//
// When every NPU's trace is its neighbour's trace shifted by one position along a network dimension d
// (peers of sends and receives, and communicator groups, moved along d the same way), and nothing in the
// models tells positions along d apart, then translations along d map the whole run onto itself: the NPU
// at position c + 1 does at every ns what the NPU at position c does. The set S of such dimensions splits
// the NPUs into classes (NPUs that differ only in their coordinates on S), each of |G| = prod_{d in S} n_d
// NPUs; we simulate the class member with coordinate 0 on every dimension of S and copy its results.
// A Switch or FullyConnected dimension, where all positions are alike, may also be split into two digits
// (rank coordinate c = u + a * v) translated separately: DP x TP sharing one switch, or TP x PP.
//
// The representative talks to NPUs that are not simulated. A message it sends to x arrives, by the same
// symmetry, as the message that x's representative b receives from the representative's image under the
// translation taking x to b; the P2P matcher files it under that key (see P2PMatcher::set_symmetry).
//
// Link contention (congestion and flow models) is no obstacle: Ring, Switch and FullyConnected links map
// onto links under every translation used (Ring dimensions are only translated whole), so each link's
// traffic equals its image's, and the models keep one link per class (NpuFold, link_topology.h).
//
// What keeps positions along d apart, and so turns the reduction off for the dimension or the run:
// - halving-doubling and double-binary-tree phases on d (their partners are not translation-invariant);
//   ring and direct phases talk to relative positions and are;
// - per-NPU overrides, custom collective ETs, memory shared between NPUs;
// - a trace that is not its neighbour's shifted (compared node by node, ids aside), or a communicator group
//   that the translations between its members do not map onto itself as a ring (its stream tags and ring
//   neighbours would differ): such a digit is given up.
// Ties: NPUs that ASTRA-sim's same-tick order treats differently (NPU 0 runs first at each tick) still
// finish at the same ns in every case we have; the equality tests below are what vouches for it.
// Finding the symmetry and expanding the results: core/simulation/symmetry_search.h.
// Simulated results equal the full run's to the ns: tests/system/symmetry_test.cpp runs both on every
// ASTRA-sim reference case, the samples and generated workloads and compares the whole reports.
#pragma once

#include "core/system/scheduling/run_stats.h"
#include "core/system/scheduling/workload_graph.h"

#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

namespace astrolabe {

class RankSymmetry {
public:
    RankSymmetry() = default;
    // The rank as a mixed-radix number with digits of these sizes (lowest first): a network dimension
    // each, or two for a dimension split in two. Translations along the digits in `digit_mask`.
    // `digit_dims` names each digit's network dimension (for describe(); empty = digit k is dimension k).
    RankSymmetry(std::vector<uint32_t> sizes, uint32_t digit_mask, std::vector<uint32_t> digit_dims = {});

    // NPUs per class (1: no reduction).
    uint32_t order() const { return order_; }
    bool active() const { return order_ > 1; }
    uint32_t npus() const { return npus_; }
    // Whether `npu` is simulated: its coordinate is 0 on every symmetric dimension.
    bool is_representative(uint32_t npu) const { return representative(npu) == npu; }
    uint32_t representative(uint32_t npu) const;
    // x moved by the symmetric coordinates of `by` (forward), or by minus them (backward).
    uint32_t shift(uint32_t x, uint32_t by, bool backward = false) const;
    // The unit translations (one step along each symmetric digit), as NPUs to shift by; they generate all.
    std::vector<uint32_t> generators() const;
    // Every NPU of `rep`'s class, ascending (rep itself first).
    std::vector<uint32_t> class_of(uint32_t rep) const;
    // "1 class(es) of 8 NPUs; translations along dimension 0" for reports.
    std::string describe() const;

    // Tables that answer representative() and shift() with a lookup instead of a division per digit: the
    // run asks them for every message a representative sends. Worth it for the symmetry a run uses, not
    // for the many a search tries; kept to a few MB (npus <= 2^22, order <= 256), else the arithmetic.
    void precompute();

private:
    uint32_t shift_arith(uint32_t x, uint32_t by, bool backward) const;

    std::vector<uint32_t> sizes_, strides_, digit_dims_;
    uint32_t mask_ = 0;
    uint32_t order_ = 1;
    uint32_t npus_ = 1;
    // With precompute(): per NPU, its offset from its representative (x - representative(x)) and its
    // translation's index (the symmetric digits as a mixed-radix number); per pair of translation indices
    // (i * order + j), the offset of i + j and of i - j.
    std::vector<uint32_t> offset_, element_, sum_, difference_;
};

// Group index by member set, to find where a translation takes a group. Sets are hashed order-free (a sum
// of mixed members), so a lookup costs the group's size, not a sort, and building it one pass over the
// members: a million NPUs have 131072 groups.
class GroupLookup {
public:
    explicit GroupLookup(const GroupTable& groups);
    // The first group (by index) with exactly these members, or -1.
    int find(std::vector<uint32_t> members) const;

private:
    static uint64_t set_hash(const std::vector<uint32_t>& members);
    const GroupTable& groups_;
    std::unordered_map<uint64_t, std::vector<int>> by_hash_;
};

} // namespace astrolabe

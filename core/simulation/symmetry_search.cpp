// Finding the symmetry of a run's inputs and expanding a run of representatives into the full run's
// results (the reasoning is in core/system/scheduling/symmetry.h, beside RankSymmetry). It reads the whole
// SimulationInput, so it lives with the Simulation, above the executor that only applies a RankSymmetry.
#include "core/simulation/symmetry_search.h"

#include "core/base/parallel.h"

#include "core/base/assert.h"
#include "core/config/config_parse.h"
#include "core/config/spellings.h"
#include "core/simulation/simulation.h"
#include "core/system/collectives/phase_plan.h"

#include <algorithm>
#include <map>
#include <tuple>
#include <unordered_set>

namespace astrolabe {

// [SECTION] finding it

namespace {

bool is_rotation(const std::vector<uint32_t>& a, const std::vector<uint32_t>& b) {
    if (a.size() != b.size()) return false;
    if (a.empty()) return true;
    auto start = std::find(b.begin(), b.end(), a[0]);
    if (start == b.end()) return false;
    size_t off = static_cast<size_t>(start - b.begin());
    for (size_t i = 0; i < a.size(); ++i)
        if (a[i] != b[(off + i) % b.size()]) return false;
    return true;
}

// Every rank of `ranks` moved by `move`, in the same order.
template <typename Move>
std::vector<uint32_t> moved_ranks(const std::vector<uint32_t>& ranks, Move move) {
    std::vector<uint32_t> out;
    out.reserve(ranks.size());
    for (uint32_t r : ranks)
        out.push_back(move(r));
    return out;
}

// Where the translation `move` takes every group: the index of the group that is its image as a ring
// (members moved, ring order a rotation of the moved order), or -1. Groups of the whole system are
// planned over the dimensions, not as a ring, so they map to themselves.
template <typename Move>
std::vector<int> moved_groups(const GroupTable& groups, const GroupLookup& lookup, uint32_t npus, Move move) {
    std::vector<int> out(groups.groups.size(), -1);
    out[0] = 0;
    for (size_t i = 1; i < groups.groups.size(); ++i) {
        const auto& ranks = groups.groups[i].ranks;
        if (ranks.size() == npus) {
            out[i] = static_cast<int>(i);
            continue;
        }
        std::vector<uint32_t> moved = moved_ranks(ranks, move);
        int j = lookup.find(moved);
        if (j >= 0 && is_rotation(moved, groups.groups[j].ranks)) out[i] = j;
    }
    return out;
}

bool same_gemm(const Gemm& a, const Gemm& b) {
    return a.m == b.m && a.n == b.n && a.k == b.k && a.batch == b.batch;
}

// Whether `b` is `a` with every peer moved by `move` and group index g replaced by moved_group[g].
template <typename Move>
bool graph_is_moved(const WorkloadGraph& a, const WorkloadGraph& b, const std::vector<int>& moved_group,
                    Move move) {
    const WorkloadGraph& as = a.shape();
    const WorkloadGraph& bs = b.shape();
    if (as.nodes.size() != bs.nodes.size() || as.children != bs.children ||
        as.gemms.size() != bs.gemms.size())
        return false;
    for (size_t i = 0; i < as.gemms.size(); ++i)
        if (!same_gemm(as.gemms[i], bs.gemms[i])) return false;
    for (size_t i = 0; i < as.nodes.size(); ++i) {
        GraphNode x = as.nodes[i];
        GraphNode y = bs.nodes[i];
        x.peer = a.peer(i);
        y.peer = b.peer(i);
        // Node ids only name nodes (timelines and messages read each NPU's own graph); the order and
        // the edges, compared here and above, are what the run depends on.
        if (std::tie(x.bytes, x.num_ops, x.duration_ns, x.tag, x.child_begin, x.parents, x.kind, x.flags,
                     x.collective, x.involved_dims) != std::tie(y.bytes, y.num_ops, y.duration_ns, y.tag,
                                                                y.child_begin, y.parents, y.kind, y.flags,
                                                                y.collective, y.involved_dims))
            return false;
        bool same_peer;
        switch (x.kind) {
        case NodeKind::Send:
        case NodeKind::Recv:
            same_peer = y.peer == move(x.peer);
            break;
        case NodeKind::Collective:
            same_peer = moved_group[x.peer] >= 0 && y.peer == static_cast<uint32_t>(moved_group[x.peer]);
            break;
        default:
            same_peer = x.peer == y.peer;
        }
        if (!same_peer) return false;
    }
    return true;
}

// The reasons that rule out the reduction for the whole run, or "".
std::string global_obstacle(const SimulationInput& in) {
    if (!in.system.npu_overrides.empty()) return "npu-overrides give NPUs their own figures";
    for (const auto& c : in.custom)
        if (!c.empty()) return "custom collective ETs are position-specific";
    if (in.graphs.size() != in.network.npus()) return "the traces do not cover the network";
    if (in.memory.type != config::MemoryType::Local && in.memory.type != config::MemoryType::PerNpuExpansion)
        for (const auto& g : in.graphs)
            for (const auto& n : g.shape().nodes)
                if (n.kind == NodeKind::MemLoad || n.kind == NodeKind::MemStore)
                    return "memory nodes share a remote memory between NPUs";
    return "";
}

// Whether dimension d's collective phases talk to relative positions (ring, direct) for every
// collective kind the traces use.
bool translation_invariant_algorithms(const SimulationInput& in, const LogicalTopology& topo, uint32_t used,
                                      size_t d, std::string& why) {
    for (int k = 0; k < config::kCollectiveKinds; ++k) {
        if (!(used & (1u << k))) continue;
        auto algs = implementations(static_cast<PhaseType>(k), in.system, topo);
        if (d >= algs.size()) continue;
        auto a = algs[d].algorithm;
        if (a == config::CollectiveAlgorithm::HalvingDoubling ||
            a == config::CollectiveAlgorithm::DoubleBinaryTree) {
            why = std::string(config::implementation_key(k)) + " runs " +
                  config::algorithm_spelling(algs[d]) + " on dimension " + std::to_string(d) +
                  ", whose partners are not translation-invariant";
            return false;
        }
    }
    return true;
}

// Whether the translation between any two members (by ranks[i] minus ranks[0]) maps the ring onto a
// rotation of itself. The translations that do form a subgroup (they compose, and moving members commutes
// with rotating the list), so a member whose translation the ones already checked generate needs no check:
// a data-parallel ring of 4096 members takes one check, not 4096 (each costs the ring's length).
bool translations_keep_ring(const std::vector<uint32_t>& ranks, const RankSymmetry& sym) {
    std::unordered_set<uint32_t> generated{0}; // translations as NPUs of NPU 0's class; 0 = none
    std::vector<uint32_t> elements{0}, gens;
    for (uint32_t r : ranks) {
        const uint32_t t = sym.shift(sym.shift(0, r), ranks[0], true);
        if (generated.count(t)) continue;
        if (!is_rotation(moved_ranks(ranks, [&](uint32_t y) { return sym.shift(y, t); }), ranks))
            return false;
        gens.push_back(t);
        for (size_t i = 0; i < elements.size(); ++i)
            for (uint32_t g : gens) {
                uint32_t e = sym.shift(elements[i], g);
                if (generated.insert(e).second) elements.push_back(e);
            }
    }
    return true;
}

} // namespace

// Every communicator group a representative's collectives use must be mapped onto itself by the
// translations between its members: their packets then carry the group's own stream tags on both ends.
// Resumable: the representatives in rank order, their nodes in order, at most a budget of nodes a call.
struct SymmetryClosing::GroupsCheck {
    RankSymmetry sym;
    std::vector<bool> checked; // per group index
    uint32_t rep = 0;          // the representative looked at, and the next of its nodes
    size_t node = 0;
    bool closed = true;
    std::string why;

    GroupsCheck(RankSymmetry s, size_t groups) : sym(std::move(s)), checked(groups, false) {}

    // True once decided (closed, or not with `why`); false when `budget` ran out first.
    bool step(SimulationInput& in, uint64_t& budget) {
        const auto npus = static_cast<uint32_t>(in.graphs.size());
        for (; rep < npus; ++rep, node = 0) {
            if (!sym.is_representative(rep)) continue;
            // A graph that fails to build stays pending; ensure_graphs reports it.
            if (node == 0 && !in.pending.empty() && in.pending[rep] &&
                in.load_graph(rep, in.groups, in.graphs[rep]).is_ok())
                in.pending[rep] = false;
            const WorkloadGraph& g = in.graphs[rep];
            const auto& nodes = g.shape().nodes; // peers through g.peer() (a thin copy's are mapped)
            for (; node < nodes.size(); ++node) {
                if (budget == 0) return false;
                --budget;
                if (nodes[node].kind != NodeKind::Collective) continue;
                const uint32_t peer = g.peer(node);
                if (peer == 0 || checked[peer]) continue;
                checked[peer] = true;
                const auto& ranks = in.groups.groups[peer].ranks;
                if (ranks.size() == npus) continue;
                // A representative a sends to member x = (x's representative) moved by h; the message is
                // filed as coming from a moved by -h, in the group moved by -h: that must be this group, as
                // a ring.
                if (!translations_keep_ring(ranks, sym)) {
                    why = "communicator group " + std::to_string(in.groups.groups[peer].id) +
                          " is not mapped onto itself by the translations between its members";
                    closed = false;
                    return true;
                }
            }
        }
        return true;
    }
};

namespace {

// Whether some whole-system collective runs a phase over network dimension d: its ring or direct
// partners are positions along all of d, so d can only be translated as a whole.
bool whole_system_collective_on(const SimulationInput& in, size_t d) {
    const auto npus = in.graphs.size();
    for (const auto& g : in.graphs)
        for (size_t i = 0; i < g.size(); ++i) {
            const GraphNode& n = g.shape().nodes[i];
            if (n.kind != NodeKind::Collective || !(n.involved_dims & (1u << d))) continue;
            const uint32_t peer = g.peer(i);
            if (peer == 0 || in.groups.groups[peer].ranks.size() == npus) return true;
        }
    return false;
}

// The search: the rank is a mixed-radix number whose digits are the network dimensions, or, for a
// Switch or FullyConnected dimension (where every pair of positions is alike), two digits that split it.
struct DigitSearch {
    const SimulationInput& in;
    GroupLookup lookup;
    uint32_t npus;

    // Whether translating by one along digit `k` of `digits` maps every trace onto its image's.
    bool symmetric(const std::vector<uint32_t>& digits, size_t k) const {
        RankSymmetry step(digits, 1u << k);
        uint32_t unit = 1;
        for (size_t i = 0; i < k; ++i)
            unit *= digits[i];
        if (in.translation_proof) return in.translation_proof(unit, digits[k]);
        auto move = [&](uint32_t x) { return step.shift(x, unit); };
        std::vector<int> moved = moved_groups(in.groups, lookup, npus, move);
        for (uint32_t r = 0; r < npus; ++r)
            if (!graph_is_moved(in.graphs[r], in.graphs[move(r)], moved, move)) return false;
        return true;
    }
};

} // namespace

RankSymmetry find_symmetry(SimulationInput& in, std::string& why_not) {
    return close_symmetry(in, symmetry_candidate(in), why_not);
}

SymmetryCandidate symmetry_candidate(SimulationInput& in) {
    SymmetryCandidate c;
    c.why = global_obstacle(in);
    if (!c.why.empty()) return c;
    if (in.network.dims.size() > 15) { // two digits a dimension must fit the 32-bit digit mask
        c.why = "more than 15 network dimensions";
        return c;
    }
    LogicalTopology topo = make_logical_topology(in.network);
    const uint32_t used =
        used_collective_kinds(in.graphs, in.groups); // collective kinds, for every dimension
    DigitSearch search{in, GroupLookup(in.groups), static_cast<uint32_t>(in.graphs.size())};
    std::vector<uint32_t> digits;     // sizes, lowest first
    std::vector<uint32_t> digit_dims; // the network dimension of each digit
    uint32_t mask = 0;
    std::string why;
    for (size_t d = 0; d < in.network.dims.size(); ++d) {
        const config::NetworkDim& dim = in.network.dims[d];
        const size_t k = digits.size();
        digits.push_back(dim.npus);
        digit_dims.push_back(static_cast<uint32_t>(d));
        if (dim.npus < 2) continue;
        if (in.collective_links && d + 1 != in.network.dims.size()) {
            // Per-collective links (collective_link.h) run a whole-system collective as one flat ring over
            // every rank, and a group's link depends on how it spans nodes: only moves by whole nodes
            // (the hardware's last dimension, unsplit) map both onto themselves.
            why = "per-collective hardware timing keeps only translations along the last dimension";
            continue;
        }
        if (!translation_invariant_algorithms(in, topo, used, d, why)) continue;
        if (search.symmetric(digits, k)) {
            mask |= 1u << k;
            continue;
        }
        why = "the traces differ along dimension " + std::to_string(d);
        if (dim.topology == config::Topology::Ring || whole_system_collective_on(in, d) ||
            in.collective_links)
            continue;
        // Try the two-digit splits (low digit of size a, high of npus / a), keeping the one whose
        // symmetric digits cover the most positions (e.g. DP x TP sharing one switch).
        uint32_t best_order = 1, best_a = 0, best_bits = 0;
        for (uint32_t a = 2; a < dim.npus; ++a) {
            if (dim.npus % a) continue;
            std::vector<uint32_t> split(digits.begin(), digits.begin() + k);
            split.push_back(a);
            split.push_back(dim.npus / a);
            uint32_t order = 1, bits = 0;
            if (search.symmetric(split, k)) order *= a, bits |= 1;
            if (search.symmetric(split, k + 1)) order *= dim.npus / a, bits |= 2;
            if (order > best_order) best_order = order, best_a = a, best_bits = bits;
        }
        if (best_order < 2) continue;
        digits.back() = best_a;
        digits.push_back(dim.npus / best_a);
        digit_dims.push_back(static_cast<uint32_t>(d));
        if (best_bits & 1) mask |= 1u << k;
        if (best_bits & 2) mask |= 1u << (k + 1);
    }
    c.digits = std::move(digits);
    c.digit_dims = std::move(digit_dims);
    c.mask = mask;
    c.why = std::move(why);
    return c;
}

RankSymmetry SymmetryCandidate::symmetry() const {
    return digits.empty() ? RankSymmetry() : RankSymmetry(digits, mask, digit_dims);
}

RankSymmetry close_symmetry(SimulationInput& in, SymmetryCandidate c, std::string& why_not) {
    SymmetryClosing closing(in, std::move(c));
    while (closing.step(UINT64_MAX)) {
    }
    why_not = closing.why_not();
    return closing.symmetry();
}

SymmetryClosing::SymmetryClosing(SimulationInput& in, SymmetryCandidate c)
    : in_(in), digits_(std::move(c.digits)), digit_dims_(std::move(c.digit_dims)), mask_(c.mask),
      why_(std::move(c.why)) {
    if (digits_.empty()) { // an obstacle ruled every dimension out
        phase_ = Phase::Done;
        return;
    }
    sym_ = RankSymmetry(digits_, mask_, digit_dims_);
}

SymmetryClosing::~SymmetryClosing() = default;

// While the symmetry leaves some group unclosed, give up one symmetric digit: the one whose loss leaves the
// largest symmetry that closes every group, else the smallest one, and look again.
bool SymmetryClosing::step(uint64_t nodes) {
    uint64_t budget = std::max<uint64_t>(nodes, 1);
    while (phase_ != Phase::Done) {
        if (budget == 0) return true;
        if (phase_ == Phase::Main) {
            if (!sym_.active()) {
                phase_ = Phase::Done;
                break;
            }
            if (!check_) check_ = std::make_unique<GroupsCheck>(sym_, in_.groups.groups.size());
            if (!check_->step(in_, budget)) return true;
            const bool closed = check_->closed;
            if (!closed) why_ = check_->why;
            check_.reset();
            if (closed) {
                phase_ = Phase::Done;
            } else {
                phase_ = Phase::Fewer;
                k_ = 0, best_mask_ = 0, best_order_ = 0, smallest_ = 0;
            }
            continue;
        }
        // Phase::Fewer: each symmetric digit's loss in turn.
        if (k_ == digits_.size()) {
            mask_ = best_order_ ? best_mask_ : mask_ & ~(1u << (smallest_ - 1));
            sym_ = RankSymmetry(digits_, mask_, digit_dims_);
            phase_ = Phase::Main;
            continue;
        }
        if (!(mask_ & (1u << k_))) {
            ++k_;
            continue;
        }
        if (!check_) {
            if (!smallest_ || digits_[k_] < digits_[smallest_ - 1]) smallest_ = static_cast<uint32_t>(k_ + 1);
            RankSymmetry fewer(digits_, mask_ & ~(1u << k_), digit_dims_);
            if (fewer.order() <= best_order_) {
                ++k_;
                continue;
            }
            fewer_order_ = fewer.order();
            check_ = std::make_unique<GroupsCheck>(std::move(fewer), in_.groups.groups.size());
        }
        if (!check_->step(in_, budget)) return true;
        if (check_->closed) best_mask_ = mask_ & ~(1u << k_), best_order_ = fewer_order_;
        check_.reset();
        ++k_;
    }
    return false;
}

Status ensure_graphs(SimulationInput& in, const RankSymmetry& sym) {
    Status problems;
    uint32_t next = 0;
    while (!ensure_graphs_from(in, sym, next, UINT32_MAX, problems)) {
    }
    return problems;
}

bool ensure_graphs_from(SimulationInput& in, const RankSymmetry& sym, uint32_t& next, uint32_t max_built,
                        Status& problems) {
    uint32_t built = 0;
    for (; next < in.pending.size(); ++next) {
        if (problems.problems().size() >= 20) return true;
        if (!in.pending[next] || (sym.active() && !sym.is_representative(next))) continue;
        if (built == max_built) return false;
        ++built;
        Status st = in.load_graph(next, in.groups, in.graphs[next]);
        if (!st.is_ok()) {
            problems.merge(st);
            continue;
        }
        in.pending[next] = false;
    }
    return true;
}

// [SECTION] copying the representatives' results

void expand_symmetric_result(const RankSymmetry& sym, const GroupTable& groups, RunResult& r,
                             TaskRunner* runner) {
    const uint32_t npus = sym.npus();
    const uint32_t order = sym.order();
    // Each NPU's slot is written once, from a representative's, which is never written.
    for_blocks(runner, npus, size_t(1) << 16, [&](size_t begin, size_t end) {
        for (size_t npu = begin; npu < end; ++npu) {
            const auto x = static_cast<uint32_t>(npu);
            if (!sym.is_representative(x)) r.stats.npus[x] = r.stats.npus[sym.representative(x)];
        }
    });
    for (auto& [msg, count] : r.stats.notes)
        count *= order;
    r.messages *= order;
    r.message_bytes *= order;
    // The translations, once: as ranks, NPU 0's class (a rank moved by offset h is shift(rank, h)).
    const std::vector<uint32_t> offsets = sym.class_of(0);

    // Collectives: a whole-system one had every class member in it; a group stands for its translates,
    // each with the same times.
    GroupLookup lookup(groups);
    std::unordered_map<uint32_t, int> index_of; // group id -> index
    for (size_t i = 0; i < groups.groups.size(); ++i)
        index_of.emplace(groups.groups[i].id, static_cast<int>(i));
    std::unordered_map<int, std::vector<int>> images; // per group: the distinct groups it is moved onto
    auto images_of = [&](int gi) -> const std::vector<int>& {
        auto [it, fresh] = images.try_emplace(gi);
        if (!fresh) return it->second;
        std::vector<int>& out = it->second;
        const auto& ranks = groups.groups[gi].ranks;
        // The orbit, walked one unit translation at a time (the translations are generated by them), so
        // the cost is the distinct images, not every translation. Should a step leave the table, every
        // translation is tried in turn instead.
        std::vector<bool> seen(groups.groups.size(), false);
        int start = lookup.find(ranks);
        bool complete = start >= 0;
        if (complete) {
            out.push_back(start);
            seen[start] = true;
        }
        for (size_t i = 0; i < out.size() && complete; ++i)
            for (uint32_t unit : sym.generators()) {
                int j = lookup.find(
                    moved_ranks(groups.groups[out[i]].ranks, [&](uint32_t y) { return sym.shift(y, unit); }));
                if (j < 0) {
                    complete = false;
                    break;
                }
                if (!seen[j]) seen[j] = true, out.push_back(j);
            }
        if (complete) return out;
        out.clear();
        std::fill(seen.begin(), seen.end(), false);
        for (uint32_t h : offsets) {
            int j = lookup.find(moved_ranks(ranks, [&](uint32_t y) { return sym.shift(y, h); }));
            if (j >= 0 && !seen[j]) seen[j] = true, out.push_back(j);
        }
        return out;
    };
    // Two passes: where each record's copies go (its group's images, found once per group), then the
    // copies, written in place into a vector of the exact size on the runner's threads. Growing the
    // vector instead would hold two copies of millions of records at once (5 M at a million NPUs).
    struct Plan {
        int group; // -1: the whole system, one copy
        uint32_t npus;
        size_t first; // where its copies start
    };
    std::vector<Plan> plans(r.stats.collectives.size());
    size_t total = 0;
    for (size_t k = 0; k < plans.size(); ++k) {
        const CollectiveRecord& c = r.stats.collectives[k];
        auto found = index_of.find(c.group_id);
        const int gi = found == index_of.end() ? -1 : found->second;
        SIM_ASSERT(gi >= 0, "a collective record names a group that is not in the table");
        const auto& ranks = groups.groups[gi].ranks;
        if (ranks.empty() || ranks.size() == npus) {
            plans[k] = {-1, c.npus * order, total};
            total += 1;
            continue;
        }
        // The group's representatives each stand for as many of its members (the group is closed under
        // the translations between them); the record counted the representatives that finished.
        uint32_t reps = 0;
        for (uint32_t x : ranks)
            reps += sym.is_representative(x);
        const auto members_per_rep = static_cast<uint32_t>(ranks.size()) / std::max(1u, reps);
        plans[k] = {gi, c.npus * members_per_rep, total};
        total += images_of(gi).size();
    }
    std::vector<CollectiveRecord> collectives(total);
    // Only reads the images found above (a const lookup), so blocks of records can run at once.
    for_blocks(runner, plans.size(), 64, [&](size_t begin, size_t end) {
        for (size_t k = begin; k < end; ++k) {
            const Plan& plan = plans[k];
            CollectiveRecord copy = r.stats.collectives[k];
            copy.npus = plan.npus;
            if (plan.group < 0) {
                collectives[plan.first] = copy;
                continue;
            }
            const std::vector<int>& moved = images.find(plan.group)->second;
            for (size_t j = 0; j < moved.size(); ++j) {
                copy.group_id = groups.groups[moved[j]].id;
                collectives[plan.first + j] = copy;
            }
        }
    });
    r.stats.collectives = std::move(collectives);

    std::vector<TimelineRecord> timeline;
    timeline.reserve(r.stats.timeline.size() * order);
    for (const TimelineRecord& t : r.stats.timeline)
        for (uint32_t h : offsets) {
            TimelineRecord copy = t;
            copy.npu = sym.shift(t.npu, h);
            timeline.push_back(copy);
        }
    r.stats.timeline = std::move(timeline);

    std::vector<UnmatchedMessage> unreceived;
    for (const UnmatchedMessage& m : r.unreceived)
        for (uint32_t h : offsets) {
            UnmatchedMessage copy = m;
            copy.key.src = sym.shift(m.key.src, h);
            copy.key.dst = sym.shift(m.key.dst, h);
            unreceived.push_back(copy);
        }
    r.unreceived = std::move(unreceived);
}

} // namespace astrolabe

#include "core/generate/transformer_symmetry.h"

#include "core/base/assert.h"
#include "core/generate/transformer.h"

#include <algorithm>
#include <numeric>

namespace astrolabe::generate {

TransformerTranslations::TransformerTranslations(const TransformerParams& p,
                                                 std::function<void(uint32_t, trace::Trace&&)> keep)
    : p_(p), layout_(p), keep_(std::move(keep)) {}

TransformerTranslations::~TransformerTranslations() = default;

bool TransformerTranslations::step() {
    if (learned()) return false;
    RankCoord c;
    c.pp = next_stage_;
    const uint32_t rank = layout_.rank(c);
    if (!making_) making_ = std::make_unique<TransformerTraceBuild>(p_, layout_, rank);
    if (making_->step()) return true;
    trace::Trace t = making_->take();
    making_.reset();
    ++next_stage_;
    for (const trace::Node& n : t.nodes) {
        if (n.type == trace::NodeType::CommColl) {
            int k = layout_.kind_of(n.pg_name.value_or(""));
            if (k >= 0) kinds_used_ |= 1u << k;
        }
        std::optional<uint32_t> peer = n.type == trace::NodeType::CommSend   ? n.comm_dst
                                       : n.type == trace::NodeType::CommRecv ? n.comm_src
                                                                             : std::nullopt;
        if (peer) peer_gcd_ = std::gcd(peer_gcd_, uint64_t(*peer > rank ? *peer - rank : rank - *peer));
    }
    if (keep_) keep_(rank, std::move(t));
    return !learned();
}

std::vector<uint32_t> TransformerTranslations::stage_ranks() const {
    std::vector<uint32_t> out;
    for (uint32_t stage = 0; stage < p_.pp; ++stage) {
        RankCoord c;
        c.pp = stage;
        out.push_back(layout_.rank(c));
    }
    return out;
}

trace::Trace TransformerTranslations::rank_trace(uint32_t rank) const {
    return transformer_trace(p_, layout_, rank);
}

uint32_t TransformerTranslations::model_rank(uint32_t rank) const {
    RankCoord c;
    c.pp = layout_.coord(rank).pp;
    return layout_.rank(c);
}

int64_t TransformerTranslations::moved_group_id(uint32_t id, uint32_t rank) const {
    const int k = layout_.kind_of(std::to_string(id));
    if (k < 0 || rank >= layout_.npus()) return -1;
    return static_cast<int64_t>(std::stoul(layout_.pg_name(static_cast<GroupKind>(k), rank)));
}

bool TransformerTranslations::translation_keeps_traces(uint32_t stride, uint32_t size) const {
    // The digit must lie below the pipeline coordinate (stages run different DAGs), and every peer offset
    // must be a multiple of the digit's span, so that moving a rank and then its peer commute.
    SIM_ASSERT(learned(), "TransformerTranslations asked before every stage was read");
    const uint64_t span = uint64_t(stride) * size;
    const uint64_t stage = uint64_t(p_.dp) * p_.tp * p_.sp;
    if (size < 2 || stage % span != 0) return false;
    if (peer_gcd_ % span != 0) return false;
    for (int k = 0; k < kGroupKinds; ++k)
        if ((kinds_used_ & (1u << k)) && !groups_move_onto_groups(static_cast<GroupKind>(k), stride, size))
            return false;
    return true;
}

// Every group of kind k, moved, must be the group of its first member's image, its members in a rotation
// of that group's order (ascending ranks, as comm_groups_json writes them).
bool TransformerTranslations::groups_move_onto_groups(GroupKind k, uint32_t stride, uint32_t size) const {
    const uint32_t n = layout_.npus();
    auto move = [&](uint32_t r) {
        uint32_t c = (r / stride) % size;
        return r - c * stride + ((c + 1) % size) * stride;
    };
    // Group ids of a kind are consecutive from rank 0's (all of whose coordinates are 0).
    auto group_of = [&](uint32_t r) { return static_cast<uint32_t>(std::stoul(layout_.pg_name(k, r))); };
    const uint32_t base = group_of(0);
    std::vector<std::vector<uint32_t>> members(layout_.count(k));
    for (uint32_t r = 0; r < n; ++r)
        members[group_of(r) - base].push_back(r);
    std::vector<uint32_t> moved;
    for (const auto& g : members) {
        moved.clear();
        for (uint32_t r : g)
            moved.push_back(move(r));
        const auto& image = members[group_of(moved[0]) - base];
        if (image.size() != moved.size()) return false;
        auto start = std::find(image.begin(), image.end(), moved[0]);
        if (start == image.end()) return false;
        const size_t off = static_cast<size_t>(start - image.begin());
        for (size_t i = 0; i < moved.size(); ++i)
            if (image[(off + i) % image.size()] != moved[i]) return false;
    }
    return true;
}

} // namespace astrolabe::generate

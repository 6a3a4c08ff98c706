// Where each rank sits in a DP x TP x SP x PP grid (plus expert parallelism inside DP), which ranks form
// each communicator group, and the group ids written as `pg_name` and in the comm-group JSON.
//
// Rank order (TransformerParams::rank_order): STAGE's by default, rank = dp + DP * (tp + TP * (sp + SP *
// pp)), data-parallel fastest; or Megatron-LM's "tp-cp-ep-dp-pp", rank = tp + TP * (sp + SP * (dp + DP *
// pp)), which puts a tensor-parallel group on consecutive ranks (one node of a real system). Either way the
// pipeline coordinate is slowest, so a stage is the DP x TP x SP consecutive ranks from pp x DP x TP x SP
// and a pipeline peer sits a fixed offset away (transformer_symmetry.h and the StageRetargeter rely on it).
// Group ids are 1.. in kind order (data, tensor, context, expert, expert-data), only for kinds of
// size > 1, numbered by coordinates (the same ids in both orders; only the members differ); id "0"/""
// (the whole system) is never used. Everything is arithmetic on the rank, so no per-rank tables exist
// except while writing the JSON.
#pragma once

#include "core/generate/transformer_params.h"

#include <cstdint>
#include <string>
#include <vector>

namespace astrolabe::generate {

struct RankCoord {
    uint32_t dp = 0, tp = 0, sp = 0, pp = 0;
};

// Data: ranks sharing tp, sp and pp (DP of them): dense gradients, then summed over Context as STAGE does
// (two all-reduces, not one over DP x SP). Tensor: sharing dp, sp, pp. Context: sharing dp, tp, pp. Expert:
// EP consecutive DP coordinates (tokens to experts; Megatron's expert ranks "tp-ep-dp-pp" do the same:
// ep fastest inside the data dimension). ExpertData: DP ranks holding the same experts (expert gradients).
enum class GroupKind : uint8_t { Data, Tensor, Context, Expert, ExpertData };
constexpr int kGroupKinds = 5;
const char* group_kind_name(GroupKind k); // "data", "tensor", ...

class ParallelLayout {
public:
    explicit ParallelLayout(const TransformerParams& p);

    uint32_t npus() const { return dp_ * tp_ * sp_ * pp_; }
    RankCoord coord(uint32_t rank) const;
    uint32_t rank(const RankCoord& c) const {
        return c.dp * dp_stride_ + c.tp * tp_stride_ + c.sp * sp_stride_ + c.pp * pp_stride_;
    }

    uint32_t size(GroupKind k) const;  // ranks per group of that kind (1 = the kind is not used)
    uint32_t count(GroupKind k) const; // groups of that kind
    // The pg_name of `rank`'s group of kind k ("" when size(k) == 1).
    std::string pg_name(GroupKind k, uint32_t rank) const;
    // `{"<id>": [ranks...], ...}` for every group in use; "{}" when none.
    std::string comm_groups_json() const;
    bool has_groups() const;
    // The kind of group id `pg` names, or -1 when it is not one of ours.
    int kind_of(const std::string& pg) const;

private:
    uint32_t index(GroupKind k, const RankCoord& c) const; // the group's index within its kind
    uint32_t first_id(GroupKind k) const;                  // the id of the kind's group 0
    uint32_t dp_, tp_, sp_, pp_, ep_;
    // What one step of each coordinate adds to the rank (by the rank order); pp's is DP x TP x SP.
    uint32_t dp_stride_, tp_stride_, sp_stride_, pp_stride_;
};

} // namespace astrolabe::generate

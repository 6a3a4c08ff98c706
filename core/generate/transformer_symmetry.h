// Which ranks of a generated transformer workload are alike up to translation, answered from the
// parameters, so a symmetric run needs only its representatives' traces (docs/symmetry.md).
//
// Ranks of one pipeline stage run the same DAG; only their send/recv peers (the same coordinates one stage
// away: a fixed rank offset, a multiple of DP x TP x SP) and their collectives' group ids differ
// (StageRetargeter in transformer.cpp relies on the same fact, and a test checks it rank by rank). So
// moving every rank along a digit of the rank number that stays below the pipeline coordinate maps each
// trace onto its image's, provided each group moves onto the image's own group of that kind, in a
// rotation of its member order. That last part is checked here on the layout's group lists.
// This never looks at more than one trace per stage, and makes those a few layers per step() call, so that a
// front end that must not block (the browser's search) can spread them over frames.
#pragma once

#include "core/generate/parallel_layout.h"
#include "core/generate/transformer.h"
#include "core/generate/transformer_params.h"
#include "core/trace/trace_types.h"

#include <cstdint>
#include <functional>
#include <memory>
#include <vector>

namespace astrolabe::generate {

class TransformerTranslations {
public:
    // `p` must have passed check(). Learns nothing yet: step() until it returns false before
    // asking translation_keeps_traces(). The stage ranks' traces made to learn the groups and peers
    // are handed to `keep` (rank, trace), when given, so that they need not be made again.
    explicit TransformerTranslations(const TransformerParams& p,
                                     std::function<void(uint32_t, trace::Trace&&)> keep = {});
    ~TransformerTranslations();
    TransformerTranslations(const TransformerTranslations&) = delete; // a stage being made refers to p_
    TransformerTranslations& operator=(const TransformerTranslations&) = delete;
    // Makes the next pipeline stage's trace a piece at a time (TransformerTraceBuild: a few layers per
    // call), in stage order, and reads it once it is whole. True while stages remain.
    bool step();
    bool learned() const { return next_stage_ >= p_.pp; }

    uint32_t npus() const { return layout_.npus(); }
    // One rank per pipeline stage (every other coordinate 0): between them, every distinct DAG.
    std::vector<uint32_t> stage_ranks() const;
    // Whether moving every rank by one along the rank digit (r / stride) % size (plus one, wrapping, the
    // other digits kept) maps every rank's trace onto its image's with peers moved the same way and each
    // collective's group replaced by the moved group (which is then the image's own group).
    bool translation_keeps_traces(uint32_t stride, uint32_t size) const;
    // Rank `rank`'s trace, as generate_transformer writes it.
    trace::Trace rank_trace(uint32_t rank) const;
    // The rank of stage_ranks() in `rank`'s pipeline stage. Its trace is `rank`'s with every send/recv
    // peer moved by (model - rank) and every collective's group replaced by the model's group of the same
    // kind: generate_transformer makes each stage's traces that way (StageRetargeter).
    uint32_t model_rank(uint32_t rank) const;
    // The id of `rank`'s group of the same kind as group `id`, or -1 when `id` is not one of the layout's.
    int64_t moved_group_id(uint32_t id, uint32_t rank) const;

private:
    bool groups_move_onto_groups(GroupKind k, uint32_t stride, uint32_t size) const;

    TransformerParams p_;
    ParallelLayout layout_;
    uint32_t kinds_used_ = 0; // bit k: some collective uses GroupKind k's groups
    uint64_t peer_gcd_ = 0;   // gcd of every |peer - rank| of the stages' traces (0: no peers)
    std::function<void(uint32_t, trace::Trace&&)> keep_;
    uint32_t next_stage_ = 0;                       // the stage step() reads next
    std::unique_ptr<TransformerTraceBuild> making_; // its trace, while being made
};

} // namespace astrolabe::generate

// One rank's compute stream as a transformer builder emits it (internal to core/generate). Every compute
// node and every blocking collective follows the previous one, so the stream is a chain with a cursor; a
// pending receive joins the next node as one more parent. The training and inference builders derive from
// this (one level, no virtuals) so both chain nodes, name groups and split the model the same way, and
// share the FFN block. It only appends nodes; timing is the simulator's job.
#pragma once

#include "core/generate/model_dims.h"
#include "core/generate/parallel_layout.h"
#include "core/generate/trace_emitter.h"
#include "core/generate/transformer_params.h"
#include "core/trace/trace_types.h"

#include <cstdint>
#include <string>

namespace astrolabe::generate {

class ChainEmitter {
protected:
    // `tokens_per_rank` sizes ModelDims: what one micro-batch (or decode step) puts on this rank.
    ChainEmitter(const TransformerParams& p, const ParallelLayout& layout, uint32_t rank, trace::Trace& t,
                 uint64_t tokens_per_rank);

    bool has(GroupKind k) const { return layout_.size(k) > 1; }
    // The pending receive, handed to the next stream node exactly once.
    uint64_t take_extra() {
        uint64_t e = extra_;
        extra_ = 0;
        return e;
    }
    uint64_t comp(const std::string& name, uint64_t ops, uint64_t bytes) {
        return cursor_ = em_.comp(name, ops, bytes, {cursor_, take_extra()});
    }
    uint64_t gemm(const std::string& name, uint64_t m, uint64_t n, uint64_t k) {
        return cursor_ = em_.gemm(name, Gemm{m, n, k}, dims_.E, {cursor_, take_extra()});
    }
    // A collective the compute stream waits for (its output feeds the next compute node). Skipped when the
    // group has one rank, as no bytes would move.
    uint64_t blocking(const std::string& name, trace::CollectiveType type, uint64_t bytes, GroupKind kind) {
        if (!has(kind)) return cursor_;
        return cursor_ = em_.coll(name, type, bytes, pg_[int(kind)], {cursor_, take_extra()});
    }

    // A layer's forward FFN, dense (up, down) or MoE (router, all-to-all dispatch, the local experts,
    // combine), then the collective that leaves the TP region with the full T x d activations: a
    // reduce-scatter under sequence-parallel training, an all-reduce in inference. `n` prefixes the names.
    void ffn_forward(const std::string& n, trace::CollectiveType tp_exit);

    const TransformerParams& p_;
    const ParallelLayout& layout_;
    RankCoord c_;
    TraceEmitter em_;
    ModelDims dims_;
    std::string pg_[kGroupKinds]; // this rank's group name per kind ("" when unused)
    uint64_t layers_per_stage_ = 0, first_layer_ = 0;
    uint64_t cursor_ = 0; // the last node of the compute stream
    uint64_t extra_ = 0;  // one more parent for the next stream node (a receive)
};

} // namespace astrolabe::generate

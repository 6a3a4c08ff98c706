// The compute-stream state and the FFN block shared by the transformer builders (chain_emitter.h).
#include "core/generate/chain_emitter.h"

#include <algorithm>

namespace astrolabe::generate {

using trace::CollectiveType;

ChainEmitter::ChainEmitter(const TransformerParams& p, const ParallelLayout& layout, uint32_t rank,
                           trace::Trace& t, uint64_t tokens_per_rank)
    : p_(p), layout_(layout), c_(layout.coord(rank)), em_(t), dims_(p, tokens_per_rank) {
    for (int k = 0; k < kGroupKinds; ++k)
        pg_[k] = layout.pg_name(static_cast<GroupKind>(k), rank);
    // Contiguous blocks of layers, the remainder of L / P going to the first stages (as STAGE splits them).
    const uint64_t base = p.layers / p.pp, extra = p.layers % p.pp;
    layers_per_stage_ = base + (c_.pp < extra ? 1 : 0);
    first_layer_ = c_.pp * base + std::min<uint64_t>(c_.pp, extra);
}

void ChainEmitter::ffn_forward(const std::string& n, CollectiveType tp_exit) {
    const ModelDims& D = dims_;
    if (D.local_experts) {
        // Each token goes to top_k experts; the local experts split the routed tokens evenly.
        const uint64_t routed = D.T * p_.top_k;
        const uint64_t per_expert = std::max<uint64_t>(1, routed / D.local_experts);
        gemm(n + "router", D.T, p_.experts, D.d);
        blocking(n + "dispatch", CollectiveType::AllToAll, routed * D.d * D.E / p_.tp, GroupKind::Expert);
        for (uint64_t e = 0; e < D.local_experts; ++e) {
            const std::string x = n + "expert" + std::to_string(e) + ".";
            gemm(x + "up", per_expert, D.up_n, D.d);
            gemm(x + "down", per_expert, D.d, D.f_tp);
        }
        blocking(n + "combine", CollectiveType::AllToAll, routed * D.d * D.E / p_.tp, GroupKind::Expert);
    } else {
        gemm(n + "ffn_up", D.T, D.up_n, D.d);
        // Llama's gated FFN multiplies silu(gate) by up before the down projection.
        if (D.ffn_fwd_ops()) comp(n + "ffn_gate", D.ffn_fwd_ops(), 3 * D.T * D.f_tp * D.E);
        gemm(n + "ffn_down", D.T, D.d, D.f_tp);
    }
    blocking(n + "ffn_out", tp_exit, D.T * D.d * D.E, GroupKind::Tensor);
}

} // namespace astrolabe::generate

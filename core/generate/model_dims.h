// Per-rank sizes of one transformer layer under a parallel plan (internal to core/generate). Elements, not
// bytes; the builders multiply by the byte widths. Shared by the training and inference builders so both
// split the model the same way.
#pragma once

#include "core/generate/transformer_params.h"

#include <algorithm>
#include <cstdint>

namespace astrolabe::generate {

struct ModelDims {
    uint64_t T = 0;      // tokens of one micro-batch on this rank (after the DP and SP splits)
    uint64_t d = 0;      // hidden
    uint64_t a = 0;      // activation shard: T * d / tp (sequence-parallel layout between TP regions)
    uint64_t qkv_n = 0;  // q, k, v output columns per TP rank
    uint64_t up_n = 0;   // FFN up (and gate) columns per TP rank
    uint64_t f_tp = 0;   // FFN inner size per TP rank
    uint64_t v_tp = 0;   // vocabulary rows per TP rank
    uint64_t w_attn = 0; // attention weights per TP rank
    uint64_t w_ffn = 0;  // dense FFN weights per TP rank (one expert's, for MoE)
    uint64_t w_router = 0;
    uint64_t local_experts = 0;
    uint64_t kv_tp = 0; // key (or value) columns per TP rank: the KV-cache width
    uint64_t E = 1;     // bytes per activation / weight element
    uint64_t Eg = 1;    // bytes per gradient element (x2 with mixed precision)

    ModelDims(const TransformerParams& p, uint64_t tokens_per_rank) {
        T = tokens_per_rank;
        d = p.hidden;
        a = T * d / p.tp;
        const uint64_t head_dim = p.hidden / p.heads;
        const uint64_t kv_heads_tp = std::max<uint64_t>(p.kv_head_count() / p.tp, 1);
        kv_tp = kv_heads_tp * head_dim;
        qkv_n = d / p.tp + 2 * kv_tp;
        f_tp = p.ffn_size() / p.tp;
        up_n = (p.model == ModelFamily::Llama ? 2 : 1) * f_tp;
        v_tp = p.vocab / p.tp;
        w_attn = d * qkv_n + (d / p.tp) * d;
        w_ffn = d * up_n + f_tp * d;
        w_router = p.experts ? d * p.experts : 0;
        local_experts = p.experts ? p.experts / p.ep : 0;
        E = p.dtype_bytes;
        Eg = p.mixed_precision ? 2 * p.dtype_bytes : p.dtype_bytes;
    }
    // Weights of one layer on this rank that the data group shares (attention, router, dense FFN).
    uint64_t w_dense() const { return w_attn + w_router + (local_experts ? 0 : w_ffn); }
    // Expert weights on this rank (shared by the expert-data group).
    uint64_t w_experts() const { return local_experts * w_ffn; }
};

} // namespace astrolabe::generate

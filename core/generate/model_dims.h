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
    uint64_t act = 0;    // activations a rank holds between TP regions: a with tpsp, else T * d
    uint64_t v_emb = 0;  // vocabulary rows of an embedding GEMM: vocab / tp with tpsp, else vocab
    uint64_t qkv_n = 0;  // q, k, v output columns per TP rank
    uint64_t up_n = 0;   // FFN up (and gate) columns per TP rank
    uint64_t f_tp = 0;   // FFN inner size per TP rank
    uint64_t v_tp = 0;   // vocabulary rows per TP rank
    uint64_t w_attn = 0; // attention weights per TP rank
    uint64_t w_ffn = 0;  // dense FFN weights per TP rank (one expert's, for MoE)
    uint64_t w_router = 0;
    uint64_t local_experts = 0;
    uint64_t kv_tp = 0; // key (or value) columns per TP rank: the KV-cache width
    uint64_t E = 1;     // bytes per element of every tensor a collective or a send moves
    uint64_t Eg = 1;    // bytes per gradient element held for the optimizer (x2 with mixed precision: fp32)
    bool llama = false; // the graph built is llama's (gated FFN, K/V slice gradients), else GPT's

    ModelDims(const TransformerParams& p, uint64_t tokens_per_rank) {
        T = tokens_per_rank;
        d = p.hidden;
        a = T * d / p.tp;
        llama = p.graph() == ModelFamily::Llama;
        const uint64_t head_dim = p.hidden / p.heads;
        const uint64_t kv = p.graph_kv_heads();
        // Fewer KV heads than TP ranks: Megatron replicates a head on tp / kv ranks; STAGE splits its
        // columns (d * kv / (heads * tp) each), which stage_compat reproduces.
        if (p.stage_compat && kv < p.tp)
            kv_tp = p.hidden * kv / (p.heads * p.tp);
        else
            kv_tp = std::max<uint64_t>(kv / p.tp, 1) * head_dim;
        qkv_n = d / p.tp + 2 * kv_tp;
        f_tp = p.ffn_size() / p.tp;
        up_n = (llama ? 2 : 1) * f_tp;
        v_tp = p.vocab / p.tp;
        // Without tpsp STAGE's embeddings take the whole sequence on every TP rank (replicated work).
        act = p.graph_tpsp() ? a : T * d;
        v_emb = p.graph_tpsp() ? v_tp : p.vocab;
        w_attn = d * qkv_n + (d / p.tp) * d;
        w_ffn = d * up_n + f_tp * d;
        w_router = p.experts ? d * p.experts : 0;
        local_experts = p.experts ? p.experts / p.ep : 0;
        E = p.dtype_bytes;
        Eg = p.mixed_precision ? 2 * p.dtype_bytes : p.dtype_bytes;
    }
    // Element-wise num_ops of attention (STAGE's fused kernel: proportional to the activations, not S^2).
    // Forward: the q, k and v slices of the qkv output (a + 2 T kv_tp) and the kernel (3a). Backward: the
    // kernel's dq, dk, dv (6a each), the dk|dv and dq|dk|dv concatenations (2 T kv_tp, a + 2 T kv_tp) and,
    // in llama's graph, the K and V slice gradients (2 T kv_tp). GPT (kv_tp T = a): 6a and 23a.
    uint64_t attn_fwd_ops() const { return 4 * a + 2 * T * kv_tp; }
    uint64_t attn_bwd_ops() const { return 19 * a + (llama ? 6 : 4) * T * kv_tp; }
    // Element-wise num_ops of llama's gated FFN (0 for GPT): forward silu(gate) * up over T x F/tp;
    // backward the two gradients of that product and the sum of the up and gate input gradients (T x d).
    uint64_t ffn_fwd_ops() const { return llama ? T * f_tp : 0; }
    uint64_t ffn_gate_bwd_ops() const { return llama ? 2 * T * f_tp : 0; }
    uint64_t ffn_dx_sum_ops() const { return llama ? T * d : 0; }
    // Weights of one layer on this rank that the data group shares (attention, router, dense FFN).
    uint64_t w_dense() const { return w_attn + w_router + (local_experts ? 0 : w_ffn); }
    // Expert weights on this rank (shared by the expert-data group).
    uint64_t w_experts() const { return local_experts * w_ffn; }
};

} // namespace astrolabe::generate

// One training step of a transformer on one rank: the 1F1B micro-batch schedule of its pipeline stage,
// each layer's forward and backward with the tensor-, context- and expert-parallel collectives it needs,
// data-parallel gradient synchronisation, and the optimizer update. docs/generate.md gives the closed form
// of every node.
//
// Index
//   [SECTION] Chain helpers      element-wise nodes and names (the chain itself: chain_emitter.h)
//   [SECTION] Layer forward      norm, (AG) qkv, (A2A) attention, (A2A) out-proj, (RS), FFN or MoE
//   [SECTION] Layer backward     the mirror image, plus the layer's gradient collectives
//   [SECTION] Stage schedule     embeddings, send/recv between stages, 1F1B order, optimizer step
#include "core/generate/chain_emitter.h"
#include "core/generate/transformer.h"
#include "core/generate/transformer_internal.h"

#include <algorithm>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace astrolabe::generate {

namespace {

using trace::CollectiveType;

class TrainingBuilder : ChainEmitter {
public:
    // A micro-batch's tokens split over the data and context groups.
    TrainingBuilder(const TransformerParams& p, const ParallelLayout& layout, uint32_t rank, trace::Trace& t)
        : ChainEmitter(p, layout, rank, t, p.micro_batch_size() * p.seq / (uint64_t(p.dp) * p.sp)) {
        grad_colls_.assign(layers_per_stage_, {});
    }

    // Appends the next passes of the schedule: at most `layers` layer passes (forward or backward of one
    // layer for one micro-batch) with the sends, receives and embeddings between them; the optimizer step is
    // one more. True while the schedule has more. The nodes and their order are the same however it is cut.
    bool step(uint32_t layers);

private:
    // [SECTION] Chain helpers
    // Element-wise work between TP regions covers this rank's sequence-parallel shard of a activations.
    uint64_t elem(const std::string& name, uint64_t ops_per_a) {
        return comp(name, ops_per_a * dims_.act, 2 * dims_.act * dims_.E);
    }
    // Entering a TP region: with tpsp the sequence shards are all-gathered (comm_size = this rank's a);
    // plain TP holds the whole activation already.
    void tp_gather(const std::string& name) {
        if (p_.graph_tpsp()) blocking(name, CollectiveType::AllGather, dims_.a * dims_.E, GroupKind::Tensor);
    }
    // Leaving a TP region (forward) or summing an input gradient (backward) over the T x d partial sums.
    CollectiveType tp_exit() const {
        return p_.graph_tpsp() ? CollectiveType::ReduceScatter : CollectiveType::AllReduce;
    }
    std::string tag(uint64_t mb, uint64_t layer) const {
        return "mb" + std::to_string(mb) + ".L" + std::to_string(layer) + ".";
    }

    void layer_forward(uint64_t mb, uint64_t layer, const char* what);
    void layer_backward(uint64_t mb, uint64_t layer);
    void weight_gather(const std::string& n);
    void grad_sync(uint64_t mb, uint64_t layer_local, uint64_t after);
    void forward_head(uint64_t mb);
    void forward_tail(uint64_t mb);
    void backward_head(uint64_t mb);
    void backward_tail(uint64_t mb);
    void optimizer_step();
    // The 1F1B schedule of this stage, in order: a micro-batch's forward or backward, then the optimizer.
    enum class Pass : uint8_t { Forward, Backward, Optimizer };
    std::vector<std::pair<Pass, uint64_t>> schedule() const;

    std::vector<std::vector<uint64_t>> grad_colls_; // per local layer: its gradient collectives
    std::vector<uint64_t> emb_grads_;               // the embedding weight-gradient GEMMs
    std::vector<std::pair<Pass, uint64_t>> passes_; // schedule(), made by the first step()
    size_t pass_ = 0;                               // the pass step() works on
    uint64_t at_ = 0; // within a micro-batch's pass: 0 its head, 1..L its layers, L + 1 its tail
};

// [SECTION] Layer forward
// Sequence-parallel TP (Megatron, as STAGE): between TP regions a rank holds a = T*d/tp activations; an
// all-gather (comm_size = the shard) enters each region and a reduce-scatter (comm_size = the full T*d)
// leaves it. Context parallelism (sp) gathers keys and values around attention.
void TrainingBuilder::layer_forward(uint64_t mb, uint64_t layer, const char* what) {
    const ModelDims& D = dims_;
    const std::string n = tag(mb, layer) + what;
    weight_gather(n + "weights");
    elem(n + "attn_norm", 5);
    tp_gather(n + "attn_in");
    gemm(n + "qkv", D.T, D.qkv_n, D.d);
    // Context parallelism (STAGE's cp): each rank's queries attend to the whole sequence, so the keys and
    // values of the context group are all-gathered (comm_size = this rank's K or V shard).
    blocking(n + "k_gather", CollectiveType::AllGather, D.T * D.kv_tp * D.E, GroupKind::Context);
    blocking(n + "v_gather", CollectiveType::AllGather, D.T * D.kv_tp * D.E, GroupKind::Context);
    // The fused attention kernel and the q/k/v slices, counted as STAGE does (ModelDims::attn_fwd_ops).
    comp(n + "attention", D.attn_fwd_ops(), 2 * D.a * D.E);
    gemm(n + "out_proj", D.T, D.d, D.d / p_.tp);
    blocking(n + "attn_out", tp_exit(), D.T * D.d * D.E, GroupKind::Tensor);
    elem(n + "attn_residual", 1);
    elem(n + "ffn_norm", 5);
    tp_gather(n + "ffn_in");
    ffn_forward(n, tp_exit());
    elem(n + "ffn_residual", 1);
}

// ZeRO-3 / FSDP: a layer's weight shard (W / dp: STAGE maps fsdp to dp, so context ranks keep the same
// shard) is all-gathered over its data group before every use.
void TrainingBuilder::weight_gather(const std::string& n) {
    if (!p_.weight_sharded) return;
    const ModelDims& D = dims_;
    const uint64_t nd = layout_.size(GroupKind::Data);
    blocking(n + ".gather", CollectiveType::AllGather, ceil_div(D.w_dense(), nd) * D.E, GroupKind::Data);
    if (D.local_experts) {
        const uint64_t ne = layout_.size(GroupKind::ExpertData);
        blocking(n + ".gather_experts", CollectiveType::AllGather, ceil_div(D.w_experts(), ne) * D.E,
                 GroupKind::ExpertData);
    }
}

// [SECTION] Layer backward
// Per linear pair: the row-parallel layer's input gradient enters by all-gather, the column-parallel
// layer's input is gathered again for its weight gradient, and its input gradient leaves by reduce-scatter
// (3 AG + 2 RS per block, as in Megatron's sequence parallelism).
void TrainingBuilder::layer_backward(uint64_t mb, uint64_t layer) {
    const ModelDims& D = dims_;
    const std::string n = tag(mb, layer) + "bwd.";
    const uint64_t local = layer - first_layer_;
    if (p_.recompute) layer_forward(mb, layer, "recompute.");
    weight_gather(n + "weights");
    std::vector<uint64_t> dw; // this layer's weight-gradient GEMMs
    tp_gather(n + "ffn_dout");
    if (D.local_experts) {
        const uint64_t routed = D.T * p_.top_k;
        const uint64_t per_expert = std::max<uint64_t>(1, routed / D.local_experts);
        blocking(n + "combine", CollectiveType::AllToAll, routed * D.d * D.E / p_.tp, GroupKind::Expert);
        for (uint64_t e = 0; e < D.local_experts; ++e) {
            const std::string x = n + "expert" + std::to_string(e) + ".";
            gemm(x + "down_dx", per_expert, D.f_tp, D.d);
            dw.push_back(gemm(x + "down_dw", D.f_tp, D.d, per_expert));
            gemm(x + "up_dx", per_expert, D.d, D.up_n);
            dw.push_back(gemm(x + "up_dw", D.d, D.up_n, per_expert));
        }
        blocking(n + "dispatch", CollectiveType::AllToAll, routed * D.d * D.E / p_.tp, GroupKind::Expert);
        tp_gather(n + "ffn_in");
        gemm(n + "router_dx", D.T, D.d, p_.experts);
        dw.push_back(gemm(n + "router_dw", D.d, p_.experts, D.T));
    } else {
        gemm(n + "ffn_down_dx", D.T, D.f_tp, D.d);
        dw.push_back(gemm(n + "ffn_down_dw", D.f_tp, D.d, D.T));
        // Llama: the gradients of silu(gate) * up (2 T F/tp), and later the sum of the two input gradients.
        if (D.ffn_gate_bwd_ops()) comp(n + "ffn_gate", D.ffn_gate_bwd_ops(), 4 * D.T * D.f_tp * D.E);
        tp_gather(n + "ffn_in");
        dw.push_back(gemm(n + "ffn_up_dw", D.d, D.up_n, D.T));
        gemm(n + "ffn_up_dx", D.T, D.d, D.up_n);
        if (D.ffn_dx_sum_ops()) comp(n + "ffn_dx_sum", D.ffn_dx_sum_ops(), 3 * D.T * D.d * D.E);
    }
    blocking(n + "ffn_dx", tp_exit(), D.T * D.d * D.E, GroupKind::Tensor);
    elem(n + "ffn_norm", 6);
    tp_gather(n + "attn_dout");
    gemm(n + "out_proj_dx", D.T, D.d / p_.tp, D.d);
    dw.push_back(gemm(n + "out_proj_dw", D.d / p_.tp, D.d, D.T));
    comp(n + "attention", D.attn_bwd_ops(), 2 * D.a * D.E); // ModelDims: STAGE's kernel and slice gradients
    // Context parallelism: the gradients of the gathered keys and values are summed back to their owners
    // (comm_size = the whole context's K or V gradient).
    const uint64_t kv_full = D.T * p_.sp * D.kv_tp * D.E;
    blocking(n + "dk_scatter", CollectiveType::ReduceScatter, kv_full, GroupKind::Context);
    blocking(n + "dv_scatter", CollectiveType::ReduceScatter, kv_full, GroupKind::Context);
    tp_gather(n + "attn_in");
    dw.push_back(gemm(n + "qkv_dw", D.d, D.qkv_n, D.T));
    gemm(n + "qkv_dx", D.T, D.d, D.qkv_n);
    blocking(n + "attn_dx", tp_exit(), D.T * D.d * D.E, GroupKind::Tensor);
    elem(n + "attn_norm", 6);
    // The gradient collectives wait for every weight gradient of the layer, not for the input gradient.
    uint64_t all_dw = dw.back();
    for (size_t i = 0; i + 1 < dw.size(); ++i)
        em_.add_dep(all_dw, dw[i]);
    grad_sync(mb, local, all_dw);
}

// Gradient synchronisation of one layer, as STAGE emits it: over the data group an all-reduce (or, with
// sharded weights, a reduce-scatter into this rank's shard), then, with context parallelism, an all-reduce
// over the context group (each context rank computed the gradient of its own tokens). Both carry the
// layer's W / tp elements: STAGE's comm_size is the unreduced input for every collective of the chain.
// STAGE synchronises after every micro-batch; --grad-sync step only after the last one.
void TrainingBuilder::grad_sync(uint64_t mb, uint64_t local, uint64_t after) {
    if (p_.grad_sync == GradSync::Step && mb + 1 != p_.microbatches()) return;
    const ModelDims& D = dims_;
    const std::string n = tag(mb, first_layer_ + local) + "grad";
    const CollectiveType type = p_.weight_sharded ? CollectiveType::ReduceScatter : CollectiveType::AllReduce;
    uint64_t last = after;
    if (has(GroupKind::Data)) last = em_.coll(n, type, D.w_dense() * D.E, pg_[int(GroupKind::Data)], {last});
    if (has(GroupKind::Context))
        last = em_.coll(n + "_cp", CollectiveType::AllReduce, D.w_dense() * D.E, pg_[int(GroupKind::Context)],
                        {last});
    if (last != after) grad_colls_[local].push_back(last);
    if (D.local_experts && has(GroupKind::ExpertData))
        grad_colls_[local].push_back(
            em_.coll(n + "_experts", type, D.w_experts() * D.E, pg_[int(GroupKind::ExpertData)], {after}));
}

// [SECTION] Stage schedule
uint32_t p2p_tag(uint64_t boundary, uint64_t mb, uint64_t microbatches, bool backward) {
    return static_cast<uint32_t>(1 + 2 * (boundary * microbatches + mb) + (backward ? 1 : 0));
}

// A forward pass: the activations from the previous stage (or the input embedding), then the stage's
// layers (step()), then the activations to the next stage (or the output embedding and the loss).
void TrainingBuilder::forward_head(uint64_t mb) {
    const ModelDims& D = dims_;
    const std::string n = "mb" + std::to_string(mb) + ".";
    const uint64_t m = p_.microbatches();
    if (c_.pp > 0) {
        RankCoord prev = c_;
        prev.pp -= 1;
        extra_ =
            em_.recv(n + "recv_act", D.act * D.E, layout_.rank(prev), p2p_tag(c_.pp - 1, mb, m, false), {});
    } else {
        gemm(n + "in_emb", D.T, D.d, D.v_emb); // a one-hot matmul, as STAGE models the lookup
    }
}

void TrainingBuilder::forward_tail(uint64_t mb) {
    const ModelDims& D = dims_;
    const std::string n = "mb" + std::to_string(mb) + ".";
    const uint64_t m = p_.microbatches();
    if (c_.pp + 1 < p_.pp) {
        RankCoord next = c_;
        next.pp += 1;
        em_.send(n + "send_act", D.act * D.E, layout_.rank(next), p2p_tag(c_.pp, mb, m, false), {cursor_});
    } else {
        gemm(n + "out_emb", D.T, D.v_emb, D.d);
        elem(n + "loss", 5);
    }
}

// A backward pass: the gradient from the next stage (or the loss's), the layers in reverse (step()), then
// the gradient to the previous stage (or the input embedding's gradients).
void TrainingBuilder::backward_head(uint64_t mb) {
    const ModelDims& D = dims_;
    const std::string n = "mb" + std::to_string(mb) + ".";
    const uint64_t m = p_.microbatches();
    if (c_.pp + 1 < p_.pp) {
        RankCoord next = c_;
        next.pp += 1;
        extra_ = em_.recv(n + "recv_grad", D.act * D.E, layout_.rank(next), p2p_tag(c_.pp, mb, m, true), {});
    } else {
        elem(n + "loss_grad", 5);
        emb_grads_.push_back(gemm(n + "out_emb_dw", D.d, D.v_emb, D.T));
        gemm(n + "out_emb_dx", D.T, D.d, D.v_emb);
    }
}

void TrainingBuilder::backward_tail(uint64_t mb) {
    const ModelDims& D = dims_;
    const std::string n = "mb" + std::to_string(mb) + ".";
    const uint64_t m = p_.microbatches();
    if (c_.pp > 0) {
        RankCoord prev = c_;
        prev.pp -= 1;
        em_.send(n + "send_grad", D.act * D.E, layout_.rank(prev), p2p_tag(c_.pp - 1, mb, m, true),
                 {cursor_});
    } else {
        emb_grads_.push_back(gemm(n + "in_emb_dw", D.v_emb, D.d, D.T));
        gemm(n + "in_emb_dx", D.T, D.v_emb, D.d); // STAGE counts it although token ids need no gradient
    }
}

// After the last micro-batch: gradients of the embeddings (never sharded) are summed over micro-batches and
// all-reduced over the data group and, as STAGE does, over the tensor and context groups (at the full
// vocab x hidden size); every layer's weights are updated (2 ops per weight: accumulate and apply, STAGE's
// count).
void TrainingBuilder::optimizer_step() {
    const ModelDims& D = dims_;
    const uint64_t emb = p_.vocab * D.d;
    const bool has_emb = c_.pp == 0 || c_.pp + 1 == p_.pp;
    const int copies = (c_.pp == 0) + (c_.pp + 1 == p_.pp); // pp 1: both tables on one rank
    for (int e = 0; has_emb && e < copies; ++e) {
        // With pp 1 both tables are here; backward_head() records out_emb's gradient before in_emb's.
        const std::string n =
            copies == 2 ? (e == 0 ? "out_emb." : "in_emb.") : (c_.pp == 0 ? "in_emb." : "out_emb.");
        uint64_t acc = em_.comp(n + "grad_accumulate", emb, 2 * emb * D.Eg, {cursor_});
        for (size_t i = e; i < emb_grads_.size(); i += copies)
            em_.add_dep(acc, emb_grads_[i]);
        uint64_t last = acc;
        // STAGE's order of parallel dimensions: dp, tp, cp.
        // Without tpsp every TP rank saw all tokens, so the tables need no sum over the tensor group.
        const std::pair<GroupKind, const char*> dims[] = {
            {GroupKind::Data, "grad_dp"}, {GroupKind::Tensor, "grad_tp"}, {GroupKind::Context, "grad_cp"}};
        for (const auto& k : dims)
            if (has(k.first) && (p_.graph_tpsp() || k.first != GroupKind::Tensor))
                last =
                    em_.coll(n + k.second, CollectiveType::AllReduce, emb * D.E, pg_[int(k.first)], {last});
        em_.comp(n + "update", emb, 2 * emb * D.E, {last});
    }
    const uint64_t shard = layout_.size(GroupKind::Data);
    for (uint64_t local = 0; local < layers_per_stage_; ++local) {
        const std::string n = "L" + std::to_string(first_layer_ + local) + ".";
        uint64_t w = D.w_dense() + D.w_experts();
        if (p_.weight_sharded) w = ceil_div(w, shard);
        uint64_t acc = em_.comp(n + "grad_accumulate", w, 2 * w * D.Eg, {cursor_});
        for (uint64_t g : grad_colls_[local])
            em_.add_dep(acc, g);
        em_.comp(n + "update", w, 2 * w * D.E, {acc});
    }
}

// 1F1B: warm-up forwards (one fewer per later stage), then forward and backward alternating, then the
// remaining backwards, then the optimizer.
std::vector<std::pair<TrainingBuilder::Pass, uint64_t>> TrainingBuilder::schedule() const {
    std::vector<std::pair<Pass, uint64_t>> out;
    const uint64_t m = p_.microbatches();
    const uint64_t warmup = std::min<uint64_t>(p_.pp - c_.pp - 1, m);
    for (uint64_t i = 0; i < warmup; ++i)
        out.emplace_back(Pass::Forward, i);
    for (uint64_t i = 0; i + warmup < m; ++i) {
        out.emplace_back(Pass::Forward, i + warmup);
        out.emplace_back(Pass::Backward, i);
    }
    for (uint64_t i = m - warmup; i < m; ++i)
        out.emplace_back(Pass::Backward, i);
    out.emplace_back(Pass::Optimizer, 0);
    return out;
}

bool TrainingBuilder::step(uint32_t layers) {
    if (passes_.empty()) passes_ = schedule();
    const uint64_t L = layers_per_stage_;
    uint32_t done = 0;
    while (pass_ < passes_.size()) {
        if (done >= std::max(1u, layers)) return true;
        const auto [pass, mb] = passes_[pass_];
        if (pass == Pass::Optimizer) {
            optimizer_step();
            ++pass_, ++done;
        } else if (at_ == 0) {
            pass == Pass::Forward ? forward_head(mb) : backward_head(mb);
            ++at_;
        } else if (at_ <= L) { // forward in layer order, backward in reverse
            if (pass == Pass::Forward)
                layer_forward(mb, first_layer_ + at_ - 1, "");
            else
                layer_backward(mb, first_layer_ + L - at_);
            ++at_, ++done;
        } else {
            pass == Pass::Forward ? forward_tail(mb) : backward_tail(mb);
            ++pass_;
            at_ = 0;
        }
    }
    return false;
}

} // namespace

std::unique_ptr<RankTraceSteps> training_steps(const TransformerParams& p, const ParallelLayout& layout,
                                               uint32_t rank, trace::Trace& t) {
    return steps_of<TrainingBuilder>(p, layout, rank, t);
}

} // namespace astrolabe::generate

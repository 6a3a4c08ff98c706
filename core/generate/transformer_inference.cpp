// Inference steps of a transformer on one rank: a prefill (the whole prompt through every layer, writing
// the KV cache) or decode steps (one token per sequence per step, reading the KV cache), split by TP and PP
// (and EP for MoE layers). Forward only, so TP regions end in an all-reduce (no sequence parallelism), and
// the KV cache appears as MEM_LOAD / MEM_STORE nodes of its exact byte size.
#include "core/generate/chain_emitter.h"
#include "core/generate/transformer_internal.h"

#include <algorithm>
#include <memory>
#include <string>

namespace astrolabe::generate {

namespace {

using trace::CollectiveType;

// Sequences of one micro-batch on a rank (the data group splits them).
uint64_t samples_per_rank(const TransformerParams& p) {
    return p.micro_batch_size() / p.dp;
}

class InferenceBuilder : ChainEmitter {
public:
    // Tokens per rank: each sequence's whole prompt in prefill, one new token per sequence in decode.
    InferenceBuilder(const TransformerParams& p, const ParallelLayout& layout, uint32_t rank, trace::Trace& t)
        : ChainEmitter(p, layout, rank, t, samples_per_rank(p) * (p.phase == Phase::Prefill ? p.seq : 1)),
          samples_(samples_per_rank(p)) {}

    // Appends the next passes: at most `layers` layers of one (step, micro-batch) pass each, with the
    // sends, receives, logits and sampling between them. True while passes remain. The nodes and their order
    // are the same however it is cut.
    bool step(uint32_t layers) {
        const uint64_t steps = p_.phase == Phase::Decode ? p_.decode_steps : 1;
        const uint64_t m = p_.microbatches(), L = layers_per_stage_;
        uint32_t done = 0;
        while (pass_ < steps * m) {
            if (done >= std::max(1u, layers)) return true;
            const uint64_t s = pass_ / m, mb = pass_ % m; // steps outermost, then micro-batches
            if (at_ == 0) {
                head(s, mb);
                ++at_;
            } else if (at_ <= L) {
                layer(s, mb, first_layer_ + at_ - 1);
                ++at_, ++done;
            } else {
                tail(s, mb);
                ++pass_;
                at_ = 0;
            }
        }
        return false;
    }

private:
    // Without sequence parallelism every TP rank holds the whole T x d activations between regions.
    uint64_t elem(const std::string& name, uint64_t ops_per_elem) {
        const uint64_t n = dims_.T * dims_.d;
        return comp(name, ops_per_elem * n, 2 * n * dims_.E);
    }
    uint32_t tag(uint64_t s, uint64_t boundary, uint64_t mb, bool wrap) const {
        return static_cast<uint32_t>(1 + 2 * ((s * p_.pp + boundary) * p_.microbatches() + mb) +
                                     (wrap ? 1 : 0));
    }

    void layer(uint64_t s, uint64_t mb, uint64_t l);
    // One (step, micro-batch) pass is head, the stage's layers, tail.
    void head(uint64_t s, uint64_t mb);
    void tail(uint64_t s, uint64_t mb);

    uint64_t samples_;  // samples_per_rank()
    uint64_t pass_ = 0; // the (step, micro-batch) pass step() works on: step * micro-batches + micro-batch
    uint64_t at_ = 0;   // within it: 0 its head, 1..L its layers, L + 1 its tail
};

void InferenceBuilder::layer(uint64_t s, uint64_t mb, uint64_t l) {
    const ModelDims& D = dims_;
    const bool decode = p_.phase == Phase::Decode;
    const std::string n =
        "s" + std::to_string(s) + ".mb" + std::to_string(mb) + ".L" + std::to_string(l) + ".";
    const uint64_t full = D.T * D.d; // activations are whole on every TP rank between regions
    elem(n + "attn_norm", 5);
    gemm(n + "qkv", D.T, D.qkv_n, D.d);
    // Keys and values of the new tokens go to the cache: 2 x tokens x kv columns per TP rank.
    em_.mem(n + "kv_store", trace::NodeType::MemStore, 2 * D.T * D.kv_tp * D.E, {cursor_});
    // Attention: scores and weighted sum, 2 x tokens x context x (d / tp) multiply-accumulates.
    const uint64_t ctx = decode ? p_.context_len() + s : p_.seq;
    if (decode) {
        const uint64_t cache = 2 * samples_ * ctx * D.kv_tp * D.E;
        cursor_ = em_.mem(n + "kv_load", trace::NodeType::MemLoad, cache, {cursor_});
    }
    comp(n + "attention", 2 * D.T * ctx * (D.d / p_.tp),
         (2 * D.T * D.d / p_.tp + 2 * samples_ * ctx * D.kv_tp) * D.E);
    gemm(n + "out_proj", D.T, D.d, D.d / p_.tp);
    blocking(n + "attn_out", CollectiveType::AllReduce, full * D.E, GroupKind::Tensor);
    elem(n + "attn_residual", 1);
    elem(n + "ffn_norm", 5);
    ffn_forward(n, CollectiveType::AllReduce);
    elem(n + "ffn_residual", 1);
}

// The activations from the previous stage, or (first stage) the embedding of the prompt or of the tokens
// the last stage sampled.
void InferenceBuilder::head(uint64_t s, uint64_t mb) {
    const ModelDims& D = dims_;
    const std::string n = "s" + std::to_string(s) + ".mb" + std::to_string(mb) + ".";
    const uint64_t act = D.T * D.d * D.E;
    if (c_.pp > 0) {
        RankCoord prev = c_;
        prev.pp -= 1;
        extra_ = em_.recv(n + "recv_act", act, layout_.rank(prev), tag(s, c_.pp - 1, mb, false), {});
    } else {
        if (s > 0 && p_.pp > 1) { // the previous step's sampled tokens come back from the last stage
            RankCoord last = c_;
            last.pp = p_.pp - 1;
            extra_ =
                em_.recv(n + "recv_tokens", samples_ * 4, layout_.rank(last), tag(s - 1, 0, mb, true), {});
        }
        gemm(n + "in_emb", D.T, D.d, D.v_tp);
    }
}

// The activations to the next stage, or (last stage) the logits, sampling, and the tokens back to the first.
void InferenceBuilder::tail(uint64_t s, uint64_t mb) {
    const ModelDims& D = dims_;
    const std::string n = "s" + std::to_string(s) + ".mb" + std::to_string(mb) + ".";
    const uint64_t act = D.T * D.d * D.E;
    if (c_.pp + 1 < p_.pp) {
        RankCoord next = c_;
        next.pp += 1;
        em_.send(n + "send_act", act, layout_.rank(next), tag(s, c_.pp, mb, false), {cursor_});
        return;
    }
    // Logits of each sequence's last token only (the one being generated), then sampling.
    gemm(n + "logits", samples_, D.v_tp, D.d);
    blocking(n + "logits_gather", CollectiveType::AllGather, samples_ * D.v_tp * D.E, GroupKind::Tensor);
    comp(n + "sample", samples_ * p_.vocab, samples_ * p_.vocab * D.E);
    const uint64_t steps = p_.phase == Phase::Decode ? p_.decode_steps : 1;
    if (p_.pp > 1 && s + 1 < steps) {
        RankCoord first = c_;
        first.pp = 0;
        em_.send(n + "send_tokens", samples_ * 4, layout_.rank(first), tag(s, 0, mb, true), {cursor_});
    }
}

} // namespace

std::unique_ptr<RankTraceSteps> inference_steps(const TransformerParams& p, const ParallelLayout& layout,
                                                uint32_t rank, trace::Trace& t) {
    return steps_of<InferenceBuilder>(p, layout, rank, t);
}

} // namespace astrolabe::generate

// Parameters of the transformer workload generator (training and inference steps of GPT/Llama-like
// models), their checks, named presets, and the name/value form shared by the CLI flags and the scenario
// JSON (`{"generate": {"kind": "transformer", "layers": "4", ...}}`), so a shared link can carry a whole
// workload as a handful of strings. Sizes are in elements unless a name says bytes; docs/generate.md has
// the meaning of every parameter and the accounting conventions (which follow STAGE's).
#pragma once

#include "core/base/status.h"

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace astrolabe::generate {

enum class ModelFamily : uint8_t { Gpt, Llama };
enum class Phase : uint8_t { Training, Prefill, Decode };
// When data-parallel gradients are synchronised: after every micro-batch (STAGE's plan) or once per step.
enum class GradSync : uint8_t { Microbatch, Step };
// How ranks are numbered over the grid (parallel_layout.h): data-parallel fastest (STAGE's, the default)
// or tensor-parallel fastest, then context, data, pipeline (Megatron-LM's default "tp-cp-ep-dp-pp"), which
// keeps a tensor-parallel group on consecutive ranks, i.e. inside one node of a real system.
enum class RankOrder : uint8_t { DpFirst, TpFirst };

struct TransformerParams {
    ModelFamily model = ModelFamily::Gpt;
    Phase phase = Phase::Training;
    uint64_t layers = 4;
    uint64_t hidden = 1024;
    uint64_t ffn = 0; // 0 = 4 x hidden
    uint64_t heads = 16;
    uint64_t kv_heads = 0; // 0 = heads
    uint64_t seq = 512;
    uint64_t vocab = 32000;
    uint64_t batch = 8;       // global batch, samples per step
    uint64_t micro_batch = 0; // global micro-batch (samples per micro-step over all DP replicas); 0 = batch
    uint32_t dp = 1, tp = 1, pp = 1, sp = 1, ep = 1;
    uint64_t experts = 0; // 0 = dense FFN; else MoE FFN in every layer
    uint64_t top_k = 1;
    bool weight_sharded = false; // ZeRO-3 / FSDP: weights all-gathered per use, gradients reduce-scattered
    bool recompute = false;      // activation recomputation: each layer's forward runs again before backward
    // fp32 gradients and master weights for the optimizer (its nodes' tensor_size); as in STAGE, no
    // collective or num_ops changes: gradients are reduced at dtype_bytes.
    bool mixed_precision = false;
    uint64_t dtype_bytes = 1; // bytes per element; 1 = element counts, as STAGE writes them
    GradSync grad_sync = GradSync::Microbatch;
    RankOrder rank_order = RankOrder::DpFirst;
    // Reproduce STAGE @ 3a7f49c where it departs from the model asked for: `llama` without mixed precision
    // builds its GPT graph, fewer KV heads than tp are split fractionally, and its llama graph keeps
    // sequence-parallel TP whatever --tpsp says.
    bool stage_compat = false;
    // Megatron sequence parallelism inside the TP group (STAGE's --tpsp, default on): activations between
    // TP regions are split over tp, regions entered by all-gather and left by reduce-scatter. Off: plain
    // TP, activations replicated, regions left by all-reduce.
    bool tpsp = true;
    uint64_t context = 0;      // inference: KV-cache length before the step (0 = seq)
    uint64_t decode_steps = 1; // inference decode: tokens generated, one step each

    uint64_t ffn_size() const { return ffn ? ffn : 4 * hidden; }
    uint64_t kv_head_count() const { return kv_heads ? kv_heads : heads; }
    // The graph actually built: `model`, except STAGE's llama-without-mixed-precision = GPT (stage_compat).
    ModelFamily graph() const {
        return stage_compat && model == ModelFamily::Llama && !mixed_precision ? ModelFamily::Gpt : model;
    }
    // KV heads of the graph built: GPT is multi-head attention (kv-heads applies to llama), as STAGE's GPT
    // graph, which ignores --kvhead.
    uint64_t graph_kv_heads() const { return graph() == ModelFamily::Gpt ? heads : kv_head_count(); }
    // Sequence-parallel TP in the graph built: STAGE's llama graph has only tpsp templates (stage_compat).
    bool graph_tpsp() const { return tpsp || (stage_compat && graph() == ModelFamily::Llama); }
    uint64_t micro_batch_size() const { return micro_batch ? micro_batch : batch; }
    uint64_t microbatches() const { return batch / micro_batch_size(); }
    uint64_t context_len() const { return context ? context : seq; }
    uint64_t npus() const { return uint64_t(dp) * tp * pp * sp; }
};

// Every problem with the parameters at once, naming the parameter and what was expected.
Status check(const TransformerParams& p);

// Sets one parameter from its name (the CLI flag without dashes, e.g. "micro-batch") and text value.
// Flags are given as "true"/"false" (an empty value means true). The error names the parameter.
Status set_param(TransformerParams& p, const std::string& name, const std::string& value);

// Names accepted by set_param, with a one-line help each, in a stable order (CLI help, docs).
const std::vector<std::pair<std::string, std::string>>& param_help();

// Well-known models and their usual parallel layout; `preset` is applied before any override.
Status apply_preset(TransformerParams& p, const std::string& name);
std::vector<std::string> preset_names();
// The spellings of ModelFamily in value order ("gpt", "llama"): the parameter's parser and menus use them.
std::vector<std::string> model_family_names();
// The spellings of RankOrder in value order ("dp-first", "tp-first").
std::vector<std::string> rank_order_names();

// Applies a list of (name, value) pairs in order; "preset" is applied first wherever it appears.
Status apply_params(TransformerParams& p, const std::vector<std::pair<std::string, std::string>>& named);

} // namespace astrolabe::generate

#include "core/generate/transformer_params.h"

#include "core/config/spellings.h"

#include <algorithm>
#include <cctype>

namespace astrolabe::generate {

namespace {

bool parse_u64(const std::string& s, uint64_t& out) {
    if (s.empty() || s.size() > 19) return false;
    uint64_t v = 0;
    for (char c : s) {
        if (!std::isdigit(static_cast<unsigned char>(c))) return false;
        v = v * 10 + uint64_t(c - '0');
    }
    out = v;
    return true;
}

// The spellings of each choice parameter, in its enum's value order (value i is spelled names[i]).
const char* const kModelNames[] = {"gpt", "llama"};
const char* const kPhaseNames[] = {"training", "prefill", "decode"};
const char* const kGradSyncNames[] = {"microbatch", "step"};
const char* const kRankOrderNames[] = {"dp-first", "tp-first"};

// Sets `field` to the value spelled `value`; otherwise an error naming the parameter, the spellings and
// the nearest of them ("did you mean 'tp-first'?"), as config files' choices are reported.
template <typename E, size_t N>
Status set_choice(const std::string& name, const std::string& value, E& field,
                  const char* const (&names)[N]) {
    for (size_t i = 0; i < N; ++i)
        if (value == names[i]) {
            field = static_cast<E>(i);
            return Status::ok();
        }
    return Status::error(name + ": '" + value + "'; " + config::expected_choice({names, N}, value));
}

bool parse_bool(std::string s, bool& out) {
    for (auto& ch : s)
        ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
    if (s.empty() || s == "true" || s == "1" || s == "yes") {
        out = true;
        return true;
    }
    if (s == "false" || s == "0" || s == "no") {
        out = false;
        return true;
    }
    return false;
}

struct Preset {
    const char* name;
    const char* what;
    std::vector<std::pair<const char*, const char*>> values;
};

// Public architecture numbers of each model; the parallel layout and batch are a plausible starting point
// sized so that the default generates quickly (override --batch, --micro-batch and the degrees freely).
const std::vector<Preset>& presets() {
    static const std::vector<Preset> kPresets = {
        {"gpt3-175b",
         "GPT-3 175B: 96 layers, hidden 12288, 96 heads, seq 2048; TP 8 x PP 8 x DP 8",
         {{"model", "gpt"},
          {"layers", "96"},
          {"hidden", "12288"},
          {"ffn", "49152"},
          {"heads", "96"},
          {"kv-heads", "96"},
          {"seq", "2048"},
          {"vocab", "50304"}, // 50257 padded to a multiple of 128, as Megatron does
          {"batch", "64"},
          {"micro-batch", "8"},
          {"dp", "8"},
          {"tp", "8"},
          {"pp", "8"},
          {"dtype-bytes", "2"}}},
        {"llama3-8b",
         "Llama-3 8B: 32 layers, hidden 4096, FFN 14336, 32 heads / 8 KV heads, seq 8192; TP 2 x DP 4",
         {{"model", "llama"},
          {"layers", "32"},
          {"hidden", "4096"},
          {"ffn", "14336"},
          {"heads", "32"},
          {"kv-heads", "8"},
          {"seq", "8192"},
          {"vocab", "128256"},
          {"batch", "16"},
          {"micro-batch", "4"},
          {"dp", "4"},
          {"tp", "2"},
          {"pp", "1"},
          {"dtype-bytes", "2"}}},
        {"llama3-70b",
         "Llama-3 70B: 80 layers, hidden 8192, FFN 28672, 64 heads / 8 KV heads, seq 8192; TP 8 x PP 4 x DP "
         "2",
         {{"model", "llama"},
          {"layers", "80"},
          {"hidden", "8192"},
          {"ffn", "28672"},
          {"heads", "64"},
          {"kv-heads", "8"},
          {"seq", "8192"},
          {"vocab", "128256"},
          {"batch", "16"},
          {"micro-batch", "2"},
          {"dp", "2"},
          {"tp", "8"},
          {"pp", "4"},
          {"dtype-bytes", "2"}}},
        {"mixtral-8x7b",
         "Mixtral 8x7B: 32 layers, hidden 4096, 8 experts of FFN 14336, top-2, 32/8 heads; EP 8 = DP 8",
         {{"model", "llama"},
          {"layers", "32"},
          {"hidden", "4096"},
          {"ffn", "14336"},
          {"heads", "32"},
          {"kv-heads", "8"},
          {"seq", "4096"},
          {"vocab", "32000"},
          {"batch", "32"},
          {"micro-batch", "8"},
          {"dp", "8"},
          {"tp", "1"},
          {"pp", "1"},
          {"ep", "8"},
          {"experts", "8"},
          {"top-k", "2"},
          {"dtype-bytes", "2"}}},
    };
    return kPresets;
}

} // namespace

const std::vector<std::pair<std::string, std::string>>& param_help() {
    static const std::vector<std::pair<std::string, std::string>> kHelp = {
        {"preset", "gpt3-175b, llama3-8b, llama3-70b or mixtral-8x7b; other parameters override it"},
        {"model", "gpt (2-matrix FFN) or llama (gated 3-matrix FFN); default gpt"},
        {"phase", "training (default), prefill or decode (inference steps)"},
        {"layers", "transformer layers (default 4)"},
        {"hidden", "hidden size d (default 1024)"},
        {"ffn", "FFN inner size (default 4 x hidden)"},
        {"heads", "attention heads (default 16)"},
        {"kv-heads", "llama: key/value heads, < heads for GQA (default = heads); gpt is multi-head"},
        {"seq", "sequence length in tokens (default 512)"},
        {"vocab", "vocabulary size (default 32000)"},
        {"batch", "global batch in samples per step (default 8)"},
        {"micro-batch", "global micro-batch: samples per micro-step over all DP replicas (default = batch)"},
        {"dp", "data-parallel degree (default 1)"},
        {"tp", "tensor-parallel degree, with sequence-parallel activations (default 1)"},
        {"pp", "pipeline-parallel degree, 1F1B schedule (default 1)"},
        {"sp", "context-parallel degree: the sequence split, keys/values all-gathered (default 1)"},
        {"ep", "expert-parallel degree; divides dp (default 1)"},
        {"experts", "experts per MoE layer; 0 = dense FFN (default 0)"},
        {"top-k", "experts each token is routed to (default 1)"},
        {"weight-sharded", "ZeRO-3/FSDP: weights all-gathered before use, gradients reduce-scattered"},
        {"recompute", "activation recomputation: each layer's forward runs again before its backward"},
        {"mixed-precision",
         "fp32 gradients for the optimizer (tensor_size only; collectives keep dtype-bytes)"},
        {"dtype-bytes", "bytes per element (default 1: element counts, as STAGE writes them)"},
        {"grad-sync", "microbatch (default, as STAGE) or step: when DP gradients are reduced"},
        {"rank-order",
         "dp-first (default, STAGE's: rank = dp + D (tp + T (sp + C pp))) or tp-first (Megatron's: "
         "rank = tp + T (sp + C (dp + D pp)), a TP group on consecutive ranks, inside a node)"},
        {"tpsp",
         "sequence-parallel TP activations (default true, STAGE's --tpsp); false: plain TP, all-reduces"},
        {"stage-compat",
         "reproduce STAGE @ 3a7f49c's departures: llama without mixed precision = its GPT graph, "
         "kv-heads < tp split fractionally, llama keeps tpsp (default false)"},
        {"context", "inference: KV-cache tokens before the step (default = seq)"},
        {"decode-steps", "inference decode: tokens generated, one step each (default 1)"},
    };
    return kHelp;
}

Status set_param(TransformerParams& p, const std::string& name, const std::string& value) {
    auto bad = [&](const char* expected) {
        return Status::error(name + ": '" + value + "'; " + expected + " was expected");
    };
    uint64_t v = 0;
    auto num = [&](uint64_t& field) {
        if (!parse_u64(value, v)) return bad("a whole number");
        field = v;
        return Status::ok();
    };
    auto deg = [&](uint32_t& field) {
        if (!parse_u64(value, v) || v == 0 || v > (1u << 24)) return bad("a degree 1..16777216");
        field = static_cast<uint32_t>(v);
        return Status::ok();
    };
    auto flag = [&](bool& field) { return parse_bool(value, field) ? Status::ok() : bad("true or false"); };
    if (name == "preset") return apply_preset(p, value);
    if (name == "model") return set_choice(name, value, p.model, kModelNames);
    if (name == "phase") return set_choice(name, value, p.phase, kPhaseNames);
    if (name == "grad-sync") return set_choice(name, value, p.grad_sync, kGradSyncNames);
    if (name == "rank-order") return set_choice(name, value, p.rank_order, kRankOrderNames);
    if (name == "layers") return num(p.layers);
    if (name == "hidden") return num(p.hidden);
    if (name == "ffn") return num(p.ffn);
    if (name == "heads") return num(p.heads);
    if (name == "kv-heads") return num(p.kv_heads);
    if (name == "seq") return num(p.seq);
    if (name == "vocab") return num(p.vocab);
    if (name == "batch") return num(p.batch);
    if (name == "micro-batch") return num(p.micro_batch);
    if (name == "experts") return num(p.experts);
    if (name == "top-k") return num(p.top_k);
    if (name == "dtype-bytes") return num(p.dtype_bytes);
    if (name == "context") return num(p.context);
    if (name == "decode-steps") return num(p.decode_steps);
    if (name == "dp") return deg(p.dp);
    if (name == "tp") return deg(p.tp);
    if (name == "pp") return deg(p.pp);
    if (name == "sp") return deg(p.sp);
    if (name == "ep") return deg(p.ep);
    if (name == "weight-sharded") return flag(p.weight_sharded);
    if (name == "recompute") return flag(p.recompute);
    if (name == "mixed-precision") return flag(p.mixed_precision);
    if (name == "stage-compat") return flag(p.stage_compat);
    if (name == "tpsp") return flag(p.tpsp);
    return Status::error(name + ": unknown transformer parameter (see generate transformer --help)");
}

Status apply_preset(TransformerParams& p, const std::string& name) {
    for (const Preset& pr : presets()) {
        if (name != pr.name) continue;
        TransformerParams fresh;
        fresh.phase = p.phase;
        for (const auto& kv : pr.values) {
            Status st = set_param(fresh, kv.first, kv.second);
            if (!st.is_ok()) return st;
        }
        p = fresh;
        return Status::ok();
    }
    std::string known;
    for (const Preset& pr : presets())
        known += (known.empty() ? "" : ", ") + std::string(pr.name);
    return Status::error("preset: '" + name + "' is not a known preset; one of " + known + " was expected");
}

std::vector<std::string> model_family_names() {
    return {std::begin(kModelNames), std::end(kModelNames)};
}

std::vector<std::string> rank_order_names() {
    return {std::begin(kRankOrderNames), std::end(kRankOrderNames)};
}

std::vector<std::string> preset_names() {
    std::vector<std::string> out;
    for (const Preset& pr : presets())
        out.emplace_back(pr.name);
    return out;
}

Status apply_params(TransformerParams& p, const std::vector<std::pair<std::string, std::string>>& named) {
    Status problems;
    for (const auto& kv : named)
        if (kv.first == "preset") problems.merge(apply_preset(p, kv.second));
    for (const auto& kv : named)
        if (kv.first != "preset") problems.merge(set_param(p, kv.first, kv.second));
    return problems;
}

Status check(const TransformerParams& p) {
    Status s;
    auto need = [&s](bool ok, const std::string& msg) {
        if (!ok) s.add(msg);
    };
    auto n = [](uint64_t v) { return std::to_string(v); };
    need(p.layers >= 1 && p.layers <= 100000, "layers: " + n(p.layers) + "; 1..100000 was expected");
    need(p.hidden >= 1 && p.hidden <= (1u << 20), "hidden: " + n(p.hidden) + "; 1..1048576 was expected");
    need(p.ffn_size() >= 1 && p.ffn_size() <= (1u << 24),
         "ffn: " + n(p.ffn_size()) + "; 1..16777216 was expected");
    need(p.heads >= 1 && p.hidden % std::max<uint64_t>(p.heads, 1) == 0,
         "heads: " + n(p.heads) + "; a divisor of hidden (" + n(p.hidden) + ") was expected");
    need(p.kv_head_count() >= 1 && p.heads % std::max<uint64_t>(p.kv_head_count(), 1) == 0,
         "kv-heads: " + n(p.kv_head_count()) + "; a divisor of heads (" + n(p.heads) + ") was expected");
    need(p.seq >= 1 && p.seq <= (1u << 24), "seq: " + n(p.seq) + "; 1..16777216 was expected");
    need(p.vocab >= 1 && p.vocab <= (1u << 24), "vocab: " + n(p.vocab) + "; 1..16777216 was expected");
    need(p.dtype_bytes >= 1 && p.dtype_bytes <= 8,
         "dtype-bytes: " + n(p.dtype_bytes) + "; 1..8 was expected");
    need(p.batch >= 1, "batch: 0; a positive number of samples was expected");
    const uint64_t mb = p.micro_batch_size();
    need(mb >= 1 && p.batch % std::max<uint64_t>(mb, 1) == 0,
         "micro-batch: " + n(mb) + "; a divisor of batch (" + n(p.batch) + ") was expected");
    if (p.phase == Phase::Training) {
        // A replica's share of a micro-batch may be a fraction of a sample (STAGE allows it): only whole
        // tokens per rank are needed.
        need((mb * p.seq) % (uint64_t(p.dp) * p.sp) == 0,
             "micro-batch: " + n(mb) + "; micro-batch x seq (" + n(mb * p.seq) + ") divisible by dp x sp (" +
                 n(uint64_t(p.dp) * p.sp) +
                 ") was expected (the tokens of a micro-batch are split over them)");
    } else {
        need(mb % p.dp == 0, "micro-batch: " + n(mb) + "; a multiple of dp (" + n(p.dp) +
                                 ") was expected (each replica gets micro-batch / dp whole sequences)");
    }
    need(p.npus() <= (1u << 24),
         "dp x tp x pp x sp: " + n(p.npus()) + " NPUs; at most 16777216 was expected");
    need(p.hidden % p.tp == 0, "tp: " + n(p.tp) + "; a divisor of hidden (" + n(p.hidden) + ") was expected");
    need(p.ffn_size() % p.tp == 0,
         "tp: " + n(p.tp) + "; a divisor of ffn (" + n(p.ffn_size()) + ") was expected");
    need(p.kv_head_count() % p.tp == 0 || p.tp % p.kv_head_count() == 0,
         "tp: " + n(p.tp) + "; a divisor or multiple of kv-heads (" + n(p.kv_head_count()) +
             ") was expected");
    if (p.stage_compat && p.graph_kv_heads() < p.tp)
        need(p.hidden * p.graph_kv_heads() % (p.heads * p.tp) == 0,
             "tp: " + n(p.tp) + "; with stage-compat and fewer kv-heads (" + n(p.graph_kv_heads()) +
                 ") than tp, hidden x kv-heads divisible by heads x tp was expected (STAGE splits K/V "
                 "columns)");
    need(p.pp <= p.layers, "pp: " + n(p.pp) + "; at most layers (" + n(p.layers) +
                               ") was expected (every stage holds a layer)");
    need(p.seq % p.sp == 0, "sp: " + n(p.sp) + "; a divisor of seq (" + n(p.seq) + ") was expected");
    need(p.vocab % p.tp == 0, "tp: " + n(p.tp) + "; a divisor of vocab (" + n(p.vocab) + ") was expected");
    if (p.experts > 0) {
        need(p.top_k >= 1 && p.top_k <= p.experts,
             "top-k: " + n(p.top_k) + "; 1..experts (" + n(p.experts) + ") was expected");
        need(p.experts % p.ep == 0,
             "ep: " + n(p.ep) + "; a divisor of experts (" + n(p.experts) + ") was expected");
        need(p.dp % p.ep == 0, "ep: " + n(p.ep) + "; a divisor of dp (" + n(p.dp) + ") was expected");
        need(p.sp == 1, "sp: " + n(p.sp) + "; MoE layers are generated with sp 1 only");
    } else {
        need(p.ep == 1, "ep: " + n(p.ep) + "; expert parallelism needs --experts (MoE layers)");
    }
    if (p.phase != Phase::Training) {
        need(!p.weight_sharded, "weight-sharded: inference steps keep whole weights; false was expected");
        need(!p.recompute, "recompute: inference has no backward pass; false was expected");
        need(p.sp == 1, "sp: " + n(p.sp) + "; inference is generated with sp 1 only");
        need(p.decode_steps >= 1 && p.decode_steps <= 100000,
             "decode-steps: " + n(p.decode_steps) + "; 1..100000 was expected");
    }
    // Guards against sizes that overflow 64-bit counters or traces too big to write: the largest GEMM's
    // m*n*k and the nodes one rank would hold (about 60 per layer and micro-batch, more with experts).
    if (s.is_ok()) {
        const double tokens = double(mb) * double(p.seq) / (double(p.dp) * p.sp);
        const double widest = std::max({double(p.ffn_size()) * 2, double(p.vocab), double(p.hidden) * 3});
        need(tokens * double(p.hidden) * widest < 4e18,
             "hidden / ffn / vocab / seq / micro-batch: a GEMM of " + std::to_string(uint64_t(tokens)) +
                 " x " + n(p.hidden) + " x " + std::to_string(uint64_t(widest)) +
                 " overflows 64-bit num_ops");
        const double steps = p.phase == Phase::Decode ? double(p.decode_steps) : 1.0;
        const double per_layer = 60.0 + 4.0 * double(p.experts ? p.experts / p.ep : 0);
        const double nodes =
            double(p.microbatches()) * double((p.layers + p.pp - 1) / p.pp) * per_layer * steps;
        need(nodes < 5e7,
             "batch / micro-batch / layers: about " + std::to_string(uint64_t(nodes)) +
                 " nodes per rank; at most 4000000 was expected (fewer micro-batches or more pp)");
    }
    const uint64_t tags = 2 * p.microbatches() * p.pp * std::max<uint64_t>(p.decode_steps, 1);
    need(tags < (1ull << 30), "batch / micro-batch: too many micro-batches for 32-bit send/recv tags");
    return s;
}

} // namespace astrolabe::generate

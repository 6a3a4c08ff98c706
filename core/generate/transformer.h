// Transformer workloads as Chakra traces: one training step (forward and backward of every micro-batch in a
// 1F1B pipeline schedule, gradient synchronisation, optimizer update) or inference steps (prefill, decode),
// for a GPT/Llama-like model split by DP x TP x SP x PP (and EP for MoE layers).
//
// Each rank's trace is built alone from arithmetic on its coordinates, so a cluster of any size streams out
// one rank at a time in memory linear in one rank's nodes. The accounting (what a node's num_ops counts,
// comm_size conventions, which collectives a layer needs) follows STAGE so totals can be cross-checked;
// docs/generate.md lists every node and its closed form.
#pragma once

#include "core/base/status.h"
#include "core/generate/parallel_layout.h"
#include "core/generate/trace_sink.h"
#include "core/generate/transformer_params.h"
#include "core/trace/trace_types.h"

#include <array>
#include <cstdint>
#include <functional>
#include <string>

namespace astrolabe::generate {

// The trace of one rank (training or inference, by p.phase). `p` must have passed check().
trace::Trace transformer_trace(const TransformerParams& p, const ParallelLayout& layout, uint32_t rank);

// Checks `p`, then writes every rank's trace and (when groups are used) the comm-group JSON to `sink`.
// `progress(done, total)` is called after each rank.
Status generate_transformer(const TransformerParams& p, TraceSink& sink,
                            const std::function<void(uint32_t, uint32_t)>& progress = {});

// What one rank's trace holds, for --dry-run and tests.
struct RankSummary {
    std::array<uint64_t, trace::kNodeTypeCount> nodes{};                               // by NodeType
    std::array<std::array<uint64_t, trace::kCollectiveTypeCount>, kGroupKinds> coll{}; // bytes by kind, type
    uint64_t send_bytes = 0, recv_bytes = 0, mem_bytes = 0, num_ops = 0;
};
RankSummary summarize(const trace::Trace& t, const ParallelLayout& layout);

// The plan: one summary per pipeline stage (ranks of a stage differ only in peers and group ids), as text.
std::string plan_text(const TransformerParams& p);

} // namespace astrolabe::generate

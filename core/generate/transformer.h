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
#include <memory>
#include <string>

namespace astrolabe::generate {

// The trace of one rank (training or inference, by p.phase). `p` must have passed check(). Runs
// TransformerTraceBuild to the end.
trace::Trace transformer_trace(const TransformerParams& p, const ParallelLayout& layout, uint32_t rank);

class RankTraceSteps; // transformer_internal.h

// transformer_trace in pieces of a few layers, for a front end that must not block for long (the
// browser's search makes a 96-layer stage of 8 micro-batches, about 55 ms at once, between frames). The
// pieces append the same nodes in the same order as one build, so how it is cut cannot change the trace.
class TransformerTraceBuild {
public:
    // `p` and `layout` must outlive the build.
    TransformerTraceBuild(const TransformerParams& p, const ParallelLayout& layout, uint32_t rank);
    ~TransformerTraceBuild();
    TransformerTraceBuild(const TransformerTraceBuild&) = delete; // the builder refers to trace_
    TransformerTraceBuild& operator=(const TransformerTraceBuild&) = delete;
    // Appends at most `layers_per_step` layer passes (a layer's forward or backward for one micro-batch,
    // with the sends, receives and embeddings next to them). True while more remains.
    bool step();
    // The trace; after step() returned false.
    trace::Trace take();
    // 8: about 2 ms for a GPT-3 175B layer pass of one micro-batch's natively (0.25 ms each).
    uint32_t layers_per_step = 8;

private:
    trace::Trace trace_;
    std::unique_ptr<RankTraceSteps> steps_;
    bool done_ = false;
};

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

// The per-phase builders behind transformer_trace() (internal to core/generate).
#pragma once

#include "core/generate/parallel_layout.h"
#include "core/generate/transformer_params.h"
#include "core/trace/trace_types.h"

#include <cstdint>

namespace astrolabe::generate {

inline uint64_t ceil_div(uint64_t a, uint64_t b) {
    return b ? (a + b - 1) / b : a;
}

// Appends rank `rank`'s nodes for one training step / the inference steps to `t`.
void build_training(const TransformerParams& p, const ParallelLayout& layout, uint32_t rank, trace::Trace& t);
void build_inference(const TransformerParams& p, const ParallelLayout& layout, uint32_t rank,
                     trace::Trace& t);

} // namespace astrolabe::generate

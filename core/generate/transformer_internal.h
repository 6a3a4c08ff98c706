// The per-phase builders behind transformer_trace() (internal to core/generate).
#pragma once

#include "core/generate/parallel_layout.h"
#include "core/generate/transformer_params.h"
#include "core/trace/trace_types.h"

#include <cstdint>
#include <memory>

namespace astrolabe::generate {

inline uint64_t ceil_div(uint64_t a, uint64_t b) {
    return b ? (a + b - 1) / b : a;
}

// One rank's trace made a few layers at a time (TransformerTraceBuild, transformer.h): each step() appends
// at most `layers` layer passes with what lies between them, in the order a whole build appends them.
class RankTraceSteps {
public:
    virtual ~RankTraceSteps() = default;
    virtual bool step(uint32_t layers) = 0; // true while more remains
};

// A builder class with a (params, layout, rank, trace) constructor and step(layers), as a RankTraceSteps.
template <class Builder>
std::unique_ptr<RankTraceSteps> steps_of(const TransformerParams& p, const ParallelLayout& layout,
                                         uint32_t rank, trace::Trace& t) {
    struct Steps final : RankTraceSteps {
        Steps(const TransformerParams& p, const ParallelLayout& layout, uint32_t rank, trace::Trace& t)
            : b(p, layout, rank, t) {}
        bool step(uint32_t layers) override { return b.step(layers); }
        Builder b;
    };
    return std::make_unique<Steps>(p, layout, rank, t);
}

// The builders for one training step / the inference steps of rank `rank`, appending to `t` (which must
// outlive them).
std::unique_ptr<RankTraceSteps> training_steps(const TransformerParams& p, const ParallelLayout& layout,
                                               uint32_t rank, trace::Trace& t);
std::unique_ptr<RankTraceSteps> inference_steps(const TransformerParams& p, const ParallelLayout& layout,
                                                uint32_t rank, trace::Trace& t);

} // namespace astrolabe::generate

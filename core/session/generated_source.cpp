#include "core/session/generated_source.h"

#include "core/base/assert.h"
#include "core/config/config_parse.h"
#include "core/generate/read_params.h"
#include "core/generate/transformer.h"
#include "core/generate/transformer_symmetry.h"
#include "core/session/generated_workload.h"
#include "core/session/graph_cache.h"
#include "core/trace/trace_reader.h"

#include <algorithm>
#include <unordered_map>

namespace astrolabe {

namespace {

class TransformerSource final : public TraceSource {
public:
    TransformerSource(const generate::TransformerParams& p,
                      std::vector<std::pair<std::string, std::string>> params)
        : translations_(p,
                        [this](uint32_t rank, trace::Trace&& t) {
                            pending_rank_ = rank;
                            pending_ = std::make_unique<trace::Trace>(std::move(t));
                        }),
          params_(std::move(params)) {}
    // Per pipeline stage: its trace a few layers a piece (and its translations learned once it is whole),
    // then its encoding for the first build, kNodesPerPiece nodes a piece, then the trace freed as many
    // nodes a piece (60 K nodes of strings and vectors took 15 to 20 ms to free at once). A 96-layer stage
    // of GPT-3 175B with 128 micro-batches is about 0.6 s of trace and 35 ms of encoding natively, cut so
    // into about 385 + 8 + 8 pieces. True while pieces remain. Every stage is read before the source is
    // handed out.
    bool step() {
        if (!pending_) {
            translations_.step(); // hands the stage's trace to pending_ once it is whole
            return true;
        }
        if (!encoded_) {
            if (!encoder_) encoder_ = std::make_unique<trace::TraceEncoder>(*pending_);
            if (encoder_->step(kNodesPerPiece)) return true;
            stage_bytes_[pending_rank_] = encoder_->take(); // the first build reads them
            encoder_.reset();
            encoded_ = true;
            return true;
        }
        auto& nodes = pending_->nodes;
        nodes.resize(nodes.size() - std::min(nodes.size(), kNodesPerPiece));
        if (!nodes.empty()) return true;
        pending_.reset();
        encoded_ = false;
        return !translations_.learned();
    }
    // The piece step() does next, for measurements.
    const char* piece_name() const {
        return !pending_ ? "stage trace" : encoded_ ? "stage free" : "stage encoding";
    }

    int64_t count() const override { return translations_.npus(); }
    Status read(uint32_t rank, std::string& bytes, std::string& name) override {
        // Every rank in turn: generate them all once, exactly as generate_workload does.
        if (!all_) {
            auto gen = generate_workload("transformer", params_);
            if (!gen.is_ok()) return gen.status();
            all_ = std::make_unique<MemoryTraceSource>(std::move(gen.value().traces));
        }
        return all_->read(rank, bytes, name);
    }
    bool vouches_for_translations() const override { return true; }
    bool keeps_traces(uint32_t stride, uint32_t size) const override {
        return translations_.translation_keeps_traces(stride, size);
    }
    std::vector<uint32_t> distinct_ranks() const override { return translations_.stage_ranks(); }
    Status read_alone(uint32_t rank, std::string& bytes, std::string& name) override {
        if (rank >= translations_.npus())
            return Status::error("workload: no trace for NPU " + std::to_string(rank));
        auto made = stage_bytes_.find(rank);
        if (made != stage_bytes_.end()) { // made while learning the translations; built into a graph once
            bytes = std::move(made->second);
            stage_bytes_.erase(made);
        } else {
            bytes = trace::encode_trace(translations_.rank_trace(rank));
        }
        name = "transformer." + std::to_string(rank) + ".et";
        return Status::ok();
    }
    int64_t model_rank(uint32_t rank) const override {
        return rank < translations_.npus() ? int64_t(translations_.model_rank(rank)) : -1;
    }
    int64_t moved_group_id(uint32_t id, uint32_t rank) const override {
        return translations_.moved_group_id(id, rank);
    }
    GraphCache* graph_cache() override { return &graphs_; }

private:
    std::unordered_map<uint32_t, std::string> stage_bytes_; // filled by step()
    static constexpr size_t kNodesPerPiece = 8192;          // about 4 ms of encoding natively
    std::unique_ptr<trace::Trace> pending_;                 // a stage's trace, made, not yet encoded
    std::unique_ptr<trace::TraceEncoder> encoder_;          // pending_'s encoding so far
    bool encoded_ = false;                                  // pending_ is encoded: being freed
    uint32_t pending_rank_ = 0;
    generate::TransformerTranslations translations_;
    std::vector<std::pair<std::string, std::string>> params_;
    std::unique_ptr<MemoryTraceSource> all_;
    GraphCache graphs_; // the stage models' graphs, kept while a search reuses this source
};

} // namespace

Result<GeneratedSource> generated_source(const std::string& kind,
                                         const std::vector<std::pair<std::string, std::string>>& params) {
    GeneratedSourceBuild build(kind, params);
    while (build.step()) {
    }
    return build.take();
}

GeneratedSourceBuild::GeneratedSourceBuild(std::string kind,
                                           std::vector<std::pair<std::string, std::string>> params)
    : kind_(std::move(kind)), params_(std::move(params)) {}

GeneratedSourceBuild::~GeneratedSourceBuild() = default;

bool GeneratedSourceBuild::step() {
    if (stepping_) { // a transformer's next stage
        if (static_cast<TransformerSource*>(stepping_)->step()) return true;
        stepping_ = nullptr;
        return false;
    }
    if (started_) return false;
    started_ = true;
    if (kind_ != "transformer") {
        auto gen = generate_workload(kind_, params_);
        if (!gen.is_ok()) {
            out_ = gen.status();
            return false;
        }
        GeneratedSource made;
        made.traces = std::make_unique<MemoryTraceSource>(std::move(gen.value().traces));
        made.groups = std::move(gen.value().groups);
        made.has_groups = gen.value().has_groups;
        out_ = std::move(made);
        return false;
    }
    generate::TransformerParams p;
    if (!generate::read_params(p, params_).is_ok()) {
        out_ = generate_workload(kind_, params_).status(); // its messages, prefixed
        return false;
    }
    GeneratedSource made;
    const generate::ParallelLayout layout(p);
    if (layout.has_groups()) {
        auto g =
            config::parse_comm_groups_json(layout.comm_groups_json(), "generated comm groups", layout.npus());
        if (!g.is_ok()) {
            out_ = g.status();
            return false;
        }
        made.groups = std::move(g.value());
        made.has_groups = true;
    }
    auto source = std::make_unique<TransformerSource>(p, params_);
    stepping_ = source.get();
    made.traces = std::move(source);
    out_ = std::move(made);
    return true; // the stages, a piece each
}

const char* GeneratedSourceBuild::piece_name() const {
    if (stepping_) return static_cast<const TransformerSource*>(stepping_)->piece_name();
    return started_ ? "done" : "parameters and groups";
}

Result<GeneratedSource> GeneratedSourceBuild::take() {
    SIM_ASSERT(stepping_ == nullptr && started_, "GeneratedSourceBuild::take before the last step");
    return std::move(out_);
}

std::vector<std::pair<std::string, std::string>> run_generate_params(const config::Scenario& s,
                                                                     std::string& note) {
    auto params = s.generate_params;
    auto named = [&](const char* key) {
        for (const auto& kv : params)
            if (kv.first == key) return true;
        return false;
    };
    // The system's NPUs: a description's GPUs (its network is mapped later, when the session opens) or the
    // network's.
    const uint64_t system = s.hardware ? s.hardware->ranks() : s.network.npus();
    if (s.workload_kind == config::Scenario::WorkloadKind::Generate && s.workload == "microbench" &&
        !named("npus") && system > 0)
        params.emplace_back("npus", std::to_string(system));
    if (!s.hardware || s.workload != "transformer") return params;
    if (named("rank-order")) return params; // the user's choice
    params.emplace_back("rank-order", "tp-first");
    generate::TransformerParams p;
    if (generate::read_params(p, params).is_ok() && p.dp > 1 && uint64_t(p.tp) * p.sp > 1)
        note = "workload.generate: ranks numbered tp-first (Megatron's order: each tensor-parallel group on "
               "consecutive ranks, inside a node), the default with a hardware description; rank-order "
               "dp-first gives STAGE's";
    return params;
}

Status adopt_groups(config::CommGroups generated, bool has_groups, config::CommGroups& scenario_groups) {
    if (!has_groups) return Status::ok();
    if (!scenario_groups.groups.empty())
        return Status::error("comm_groups: leave it out with a generated workload (the generator defines its "
                             "own groups)");
    scenario_groups = std::move(generated);
    return Status::ok();
}

} // namespace astrolabe

// Driver of the transformer generator: builds each rank's trace, streams it to the sink, and summarises
// the plan for --dry-run.
#include "core/generate/transformer.h"

#include "core/base/assert.h"
#include "core/generate/transformer_internal.h"
#include "core/trace/trace_reader.h"

#include <cstdio>

namespace astrolabe::generate {

TransformerTraceBuild::TransformerTraceBuild(const TransformerParams& p, const ParallelLayout& layout,
                                             uint32_t rank) {
    trace::Trace& t = trace_;
    t.source = "transformer." + std::to_string(rank) + ".et";
    t.metadata.version = "0.0.4";
    trace::Attribute schema;
    schema.name = "schema";
    schema.kind = trace::AttrKind::String;
    schema.strings.push_back("astrolabe.generate.transformer");
    t.metadata.attrs.push_back(std::move(schema));
    if (p.rank_order == RankOrder::TpFirst) {
        // Said in the file, so that tools assuming STAGE's order (rescale) can refuse the set; dp-first
        // files carry nothing new and stay byte-identical to before the parameter existed.
        trace::Attribute order;
        order.name = "rank_order";
        order.kind = trace::AttrKind::String;
        order.strings.push_back("tp-first");
        t.metadata.attrs.push_back(std::move(order));
    }
    t.verbatim_attrs = true;
    steps_ =
        p.phase == Phase::Training ? training_steps(p, layout, rank, t) : inference_steps(p, layout, rank, t);
}

TransformerTraceBuild::~TransformerTraceBuild() = default;

bool TransformerTraceBuild::step() {
    if (!done_) done_ = !steps_->step(layers_per_step);
    return !done_;
}

trace::Trace TransformerTraceBuild::take() {
    SIM_ASSERT(done_, "TransformerTraceBuild::take before the last step");
    steps_.reset(); // it refers to trace_
    return std::move(trace_);
}

trace::Trace transformer_trace(const TransformerParams& p, const ParallelLayout& layout, uint32_t rank) {
    TransformerTraceBuild build(p, layout, rank);
    while (build.step()) {
    }
    return build.take();
}

namespace {

// Ranks of one pipeline stage run the same DAG; only group ids and pipeline peers differ. Rather than
// rebuilding it (allocation-bound), the stage's trace is built once and retargeted rank by rank: each
// collective's pg_name is recomputed from its group kind, and a peer keeps its offset from the rank
// (peers are the same coordinates one stage away, a fixed rank distance: pp is the slowest coordinate in
// either rank order). A test checks the result equals a fresh build for every rank.
class StageRetargeter {
public:
    StageRetargeter(const TransformerParams& p, const ParallelLayout& layout) : p_(p), layout_(layout) {}

    const trace::Trace& trace_for(uint32_t rank) {
        const uint32_t stage = layout_.coord(rank).pp;
        if (!built_ || stage != stage_) {
            t_ = transformer_trace(p_, layout_, rank);
            kinds_.assign(t_.nodes.size(), -1);
            for (size_t i = 0; i < t_.nodes.size(); ++i)
                if (t_.nodes[i].type == trace::NodeType::CommColl)
                    kinds_[i] = static_cast<int8_t>(layout_.kind_of(t_.nodes[i].pg_name.value_or("")));
            built_ = true;
            stage_ = stage;
        } else {
            retarget(rank);
        }
        rank_ = rank;
        t_.source = "transformer." + std::to_string(rank) + ".et";
        return t_;
    }

private:
    static trace::Attribute* attr(trace::Node& n, const char* name) {
        for (auto& a : n.attrs)
            if (a.name == name) return &a;
        return nullptr;
    }
    void retarget(uint32_t rank) {
        const int64_t shift = int64_t(rank) - int64_t(rank_);
        for (size_t i = 0; i < t_.nodes.size(); ++i) {
            trace::Node& n = t_.nodes[i];
            if (n.type == trace::NodeType::CommColl && kinds_[i] >= 0) {
                n.pg_name = layout_.pg_name(static_cast<GroupKind>(kinds_[i]), rank);
                attr(n, "pg_name")->strings[0] = *n.pg_name;
            } else if (n.type == trace::NodeType::CommSend) {
                n.comm_dst = static_cast<uint32_t>(int64_t(*n.comm_dst) + shift);
                attr(n, "comm_dst")->ints[0] = *n.comm_dst;
            } else if (n.type == trace::NodeType::CommRecv) {
                n.comm_src = static_cast<uint32_t>(int64_t(*n.comm_src) + shift);
                attr(n, "comm_src")->ints[0] = *n.comm_src;
            }
        }
    }

    const TransformerParams& p_;
    const ParallelLayout& layout_;
    trace::Trace t_;
    std::vector<int8_t> kinds_; // per node: the GroupKind of its collective, or -1
    bool built_ = false;
    uint32_t stage_ = 0, rank_ = 0;
};

} // namespace

Status generate_transformer(const TransformerParams& p, TraceSink& sink,
                            const std::function<void(uint32_t, uint32_t)>& progress) {
    Status st = check(p);
    if (!st.is_ok()) return st;
    const ParallelLayout layout(p);
    const uint32_t n = layout.npus();
    StageRetargeter stages(p, layout);
    for (uint32_t r = 0; r < n; ++r) {
        st = sink.write_rank(r, trace::encode_trace(stages.trace_for(r)));
        if (!st.is_ok()) return st;
        if (progress) progress(r + 1, n);
    }
    if (layout.has_groups()) return sink.write_comm_groups(layout.comm_groups_json());
    return Status::ok();
}

RankSummary summarize(const trace::Trace& t, const ParallelLayout& layout) {
    RankSummary s;
    for (const trace::Node& n : t.nodes) {
        s.nodes[static_cast<size_t>(n.type)]++;
        switch (n.type) {
        case trace::NodeType::Comp:
            s.num_ops += n.num_ops.value_or(0);
            break;
        case trace::NodeType::CommColl: {
            int k = layout.kind_of(n.pg_name.value_or(""));
            auto c = n.collective();
            if (k >= 0 && c) s.coll[k][static_cast<size_t>(*c)] += n.comm_size.value_or(0);
            break;
        }
        case trace::NodeType::CommSend:
            s.send_bytes += n.comm_size.value_or(0);
            break;
        case trace::NodeType::CommRecv:
            s.recv_bytes += n.comm_size.value_or(0);
            break;
        case trace::NodeType::MemLoad:
        case trace::NodeType::MemStore:
            s.mem_bytes += n.tensor_size.value_or(0);
            break;
        default:
            break;
        }
    }
    return s;
}

std::string plan_text(const TransformerParams& p) {
    const ParallelLayout layout(p);
    std::string out;
    char line[512];
    const char* phase = p.phase == Phase::Training  ? "training step"
                        : p.phase == Phase::Prefill ? "prefill"
                                                    : "decode";
    std::snprintf(
        line, sizeof line,
        "%s: %u NPUs = dp %u x tp %u x sp %u x pp %u%s%s; %llu micro-batches of %llu tokens per rank\n",
        phase, layout.npus(), p.dp, p.tp, p.sp, p.pp,
        p.experts ? (" (ep " + std::to_string(p.ep) + ")").c_str() : "",
        p.rank_order == RankOrder::TpFirst ? ", ranks tp-first (Megatron's order)" : "",
        static_cast<unsigned long long>(p.microbatches()),
        static_cast<unsigned long long>(p.micro_batch_size() * p.seq / (uint64_t(p.dp) * p.sp)));
    out += line;
    for (int k = 0; k < kGroupKinds; ++k) {
        auto kind = static_cast<GroupKind>(k);
        if (layout.size(kind) <= 1) continue;
        std::snprintf(line, sizeof line, "  group %-11s %u groups of %u ranks\n", group_kind_name(kind),
                      layout.count(kind), layout.size(kind));
        out += line;
    }
    // Ranks of one pipeline stage run the same DAG (only peers and group ids differ): one line per stage.
    for (uint32_t stage = 0; stage < p.pp; ++stage) {
        RankCoord c;
        c.pp = stage;
        const uint32_t rank = layout.rank(c);
        const RankSummary s = summarize(transformer_trace(p, layout, rank), layout);
        uint64_t total = 0;
        for (uint64_t v : s.nodes)
            total += v;
        std::snprintf(
            line, sizeof line,
            "stage %u (e.g. rank %u): %llu nodes (COMP %llu, COLL %llu, SEND %llu, RECV %llu, MEM %llu), "
            "num_ops %llu\n",
            stage, rank, static_cast<unsigned long long>(total),
            static_cast<unsigned long long>(s.nodes[size_t(trace::NodeType::Comp)]),
            static_cast<unsigned long long>(s.nodes[size_t(trace::NodeType::CommColl)]),
            static_cast<unsigned long long>(s.nodes[size_t(trace::NodeType::CommSend)]),
            static_cast<unsigned long long>(s.nodes[size_t(trace::NodeType::CommRecv)]),
            static_cast<unsigned long long>(s.nodes[size_t(trace::NodeType::MemLoad)] +
                                            s.nodes[size_t(trace::NodeType::MemStore)]),
            static_cast<unsigned long long>(s.num_ops));
        out += line;
        for (int k = 0; k < kGroupKinds; ++k)
            for (int c2 = 0; c2 < trace::kCollectiveTypeCount; ++c2) {
                if (!s.coll[k][c2]) continue;
                const uint32_t members = layout.size(static_cast<GroupKind>(k));
                std::snprintf(line, sizeof line, "  %-11s %-15s %llu bytes per rank, %llu per group of %u\n",
                              group_kind_name(static_cast<GroupKind>(k)),
                              trace::collective_type_name(static_cast<trace::CollectiveType>(c2)),
                              static_cast<unsigned long long>(s.coll[k][c2]),
                              static_cast<unsigned long long>(s.coll[k][c2] * members), members);
                out += line;
            }
        if (s.send_bytes || s.recv_bytes) {
            std::snprintf(line, sizeof line, "  pipeline    send %llu bytes, recv %llu bytes per rank\n",
                          static_cast<unsigned long long>(s.send_bytes),
                          static_cast<unsigned long long>(s.recv_bytes));
            out += line;
        }
        if (s.mem_bytes) {
            std::snprintf(line, sizeof line, "  memory      %llu bytes loaded/stored per rank\n",
                          static_cast<unsigned long long>(s.mem_bytes));
            out += line;
        }
    }
    return out;
}

} // namespace astrolabe::generate

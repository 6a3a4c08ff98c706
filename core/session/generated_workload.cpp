#include "core/session/generated_workload.h"

#include "core/config/config_parse.h"
#include "core/generate/microbench.h"
#include "core/generate/transformer.h"
#include "core/trace/trace_reader.h"

namespace astrolabe {

namespace {

Status prefixed(const Status& s) {
    Status out;
    for (const auto& m : s.problems())
        out.add("workload.generate." + m);
    return out;
}

} // namespace

Result<GeneratedWorkload> generate_workload(const std::string& kind,
                                            const std::vector<std::pair<std::string, std::string>>& params) {
    GeneratedWorkload w;
    if (kind == "transformer") {
        generate::TransformerParams p;
        Status st = generate::apply_params(p, params);
        if (st.is_ok()) st = generate::check(p);
        if (!st.is_ok()) return prefixed(st);
        generate::MemorySink sink;
        st = generate::generate_transformer(p, sink);
        if (!st.is_ok()) return prefixed(st);
        w.npus = static_cast<uint32_t>(sink.ranks.size());
        for (uint32_t r = 0; r < w.npus; ++r)
            w.traces.add("transformer." + std::to_string(r) + ".et", std::move(sink.ranks[r]));
        if (!sink.comm_groups.empty()) {
            auto g = config::parse_comm_groups_json(sink.comm_groups, "generated comm groups", w.npus);
            if (!g.is_ok()) return g.status();
            w.groups = std::move(g.value());
            w.has_groups = true;
        }
        return w;
    }
    if (kind == "microbench") {
        generate::MicrobenchParams p;
        Status st = generate::apply_params(p, params);
        if (st.is_ok()) st = generate::check(p);
        if (!st.is_ok()) return prefixed(st);
        w.npus = p.npus;
        for (uint32_t r = 0; r < p.npus; ++r)
            w.traces.add("microbench." + std::to_string(r) + ".et",
                         trace::encode_trace(generate::microbench_trace(p, r)));
        return w;
    }
    return Status::error("workload.generate.kind: '" + kind +
                         "'; \"transformer\" or \"microbench\" was expected");
}

} // namespace astrolabe

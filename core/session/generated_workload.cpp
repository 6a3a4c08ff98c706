#include "core/session/generated_workload.h"

#include "core/config/config_parse.h"
#include "core/generate/microbench.h"
#include "core/generate/read_params.h"
#include "core/generate/transformer.h"
#include "core/trace/trace_reader.h"

namespace astrolabe {

namespace {

// The most trace bytes a generated workload may hold in memory. The simulation then needs about as much
// again for its graphs; a browser tab (wasm32) has at most 4 GiB in all, a workstation more.
constexpr uint64_t kMaxGeneratedBytes = sizeof(size_t) >= 8 ? uint64_t(2) << 30 : uint64_t(768) << 20;

Status prefixed(const Status& s) {
    Status out;
    // A parameter's problem starts with its name ("tp: 3; ..."); others are about the whole workload.
    for (const auto& m : s.problems()) {
        size_t colon = m.find(':');
        bool names_key = colon != std::string::npos && m.find(' ') > colon;
        out.add((names_key ? "workload.generate." : "workload.generate: ") + m);
    }
    return out;
}

} // namespace

std::vector<std::string> generate_kinds() {
    return {"transformer", "microbench"};
}

std::vector<std::string> microbench_collectives() {
    return {"all_reduce", "all_gather", "reduce_scatter", "all_to_all"};
}

Result<GeneratedWorkload> generate_workload(const std::string& kind,
                                            const std::vector<std::pair<std::string, std::string>>& params) {
    GeneratedWorkload w;
    if (kind == "transformer") {
        generate::TransformerParams p;
        Status st = generate::read_params(p, params);
        if (!st.is_ok()) return prefixed(st);
        generate::MemorySink sink(kMaxGeneratedBytes, p.npus());
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
        Status st = generate::read_params(p, params);
        if (!st.is_ok()) return prefixed(st);
        w.npus = p.npus;
        generate::MemorySink sink(kMaxGeneratedBytes, p.npus);
        for (uint32_t r = 0; r < p.npus; ++r) {
            st = sink.write_rank(r, trace::encode_trace(generate::microbench_trace(p, r)));
            if (!st.is_ok()) return prefixed(st);
        }
        for (uint32_t r = 0; r < p.npus; ++r)
            w.traces.add("microbench." + std::to_string(r) + ".et", std::move(sink.ranks[r]));
        return w;
    }
    return Status::error("workload.generate.kind: '" + kind +
                         "'; \"transformer\" or \"microbench\" was expected");
}

} // namespace astrolabe

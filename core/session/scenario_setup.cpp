#include "core/session/scenario_setup.h"

#include "core/session/generated_source.h"

namespace astrolabe {

Status set_models(const std::string& network_model, const std::string& compute_model, SessionConfig& cfg) {
    Status problems;
    if (!parse_network_model(network_model, cfg.network_model))
        problems.add("network_model: '" + network_model + "'; analytical, congestion or flow was expected");
    if (!parse_compute_model(compute_model, cfg.compute_model))
        problems.add("compute_model: '" + compute_model +
                     "'; system, trace, roofline or systolic was expected");
    return problems;
}

Result<ScenarioSetup> scenario_setup(config::Scenario s, const std::string& network_override,
                                     const std::string& compute_override) {
    ScenarioSetup out;
    SessionConfig& cfg = out.config;
    cfg.network = std::move(s.network);
    cfg.system = std::move(s.system);
    cfg.memory = std::move(s.memory);
    cfg.groups = std::move(s.groups);
    cfg.systolic = s.systolic;
    Status st = set_models(network_override.empty() ? s.network_model : network_override,
                           compute_override.empty() ? s.compute_model : compute_override, cfg);
    if (!st.is_ok()) return st;
    switch (s.workload_kind) {
    case config::Scenario::WorkloadKind::Embedded: {
        auto mem = std::make_unique<MemoryTraceSource>();
        size_t n = s.traces.size();
        for (auto& t : s.traces)
            mem->add(std::move(t.first), std::move(t.second));
        out.embedded = std::move(mem);
        out.workload_label = "embedded (" + std::to_string(n) + " traces)";
        break;
    }
    case config::Scenario::WorkloadKind::Generate: {
        auto gen = generated_source(s.workload, s.generate_params);
        if (!gen.is_ok()) return gen.status();
        if (gen.value().has_groups) {
            if (!cfg.groups.groups.empty())
                return Status::error(
                    "comm_groups: leave it out with a generated workload (the generator defines "
                    "its own groups)");
            cfg.groups = std::move(gen.value().groups);
        }
        out.embedded = std::move(gen.value().traces);
        out.workload_label = "(generated " + s.workload + ")";
        break;
    }
    case config::Scenario::WorkloadKind::Prefix:
    case config::Scenario::WorkloadKind::Sample:
        out.workload_label = s.workload;
        break;
    }
    return out;
}

ReportContext report_context(const Simulation& sim, const std::string& workload_label) {
    ReportContext ctx;
    ctx.workload = workload_label;
    ctx.network_model = network_model_name(sim.input().network_model);
    ctx.compute_model = sim.compute_model_label();
    return ctx;
}

} // namespace astrolabe

// From a scenario to a run: the one path the CLI (`run --scenario`, `run --link`) and the browser share, so
// the same scenario gives both the same simulation and the same report.
#pragma once

#include "core/base/status.h"
#include "core/config/scenario.h"
#include "core/report/report.h"
#include "core/session/session.h"

#include <memory>
#include <string>

namespace astrolabe {

// Model names as the CLI options and the scenario spell them; every problem in one Status.
Status set_models(const std::string& network_model, const std::string& compute_model, SessionConfig& cfg);

struct ScenarioSetup {
    SessionConfig config;       // configs and models; front ends add timeline and file-reading choices
    std::string workload_label; // the report's `workload`: prefix, sample name, or "embedded (N traces)"
    std::unique_ptr<TraceSource> embedded; // the traces when the scenario embeds them; else null
};

// Moves a parsed scenario's configs into a session config. Prefix and sample workloads name files, which
// the front end resolves (the CLI on disk, the browser in its bundled samples); embedded traces and
// generated workloads (the generator runs here, in memory) come back as a ready source. Empty overrides keep
// the scenario's model choices.
Result<ScenarioSetup> scenario_setup(config::Scenario scenario, const std::string& network_override = "",
                                     const std::string& compute_override = "");

// The report's description of a run (everything but the wall time).
ReportContext report_context(const Simulation& sim, const std::string& workload_label);

} // namespace astrolabe

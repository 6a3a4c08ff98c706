// From a scenario to its traces on this machine: what `run --scenario`, `run --link` and `search` share,
// so a search point and the same scenario run alone read the same bytes.
#pragma once

#include "core/base/status.h"
#include "core/config/scenario.h"
#include "core/session/scenario_setup.h"

#include <filesystem>
#include <functional>
#include <memory>
#include <string>

namespace astrolabe::cli {

// The traces of a set-up scenario: embedded and generated ones come ready with `setup`; a prefix is taken
// relative to `base_dir` (unless absolute); a sample name from the bundled samples folder.
Result<std::unique_ptr<TraceSource>> scenario_traces(ScenarioSetup& setup,
                                                     config::Scenario::WorkloadKind kind,
                                                     const std::string& workload,
                                                     const std::filesystem::path& base_dir);

// Reads the ETs of custom collectives, named relative to the working directory as in ASTRA-sim.
std::function<Status(const std::string&, std::string&)> custom_collective_reader();

} // namespace astrolabe::cli

// A scenario: everything one run needs in one JSON object, the same for the CLI (`run --scenario`) and the
// browser (the shared URL). docs/scenario.md documents the format.
//
//   { "schema": "astrolabe.scenario/1",
//     "workload": {"prefix": "path/P"} | {"sample": "name"} | {"traces": [{"name": "x.0.et", "base64":
//     "..."}]} | {"generate": {"kind": "transformer", "<param>": value, ...}}, "network": { ASTRA-sim network
//     keys }, "system": { ... }, "memory": { ... }, "comm_groups": { ... }, "network_model": "analytical" |
//     "congestion" | "flow",
//     "compute_model": "system" | "trace" | "roofline" | "systolic"
//                    | {"model": "systolic", "array_rows": 128, "array_cols": 128, "dataflow": "ws",
//                       "clock_ghz": 1.0} }
//
// `memory` and `comm_groups` may be left out. Configs use exactly the keys of ASTRA-sim's files.
//
// The same struct is what a run takes (core/session): the CLI fills it from its flags (a prefix workload
// and the config files), the browser and `run --scenario` from the JSON, tests and searches by hand. A parsed
// Scenario is fully validated: every enum is a legal value and every config is checked on its own; what
// depends on the traces (counts, groups used) is checked when the simulation is built.
#pragma once

#include "core/base/status.h"
#include "core/config/config_types.h"
#include "core/config/hardware_types.h"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace astrolabe::config {

struct Scenario {
    enum class WorkloadKind : uint8_t { Prefix, Sample, Embedded, Generate };
    WorkloadKind workload_kind = WorkloadKind::Prefix;
    std::string workload; // prefix path, sample name or generator kind
    std::vector<std::pair<std::string, std::string>> generate_params; // generate: (name, value text), by name
    std::vector<std::pair<std::string, std::string>> traces;          // embedded: (name, bytes)
    NetworkConfig network;
    SystemConfig system;
    MemoryConfig memory;
    CommGroups groups;
    NetworkModel network_model = NetworkModel::Analytical;
    ComputeModel compute_model = ComputeModel::FromSystem;
    SystolicConfig systolic; // the array when compute_model is Systolic
    // A real system (`run --hardware`, docs/hardware.md): network and system hold its mapping
    // (core/hardware map_system) and the run times each collective by NCCL's choice for it.
    std::optional<HardwareConfig> hardware;
};

Result<Scenario> parse_scenario_json(std::string_view text, const std::string& source);

} // namespace astrolabe::config

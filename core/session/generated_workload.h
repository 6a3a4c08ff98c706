// A generated workload for a scenario's {"generate": {"kind": ..., params}} form: the generator runs in
// memory and its traces and communicator groups feed the session like any other workload, so a shared link
// can carry a whole workload as a handful of parameters (the browser and `run --scenario` both use this).
#pragma once

#include "core/base/status.h"
#include "core/config/config_types.h"
#include "core/session/trace_source.h"

#include <string>
#include <utility>
#include <vector>

namespace astrolabe {

struct GeneratedWorkload {
    MemoryTraceSource traces;
    config::CommGroups groups;
    bool has_groups = false; // the generator wrote communicator groups
    uint32_t npus = 0;
};

// kind: "transformer" (training step or inference, by the "phase" parameter) or "microbench". Parameter
// names are the CLI flags without dashes; problems name the parameter as `workload.generate.<name>`.
// The generator kinds a scenario may name (menus offer these).
std::vector<std::string> generate_kinds();
// The collectives the microbench menu offers (the generator accepts any Chakra collective type).
std::vector<std::string> microbench_collectives();

Result<GeneratedWorkload> generate_workload(const std::string& kind,
                                            const std::vector<std::pair<std::string, std::string>>& params);

} // namespace astrolabe

// The ASTRA-sim reference cases (tests/data/astra_anchors*.json): their inputs and per-NPU results, and
// their configs parsed as the CLI parses them. Shared by the anchor tests and the symmetry tests.
#pragma once

#include "core/session/session.h"

#include <string>
#include <vector>

namespace astrolabe::test {

struct AnchorCase {
    std::string name;
    std::string tag; // "custom": needs all-reduce-implementation-custom
    std::string workload, system, network, memory, comm_group;
    std::vector<TimeNs> finish_ns, exposed_comm_ns;
};

std::vector<AnchorCase> load_anchors(const char* file = "astra_anchors.json");

// The configs of a case. Custom-collective ETs are named relative to tests/data (the copy of
// sys_custom_collective.json says so), as ASTRA-sim names them relative to its cwd.
config::Scenario load_configs(const AnchorCase& c,
                              config::NetworkModel model = config::NetworkModel::Analytical);

// Runs a case under `model` with `options` and checks (CHECK) every NPU's finish and exposed
// communication against ASTRA-sim's; returns the run for further checks.
RunResult run_anchor(const AnchorCase& c, config::NetworkModel model = config::NetworkModel::Analytical,
                     const RunOptions& options = {});

} // namespace astrolabe::test

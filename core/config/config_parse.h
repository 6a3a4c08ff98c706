// Parsing and validating configuration files. The only module that uses nlohmann_json.
//
// Each parser takes the file's text and a source name (for messages) and returns either the typed config or a
// Status listing every problem found, one per line, each as "<source>: <key>: <what was expected>".
// Unknown keys are not errors: they are listed in the config's `warnings`.
#pragma once

#include "core/base/status.h"
#include "core/config/config_types.h"

#include <string>
#include <string_view>

namespace astrolabe::config {

// ASTRA-sim's analytical network YAML: `topology`, `npus_count`, `bandwidth`, `latency`, each a flow list
// with one entry per dimension (the YAML subset those files use; anything else is refused).
Result<NetworkConfig> parse_network_yaml(std::string_view text, const std::string& source);

// ASTRA-sim's system JSON.
Result<SystemConfig> parse_system_json(std::string_view text, const std::string& source);

// ASTRA-sim's remote-memory JSON.
Result<MemoryConfig> parse_memory_json(std::string_view text, const std::string& source);

// Communicator groups: {"<id>": [rank, ...], ...}. Ranks must be < npus when npus > 0.
Result<CommGroups> parse_comm_groups_json(std::string_view text, const std::string& source, uint64_t npus = 0);

} // namespace astrolabe::config

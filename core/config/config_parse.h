// Parsing and validating configuration files. This module is the only user of nlohmann_json.
//
// Each parser takes the file's text and a source name (for messages) and returns the typed config or a
// Status listing every problem found, one per line, each "<source>: <key>: <what was expected>".
// Unknown keys are not errors: they are listed in the config's `warnings`.
#pragma once

#include "core/base/status.h"
#include "core/config/config_types.h"
#include "core/config/hardware_types.h"

#include <string>
#include <string_view>

namespace astrolabe::config {

// ASTRA-sim's analytical network YAML: `topology`, `npus_count`, `bandwidth`, `latency`, each a list with
// one entry per dimension (flow `[a, b]` or block `- a` lists). Anything beyond that YAML subset is refused.
Result<NetworkConfig> parse_network_yaml(std::string_view text, const std::string& source);

// ASTRA-sim's system JSON.
Result<SystemConfig> parse_system_json(std::string_view text, const std::string& source);

// ASTRA-sim's remote-memory JSON.
Result<MemoryConfig> parse_memory_json(std::string_view text, const std::string& source);

// Communicator groups: {"<id>": [rank, ...], ...}. With npus > 0, ranks must be below it.
Result<CommGroups> parse_comm_groups_json(std::string_view text, const std::string& source,
                                          uint64_t npus = 0);

// A real system, `astrolabe.hardware/1` (hardware_types.h): every bad key or value is a problem naming it,
// with the nearest valid spelling for misspelt keys and names.
Result<HardwareConfig> parse_hardware_json(std::string_view text, const std::string& source);
// The inverse: every key written, so the text round-trips through parse_hardware_json.
std::string hardware_json(const HardwareConfig& hw);

// Parses a collective algorithm name as ASTRA-sim spells it: ring, direct, directK (K > 0),
// halvingDoubling, doubleBinaryTree.
bool parse_algorithm(const std::string& name, AlgorithmChoice& out);
std::string algorithm_spelling(const AlgorithmChoice& a); // the inverse

} // namespace astrolabe::config

// The start every subcommand shares: its arguments parsed, or the parse problems or its --help printed.
#pragma once

#include "native/args.h"

#include <optional>
#include <string>
#include <vector>

namespace astrolabe::cli {

// Parses `argv` against `specs`. Returns the arguments to go on with, or nothing with `exit_code` set:
// 2 after printing the parse problems on stderr (see fail()), 0 after printing `usage` followed by the
// options' help for --help. `usage` is the text before the options, ending in a blank line.
std::optional<Args> parse_command_line(const std::vector<std::string>& argv,
                                       const std::vector<OptionSpec>& specs, const std::string& usage,
                                       int& exit_code);

} // namespace astrolabe::cli

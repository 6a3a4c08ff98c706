// The start every subcommand shares: its arguments parsed, or the parse problems or its --help printed.
#pragma once

#include "native/args.h"

#include <map>
#include <string>
#include <vector>

namespace astrolabe::cli {

// What parse_command_line returns when the command goes on with the arguments.
constexpr int kParsed = -1;

// Parses `argv` against `specs` into `out` and returns kParsed; otherwise the exit code the command returns:
// 2 after printing the parse problems on stderr (see fail()), 0 after printing `usage` followed by the
// options' help for --help. `usage` is the text before the options, ending in a blank line.
int parse_command_line(const std::vector<std::string>& argv, const std::vector<OptionSpec>& specs,
                       const std::string& usage, Args& out);

// `argv` with every short flag that `shorts` names spelled long (STAGE's -o, nccl-tests' -b -e -f).
std::vector<std::string> expand_short_flags(std::vector<std::string> argv,
                                            const std::map<std::string, std::string>& shorts);

} // namespace astrolabe::cli

// The CLI's subcommands. Each takes the arguments after its name and returns the process exit code:
// 0 success, 2 bad input (one line per problem on stderr), including inputs whose run cannot complete
// (the stuck nodes are listed), 3 a partial `run` (stopped by --max-sim-time, --max-wall-time or Ctrl-C;
// the report is written and marked partial).
#pragma once

#include <string>
#include <vector>

namespace astrolabe::cli {

int run_command(const std::vector<std::string>& args);
int inspect_command(const std::vector<std::string>& args);
int convert_command(const std::vector<std::string>& args);
int generate_command(const std::vector<std::string>& args);
int share_command(const std::vector<std::string>& args);
int rescale_command(const std::vector<std::string>& args);
int compute_command(const std::vector<std::string>& args);
int collective_perf_command(const std::vector<std::string>& args);
int search_command(const std::vector<std::string>& args);

// Prints every problem of a failed step on stderr, one per line, and returns 2.
int fail(const std::string& message);

} // namespace astrolabe::cli

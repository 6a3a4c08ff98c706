// How a search point's set-up is cut into pieces (ScenarioEvaluator::advance(0), as the browser's Search
// tab steps it between frames): for FILE (a search spec, whose base is used, or a scenario), the set-up of a
// new workload and then of the same point with the workload kept, each piece timed, the longest by name.
// A measurement for docs/search.md ("Setting a point up in pieces"), not a test.
#pragma once

#include <string>

namespace astrolabe::bench {

// Prints the pieces of `runs` set-ups of each kind; 0, or 2 when the file cannot be read.
int setup_pieces(const std::string& path, int runs);

} // namespace astrolabe::bench

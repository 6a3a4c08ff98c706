// The parts of a finished run that `--threads` spreads over cores, timed alone at several thread counts
// in one process (so the comparison sees the same machine load): the expansion and sorting of a symmetric
// result (Simulation::result) and the report formatted into a sink that only counts bytes. The thread
// counts alternate round by round; medians are printed, with the check that every count gave the same
// report bytes (a hash).
#pragma once

#include "core/session/session.h"

#include <vector>

namespace astrolabe::bench {

void print_threads_profile(const char* name, const Session& session, const std::vector<unsigned>& threads,
                           int rounds);

} // namespace astrolabe::bench

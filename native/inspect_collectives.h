// `astrolabe inspect P --collectives`: per-rank collective multisets, optionally compared with another set.
#pragma once

#include "native/args.h"

#include <string>

namespace astrolabe::cli {

// Prints the profiles of `workload` (or, with --against Q, how each rank differs from Q's). Returns the
// exit code: 0, 1 when --against finds a difference, 2 on bad input.
int inspect_collectives(const std::string& workload, const Args& a);

} // namespace astrolabe::cli

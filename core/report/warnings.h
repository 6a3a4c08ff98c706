// The report's `warnings`: every input construct the run ignored, approximated or could not honour, counted.
//
// Two sources feed it: the load warnings (config keys ignored, trace nodes without timing, lists shorter than
// the network, ... one string per occurrence, from build_simulation) and what the run itself noticed (the
// modelling notes of RunStats, messages sent but never received). They are merged into one list of distinct
// messages with their counts, sorted by text, so the same inputs give the same list.
#pragma once

#include "core/simulation/simulation.h"

#include <string>
#include <vector>

namespace astrolabe {

struct WarningCount {
    std::string message;
    uint64_t count = 0;
};

// At most this many distinct messages are listed (traces of thousands of NPUs can each name their own
// file); the rest are folded into one last entry that says how many were left out.
constexpr size_t kMaxListedWarnings = 200;

// The load warnings only (before a run): distinct messages with their counts, sorted by text.
std::vector<WarningCount> count_warnings(const std::vector<std::string>& load);

// The load warnings plus the run's notes and unreceived messages.
std::vector<WarningCount> collect_warnings(const std::vector<std::string>& load, const RunResult& r);

} // namespace astrolabe

// The symmetry of one run's inputs (which NPUs provably behave alike) and the expansion of a run of
// representatives into the full run's results. See core/system/scheduling/symmetry.h for the reasoning.
#pragma once

#include "core/system/scheduling/symmetry.h"

#include <string>
#include <vector>

namespace astrolabe {

struct SimulationInput;
struct RunResult;
class TaskRunner;

// The largest symmetry the inputs allow (order 1 when none); `why_not` says what ruled out the
// dimensions that were left out, for the report. With in.translation_proof the traces are not compared
// (a generator vouches for them) and graphs still pending are built only for representatives it looks at.
RankSymmetry find_symmetry(SimulationInput& in, std::string& why_not);

// Builds the pending graphs the run needs: the representatives' under `sym`, every one without symmetry.
Status ensure_graphs(SimulationInput& in, const RankSymmetry& sym);

// Turns the result of a run of representatives into the full run's: per-NPU figures, collectives, the
// timeline, unreceived messages and counters copied to every class member. Stuck nodes are the caller's.
// `runner` (optional) copies the per-NPU figures on several threads.
void expand_symmetric_result(const RankSymmetry& sym, const GroupTable& groups, RunResult& r,
                             TaskRunner* runner = nullptr);

} // namespace astrolabe

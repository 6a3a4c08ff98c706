// The symmetry of one run's inputs (which NPUs provably behave alike) and the expansion of a run of
// representatives into the full run's results. See core/system/scheduling/symmetry.h for the reasoning.
#pragma once

#include "core/system/scheduling/symmetry.h"

#include <memory>
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

// find_symmetry in two pieces, so that a build in steps can make the candidate's representatives' graphs in
// between (the group check would otherwise build them all at once): the translations the traces allow,
// then the largest of them that closes every communicator group. close_symmetry(symmetry_candidate(in))
// is find_symmetry.
struct SymmetryCandidate {
    std::vector<uint32_t> digits, digit_dims; // empty: an obstacle rules every translation out (`why`)
    uint32_t mask = 0;
    std::string why;
    RankSymmetry symmetry() const; // before the groups are checked
};
SymmetryCandidate symmetry_candidate(SimulationInput& in);
RankSymmetry close_symmetry(SimulationInput& in, SymmetryCandidate c, std::string& why_not);

// close_symmetry in pieces (SimulationBuild's symmetry piece): the group check reads every collective of
// every representative's graph, 15 M nodes and 80 ms for 256 representatives of a 96-layer stage with 128
// micro-batches, so each step() looks at a bounded number of nodes. The checks are the same in the same
// order (close_symmetry runs this to the end), so the symmetry and the reason are the same however it is cut.
class SymmetryClosing {
public:
    // `in` must outlive this; its pending representatives' graphs are built as the check reaches them.
    SymmetryClosing(SimulationInput& in, SymmetryCandidate c);
    ~SymmetryClosing();
    // Looks at about `nodes` more graph nodes (at least one); true while the check goes on.
    bool step(uint64_t nodes);
    // After step() returned false: the largest symmetry that closes every group, and why it is not larger.
    const RankSymmetry& symmetry() const { return sym_; }
    const std::string& why_not() const { return why_; }

private:
    struct GroupsCheck; // groups_closed over one symmetry, resumable
    enum class Phase : uint8_t { Main, Fewer, Done };
    SimulationInput& in_;
    std::vector<uint32_t> digits_, digit_dims_;
    uint32_t mask_ = 0;
    std::string why_;
    RankSymmetry sym_;
    Phase phase_ = Phase::Main;
    std::unique_ptr<GroupsCheck> check_;
    // Phase::Fewer: the digit k whose loss is tried, and the best loss so far (close_symmetry's loop).
    size_t k_ = 0;
    uint32_t best_mask_ = 0, best_order_ = 0, smallest_ = 0, fewer_order_ = 0;
};

// Builds the pending graphs the run needs: the representatives' under `sym`, every one without symmetry.
Status ensure_graphs(SimulationInput& in, const RankSymmetry& sym);
// The same in pieces (Simulation::create in steps): from rank `next` on, builds at most `max_built` graphs
// and moves `next` past the last rank looked at; problems go into `problems`. True once every rank is
// looked at or 20 problems are in. Running it to the end gives ensure_graphs' graphs and problems.
bool ensure_graphs_from(SimulationInput& in, const RankSymmetry& sym, uint32_t& next, uint32_t max_built,
                        Status& problems);

// Turns the result of a run of representatives into the full run's: per-NPU figures, collectives, the
// timeline, unreceived messages and counters copied to every class member. Stuck nodes are the caller's.
// `runner` (optional) copies the per-NPU figures on several threads.
void expand_symmetric_result(const RankSymmetry& sym, const GroupTable& groups, RunResult& r,
                             TaskRunner* runner = nullptr);

} // namespace astrolabe

// A generated workload as a trace source that makes traces when asked: the transformer generator's ranks
// are alike up to translation (generate/transformer_symmetry.h), so a symmetric run builds only its
// representatives' graphs and never makes the other ranks' traces; a full run gets every rank's trace as
// generate_workload makes them (all at once, within the same memory budget).
#pragma once

#include "core/base/status.h"
#include "core/config/config_types.h"
#include "core/config/scenario.h"
#include "core/session/trace_source.h"

#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace astrolabe {

struct GeneratedSource {
    std::unique_ptr<TraceSource> traces;
    config::CommGroups groups;
    bool has_groups = false;
};

// As generate_workload (the same kinds, parameters and messages), but transformer traces are made on
// demand. Runs GeneratedSourceBuild's pieces to the end.
Result<GeneratedSource> generated_source(const std::string& kind,
                                         const std::vector<std::pair<std::string, std::string>>& params);

// generated_source in pieces, for a front end that must not block for long (the browser's search sets a
// point up between frames). A transformer's pieces: the parameters and the communicator groups, then per
// pipeline stage: making its trace a few layers a piece (TransformerTraceBuild; the whole trace teaches
// the translations), encoding it for the first build a few thousand nodes a piece, and freeing it as many
// nodes a piece. Any other kind is generated whole in one piece. The same pieces whatever the caller, so
// cutting cannot change a result.
class GeneratedSourceBuild {
public:
    GeneratedSourceBuild(std::string kind, std::vector<std::pair<std::string, std::string>> params);
    ~GeneratedSourceBuild();
    GeneratedSourceBuild(const GeneratedSourceBuild&) = delete;
    GeneratedSourceBuild& operator=(const GeneratedSourceBuild&) = delete;
    // Does the next piece; true while pieces remain, false once made or refused.
    bool step();
    // The source, or the generator's refusal; after step() returned false.
    Result<GeneratedSource> take();
    // The piece step() does next, for measurements: "parameters and groups", "stage trace",
    // "stage encoding", "stage free".
    const char* piece_name() const;

private:
    std::string kind_;
    std::vector<std::pair<std::string, std::string>> params_;
    bool started_ = false;
    Result<GeneratedSource> out_ = Status::error("not generated");
    TraceSource* stepping_ = nullptr; // out_'s transformer source while its stages remain
};

// The generator parameters a run of scenario `s` uses: its own, plus ("npus", the system's NPU count)
// for a microbenchmark that does not name one (it spans the whole system: a search that changes a
// description's nodes or a network's size changes it too), and ("rank-order", "tp-first") for a
// transformer on a hardware description that does not name a rank order. A real system is run in
// Megatron's order (tensor-parallel groups on consecutive ranks, i.e. inside a node), as real deployments
// are; STAGE's order stays the generator's default everywhere else (docs/generate.md). `note` receives a
// line saying so when the added order changes the layout (dp > 1 and tp x sp > 1), else stays untouched.
std::vector<std::pair<std::string, std::string>> run_generate_params(const config::Scenario& s,
                                                                     std::string& note);

// Gives a scenario the generator's communicator groups (when it defines any). A scenario that names its own
// groups as well is refused: the generator's ranks only make sense with its groups.
Status adopt_groups(config::CommGroups generated, bool has_groups, config::CommGroups& scenario_groups);

} // namespace astrolabe

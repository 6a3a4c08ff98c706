// build_simulation (session.h) in pieces, for a front end that must not block for long: the browser's
// search sets a point up a piece per frame slice. The pieces: the checks and options; each distinct graph
// of a generated workload (or a window of ranks of a full run); custom collective ETs; then
// SimulationBuild's (core/simulation/simulation.h: the checks, the symmetry search, the representatives'
// graphs a few at a time, the executor). build_simulation runs these same pieces to the end, so how a build
// is cut cannot change a result.
#pragma once

#include "core/session/session.h"
#include "core/trace/trace_reader.h"

#include <memory>
#include <string>
#include <vector>

namespace astrolabe {

class StagedBuild {
public:
    // `traces` and `host` (may be null) must outlive the build.
    StagedBuild(config::Scenario scenario, TraceSource& traces, const RunOptions& options, SessionHost* host);
    ~StagedBuild();
    StagedBuild(const StagedBuild&) = delete; // the graph loader refers to this object
    StagedBuild& operator=(const StagedBuild&) = delete;

    // Does the next piece; true while pieces remain, false once built or refused.
    bool step();
    // The simulation, or every problem found; after step() returned false.
    Result<std::unique_ptr<Simulation>> take();
    // The notes on the inputs so far (build_simulation's `warnings`).
    std::vector<std::string>& warnings() { return warnings_; }
    // Graphs built or copied per piece (at least 1).
    uint32_t graphs_per_step = 4;
    // Nodes decoded into a distinct graph per piece, when the source keeps its models' graphs (a generated
    // workload): a 60 K-node stage graph is about 30 ms to decode and build natively.
    size_t nodes_per_step = 8192;
    // The piece step() does next, for measurements ("prepare", "graphs", "custom", "simulation: symmetry",
    // ...).
    std::string stage_name() const;

private:
    enum class Stage : uint8_t { Prepare, Distinct, Full, Custom, Simulation, Done };
    void prepare();
    void full_window();
    void custom();
    // One piece of the distinct graphs: a model graph decoded a window of nodes at a time into the source's
    // graph cache, then taken from it; any other rank loaded whole.
    void distinct_step();

    Stage stage_ = Stage::Prepare;
    config::Scenario config_;
    TraceSource& traces_;
    RunOptions options_;
    SessionHost* host_;
    std::vector<std::string> warnings_;
    Status problems_;
    SimulationInput input_;
    uint64_t npus_ = 0;
    GraphBuildOptions base_; // how every graph is built
    trace::ReadOptions read_;
    std::vector<uint32_t> distinct_; // the generator's distinct ranks, built one piece at a time
    size_t next_distinct_ = 0;
    struct ModelRead; // distinct_[next_distinct_]'s graph being decoded
    std::unique_ptr<ModelRead> reading_;
    uint64_t next_rank_ = 0; // a full run's next window
    std::unique_ptr<SimulationBuild> sim_build_;
    Result<std::unique_ptr<Simulation>> built_ = Status::error("not built");
};

} // namespace astrolabe

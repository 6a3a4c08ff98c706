// One simulation: validated inputs, the models wired together, and a run that advances in slices.
//
// Everything hangs off this object (no globals), so several simulations can coexist (tests, the browser
// re-running a scenario). create() checks every input against the others and reports every problem at
// once; a Simulation that was created does not fail on its inputs mid-run.
#pragma once

#include "core/base/parallel.h"
#include "core/base/status.h"
#include "core/config/config_types.h"
#include "core/simulation/symmetry_search.h"
#include "core/system/collectives/collective_link.h"
#include "core/system/scheduling/run_stats.h"
#include "core/system/scheduling/symmetry.h"
#include "core/system/scheduling/workload_executor.h"
#include "core/system/scheduling/workload_graph.h"

#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace astrolabe {

struct SimulationInput {
    config::NetworkConfig network;
    config::SystemConfig system;
    config::MemoryConfig memory;
    GroupTable groups;
    std::vector<WorkloadGraph> graphs; // one per NPU, rank order
    config::NetworkModel network_model = config::NetworkModel::Analytical;
    config::ComputeModel compute_model =
        config::ComputeModel::FromSystem; // FromSystem: roofline-enabled decides
    config::SystolicConfig systolic;      // the array of ComputeModel::Systolic
    bool keep_timeline = false;
    // Simulate one representative NPU per class of provably identical NPUs when the inputs allow it
    // (symmetry.h); the results are the full run's either way.
    bool symmetry = true;
    // Time ring collectives as a max-plus recurrence, one event per member, when the run allows it
    // exactly (core/system/scheduling/fast_ring_check.h); the results are the event path's either way.
    bool fast_ring = true;
    // For tests only: false blinds the fast path's run-time guard (fast_ring_watch.h), to show it matters.
    bool fast_ring_tie_guard = true;
    // A workload generator's word on translations, used instead of comparing traces (symmetry.h): whether
    // moving every rank by one along the rank digit (r / stride) % size maps each trace onto its image's.
    std::function<bool(uint32_t stride, uint32_t size)> translation_proof;
    // With translation_proof, graphs may be built on demand: pending[r] while graphs[r] is not, and
    // load_graph builds it. Only the representatives' are then ever built (ensure_graphs, symmetry.h).
    std::vector<bool> pending;
    std::function<Status(uint32_t rank, const GroupTable& groups, WorkloadGraph& out)> load_graph;
    // Per-collective timing (a hardware description, core/system/collectives/collective_link.h): the
    // collectives it times run on links of their own. Analytical network model only.
    CollectiveLinks collective_links;
    // Custom collective implementations per config::CollectiveKind: one graph per group position.
    std::vector<WorkloadGraph> custom[config::kCollectiveKinds];
};

struct RunResult {
    RunStats stats;
    TimeNs total_ns = 0; // the last NPU's finish
    uint64_t events = 0;
    uint64_t peak_queue = 0;
    uint64_t messages = 0;      // network messages
    uint64_t message_bytes = 0; // bytes they carried
    bool complete = false;      // every NPU finished
    std::vector<StuckNode> stuck;
    // Workload messages that were sent (and delivered) but never received. ASTRA-sim lets a send complete
    // without its receive, and so do we, but the user should hear about it.
    std::vector<UnmatchedMessage> unreceived;
    std::vector<LinkStats> links; // per-link traffic (congestion and flow models; empty for analytical)
    uint32_t simulated_npus = 0;  // NPUs actually simulated: all, or one per symmetric class
    std::string symmetry;         // the symmetry used, or why none was (empty: not asked for)
    std::string fast_ring;        // "on", or why the ring fast path was not used (empty: not asked for)
};

// The config::CollectiveKind whose algorithms run `t`, or -1 (BROADCAST is replayed).
int collective_kind_of(trace::CollectiveType t);
// Bit k set: the traces run a whole-system collective that uses config::CollectiveKind k's algorithms.
uint32_t used_collective_kinds(const std::vector<WorkloadGraph>& graphs, const GroupTable& groups);
// Whether compute nodes are timed by the roofline model (else replayed from their duration).
bool uses_roofline(config::ComputeModel model, const config::SystemConfig& sys);
// Checks the system configuration against the network (algorithm lists, member counts) for the collective
// kinds in `used`; every problem. Lists shorter than the network are legal and noted in `warnings`.
Status check_collectives(const config::SystemConfig& sys, const config::NetworkConfig& net, uint32_t used,
                         const std::string& source, std::vector<std::string>* warnings = nullptr);

// One timeline record's node as the timeline and the report show it: labels read off the run, so front
// ends need no graph types.
struct TimelineNode {
    enum class Kind : uint8_t { Other, Compute, Memory, Collective, Send, Recv };
    Kind kind = Kind::Other;
    bool cpu = false;                 // runs on the host CPU slot
    uint64_t id = 0;                  // the trace's node id
    std::string name;                 // the trace's name ("" when the run kept none)
    const char* kind_name = "";       // "COMP", "MEM_LOAD", ... as the report's `cat`
    const char* collective = nullptr; // the collective type of a collective node
    uint64_t bytes = 0;               // tensor or message size
    uint32_t peer = 0, tag = 0;       // send and receive: the other NPU and the tag
};

class Simulation {
public:
    // `warnings`, when given, receives notes on the inputs that do not stop the run.
    static Result<std::unique_ptr<Simulation>> create(SimulationInput input,
                                                      std::vector<std::string>* warnings = nullptr);
    ~Simulation();

    // Runs up to `max_events` events, none later than `until`; returns true while events remain.
    bool run_slice(uint64_t max_events, TimeNs until = kTimeNever);
    void run_to_end() {
        while (run_slice(uint64_t(1) << 20)) {
        }
    }
    TimeNs now() const;
    TimeNs next_event_time() const; // kTimeNever when nothing is pending
    uint64_t events() const;
    uint64_t nodes_total() const { return nodes_total_; }
    uint64_t nodes_done() const;
    bool roofline() const;
    // The model that times compute nodes: "trace", "roofline" or "systolic" (for reports).
    const char* compute_model_label() const;
    // The result so far; complete once run_slice() returned false and every NPU finished. `runner`
    // (optional) spreads the copying of a symmetric run's results and the sorting over threads; the
    // result is the same for any runner.
    RunResult result(TaskRunner* runner = nullptr) const;
    // Whether every NPU finished, and the last NPU's finish: result().complete and, when complete,
    // result().total_ns, without building the result (a search needs no more).
    bool complete() const;
    TimeNs finish_ns() const;
    // The node a timeline record of this run's result stands for.
    TimelineNode timeline_node(const TimelineRecord& rec) const;
    uint32_t npus() const { return static_cast<uint32_t>(input_.graphs.size()); }
    const SimulationInput& input() const { return input_; }

private:
    friend class SimulationBuild;
    Simulation() = default;
    struct Parts;
    // The fast path's guard saw what the recurrence cannot vouch for: the run starts again from 0 ns with
    // every packet an event (fast_ring_watch.h).
    void redo_on_event_path(const std::string& why);
    // The pieces of a run, built by SimulationBuild and again by redo_on_event_path: the engine's
    // message carriers; a symmetric run's folding; the collective engine, fast path and executor.
    static void make_network(Parts& p, const SimulationInput& in, uint32_t npus);
    static void fold_symmetry(Parts& p);
    static void make_executor(Parts& p, const SimulationInput& in, bool fast_ring);
    SimulationInput input_;
    std::unique_ptr<Parts> parts_;
    uint64_t nodes_total_ = 0;
};

// Simulation::create in pieces, for a front end that must not block for long (the browser's search, a
// frame at a time): the checks and the models; the symmetry search (its group check a bounded number of
// graph nodes a piece); the graphs a generator left pending,
// a few at a time; the executor, started a few NPUs at a time. create() is this run to the end, so the
// pieces cannot change a result.
class SimulationBuild {
public:
    SimulationBuild(SimulationInput input, std::vector<std::string>* warnings = nullptr);
    ~SimulationBuild();
    // Does the next piece; true while pieces remain (then call again), false once built or refused.
    bool step();
    // The simulation, or every problem found; after step() returned false.
    Result<std::unique_ptr<Simulation>> take();
    // Pending graphs built per step (each is a copy or a build of one rank's graph).
    uint32_t graphs_per_step = 4;
    // Graph nodes the symmetry's group check looks at per step (SymmetryClosing): about 5 ms natively.
    uint64_t symmetry_nodes_per_step = uint64_t(1) << 20;
    // The piece step() does next, for measurements: "check", "candidate symmetry", "representatives",
    // "symmetry", "graphs", "executor", "start", "done".
    const char* stage_name() const;

private:
    enum class Stage : uint8_t { Check, Candidate, Representatives, Symmetry, Graphs, Executor, Start, Done };
    void check();
    bool symmetry();
    void executor();
    Stage stage_ = Stage::Check;
    SimulationInput input_; // until check() moves it into the simulation
    std::vector<std::string>* warnings_;
    std::unique_ptr<Simulation> sim_;
    std::unique_ptr<Simulation::Parts> parts_;
    uint32_t next_graph_ = 0;
    Status problems_;
    SymmetryCandidate candidate_; // the translations the traces allow, before the groups are checked
    RankSymmetry candidate_symmetry_;
    std::unique_ptr<SymmetryClosing> closing_; // the group check in progress
    uint32_t next_candidate_graph_ = 0;
    Status candidate_problems_; // not reported: the group check leaves such graphs pending, as here
};

} // namespace astrolabe

#include "core/simulation/simulation.h"

#include "core/base/assert.h"
#include "core/config/config_parse.h"
#include "core/network/analytical_network.h"
#include "core/network/congestion_network.h"
#include "core/network/flow_network.h"
#include "core/network/topology.h"
#include "core/simulation/symmetry_search.h"
#include "core/system/collectives/phase_plan.h"
#include "core/system/scheduling/fast_ring_check.h"

#include <algorithm>
#include <tuple>

namespace astrolabe {

int collective_kind_of(trace::CollectiveType t) {
    switch (t) {
    case trace::CollectiveType::AllReduce:
    case trace::CollectiveType::Reduce:
    case trace::CollectiveType::Barrier:
        return int(config::CollectiveKind::AllReduce);
    case trace::CollectiveType::AllGather:
    case trace::CollectiveType::Gather:
    case trace::CollectiveType::Scatter:
        return int(config::CollectiveKind::AllGather);
    case trace::CollectiveType::ReduceScatter:
    case trace::CollectiveType::ReduceScatterBlock:
        return int(config::CollectiveKind::ReduceScatter);
    case trace::CollectiveType::AllToAll:
        return int(config::CollectiveKind::AllToAll);
    case trace::CollectiveType::Broadcast:
        return -1;
    }
    return -1;
}

uint32_t used_collective_kinds(const std::vector<WorkloadGraph>& graphs, const GroupTable& groups) {
    uint32_t used = 0;
    for (const auto& g : graphs)
        for (size_t i = 0; i < g.size(); ++i) {
            const GraphNode& n = g.shape().nodes[i];
            if (n.kind != NodeKind::Collective) continue;
            const uint32_t peer = g.peer(i);
            if (peer != 0 && groups.groups[peer].ranks.size() != graphs.size()) continue; // a group ring
            int k = collective_kind_of(n.collective);
            if (k >= 0) used |= 1u << k;
        }
    return used;
}

namespace {

// A custom implementation must have an ET for every position of every group that uses it, whose peers
// stay inside the group, and only sends, receives, compute and no-op nodes.
Status check_custom(const SimulationInput& in, const std::string& source) {
    Status problems;
    for (int k = 0; k < config::kCollectiveKinds; ++k) {
        const auto& ets = in.custom[k];
        if (ets.empty()) continue;
        size_t needed = 0;
        for (const auto& g : in.graphs)
            for (size_t i = 0; i < g.size(); ++i) {
                const GraphNode& n = g.shape().nodes[i];
                if (n.kind != NodeKind::Collective || collective_kind_of(n.collective) != k) continue;
                const uint32_t peer = g.peer(i);
                needed = std::max(needed, peer == 0 ? in.graphs.size() : in.groups.groups[peer].ranks.size());
            }
        if (needed > ets.size()) {
            problems.add(source + ": " + config::custom_implementation_key(k) + ": " +
                         std::to_string(ets.size()) + " ET file(s) but a collective of " +
                         std::to_string(needed) + " NPUs uses it; one ET per position was expected");
            continue;
        }
        for (size_t pos = 0; pos < needed; ++pos)
            for (const auto& n : ets[pos].nodes) {
                bool ok_kind = n.kind == NodeKind::Send || n.kind == NodeKind::Recv ||
                               n.kind == NodeKind::Compute || n.kind == NodeKind::Nop;
                bool ok_peer = !(n.kind == NodeKind::Send || n.kind == NodeKind::Recv) || n.peer < needed;
                if (!ok_kind || !ok_peer) {
                    problems.add(source + ": " + config::custom_implementation_key(k) + ": ET of position " +
                                 std::to_string(pos) + ", node " + std::to_string(n.id) + ": " +
                                 (!ok_kind ? std::string("a ") + node_kind_name(n.kind) +
                                                 " node; only sends, receives and compute nodes were expected"
                                           : "peer rank " + std::to_string(n.peer) +
                                                 " is outside the group of " + std::to_string(needed)));
                    return problems;
                }
            }
    }
    return problems;
}

} // namespace

bool uses_roofline(config::ComputeModel model, const config::SystemConfig& sys) {
    return model == config::ComputeModel::Roofline ||
           (model == config::ComputeModel::FromSystem && sys.roofline_enabled);
}

Status check_collectives(const config::SystemConfig& sys, const config::NetworkConfig& net, uint32_t used,
                         const std::string& source, std::vector<std::string>* warnings) {
    Status problems;
    for (int k = 0; k < config::kCollectiveKinds; ++k) {
        const auto& list = sys.implementation[k];
        if (!(used & (1u << k))) continue; // ASTRA-sim only builds the algorithms a trace uses
        if (!sys.custom_implementation[k].empty()) continue; // the custom ET replaces the list
        const char* key = config::implementation_key(k);
        if (list.size() > net.dims.size())
            problems.add(source + ": " + key + ": " + std::to_string(list.size()) +
                         " algorithms for a network of " + std::to_string(net.dims.size()) +
                         " dimension(s); one algorithm per network dimension was expected");
        // ASTRA-sim runs a collective over as many dimensions as the list names; a shorter list than the
        // network leaves the outer dimensions out. Legal, but rarely meant.
        if (warnings && !list.empty() && list.size() < net.dims.size())
            warnings->push_back(
                source + ": " + key + " names " + std::to_string(list.size()) +
                " algorithm(s) for a network of " + std::to_string(net.dims.size()) +
                " dimensions; its collectives leave the other dimensions out, as in ASTRA-sim");
        for (size_t d = 0; d < list.size() && d < net.dims.size(); ++d) {
            auto a = list[d].algorithm;
            uint32_t n = net.dims[d].npus;
            std::string where =
                source + ": " + key + "[" + std::to_string(d) + "]: " + config::algorithm_spelling(list[d]);
            if (a == config::CollectiveAlgorithm::HalvingDoubling &&
                k == int(config::CollectiveKind::AllToAll))
                problems.add(where + " cannot run an all-to-all; use ring or direct");
            else if ((a == config::CollectiveAlgorithm::HalvingDoubling ||
                      a == config::CollectiveAlgorithm::DoubleBinaryTree) &&
                     (n & (n - 1)) != 0)
                problems.add(where + " needs a power-of-two number of NPUs in dimension " +
                             std::to_string(d) + ", which has " + std::to_string(n));
        }
    }
    return problems;
}

namespace {

// Each NPU runs one collective at a time, split into preferred-dataset-splits chunks; every chunk is a stream
// with its own phase state (about 2 KB). Bound the streams alive at once before the run makes them: a
// million splits on 8 NPUs would otherwise take 15 GB and hours inside one event; 2^18 streams take about
// 500 MB (4096 NPUs with 64 splits). Only traces with collectives (whole-system or group) need streams.
Status check_streams(const SimulationInput& in, const std::string& source, uint64_t simulated) {
    constexpr uint64_t kMaxStreams = uint64_t(1) << 18;
    const uint64_t npus = in.network.npus();
    const uint64_t splits = std::max<uint32_t>(1, in.system.preferred_dataset_splits);
    if (simulated * splits <= kMaxStreams) return Status::ok();
    const std::string of_them =
        simulated < npus ? " (" + std::to_string(simulated) + " of them simulated, one per class)" : "";
    for (const auto& g : in.graphs)
        for (const auto& n : g.shape().nodes)
            if (n.kind == NodeKind::Collective)
                return Status::error(
                    source + ": preferred-dataset-splits: " + std::to_string(splits) + " chunks on each of " +
                    std::to_string(npus) + " NPUs" + of_them + " make " + std::to_string(simulated * splits) +
                    " chunk streams at once; at most " + std::to_string(kMaxStreams) + " fit (at most " +
                    std::to_string(std::max<uint64_t>(1, kMaxStreams / simulated)) +
                    " splits on this network)");
    return Status::ok();
}

} // namespace

// The parts of a run, in construction order (each refers to the ones above it).
struct Simulation::Parts {
    Engine engine;
    RunStats stats;
    std::unique_ptr<NetworkTopology> net_topology;
    LogicalTopology topology;
    std::unique_ptr<NpuBuckets> buckets;
    std::unique_ptr<NetworkModel> network;
    std::unique_ptr<P2PMatcher> matcher;
    std::unique_ptr<RemoteMemory> memory;
    std::unique_ptr<CollectiveEngine> collectives;
    std::unique_ptr<FastRingWatch> fast_ring_watch; // the fast path's guard (analytical model)
    std::unique_ptr<FastRing> fast_ring;            // when the run allows it (fast_ring_check.h)
    std::string fast_ring_note;
    std::unique_ptr<CustomCollectives> custom;
    std::unique_ptr<WorkloadExecutor> executor;
    RankSymmetry symmetry;     // order 1 when every NPU is simulated
    std::string symmetry_note; // for the report: the symmetry, or why there is none
    bool roofline = false;
};

// [SECTION] the parts of a run

// The engine's clients that carry messages: the NPUs' buckets, the network model and the P2P matcher.
void Simulation::make_network(Parts& p, const SimulationInput& in, uint32_t n) {
    p.net_topology = std::make_unique<NetworkTopology>(in.network);
    p.buckets = std::make_unique<NpuBuckets>(p.engine, n);
    switch (in.network_model) {
    case config::NetworkModel::Analytical:
        p.network = std::make_unique<AnalyticalNetwork>(*p.net_topology, p.engine);
        break;
    case config::NetworkModel::Congestion:
        p.network = std::make_unique<CongestionNetwork>(*p.net_topology, p.engine);
        break;
    case config::NetworkModel::Flow:
        p.network = std::make_unique<FlowNetwork>(*p.net_topology, p.engine);
        break;
    }
    p.matcher = std::make_unique<P2PMatcher>(p.engine, *p.network);
}

// A run of representatives: messages to other NPUs are filed as their representatives', links folded.
void Simulation::fold_symmetry(Parts& p) {
    p.matcher->set_symmetry(&p.symmetry);
    const RankSymmetry* sym = &p.symmetry;
    p.network->fold_links(NpuFold{
        [sym](uint32_t x) { return sym->representative(x); },
        [sym](uint32_t x, uint32_t by, bool back) { return sym->shift(x, by, back); }, sym->class_of(0)});
}

// The collective engine, the ring fast path when `fast_ring` asks for it and the run allows it, and the
// executor (not started).
void Simulation::make_executor(Parts& p, const SimulationInput& in, bool fast_ring) {
    auto n = static_cast<uint32_t>(in.graphs.size());
    const bool roofline = p.roofline;
    const bool systolic = in.compute_model == config::ComputeModel::Systolic;
    if (in.memory.type != config::MemoryType::NoExpansion)
        p.memory = std::make_unique<RemoteMemory>(in.memory, *p.buckets, n);
    p.collectives = std::make_unique<CollectiveEngine>(*p.buckets, *p.matcher, in.system, p.topology,
                                                       in.system.endpoint_delay_ns);
    if (in.collective_links) p.collectives->set_links(&in.collective_links);
    p.custom = std::make_unique<CustomCollectives>(*p.buckets, *p.matcher, n);
    if (fast_ring) {
        bool custom = false;
        for (const auto& ets : in.custom)
            custom = custom || !ets.empty();
        std::string why;
        const auto& sys = in.system;
        if (in.network_model == config::NetworkModel::Flow)
            why = "the flow model";
        else if (p.symmetry.active() && in.network_model != config::NetworkModel::Analytical)
            why = "symmetric run (congestion model)";
        else if (in.collective_links)
            why = "per-collective hardware timing";
        else if (custom)
            why = "custom collectives";
        else if (in.network_model == config::NetworkModel::Analytical) {
            if (fast_ring_applies(in.graphs, in.groups, sys, p.topology, why)) {
                p.fast_ring_watch = std::make_unique<FastRingWatch>(n);
                if (!in.fast_ring_tie_guard) p.fast_ring_watch->ignore_ties();
                p.fast_ring = std::make_unique<FastRing>(
                    p.engine, static_cast<const AnalyticalNetwork&>(*p.network), sys.endpoint_delay_ns,
                    sys.local_mem_bw_gbps, sys.active_chunks_per_dimension, n, p.fast_ring_watch.get());
                p.fast_ring->set_symmetry(&p.symmetry);
            }
        } else {
            auto& net = static_cast<CongestionNetwork&>(*p.network);
            bool queues = false;
            if (fast_ring_congestion_applies(in.graphs, in.groups, sys, p.topology, net, queues, why))
                p.fast_ring =
                    std::make_unique<FastRing>(p.engine, net, sys.endpoint_delay_ns, sys.local_mem_bw_gbps,
                                               sys.active_chunks_per_dimension, n, queues);
        }
        if (p.fast_ring) p.collectives->set_fast_ring(p.fast_ring.get());
        p.fast_ring_note = p.fast_ring ? "on" : "off: " + why;
    }
    ExecutorOptions opt;
    for (int k = 0; k < config::kCollectiveKinds; ++k)
        opt.custom[k] = &in.custom[k];
    opt.roofline = roofline;
    opt.roofline_params = RooflineParams{in.system.peak_perf_tflops, in.system.roofline_mem_bw_gbps > 0
                                                                         ? in.system.roofline_mem_bw_gbps
                                                                         : in.system.local_mem_bw_gbps};
    opt.roofline_or_duration = in.system.roofline_or_duration;
    if (systolic) {
        opt.systolic = true;
        opt.array =
            SystolicArray{in.systolic.rows, in.systolic.cols, in.systolic.dataflow, in.systolic.clock_ghz};
        // Nodes without a GEMM shape fall back to the roofline of the same array: its peak is 2 operations
        // (a MAC) per PE per cycle, so the array size and clock move every compute node, not only GEMMs.
        // The memory roof is local-mem-bw when given, else none. (peak-perf describes another NPU; an
        // npu-overrides entry may still set a per-NPU peak.)
        double array_tflops = 2.0 * in.systolic.rows * in.systolic.cols * in.systolic.clock_ghz / 1000.0;
        opt.fallback_params = RooflineParams{array_tflops, in.system.local_mem_bw_gbps};
    }
    if (!in.system.npu_overrides.empty()) {
        NpuProfile base{opt.roofline_params, opt.fallback_params, 1.0};
        opt.profiles.assign(n, base);
        for (const auto& ov : in.system.npu_overrides)
            for (uint32_t r : ov.npus) {
                NpuProfile& pr = opt.profiles[r];
                if (ov.peak_perf_tflops > 0)
                    pr.roofline.peak_tflops = pr.fallback.peak_tflops = ov.peak_perf_tflops;
                if (ov.local_mem_bw_gbps > 0)
                    pr.roofline.mem_bw_gbps = pr.fallback.mem_bw_gbps = ov.local_mem_bw_gbps;
                pr.slowdown = ov.compute_slowdown;
            }
    }
    if (p.symmetry.active()) opt.symmetry = &p.symmetry;
    opt.replay_only = in.system.replay_only;
    opt.fast_ring_watch = p.fast_ring_watch.get();
    opt.keep_timeline = in.keep_timeline;
    p.executor =
        std::make_unique<WorkloadExecutor>(p.engine, *p.buckets, *p.matcher, *p.collectives, *p.custom,
                                           p.memory.get(), in.groups, opt, in.graphs, p.stats);
}

void Simulation::redo_on_event_path(const std::string& why) {
    // Everything that ran is dropped; the inputs, the symmetry and the topology stay.
    auto fresh = std::make_unique<Parts>();
    fresh->roofline = parts_->roofline;
    fresh->topology = parts_->topology;
    fresh->symmetry = parts_->symmetry;
    fresh->symmetry_note = parts_->symmetry_note;
    make_network(*fresh, input_, npus());
    if (fresh->symmetry.active()) fold_symmetry(*fresh);
    make_executor(*fresh, input_, false);
    fresh->fast_ring_note = "off: " + why + "; redone on the event path";
    fresh->executor->start();
    parts_ = std::move(fresh);
}

Simulation::~Simulation() = default;

Result<std::unique_ptr<Simulation>> Simulation::create(SimulationInput input,
                                                       std::vector<std::string>* warnings) {
    SimulationBuild build(std::move(input), warnings);
    build.graphs_per_step = UINT32_MAX;
    while (build.step()) {
    }
    return build.take();
}

// [SECTION] the build in pieces
SimulationBuild::SimulationBuild(SimulationInput input, std::vector<std::string>* warnings)
    : input_(std::move(input)), warnings_(warnings) {}
SimulationBuild::~SimulationBuild() = default;

const char* SimulationBuild::stage_name() const {
    switch (stage_) {
    case Stage::Check:
        return "check";
    case Stage::Candidate:
        return "candidate symmetry";
    case Stage::Representatives:
        return "representatives";
    case Stage::Symmetry:
        return "symmetry";
    case Stage::Graphs:
        return "graphs";
    case Stage::Executor:
        return "executor";
    case Stage::Start:
        return "start";
    case Stage::Done:
        return "done";
    }
    return "?";
}

bool SimulationBuild::step() {
    switch (stage_) {
    case Stage::Check:
        check();
        stage_ = !problems_.is_ok() ? Stage::Done : sim_->input_.symmetry ? Stage::Candidate : Stage::Graphs;
        break;
    case Stage::Candidate:
        candidate_ = symmetry_candidate(sim_->input_);
        candidate_symmetry_ = candidate_.symmetry();
        // The group check (close_symmetry) looks at the candidate's representatives' graphs: made here a
        // few per piece, it finds them built.
        stage_ = candidate_symmetry_.active() && !sim_->input_.pending.empty() ? Stage::Representatives
                                                                               : Stage::Symmetry;
        break;
    case Stage::Representatives:
        if (ensure_graphs_from(sim_->input_, candidate_symmetry_, next_candidate_graph_,
                               std::max(1u, graphs_per_step), candidate_problems_))
            stage_ = Stage::Symmetry;
        break;
    case Stage::Symmetry:
        if (!symmetry()) stage_ = Stage::Graphs;
        break;
    case Stage::Graphs:
        // Graphs a generator left to build on demand: the representatives', or all of them without symmetry.
        if (ensure_graphs_from(sim_->input_, parts_->symmetry, next_graph_, std::max(1u, graphs_per_step),
                               problems_))
            stage_ = problems_.is_ok() ? Stage::Executor : Stage::Done;
        break;
    case Stage::Executor:
        executor();
        stage_ = problems_.is_ok() ? Stage::Start : Stage::Done;
        break;
    case Stage::Start: // the executor's start, a few simulated NPUs per piece
        if (!parts_->executor->start_step(std::max(1u, graphs_per_step))) stage_ = Stage::Done;
        break;
    case Stage::Done:
        break;
    }
    return stage_ != Stage::Done;
}

Result<std::unique_ptr<Simulation>> SimulationBuild::take() {
    SIM_ASSERT(stage_ == Stage::Done, "SimulationBuild::take before the last step");
    if (!problems_.is_ok()) return problems_;
    sim_->parts_ = std::move(parts_);
    return std::move(sim_);
}

// The checks of every input against the others, then the models that need no graph.
void SimulationBuild::check() {
    SimulationInput& input = input_;
    std::vector<std::string>* warnings = warnings_;
    Status& problems = problems_;
    uint64_t npus = input.network.npus();
    if (npus == 0) problems.add("network: no dimensions; at least one was expected");
    if (input.graphs.size() != npus)
        problems.add("workload: " + std::to_string(input.graphs.size()) + " trace(s) for a network of " +
                     std::to_string(npus) + " NPUs; one trace per NPU was expected");
    bool roofline = uses_roofline(input.compute_model, input.system);
    if (roofline && (input.system.peak_perf_tflops <= 0 ||
                     (input.system.local_mem_bw_gbps <= 0 && input.system.roofline_mem_bw_gbps <= 0)))
        problems.add(
            "system: the roofline compute model needs 'peak-perf' (TFLOPS) and 'local-mem-bw' (GB/s) > 0");
    const bool systolic = input.compute_model == config::ComputeModel::Systolic;
    if (systolic) {
        const auto& sc = input.systolic;
        if (sc.rows == 0 || sc.cols == 0 || !(sc.clock_ghz > 0))
            problems.add("systolic: the array needs rows, columns and clock_ghz > 0");
    }
    if (input.collective_links && input.network_model != config::NetworkModel::Analytical)
        problems.add("network model: per-collective hardware timing runs on the analytical model only");
    for (size_t i = 0; i < input.system.npu_overrides.size(); ++i)
        for (uint32_t r : input.system.npu_overrides[i].npus)
            if (r >= npus) {
                problems.add("system: npu-overrides[" + std::to_string(i) + "].npus: NPU " +
                             std::to_string(r) + " is not in the network (ranks 0.." +
                             std::to_string(npus - 1) + ")");
                break;
            }
    problems.merge(check_collectives(input.system, input.network,
                                     used_collective_kinds(input.graphs, input.groups), "system", warnings));
    problems.merge(check_custom(input, "system"));
    uint64_t memory_nodes = 0;
    for (const auto& g : input.graphs)
        for (const auto& n : g.shape().nodes)
            memory_nodes += n.kind == NodeKind::MemLoad || n.kind == NodeKind::MemStore;
    if (memory_nodes > 0 && input.memory.type == config::MemoryType::NoExpansion)
        problems.add("workload: " + std::to_string(memory_nodes) +
                     " memory load/store node(s) but no remote memory; pass a remote-memory configuration "
                     "(--remote-memory-configuration) with a memory-type other than NO_MEMORY_EXPANSION, or "
                     "LOCAL_MEMORY "
                     "for each NPU's own memory");
    if (!problems.is_ok()) return;

    sim_.reset(new Simulation());
    sim_->input_ = std::move(input);
    const SimulationInput& in = sim_->input_;
    parts_ = std::make_unique<Simulation::Parts>();
    Simulation::Parts& p = *parts_;
    auto n = static_cast<uint32_t>(npus);
    p.roofline = roofline;
    p.topology = make_logical_topology(in.network);
    Simulation::make_network(p, in, n);
}

// The largest symmetry of the inputs (one representative NPU per class), which the network folds onto: the
// group check a piece at a time (true while it goes on), then the symmetry taken.
bool SimulationBuild::symmetry() {
    Simulation::Parts& p = *parts_;
    const SimulationInput& in = sim_->input_;
    if (in.symmetry) {
        if (!closing_) closing_ = std::make_unique<SymmetryClosing>(sim_->input_, std::move(candidate_));
        if (closing_->step(symmetry_nodes_per_step)) return true;
        const std::string why_not = closing_->why_not();
        p.symmetry = closing_->symmetry();
        closing_.reset();
        p.symmetry.precompute(); // every message of the run asks it
        if (p.symmetry.active()) {
            p.symmetry_note = p.symmetry.describe();
            Simulation::fold_symmetry(p);
        } else {
            p.symmetry_note = "none: " + (why_not.empty() ? std::string("no dimension qualifies") : why_not);
        }
    }
    return false;
}

// Everything that needs the graphs: the stream bound, the collective engine, the ring fast path and the
// executor, started.
void SimulationBuild::executor() {
    Simulation::Parts& p = *parts_;
    const SimulationInput& in = sim_->input_;
    auto n = static_cast<uint32_t>(in.graphs.size());
    sim_->input_.load_graph = nullptr; // it refers to the caller's trace source
    sim_->input_.translation_proof = nullptr;
    // Streams exist only on simulated NPUs; the bound is checked once they are known.
    Status streams = check_streams(in, "system", n / p.symmetry.order());
    if (!streams.is_ok()) {
        problems_ = streams;
        return;
    }
    for (uint32_t r = 0; r < n; ++r)
        if (p.symmetry.is_representative(r)) sim_->nodes_total_ += in.graphs[r].size() * p.symmetry.order();
    Simulation::make_executor(p, in, in.fast_ring);
}

bool Simulation::run_slice(uint64_t max_events, TimeNs until) {
    Parts& p = *parts_;
    if (!p.fast_ring_watch) {
        p.engine.run(max_events, until);
        return !p.engine.idle();
    }
    // The guard's verdict is read between pieces, so a refused run stops soon after the tie.
    constexpr uint64_t kPiece = uint64_t(1) << 16;
    for (uint64_t left = max_events; left > 0;) {
        const uint64_t piece = std::min(left, kPiece), ran = p.engine.run(piece, until);
        if (p.fast_ring_watch->failed()) {
            redo_on_event_path(p.fast_ring_watch->why());
            return true;
        }
        left -= ran;
        if (ran < piece) break; // nothing left, or the next event lies after `until`
    }
    if (p.engine.idle() && p.fast_ring->pending() > 0) {
        // Some member never started a collective: the event path's packets say where the run stops.
        redo_on_event_path("a collective that some member never started");
        return true;
    }
    return !p.engine.idle();
}

TimeNs Simulation::now() const {
    return parts_->engine.now();
}
TimeNs Simulation::next_event_time() const {
    return parts_->engine.next_time();
}
uint64_t Simulation::events() const {
    return parts_->engine.stats().events;
}
uint64_t Simulation::nodes_done() const {
    // Every class has as many NPUs, with the same trace: its representative's progress is theirs.
    return parts_->executor->nodes_done() * parts_->symmetry.order();
}
bool Simulation::roofline() const {
    return parts_->roofline;
}
const char* Simulation::compute_model_label() const {
    if (input_.compute_model == config::ComputeModel::Systolic) return "systolic";
    return parts_->roofline ? "roofline" : "trace";
}

bool Simulation::complete() const {
    return parts_->executor->all_finished();
}

TimeNs Simulation::finish_ns() const {
    // A symmetric run's other NPUs get their representative's figures (expand_symmetric_result), so the
    // representatives' latest finish is everyone's.
    TimeNs last = 0;
    for (const auto& s : parts_->stats.npus)
        last = std::max(last, s.finish_ns);
    return last;
}

RunResult Simulation::result(TaskRunner* runner) const {
    RunResult r;
    r.stats = parts_->stats;
    const RankSymmetry& sym = parts_->symmetry;
    r.simulated_npus = static_cast<uint32_t>(r.stats.npus.size()) / sym.order();
    r.symmetry = parts_->symmetry_note;
    r.messages = parts_->network->messages();
    r.message_bytes = parts_->network->bytes();
    r.fast_ring = parts_->fast_ring_note;
    if (parts_->fast_ring) {
        // Messages the recurrence moved without events, as the network would have counted them.
        r.messages += parts_->fast_ring->messages();
        r.message_bytes += parts_->fast_ring->bytes();
    }
    for (const auto& m : parts_->matcher->unmatched())
        if (m.send_posted && !m.recv_posted && m.key.space == MessageSpace::Workload)
            r.unreceived.push_back(m);
    if (sym.active()) expand_symmetric_result(sym, input_.groups, r, runner);
    // Canonical orders, the same whichever NPUs were simulated: collectives by when they ran, the
    // timeline by NPU and start. The collectives' order covers every field, so records that tie on
    // time, group and index still have one order whichever sort (and how many threads) made it.
    parallel_sort(runner, r.stats.collectives, [](const CollectiveRecord& a, const CollectiveRecord& b) {
        return std::tie(a.start_ns, a.end_ns, a.group_id, a.ordinal, a.type, a.bytes, a.npus) <
               std::tie(b.start_ns, b.end_ns, b.group_id, b.ordinal, b.type, b.bytes, b.npus);
    });
    std::sort(r.stats.timeline.begin(), r.stats.timeline.end(),
              [](const TimelineRecord& a, const TimelineRecord& b) {
                  return std::tie(a.npu, a.start_ns, a.end_ns, a.node) <
                         std::tie(b.npu, b.start_ns, b.end_ns, b.node);
              });
    for (const auto& s : r.stats.npus)
        r.total_ns = std::max(r.total_ns, s.finish_ns);
    r.events = parts_->engine.stats().events;
    r.peak_queue = parts_->engine.stats().peak_queue;
    r.complete = parts_->executor->all_finished();
    r.links = parts_->network->link_stats();
    std::sort(r.unreceived.begin(), r.unreceived.end(),
              [](const UnmatchedMessage& a, const UnmatchedMessage& b) {
                  return std::tie(a.key.src, a.key.dst, a.key.tag, a.key.bytes) <
                         std::tie(b.key.src, b.key.dst, b.key.tag, b.key.bytes);
              });
    if (!r.complete) {
        r.stuck = parts_->executor->stuck_nodes();
        r.total_ns = std::max(r.total_ns, parts_->engine.now());
    }
    return r;
}

TimelineNode Simulation::timeline_node(const TimelineRecord& rec) const {
    const WorkloadGraph& g = input_.graphs[rec.npu];
    const GraphNode n = g.node(rec.node);
    TimelineNode t;
    switch (n.kind) {
    case NodeKind::Compute:
        t.kind = TimelineNode::Kind::Compute;
        break;
    case NodeKind::MemLoad:
    case NodeKind::MemStore:
        t.kind = TimelineNode::Kind::Memory;
        break;
    case NodeKind::Collective:
        t.kind = TimelineNode::Kind::Collective;
        t.collective = trace::collective_type_name(n.collective);
        break;
    case NodeKind::Send:
        t.kind = TimelineNode::Kind::Send;
        break;
    case NodeKind::Recv:
        t.kind = TimelineNode::Kind::Recv;
        break;
    default:
        break;
    }
    t.cpu = n.has(kCpuOp);
    t.id = n.id;
    t.name = g.name(rec.node);
    t.kind_name = node_kind_name(n.kind);
    t.bytes = n.bytes;
    t.peer = n.peer;
    t.tag = n.tag;
    return t;
}

} // namespace astrolabe

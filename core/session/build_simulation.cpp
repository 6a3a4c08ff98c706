// Loading a run's traces into their compact graphs and building the Simulation (Session::open's first half).
#include "core/session/session.h"
#include "core/session/staged_build.h"

#include "core/base/parallel.h"
#include "core/config/spellings.h"
#include "core/hardware/collective_links.h"
#include "core/hardware/hardware_mapping.h"
#include "core/session/graph_cache.h"
#include "core/trace/trace_reader.h"

#include <algorithm>

namespace astrolabe {

Status MemoryTraceSource::read(uint32_t rank, std::string& bytes, std::string& name) {
    if (rank >= traces_.size()) return Status::error("workload: no trace for NPU " + std::to_string(rank));
    name = traces_[rank].first;
    bytes = traces_[rank].second;
    return Status::ok();
}

GroupTable make_group_table(const config::CommGroups& groups) {
    GroupTable t;
    for (const auto& g : groups.groups) {
        if (g.id == 0) continue; // pg_name "0" means the whole system already
        t.groups.push_back(GroupTable::Group{g.id, g.ranks});
    }
    return t;
}

namespace {

// Streams one trace file into its compact graph, appended to `out`; the file's problems otherwise.
Status build_graph(std::string_view bytes, const std::string& name, const GraphBuildOptions& opt,
                   const trace::ReadOptions& read, std::vector<std::string>& warnings,
                   std::vector<WorkloadGraph>& out) {
    GraphBuilder builder(name, opt);
    trace::GlobalMetadata meta;
    Status decoded =
        trace::for_each_node(bytes, name, read, meta, [&builder](const trace::Node& n) { builder.add(n); });
    if (!decoded.is_ok()) return decoded;
    Result<WorkloadGraph> g = builder.finish(warnings);
    if (!g.is_ok()) return g.status();
    out.push_back(std::move(g.value()));
    return Status::ok();
}

// Loads `<prefix>.<p>.et` for positions p = 0, 1, ... (up to the NPU count) for every custom implementation
// the system config names; how many are needed is checked when the simulation is created.
Status load_custom_implementations(const config::Scenario& config, uint32_t npus, SessionHost* host,
                                   SimulationInput& input, std::vector<std::string>& warnings) {
    Status problems;
    for (int k = 0; k < config::kCollectiveKinds; ++k) {
        const std::string& prefix = config.system.custom_implementation[k];
        if (prefix.empty()) continue;
        if (!host) {
            problems.add("system: custom collective implementation " + prefix +
                         ": no files can be read here");
            continue;
        }
        if (config.system.preferred_dataset_splits > 1)
            warnings.push_back(
                "system: preferred-dataset-splits is ignored by custom collective implementations "
                "(the ET runs once per collective)");
        for (uint32_t pos = 0; pos < npus; ++pos) {
            std::string path = prefix + "." + std::to_string(pos) + ".et", bytes;
            Status st = host->read_file(path, bytes);
            if (!st.is_ok()) {
                if (pos == 0) problems.merge(st);
                break;
            }
            GraphBuildOptions opt;
            opt.rank = pos;
            opt.npus = npus;
            opt.keep_names = false;
            trace::ReadOptions read;
            read.keep_names = false;
            read.keep_io = false;
            Status built = build_graph(bytes, path, opt, read, warnings, input.custom[k]);
            if (!built.is_ok()) {
                problems.merge(built);
                break;
            }
        }
    }
    return problems;
}

} // namespace

Result<std::unique_ptr<Simulation>> build_simulation(config::Scenario config, TraceSource& traces,
                                                     std::vector<std::string>& warnings,
                                                     const RunOptions& options, SessionHost* host) {
    StagedBuild build(std::move(config), traces, options, host);
    build.graphs_per_step = UINT32_MAX;
    while (build.step()) {
    }
    for (auto& w : build.warnings())
        warnings.push_back(std::move(w));
    return build.take();
}

// [SECTION] the build in pieces (staged_build.h)
namespace {
constexpr size_t kMaxProblems = 20;
}

StagedBuild::StagedBuild(config::Scenario scenario, TraceSource& traces, const RunOptions& options,
                         SessionHost* host)
    : config_(std::move(scenario)), traces_(traces), options_(options), host_(host) {}
StagedBuild::~StagedBuild() = default;

std::string StagedBuild::stage_name() const {
    switch (stage_) {
    case Stage::Prepare:
        return "prepare";
    case Stage::Distinct:
        return "distinct graphs";
    case Stage::Full:
        return "graphs";
    case Stage::Custom:
        return "custom collectives";
    case Stage::Simulation:
        return std::string("simulation: ") + sim_build_->stage_name();
    case Stage::Done:
        return "done";
    }
    return "?";
}

bool StagedBuild::step() {
    switch (stage_) {
    case Stage::Prepare:
        prepare();
        if (!problems_.is_ok()) stage_ = Stage::Done;
        break;
    case Stage::Distinct:
        distinct_step();
        if (next_distinct_ == distinct_.size()) stage_ = problems_.is_ok() ? Stage::Custom : Stage::Done;
        break;
    case Stage::Full:
        full_window();
        break;
    case Stage::Custom:
        custom();
        break;
    case Stage::Simulation:
        if (!sim_build_->step()) {
            built_ = sim_build_->take();
            sim_build_.reset();
            stage_ = Stage::Done;
        }
        break;
    case Stage::Done:
        break;
    }
    return stage_ != Stage::Done;
}

Result<std::unique_ptr<Simulation>> StagedBuild::take() {
    if (!problems_.is_ok()) return problems_;
    return std::move(built_);
}

// A model rank's graph being decoded into the graph cache (the loader's build_alone, in windows of nodes).
struct StagedBuild::ModelRead {
    std::string bytes, name;
    GraphBuilder builder;
    trace::NodeReader reader;
    trace::GlobalMetadata meta;
    ModelRead(std::string b, std::string n, const GraphBuildOptions& opt, const trace::ReadOptions& read)
        : bytes(std::move(b)), name(std::move(n)), builder(name, opt), reader(bytes, name, read) {}
};

void StagedBuild::distinct_step() {
    const uint32_t rank = distinct_[next_distinct_];
    auto load = [&] { // the loader: a copy of the cached model graph, else the rank's own build
        problems_.merge(input_.load_graph(rank, input_.groups, input_.graphs[rank]));
        input_.pending[rank] = false;
        ++next_distinct_;
    };
    GraphCache* cache = traces_.graph_cache();
    if (!reading_) {
        const uint32_t per_step = std::max(1u, graphs_per_step);
        if (!cache || traces_.model_rank(rank) != int64_t(rank) || cache->find(rank)) {
            for (uint32_t k = 0; k < per_step && next_distinct_ < distinct_.size(); ++k) {
                if (k > 0 && cache &&
                    traces_.model_rank(distinct_[next_distinct_]) == distinct_[next_distinct_] &&
                    !cache->find(distinct_[next_distinct_]))
                    break; // a model to decode in pieces of its own
                const uint32_t r = distinct_[next_distinct_];
                problems_.merge(input_.load_graph(r, input_.groups, input_.graphs[r]));
                input_.pending[r] = false;
                ++next_distinct_;
            }
            return;
        }
        std::string bytes, name;
        if (!traces_.read_alone(rank, bytes, name).is_ok()) return load(); // the loader says why
        GraphBuildOptions opt = base_;
        opt.rank = rank;
        opt.groups = &input_.groups;
        reading_ = std::make_unique<ModelRead>(std::move(bytes), std::move(name), opt, read_);
    }
    ModelRead& m = *reading_;
    if (m.reader.step(nodes_per_step, m.meta, [&m](const trace::Node& n) { m.builder.add(n); })) return;
    // As the loader's first build of a model: kept when it built with nothing to say; otherwise the loader
    // builds the rank again and reports what it says.
    if (m.reader.status().is_ok()) {
        std::vector<std::string> notes;
        Result<WorkloadGraph> g = m.builder.finish(notes);
        if (g.is_ok() && notes.empty()) cache->keep(rank, std::move(g.value()));
    }
    reading_.reset();
    load();
}

// The network's size against the traces, the graph options, and for a generator that vouches for its
// translations the on-demand graph loader.
void StagedBuild::prepare() {
    config::Scenario& config = config_;
    if (config.hardware && config.network.dims.empty()) {
        // A scenario that describes a real system instead of a network and a system (docs/hardware.md).
        hardware::MappedSystem m = hardware::map_system(*config.hardware);
        config.network = std::move(m.network);
        config.system = std::move(m.system);
    }
    const uint64_t npus = config.network.npus();
    npus_ = npus;
    if (npus == 0) return problems_.add("network: no dimensions; at least one was expected");
    if (npus > (uint64_t(1) << 24))
        return problems_.add("network: npus_count: the dimensions multiply to " + std::to_string(npus) +
                             " NPUs, which exceeds the limit of 16777216 NPUs");
    if (traces_.count() >= 0 && static_cast<uint64_t>(traces_.count()) != npus)
        return problems_.add("workload: " + std::to_string(traces_.count()) +
                             " trace file(s) for a network of " + std::to_string(npus) +
                             " NPUs (the product of npus_count); one trace per NPU was expected");

    SimulationInput& input = input_;
    input.groups = make_group_table(config.groups);
    input.graphs.reserve(npus);
    const RunOptions& options = options_;
    TraceSource& traces = traces_;
    std::vector<std::string>& warnings = warnings_;
    bool roofline = uses_roofline(config.compute_model, config.system);
    const bool systolic = config.compute_model == config::ComputeModel::Systolic;
    trace::ReadOptions read;
    // The systolic model reads GEMM shapes off PyTorch operators: their names and input shapes.
    read.keep_names = options.keep_names || systolic;
    read.keep_io = systolic;
    GraphBuildOptions base;
    base.npus = static_cast<uint32_t>(npus);
    base.keep_names = options.keep_names;
    base.ignore_ctrl_deps = options.ignore_ctrl_deps;
    base.roofline = roofline;
    base.roofline_or_duration = config.system.roofline_or_duration;
    base.gemm_shapes = systolic;
    read_ = read;
    base_ = base;
    // A generator that vouches for its translations: only the ranks with distinct DAGs now, the
    // representatives once the symmetry is known (symmetry.h ensure_graphs), never the others. A timeline
    // names every NPU's nodes, so it needs every graph.
    const bool lazy = options.symmetry && !options.keep_timeline && traces.vouches_for_translations();
    if (!lazy) {
        stage_ = Stage::Full;
        return;
    }
    input.graphs.resize(npus);
    input.pending.assign(npus, true);
    input.translation_proof = [&traces](uint32_t stride, uint32_t size) {
        return traces.keeps_traces(stride, size);
    };
    auto build_alone = [&traces, base, read](uint32_t rank, const GroupTable& groups,
                                             std::vector<std::string>& notes, WorkloadGraph& out) {
        std::string b, n;
        Status st = traces.read_alone(rank, b, n);
        if (!st.is_ok()) return st;
        GraphBuildOptions opt = base;
        opt.rank = rank;
        opt.groups = &groups;
        std::vector<WorkloadGraph> one;
        st = build_graph(b, n, opt, read, notes, one);
        if (st.is_ok()) out = std::move(one[0]);
        return st;
    };
    GraphCache* cache = traces.graph_cache();
    if (cache) cache->prepare(graph_cache_key(base, read.keep_names, read.keep_io), input.groups);
    input.load_graph = [&traces, &warnings, cache, build_alone, npus](uint32_t rank, const GroupTable& groups,
                                                                      WorkloadGraph& out) {
        // A copy of the model's graph (graph_cache.h). A model whose build has anything to say is
        // not kept: every rank then builds its own and says it under its own name.
        const int64_t model = traces.model_rank(rank);
        if (cache && model >= 0) {
            const auto m = static_cast<uint32_t>(model);
            if (!cache->find(m)) {
                std::vector<std::string> notes;
                WorkloadGraph g;
                if (build_alone(m, groups, notes, g).is_ok() && notes.empty()) cache->keep(m, std::move(g));
            }
            const std::shared_ptr<const WorkloadGraph> found = cache->share(m);
            auto moved = [&traces, rank](uint32_t id) { return traces.moved_group_id(id, rank); };
            if (found && retarget_graph(found, rank, static_cast<uint32_t>(npus), groups, moved, out))
                return Status::ok();
        }
        return build_alone(rank, groups, warnings, out);
    };
    distinct_ = traces.distinct_ranks();
    stage_ = distinct_.empty() ? Stage::Custom : Stage::Distinct;
}

// Every rank's graph (no symmetry to exploit, or a timeline): decoded in windows of ranks on the runner's
// threads when the source can be read from several at once, each rank into its own slot; the slots are
// taken in rank order, so graphs, warnings and problems are those of one thread. One window per piece.
void StagedBuild::full_window() {
    struct Slot {
        Status status;
        std::vector<WorkloadGraph> graph; // one graph, or none after a problem
        std::vector<std::string> warnings;
    };
    const uint64_t npus = npus_;
    const unsigned workers = traces_.concurrent_reads() ? workers_of(options_.runner) : 1;
    const uint64_t window = workers > 1 ? uint64_t(16) * workers : 1;
    const uint64_t start = next_rank_;
    const size_t n = static_cast<size_t>(std::min<uint64_t>(window, npus - start));
    std::vector<Slot> slots(n);
    auto load = [&](size_t k) {
        const auto rank = static_cast<uint32_t>(start + k);
        std::string b, nm;
        Slot& slot = slots[k];
        slot.status = traces_.read(rank, b, nm);
        if (!slot.status.is_ok()) return;
        GraphBuildOptions opt = base_;
        opt.rank = rank;
        opt.groups = &input_.groups;
        slot.status = build_graph(b, nm, opt, read_, slot.warnings, slot.graph);
    };
    if (workers > 1)
        options_.runner->run(n, load);
    else
        load(0);
    for (size_t k = 0; k < n; ++k) {
        Slot& slot = slots[k];
        problems_.merge(slot.status);
        for (auto& w : slot.warnings)
            warnings_.push_back(std::move(w));
        for (auto& g : slot.graph)
            input_.graphs.push_back(std::move(g));
        if (problems_.problems().size() >= kMaxProblems) {
            problems_.add("(stopped reading traces after " + std::to_string(kMaxProblems) + " problems)");
            stage_ = Stage::Done;
            return;
        }
        if (host_) {
            SessionProgress p;
            p.done = start + k + 1;
            p.total = npus;
            host_->progress(p);
        }
    }
    next_rank_ = start + n;
    if (next_rank_ >= npus) stage_ = problems_.is_ok() ? Stage::Custom : Stage::Done;
}

// Custom collective ETs, then the simulation's input, handed to SimulationBuild.
void StagedBuild::custom() {
    config::Scenario& config = config_;
    SimulationInput& input = input_;
    std::vector<std::string>& warnings = warnings_;
    problems_.merge(
        load_custom_implementations(config, static_cast<uint32_t>(npus_), host_, input, warnings));
    if (!problems_.is_ok()) {
        stage_ = Stage::Done;
        return;
    }
    for (const auto& w : config.network.warnings)
        warnings.push_back(w);
    for (const auto& w : config.system.warnings)
        warnings.push_back(w);
    for (const auto& w : config.memory.warnings)
        warnings.push_back(w);
    input.network = std::move(config.network);
    input.system = std::move(config.system);
    input.memory = std::move(config.memory);
    input.network_model = config.network_model;
    input.compute_model = config.compute_model;
    input.systolic = config.systolic;
    if (config.hardware) {
        // Each collective as NCCL runs it on this system (core/hardware/collective_links.h). The link
        // models keep the mapped NVLink and NIC links for everything.
        if (config.network_model == config::NetworkModel::Analytical)
            input.collective_links = hardware::collective_links(*config.hardware);
        else
            warnings.push_back(
                std::string("hardware: the ") + config::name_of(config.network_model) +
                " network model times collectives on the mapped NVLink and NIC links at a large "
                "all-reduce's bandwidth; NCCL's per-size choice needs the analytical model");
    }
    input.keep_timeline = options_.keep_timeline;
    input.symmetry = options_.symmetry;
    // A run stopped at --max-sim-time reports the time it reached, the last event's: the fast path has
    // fewer events, so such a partial report would differ. Stopped runs keep every packet an event.
    input.fast_ring = options_.fast_ring && options_.max_sim_ns == 0;
    input.fast_ring_tie_guard = options_.fast_ring_tie_guard;
    sim_build_ = std::make_unique<SimulationBuild>(std::move(input), &warnings_);
    sim_build_->graphs_per_step = graphs_per_step;
    stage_ = Stage::Simulation;
}

} // namespace astrolabe

#include "ui/app_state.h"

#include "core/report/report.h"
#include "core/session/share_link.h"
#include "core/session/trace_ranks.h"
#include "host/files.h"

#include <algorithm>
#include <cstdio>
#include <exception>
#include <filesystem>
#include <new>

namespace astrolabe::ui {

namespace fs = std::filesystem;

namespace {

// "Ring(8) 50 GB/s x Switch(2) 100 GB/s": what a comparison most often changes.
std::string network_label(const config::NetworkConfig& net) {
    std::string out;
    for (size_t d = 0; d < net.dims.size(); ++d) {
        char bw[32];
        std::snprintf(bw, sizeof bw, "%g", net.dims[d].bandwidth_gbps);
        out += std::string(d ? " x " : "") + config::topology_name(net.dims[d].topology) + "(" +
               std::to_string(net.dims[d].npus) + ") " + bw + " GB/s";
    }
    return out;
}

} // namespace

const char* run_phase_name(RunPhase p) {
    switch (p) {
    case RunPhase::Idle:
        return "idle";
    case RunPhase::Loading:
        return "loading";
    case RunPhase::Running:
        return "running";
    case RunPhase::Done:
        return "done";
    case RunPhase::Failed:
        return "failed";
    case RunPhase::Cancelled:
        return "cancelled";
    }
    return "?";
}

App::App(std::string samples_root) : samples_root_(std::move(samples_root)) {
    std::error_code ec;
    std::vector<std::string> names;
    for (const auto& e : fs::directory_iterator(samples_root_, ec))
        if (e.is_directory() && fs::exists(e.path() / "scenario.json"))
            names.push_back(e.path().filename().string());
    std::sort(names.begin(), names.end()); // directory order differs between file systems
    for (const auto& n : names) {
        SampleInfo info{n, ""};
        auto text = cli::read_file(samples_root_ + "/" + n + "/scenario.json", "scenario");
        if (text.is_ok()) {
            auto sc = config::parse_scenario_json(text.value(), n);
            if (sc.is_ok()) {
                const auto& net = sc.value().network;
                info.summary = std::to_string(net.npus()) + " NPUs,";
                for (size_t d = 0; d < net.dims.size(); ++d)
                    info.summary += std::string(d ? " x " : " ") +
                                    config::topology_name(net.dims[d].topology) + "(" +
                                    std::to_string(net.dims[d].npus) + ")";
            }
        }
        samples_.push_back(std::move(info));
    }
}

Status App::adopt(config::ScenarioDoc doc, const std::string& source) {
    if (phase_ == RunPhase::Running || phase_ == RunPhase::Loading) cancel();
    doc_ = std::move(doc);
    source_ = source;
    doc_changed();
    message_.clear();
    return Status::ok();
}

Status App::load_sample(const std::string& name) {
    bool known =
        std::any_of(samples_.begin(), samples_.end(), [&](const SampleInfo& s) { return s.name == name; });
    if (!known) {
        message_ = "sample '" + name + "': no such bundled sample";
        return Status::error(message_);
    }
    auto text = cli::read_file(samples_root_ + "/" + name + "/scenario.json", "scenario");
    if (!text.is_ok()) {
        message_ = text.status().message();
        return text.status();
    }
    return load_scenario_text(text.value(), "sample " + name);
}

Status App::load_scenario_text(const std::string& text, const std::string& source) {
    auto doc = config::ScenarioDoc::from_text(text, source);
    if (!doc.is_ok()) {
        message_ = doc.status().message();
        return doc.status();
    }
    return adopt(std::move(doc.value()), source);
}

Status App::load_link(const std::string& link) {
    auto text = decode_share_link(link);
    if (!text.is_ok()) {
        message_ = text.status().message();
        return text.status();
    }
    return load_scenario_text(text.value(), "shared link");
}

Status App::load_traces(std::vector<std::pair<std::string, std::string>> files) {
    if (files.empty()) {
        message_ = "no trace files were given";
        return Status::error(message_);
    }
    std::vector<std::pair<std::string, std::string>> ordered;
    if (files.size() == 1) {
        ordered = std::move(files); // one file is one NPU, whatever its name
    } else {
        std::vector<std::string> names;
        for (const auto& f : files)
            names.push_back(f.first);
        auto order = order_traces_by_rank(names, "opened traces");
        if (!order.is_ok()) {
            message_ = order.status().message();
            return order.status();
        }
        for (size_t i : order.value())
            ordered.push_back(std::move(files[i]));
    }
    if (phase_ == RunPhase::Running || phase_ == RunPhase::Loading) cancel();
    doc_.set_embedded_traces(ordered);
    // The NPU count follows the traces when the network is one-dimensional; a multi-dimensional network
    // must be reshaped by the user (its factorisation is a design choice), and validation says so.
    if (doc_.array_size("/network/npus_count") <= 1)
        doc_.set_number("/network/npus_count/0", double(ordered.size()));
    source_ = std::to_string(ordered.size()) + " opened trace(s)";
    doc_changed();
    message_.clear();
    return Status::ok();
}

void App::doc_changed() {
    auto sc = doc_.parse("scenario");
    validation_ = sc.is_ok() ? Status::ok() : sc.status();
    if (sc.is_ok()) {
        const config::Scenario& s = sc.value();
        uint64_t npus = s.network.npus();
        if (s.workload_kind == config::Scenario::WorkloadKind::Embedded && s.traces.size() != npus)
            validation_.add("scenario: network: npus_count: the network has " + std::to_string(npus) +
                            " NPUs but " + std::to_string(s.traces.size()) +
                            " traces are loaded; one trace per NPU was expected");
        SessionConfig probe;
        const Status models = set_models(s.network_model, s.compute_model, probe);
        for (const auto& p : models.problems())
            validation_.add("scenario: " + p);
        if (s.workload_kind == config::Scenario::WorkloadKind::Prefix)
            validation_.add("scenario: workload: prefix: a path on disk, which the browser cannot read; open "
                            "the .et files instead");
    }
}

std::vector<std::string> App::problems_for(const std::string& section, const std::string& key) const {
    std::vector<std::string> out;
    std::string head = "scenario: " + section + ": ";
    for (const auto& p : validation_.problems()) {
        if (p.compare(0, head.size(), head) != 0) continue;
        std::string rest = p.substr(head.size());
        if (key.empty() || rest.compare(0, key.size(), key) == 0) out.push_back(rest);
    }
    return out;
}

Result<std::unique_ptr<TraceSource>> App::traces_for(config::Scenario::WorkloadKind kind,
                                                     const std::string& workload) {
    if (kind == config::Scenario::WorkloadKind::Sample) {
        auto src = cli::FileTraceSource::open(samples_root_ + "/" + workload);
        if (!src.is_ok())
            return Status::error("sample '" + workload + "': not among the bundled samples (" +
                                 src.status().message() + ")");
        return std::unique_ptr<TraceSource>(std::make_unique<cli::FileTraceSource>(std::move(src.value())));
    }
    return Status::error("workload: a path prefix cannot be read in the browser; open the .et files instead");
}

bool App::start_run() {
    // Out of memory (a trace set too large for the browser's 4 GiB) must leave a message, not a dead page.
    try {
        return start_run_unguarded();
    } catch (const std::bad_alloc&) {
        sim_.reset();
        message_ =
            "out of memory while loading the traces; the browser app holds at most 4 GiB, the astrolabe CLI "
            "has no such limit";
    } catch (const std::exception& e) {
        sim_.reset();
        message_ = std::string("the run could not start: ") + e.what();
    }
    phase_ = RunPhase::Failed;
    return false;
}

bool App::start_run_unguarded() {
    if (phase_ == RunPhase::Running || phase_ == RunPhase::Loading) cancel();
    sim_.reset();
    has_result_ = false;
    critical_.reset();
    critical_keys_.clear();
    report_.clear();
    warnings_.clear();
    message_.clear();
    phase_ = RunPhase::Loading;
    auto fail = [this](const std::string& why) {
        message_ = why;
        phase_ = RunPhase::Failed;
        return false;
    };
    auto sc = doc_.parse("scenario");
    if (!sc.is_ok()) return fail(sc.status().message());
    const auto kind = sc.value().workload_kind;
    const std::string workload = sc.value().workload;
    auto setup = scenario_setup(std::move(sc.value()));
    if (!setup.is_ok()) return fail("scenario: " + setup.status().message());
    ScenarioSetup& su = setup.value();
    std::unique_ptr<TraceSource> traces = std::move(su.embedded);
    if (!traces) {
        auto src = traces_for(kind, workload);
        if (!src.is_ok()) return fail(src.status().message());
        traces = std::move(src.value());
    }
    su.config.keep_timeline = true; // the timeline panel draws every node
    su.config.keep_names = true;
    su.config.read_file = [](const std::string& path, std::string&) {
        return Status::error(path + ": custom collective ETs are read from files, which the browser does not "
                                    "have; this scenario runs only in the CLI");
    };
    auto built = build_simulation(std::move(su.config), *traces, warnings_);
    if (!built.is_ok()) return fail(built.status().message());
    sim_ = std::move(built.value());
    workload_label_ = su.workload_label;
    run_wall_s_ = 0;
    phase_ = RunPhase::Running;
    return true;
}

void App::step(double budget_ms) {
    if (phase_ != RunPhase::Running) return;
    auto t0 = std::chrono::steady_clock::now();
    bool more = true;
    double spent = 0;
    // Slices of a few thousand events keep the clock checks cheap and the frame close to its budget.
    try {
        // At least one slice per call, so even a zero budget makes progress.
        do {
            more = sim_->run_slice(4096);
            spent = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
        } while (more && spent < budget_ms);
    } catch (const std::bad_alloc&) {
        sim_.reset();
        phase_ = RunPhase::Failed;
        message_ =
            "out of memory during the run; the browser app holds at most 4 GiB, the astrolabe CLI has no "
            "such limit";
        return;
    }
    run_wall_s_ += spent / 1000.0;
    if (!more) finish(RunPhase::Done);
}

void App::cancel() {
    if (phase_ == RunPhase::Running)
        finish(RunPhase::Cancelled);
    else if (phase_ == RunPhase::Loading)
        phase_ = RunPhase::Cancelled;
}

void App::finish(RunPhase end) {
    result_ = sim_->result();
    has_result_ = true;
    ReportContext ctx = report_context(*sim_, workload_label_);
    ctx.wall_s = run_wall_s_;
    ctx.load_warnings = warnings_; // as the CLI does: the report lists them with the run's own
    if (end == RunPhase::Cancelled) {
        ctx.partial = true;
        ctx.partial_reason = "cancelled in the browser";
    }
    report_ = astrolabe::report_json(result_, ctx);
    phase_ = end;
    critical_.reset();
    critical_keys_.clear();
    if (end == RunPhase::Done) {
        RunSnapshot snap;
        snap.number = ++runs_done_;
        snap.label = source_ + ", " + network_label(sim_->input().network);
        snap.network_model = ctx.network_model;
        snap.compute_model = ctx.compute_model;
        snap.total_ns = result_.total_ns;
        snap.npus = result_.stats.npus;
        if (runs_.size() == 2) runs_.erase(runs_.begin());
        runs_.push_back(std::move(snap));
    }
    if (end == RunPhase::Done && !result_.complete)
        message_ = "the run ended with NPUs that did not finish (" + std::to_string(result_.stuck.size()) +
                   " stuck nodes); see the results";
}

const CriticalPath& App::critical_path() const {
    if (!critical_) {
        critical_ = std::make_unique<CriticalPath>();
        if (sim_ && has_result_)
            *critical_ = astrolabe::critical_path(sim_->input().graphs, result_.stats.timeline);
        critical_keys_.clear();
        for (const auto& s : critical_->steps)
            critical_keys_.push_back(uint64_t(s.npu) << 32 | s.node);
        std::sort(critical_keys_.begin(), critical_keys_.end());
    }
    return *critical_;
}

bool App::on_critical_path(uint32_t npu, uint32_t node) const {
    critical_path();
    return std::binary_search(critical_keys_.begin(), critical_keys_.end(), uint64_t(npu) << 32 | node);
}

double App::progress() const {
    if (!sim_ || sim_->nodes_total() == 0) return 0;
    return double(sim_->nodes_done()) / double(sim_->nodes_total());
}

double App::events_per_s() const {
    return sim_ && run_wall_s_ > 0 ? double(sim_->events()) / run_wall_s_ : 0;
}

uint64_t App::events() const {
    return sim_ ? sim_->events() : 0;
}
TimeNs App::sim_now() const {
    return sim_ ? sim_->now() : 0;
}

std::string App::timeline_json() const {
    return sim_ && has_result_ ? astrolabe::timeline_json(*sim_, result_) : std::string();
}

Result<std::string> App::share_fragment() const {
    std::string frag = encode_share_fragment(doc_.dump());
    if (frag.size() > kMaxShareFragment)
        return Status::error("the scenario is too large for a link (" + std::to_string(frag.size() / 1024) +
                             " KiB compressed, the limit is " + std::to_string(kMaxShareFragment / 1024) +
                             " KiB): the traces are embedded; download the scenario file and share that");
    return frag;
}

} // namespace astrolabe::ui

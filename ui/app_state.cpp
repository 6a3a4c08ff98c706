#include "ui/app_state.h"

#include "core/config/spellings.h"
#include "core/report/report.h"
#include "core/session/share_link.h"
#include "core/session/trace_ranks.h"
#include "host/files.h"

#include <algorithm>
#include <cstdio>
#include <exception>
#include <filesystem>

namespace astrolabe::ui {

namespace fs = std::filesystem;

namespace {

// "Ring(8) 50 GB/s x Switch(2) 100 GB/s": what a comparison most often changes.
std::string network_label(const config::NetworkConfig& net) {
    std::string out;
    for (size_t d = 0; d < net.dims.size(); ++d) {
        char bw[32];
        std::snprintf(bw, sizeof bw, "%g", net.dims[d].bandwidth_gbps);
        out += std::string(d ? " x " : "") + config::name_of(net.dims[d].topology) + "(" +
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
        auto text = host::read_file(samples_root_ + "/" + n + "/scenario.json", "scenario");
        if (text.is_ok()) {
            auto sc = config::parse_scenario_json(text.value(), n);
            if (sc.is_ok()) {
                const auto& net = sc.value().network;
                info.summary = std::to_string(net.npus()) + " NPUs,";
                for (size_t d = 0; d < net.dims.size(); ++d)
                    info.summary += std::string(d ? " x " : " ") + config::name_of(net.dims[d].topology) +
                                    "(" + std::to_string(net.dims[d].npus) + ")";
            }
        }
        samples_.push_back(std::move(info));
    }
}

Status App::adopt(config::ScenarioDoc doc, const std::string& source) {
    if (phase_ == RunPhase::Running || phase_ == RunPhase::Loading) cancel();
    doc_ = std::move(doc);
    source_ = source;
    ++adopted_;
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
    auto text = host::read_file(samples_root_ + "/" + name + "/scenario.json", "scenario");
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
    // must be reshaped by the user (its factorisation is a design choice), and validation says so. A real
    // system's description has no network to resize: its GPU count is its own.
    if (!doc_.has("/hardware") && doc_.array_size("/network/npus_count") <= 1)
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
        uint64_t npus = s.hardware ? s.hardware->ranks() : s.network.npus();
        if (s.workload_kind == config::Scenario::WorkloadKind::Embedded && s.traces.size() != npus)
            validation_.add("scenario: network: npus_count: the network has " + std::to_string(npus) +
                            " NPUs but " + std::to_string(s.traces.size()) +
                            " traces are loaded; one trace per NPU was expected");
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

// The browser's host: bundled samples from the virtual file system; no other files.
class App::Host final : public SessionHost {
public:
    explicit Host(const std::string& samples_root) : samples_root_(samples_root) {}
    Status read_file(const std::string& path, std::string&) override {
        return Status::error(path + ": custom collective ETs are read from files, which the browser does not "
                                    "have; this scenario runs only in the CLI");
    }
    Result<std::unique_ptr<TraceSource>> open_workload(config::Scenario::WorkloadKind kind,
                                                       const std::string& workload) override {
        if (kind != config::Scenario::WorkloadKind::Sample)
            return Status::error(
                "workload: a path prefix cannot be read in the browser; open the .et files instead");
        auto src = host::FileTraceSource::open(samples_root_ + "/" + workload);
        if (!src.is_ok())
            return Status::error("sample '" + workload + "': not among the bundled samples (" +
                                 src.status().message() + ")");
        return std::unique_ptr<TraceSource>(std::make_unique<host::FileTraceSource>(std::move(src.value())));
    }

private:
    const std::string& samples_root_;
};

App::~App() = default;

SessionHost& App::session_host() {
    if (!host_) host_ = std::make_unique<Host>(samples_root_);
    return *host_;
}

bool App::start_run() {
    if (phase_ == RunPhase::Running || phase_ == RunPhase::Loading) cancel();
    session_.reset();
    critical_.reset();
    critical_keys_.clear();
    report_.clear();
    message_.clear();
    phase_ = RunPhase::Loading;
    auto sc = doc_.parse("scenario");
    Result<std::unique_ptr<Session>> opened = sc.status();
    if (sc.is_ok()) {
        RunOptions options;
        options.keep_timeline = true; // the timeline panel draws every node
        options.keep_names = true;
        opened = Session::open(std::move(sc.value()), options, session_host());
    }
    if (!opened.is_ok()) {
        // Out of memory: a trace set too large for the browser's 4 GiB; say where it would fit.
        const std::string& why = opened.status().message();
        message_ = why.rfind("out of memory", 0) == 0 ? why + "; the browser app holds at most 4 GiB, the "
                                                              "astrolabe CLI has no such limit"
                                                      : why;
        phase_ = RunPhase::Failed;
        return false;
    }
    session_ = std::move(opened.value());
    phase_ = RunPhase::Running;
    return true;
}

void App::step(double budget_ms) {
    if (phase_ != RunPhase::Running) return;
    if (inject_error_) session_->inject_internal_error(), inject_error_ = false;
    if (!session_->step(budget_ms)) settle();
}

void App::cancel() {
    if (phase_ == RunPhase::Running) {
        session_->cancel("cancelled in the browser");
        settle();
    } else if (phase_ == RunPhase::Loading) {
        phase_ = RunPhase::Cancelled;
    }
}

// The session ended (done, cancelled or failed): the phase, the report and the message follow it.
void App::settle() {
    switch (session_->phase()) {
    case SessionPhase::Failed:
        phase_ = RunPhase::Failed;
        message_ = "the run failed: " + session_->stop_reason() +
                   (session_->stop_reason().rfind("out of memory", 0) == 0
                        ? "; the browser app holds at most 4 GiB, the astrolabe CLI has no such limit"
                        : "");
        return;
    case SessionPhase::Stopped:
        phase_ = RunPhase::Cancelled;
        break;
    default:
        phase_ = RunPhase::Done;
        break;
    }
    report_ = session_->report_json();
    const RunResult& r = session_->result();
    critical_.reset();
    critical_keys_.clear();
    if (phase_ == RunPhase::Done) {
        const ReportContext ctx = session_->context();
        RunSnapshot snap;
        snap.number = ++runs_done_;
        snap.label = source_ + ", " + network_label(session_->simulation().input().network);
        snap.network_model = ctx.network_model;
        snap.compute_model = ctx.compute_model;
        snap.total_ns = r.total_ns;
        snap.npus = r.stats.npus;
        if (runs_.size() == 2) runs_.erase(runs_.begin());
        runs_.push_back(std::move(snap));
    }
    if (phase_ == RunPhase::Done && !r.complete)
        message_ = "the run ended with NPUs that did not finish (" + std::to_string(r.stuck.size()) +
                   " stuck nodes); see the results";
}

const RunResult* App::result() const {
    const bool ended = phase_ == RunPhase::Done || phase_ == RunPhase::Cancelled;
    return session_ && ended && session_->phase() != SessionPhase::Running ? &session_->result() : nullptr;
}

const std::vector<std::string>& App::warnings() const {
    static const std::vector<std::string> kNone;
    return session_ ? session_->warnings() : kNone;
}

const CriticalPath& App::critical_path() const {
    if (!critical_) {
        critical_ = std::make_unique<CriticalPath>();
        if (const RunResult* r = result())
            *critical_ = astrolabe::critical_path(session_->simulation().input().graphs, r->stats.timeline);
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
    if (!session_ || session_->nodes_total() == 0) return 0;
    return double(session_->nodes_done()) / double(session_->nodes_total());
}

double App::events_per_s() const {
    return session_ && session_->wall_s() > 0 ? double(session_->events()) / session_->wall_s() : 0;
}

uint64_t App::events() const {
    return session_ ? session_->events() : 0;
}
TimeNs App::sim_now() const {
    return session_ ? session_->sim_now() : 0;
}

std::string App::timeline_json() const {
    return result() ? session_->timeline_json() : std::string();
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

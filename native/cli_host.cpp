#include "native/cli_host.h"

#include "host/files.h"

#include <cstdio>
#include <filesystem>

#ifndef ASTROLABE_SAMPLES_DIR
#define ASTROLABE_SAMPLES_DIR "samples"
#endif

namespace astrolabe::cli {

Status CliHost::read_file(const std::string& path, std::string& bytes) {
    auto r = cli::read_file(path, "custom collective ET");
    if (!r.is_ok()) return r.status();
    bytes = std::move(r.value());
    return Status::ok();
}

Result<std::unique_ptr<TraceSource>> CliHost::open_workload(config::Scenario::WorkloadKind kind,
                                                            const std::string& name) {
    namespace fs = std::filesystem;
    std::string path;
    if (kind == config::Scenario::WorkloadKind::Sample)
        path = std::string(ASTROLABE_SAMPLES_DIR) + "/" + name;
    else
        path = fs::path(name).is_absolute() || base_.empty() ? name : (fs::path(base_) / name).string();
    auto src = FileTraceSource::open(path);
    if (!src.is_ok()) return src.status();
    return std::unique_ptr<TraceSource>(std::make_unique<FileTraceSource>(std::move(src.value())));
}

void CliHost::progress(const SessionProgress& p) {
    if (!show_) return;
    if (!bar_ || bar_phase_ != p.phase) {
        bar_ =
            std::make_unique<ProgressBar>(p.phase == SessionPhase::Loading ? "loading" : "simulating", true);
        bar_phase_ = p.phase;
    }
    if (!bar_->due()) return;
    if (p.phase == SessionPhase::Loading) return bar_->update(p.done, p.total, "traces");
    // Nodes done, the simulated time reached and the event rate since the start.
    char detail[160];
    const double rate = p.wall_s > 0 ? static_cast<double>(p.events) / p.wall_s : 0.0;
    std::snprintf(detail, sizeof detail, "%llu/%llu nodes  sim %.3f ms  %.2f M events/s",
                  static_cast<unsigned long long>(p.done), static_cast<unsigned long long>(p.total),
                  static_cast<double>(p.sim_ns) / 1e6, rate / 1e6);
    bar_->update(p.done, p.total, detail);
}

} // namespace astrolabe::cli

// The CLI's side of a Session: files on disk (workload prefixes relative to the scenario's folder, bundled
// samples in the install's samples folder, custom collective ETs relative to the working directory) and a
// progress bar on stderr for loading and simulating.
#pragma once

#include "core/session/session.h"
#include "native/progress.h"

#include <memory>
#include <string>

namespace astrolabe::cli {

class CliHost final : public SessionHost {
public:
    // `base`: the folder relative prefixes are taken from (a scenario file's folder; empty: the working
    // directory). `show_progress`: draw the bars (off with --quiet).
    CliHost(std::string base, bool show_progress) : base_(std::move(base)), show_(show_progress) {}
    Status read_file(const std::string& path, std::string& bytes) override;
    Result<std::unique_ptr<TraceSource>> open_workload(config::Scenario::WorkloadKind kind,
                                                       const std::string& name) override;
    void progress(const SessionProgress& p) override;
    // Ends the bar on screen (before the summary is printed).
    void end_progress() { bar_.reset(); }

private:
    std::string base_;
    bool show_;
    std::unique_ptr<ProgressBar> bar_;
    SessionPhase bar_phase_ = SessionPhase::Failed; // the phase bar_ shows
};

} // namespace astrolabe::cli

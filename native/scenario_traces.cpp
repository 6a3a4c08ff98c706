// Scenario traces on disk (scenario_traces.h).
#include "native/scenario_traces.h"

#include "host/files.h"

#ifndef ASTROLABE_SAMPLES_DIR
#define ASTROLABE_SAMPLES_DIR "samples"
#endif

namespace astrolabe::cli {

Result<std::unique_ptr<TraceSource>> scenario_traces(ScenarioSetup& setup,
                                                     config::Scenario::WorkloadKind kind,
                                                     const std::string& workload,
                                                     const std::filesystem::path& base_dir) {
    if (setup.embedded) return std::move(setup.embedded);
    std::string w =
        kind == config::Scenario::WorkloadKind::Sample
            ? std::string(ASTROLABE_SAMPLES_DIR) + "/" + workload
            : (std::filesystem::path(workload).is_absolute() ? workload : (base_dir / workload).string());
    auto src = FileTraceSource::open(w);
    if (!src.is_ok()) return src.status();
    return std::unique_ptr<TraceSource>(std::make_unique<FileTraceSource>(std::move(src.value())));
}

std::function<Status(const std::string&, std::string&)> custom_collective_reader() {
    return [](const std::string& path, std::string& bytes) {
        auto r = read_file(path, "custom collective ET");
        if (!r.is_ok()) return r.status();
        bytes = std::move(r.value());
        return Status::ok();
    };
}

} // namespace astrolabe::cli

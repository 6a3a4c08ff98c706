// Shared helpers for the tests: the bundled input files (tests/data) and running a simulation in process.
//
// Every test reads its inputs from tests/data (ASTROLABE_TEST_DATA, set by CMake), never from ../shared,
// so the suite runs from a fresh clone. Configs can also be given inline in ASTRA-sim's own spelling.
#pragma once

#include "core/config/config_types.h"
#include "core/config/scenario.h"
#include "core/session/session.h"

#include <memory>
#include <string>
#include <vector>

namespace astrolabe::test {

// Absolute path of `rel` under tests/data.
std::string data_path(const std::string& rel);
// Reads a whole file; false when it cannot be opened.
bool read_file(const std::string& path, std::string& out);
// The bytes of a file under tests/data; fails the running test when it is missing.
std::string read_data(const std::string& rel);

// A workload prefix under tests/data, as ASTRA-sim names it: NPU i reads `<prefix>.<i>.et`. Serves any
// rank asked for (count() = -1), like the CLI's prefix form.
class PrefixTraceSource final : public TraceSource {
public:
    explicit PrefixTraceSource(std::string rel_prefix)
        : prefix_(std::move(rel_prefix)), dir_(data_path("")) {}
    // The same over `dir` (a path) instead of tests/data, e.g. a bundled sample's folder.
    PrefixTraceSource(std::string dir, std::string prefix)
        : prefix_(std::move(prefix)), dir_(std::move(dir) + "/") {}
    int64_t count() const override { return -1; }
    Status read(uint32_t rank, std::string& bytes, std::string& name) override;

private:
    std::string prefix_; // names in messages are relative to dir_
    std::string dir_;
};

// Parse inline config text; each REQUIREs that the text is valid.
config::NetworkConfig network_yaml(const std::string& text);
config::SystemConfig system_json(const std::string& text);
config::MemoryConfig memory_json(const std::string& text);
config::HardwareConfig hardware_json(const std::string& text);

// A report without `wall_s` and `events_per_s`, the only fields that measure the host.
std::string strip_host_fields(const std::string& report);

// The tests' SessionHost: files (custom collective ETs, workload prefixes) relative to tests/data, bundled
// samples from samples/ (each folder's `<stem>.<rank>.et`).
class DataHost final : public SessionHost {
public:
    Status read_file(const std::string& path, std::string& bytes) override;
    Result<std::unique_ptr<TraceSource>> open_workload(config::Scenario::WorkloadKind kind,
                                                       const std::string& name) override;
};
DataHost& data_host();

// Opens `sc` on data_host() and runs it to the end; REQUIREs that it opened and reached Done (whether
// every NPU finished is the caller's to check).
std::unique_ptr<Session> run_session(config::Scenario sc, const RunOptions& options = RunOptions());

// Builds a simulation from one encoded trace per NPU; the Result carries the refusal, if any.
Result<std::unique_ptr<Simulation>> build(config::Scenario cfg, const std::vector<std::string>& traces,
                                          std::vector<std::string>* warnings = nullptr,
                                          const RunOptions& options = {});
// Builds (REQUIREs success) and runs to the end.
RunResult run(config::Scenario cfg, const std::vector<std::string>& traces, const RunOptions& options = {});
// The same over any trace source (a prefix, generated ranks, embedded files).
RunResult run(config::Scenario cfg, TraceSource& traces, const RunOptions& options = {});

// A report with its `engine` section (event counts, wall time) taken out, dumped with indent 1: what two
// runs that must agree (symmetric and full, copied and built graphs) are compared on.
std::string without_engine(const std::string& report_json);
// The report of run `r` (workload "case", trace compute) without what a timing fast path changes on
// purpose: the engine's event count and event-queue peak (and the host's wall time). Everything else, the
// engine's simulated NPUs and symmetry included, stays in: what the ring fast path tests compare.
std::string report_without_event_counts(const RunResult& r, const char* network_model);
// The report of a finished run of `sim` for workload "case", as above.
std::string report_without_engine(const Simulation& sim, const RunResult& r,
                                  const std::vector<std::string>& load_warnings);

} // namespace astrolabe::test

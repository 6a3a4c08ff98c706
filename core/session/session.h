// The facade every front end uses: typed configs plus a source of trace bytes in, a Simulation out.
//
// The CLI reads files, the browser gets bytes from uploads, bundled samples or a shared scenario; both hand
// them here, so both build identical simulations from identical bytes. Each trace is streamed straight into
// its compact graph (the decoded nodes are never all held at once), so large runs fit in memory.
#pragma once

#include "core/base/status.h"
#include "core/config/config_types.h"
#include "core/system/scheduling/simulation.h"

#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace astrolabe {

// Where the per-NPU trace bytes come from (files, memory, a generator).
class TraceSource {
public:
    virtual ~TraceSource() = default;
    // How many traces the source holds, or -1 when it can supply any rank asked for (a path prefix).
    virtual int64_t count() const = 0;
    // The bytes of rank `rank`'s trace and a name for messages (a file name).
    virtual Status read(uint32_t rank, std::string& bytes, std::string& name) = 0;

    // A generator can say which ranks are alike up to translation without the traces being compared
    // (SimulationInput::translation_proof): whether moving every rank by one along the rank digit
    // (r / stride) % size maps each trace onto its image's, the ranks whose traces hold every distinct DAG,
    // and one rank's trace made alone. Sources that cannot say keep these defaults.
    virtual bool vouches_for_translations() const { return false; }
    virtual bool keeps_traces(uint32_t /*stride*/, uint32_t /*size*/) const { return false; }
    virtual std::vector<uint32_t> distinct_ranks() const { return {}; }
    virtual Status read_alone(uint32_t rank, std::string& bytes, std::string& name) {
        return read(rank, bytes, name);
    }
};

// Traces already in memory (the browser, tests, generated workloads).
class MemoryTraceSource final : public TraceSource {
public:
    void add(std::string name, std::string bytes) { traces_.push_back({std::move(name), std::move(bytes)}); }
    int64_t count() const override { return static_cast<int64_t>(traces_.size()); }
    Status read(uint32_t rank, std::string& bytes, std::string& name) override;

private:
    std::vector<std::pair<std::string, std::string>> traces_;
};

struct SessionConfig {
    config::NetworkConfig network;
    config::SystemConfig system;
    config::MemoryConfig memory;
    config::CommGroups groups;
    NetworkModelKind network_model = NetworkModelKind::Analytical;
    ComputeModelKind compute_model = ComputeModelKind::FromSystem;
    config::SystolicConfig systolic; // the array of ComputeModelKind::Systolic
    bool keep_timeline = false;
    bool symmetry = true; // one representative per class of identical NPUs when provably exact (symmetry.h)
    bool keep_names = true;
    bool ignore_ctrl_deps = false; // traces whose ctrl_deps encode CPU call nesting, not ordering
    // Reads the ETs of custom collective implementations (`<prefix>.<position>.et`); unset = none available.
    std::function<Status(const std::string& path, std::string& bytes)> read_file;
};

// Called after each trace is loaded: (traces loaded, traces in all).
using LoadProgress = std::function<void(uint32_t, uint32_t)>;

// Loads one trace per NPU of the network and builds the simulation. Every problem found (up to a bound)
// comes back at once; `warnings` receives notes that do not stop the run.
Result<std::unique_ptr<Simulation>> build_simulation(SessionConfig config, TraceSource& traces,
                                                     std::vector<std::string>& warnings,
                                                     const LoadProgress& progress = {});

// The communicator groups as the simulation indexes them (index 0 = the whole system).
GroupTable make_group_table(const config::CommGroups& groups);

} // namespace astrolabe

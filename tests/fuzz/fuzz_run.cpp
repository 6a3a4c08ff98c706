// libFuzzer harness: a whole simulation of one fuzzed trace on a 4-NPU ring (the same bytes for every NPU),
// so malformed but decodable graphs reach the executor, the collectives and the matcher. The run must end
// (complete or with stuck nodes listed), never crash or loop. The network model is picked from the input's
// size (analytical, congestion, flow in turn), so every model meets the same graphs without changing what
// the bytes mean (seeds and regressions stay valid traces). Under the analytical model the run is made both
// with and without symmetric reduction, and the reports must agree.
#include "core/config/config_parse.h"
#include "core/engine/engine.h"
#include "core/report/report.h"
#include "core/session/session.h"

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    using namespace astrolabe;
    static const config::NetworkConfig net =
        config::parse_network_yaml("topology: [Ring]\nnpus_count: [4]\nbandwidth: [50]\nlatency: [500]\n",
                                   "n")
            .value();
    static const config::SystemConfig sys =
        config::parse_system_json(R"({"scheduling-policy": "LIFO", "endpoint-delay": 10,
            "active-chunks-per-dimension": 1, "preferred-dataset-splits": 2, "local-mem-bw": 50,
            "peak-perf": 100, "roofline-enabled": 0})",
                                  "s")
            .value();
    config::Scenario cfg;
    cfg.network = net;
    cfg.system = sys;
    static const config::NetworkModel kModels[] = {
        config::NetworkModel::Analytical, config::NetworkModel::Congestion, config::NetworkModel::Flow};
    cfg.network_model = kModels[size % 3];
    std::string bytes(reinterpret_cast<const char*>(data), size);
    // The run's report without its engine section, or "" when the run did not end within the budget.
    auto run = [&](bool symmetry) -> std::string {
        MemoryTraceSource traces;
        for (int r = 0; r < 4; ++r)
            traces.add("fuzz." + std::to_string(r) + ".et", bytes);
        config::Scenario c = cfg;
        RunOptions options;
        options.symmetry = symmetry;
        std::vector<std::string> warnings;
        // A run whose times pass the clock's end (engine.h kTimeLimit) is an input the CLI refuses with a
        // message: a legitimate outcome, unlike an InternalError, which stays a crash here.
        try {
            auto sim = build_simulation(c, traces, warnings, options);
            if (!sim.is_ok()) return "";
            // A bounded number of events: a fuzzed trace may legitimately describe a long run.
            bool more = true;
            for (int i = 0; i < 256 && more; ++i)
                more = sim.value()->run_slice(4096);
            RunResult r = sim.value()->result();
            if (more) return "";
            std::string report = report_json(r, ReportContext{});
            return report.substr(0, report.find("\"engine\""));
        } catch (const TimeLimitError&) {
            return "";
        }
    };
    const std::string with = run(true);
    // Symmetric runs must give the full run's report (core/system/scheduling/symmetry.h). Every NPU runs
    // the same bytes, so graphs without sends and receives are symmetric on this ring.
    if (!with.empty() && cfg.network_model == config::NetworkModel::Analytical) {
        const std::string without = run(false);
        if (!without.empty() && without != with) __builtin_trap();
    }
    return 0;
}

// Golden end-to-end runs: every bundled sample's scenario, run in process exactly as `astrolabe run
// --scenario` does, must give the committed report byte for byte (tests/data/golden/<sample>.report.json),
// apart from the two host-dependent engine fields. Regenerate after an intended change with
// ASTROLABE_UPDATE_GOLDEN=1 and review the diff.
#include "core/config/scenario.h"
#include "core/report/report.h"
#include "core/session/session.h"
#include "support/test_support.h"

#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>

using namespace astrolabe;

namespace {

std::string run_sample(const std::string& name, const std::string& stem, TimeNs& total) {
    std::string dir = std::string(ASTROLABE_SAMPLES_DIR) + "/" + name;
    std::string text;
    REQUIRE(test::read_file(dir + "/scenario.json", text));
    auto sc = config::parse_scenario_json(text, "scenario.json");
    REQUIRE(sc.is_ok());
    REQUIRE(sc.value().workload_kind == config::Scenario::WorkloadKind::Sample);
    SessionConfig cfg;
    cfg.network = sc.value().network;
    cfg.system = sc.value().system;
    cfg.memory = sc.value().memory;
    cfg.groups = sc.value().groups;
    REQUIRE(parse_network_model(sc.value().network_model, cfg.network_model));
    REQUIRE(parse_compute_model(sc.value().compute_model, cfg.compute_model));
    test::PrefixTraceSource traces(dir, stem);
    std::vector<std::string> warnings;
    auto sim = build_simulation(cfg, traces, warnings);
    REQUIRE(sim.is_ok());
    sim.value()->run_to_end();
    RunResult r = sim.value()->result();
    REQUIRE(r.complete);
    total = r.total_ns;
    ReportContext ctx;
    ctx.workload = name;
    ctx.network_model = "analytical";
    ctx.compute_model = sim.value()->roofline() ? "roofline" : "trace";
    return test::strip_host_fields(report_json(r, ctx));
}

void check_golden(const std::string& name, const std::string& report) {
    std::string path = test::data_path("golden/" + name + ".report.json");
    if (std::getenv("ASTROLABE_UPDATE_GOLDEN")) {
        std::filesystem::create_directories(std::filesystem::path(path).parent_path());
        std::ofstream(path, std::ios::binary) << report;
    }
    std::string golden;
    REQUIRE(test::read_file(path, golden));
    CHECK(report == golden);
}

} // namespace

TEST_CASE("sample allreduce_ring8 reproduces its golden report", "[e2e][samples]") {
    // 4 steps of (20 us compute, then a 1 MiB ring all-reduce). One such all-reduce on this 8-ring
    // (50 GB/s, 500 ns, 4 chunks, endpoint delay 10, local-mem-bw 1600) is ASTRA-sim's anchor 64440 ns, and
    // the steps are serial: 4 * (20000 + 64440) = 337760 ns.
    TimeNs total = 0;
    std::string report = run_sample("allreduce_ring8", "allreduce", total);
    CHECK(total == 337760);
    check_golden("allreduce_ring8", report);
}

TEST_CASE("sample alltoall_2d16 reproduces its golden report", "[e2e][samples]") {
    // 2 steps of (50 us compute, 4 MiB all-to-all) over Switch(4) x Ring(4). The compute is 100 us of the
    // total; the rest is the two all-to-alls, which the golden report pins down (231108 ns in all).
    TimeNs total = 0;
    std::string report = run_sample("alltoall_2d16", "alltoall", total);
    CHECK(total == 231108);
    check_golden("alltoall_2d16", report);
}

TEST_CASE("every bundled sample run twice gives identical reports", "[e2e][determinism]") {
    // Two independent simulations of each folder of samples/ (found by listing it, so a new sample is
    // covered without touching this test) must give the same bytes: nothing in a report may depend on
    // addresses, hash order or the clock (the host-dependent engine fields aside).
    std::vector<std::pair<std::string, std::string>> samples; // (folder, trace stem)
    for (const auto& dir : std::filesystem::directory_iterator(ASTROLABE_SAMPLES_DIR)) {
        if (!dir.is_directory()) continue;
        for (const auto& f : std::filesystem::directory_iterator(dir.path())) {
            std::string file = f.path().filename().string();
            if (file.size() > 5 && file.compare(file.size() - 5, 5, ".0.et") == 0) {
                samples.emplace_back(dir.path().filename().string(), file.substr(0, file.size() - 5));
                break;
            }
        }
    }
    std::sort(samples.begin(), samples.end());
    REQUIRE(samples.size() >= 2);
    for (const auto& [name, stem] : samples) {
        INFO("sample " << name);
        TimeNs a = 0, b = 0;
        std::string first = run_sample(name, stem, a);
        CHECK(first == run_sample(name, stem, b));
        CHECK(a > 0);
    }
}

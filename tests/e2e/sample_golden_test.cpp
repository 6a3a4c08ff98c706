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

// Runs a bundled sample's scenario through the Session, exactly as `astrolabe run --scenario` and the
// browser do: its own model choices, its workload label, its load warnings in the report.
std::string run_sample(const std::string& name, TimeNs& total) {
    std::string text;
    REQUIRE(test::read_file(std::string(ASTROLABE_SAMPLES_DIR) + "/" + name + "/scenario.json", text));
    auto sc = config::parse_scenario_json(text, "scenario.json");
    INFO(sc.status().message());
    REQUIRE(sc.is_ok());
    auto session = test::run_session(std::move(sc.value()));
    Session& s = *session;
    REQUIRE(s.result().complete);
    total = s.result().total_ns;
    return test::strip_host_fields(s.report_json());
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
    std::string report = run_sample("allreduce_ring8", total);
    CHECK(total == 337760);
    check_golden("allreduce_ring8", report);
}

TEST_CASE("sample alltoall_2d16 reproduces its golden report", "[e2e][samples]") {
    // 2 steps of (50 us compute, 4 MiB all-to-all) over Switch(4) x Ring(4). The compute is 100 us of the
    // total; the rest is the two all-to-alls, which the golden report pins down (231108 ns in all).
    TimeNs total = 0;
    std::string report = run_sample("alltoall_2d16", total);
    CHECK(total == 231108);
    check_golden("alltoall_2d16", report);
}

TEST_CASE("every bundled sample run twice gives identical reports", "[e2e][determinism]") {
    // Two independent simulations of each folder of samples/ (found by listing it, so a new sample is
    // covered without touching this test) must give the same bytes: nothing in a report may depend on
    // addresses, hash order or the clock (the host-dependent engine fields aside).
    std::vector<std::string> samples;
    for (const auto& dir : std::filesystem::directory_iterator(ASTROLABE_SAMPLES_DIR))
        if (dir.is_directory() && std::filesystem::exists(dir.path() / "scenario.json"))
            samples.push_back(dir.path().filename().string());
    std::sort(samples.begin(), samples.end());
    REQUIRE(samples.size() >= 2);
    for (const auto& name : samples) {
        INFO("sample " << name);
        TimeNs a = 0, b = 0;
        std::string first = run_sample(name, a);
        CHECK(first == run_sample(name, b));
        CHECK(a > 0);
    }
}

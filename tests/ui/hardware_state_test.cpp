// The browser's Hardware tab logic (ui/hardware_state.h), natively: presets, edits, problems, and the same
// rows as collective-perf.
#include "core/config/config_parse.h"
#include "ui/hardware_state.h"

#include <catch2/catch.hpp>

using namespace astrolabe;

TEST_CASE("hardware tab: presets parse and give collective-perf's rows", "[hardware][ui]") {
    // Every preset is a valid description; the first one's curve is collective-perf's for the same
    // hardware, 8 B to 16 GiB (32 sizes).
    for (const auto& p : ui::hardware_presets())
        CHECK(config::parse_hardware_json(p.json, p.name).is_ok());
    ui::HardwareState hs;
    REQUIRE(hs.problems().is_ok());
    REQUIRE(hs.rows().size() == 32);
    CollectivePerfRequest req;
    req.hardware = hs.hardware();
    auto rows = run_collective_perf(req);
    REQUIRE(rows.is_ok());
    CHECK(rows.value().back().time_us == hs.rows().back().time_us);
}

TEST_CASE("hardware tab: an edit the hardware cannot have shows the parser's message", "[hardware][ui]") {
    // A100 with NVLS on: the same message `collective-perf --hardware` prints, and no curve.
    ui::HardwareState hs;
    hs.hardware().gpu = config::GpuModel::A100Sxm40;
    hs.changed();
    REQUIRE_FALSE(hs.problems().is_ok());
    CHECK(hs.problems().message().find("nvls: is true but A100-SXM4-40GB has no NVLink SHARP") !=
          std::string::npos);
    CHECK(hs.rows().empty());
    hs.hardware().nvls = false;
    hs.changed();
    CHECK(hs.problems().is_ok());
    CHECK_FALSE(hs.rows().empty());
}

TEST_CASE("hardware tab: the description round-trips through its JSON", "[hardware][ui]") {
    ui::HardwareState hs;
    hs.load_preset(4); // two p4de nodes on EFA
    auto back = config::parse_hardware_json(hs.json(), "round trip");
    REQUIRE(back.is_ok());
    CHECK(back.value().nodes == 2);
    CHECK(back.value().fabric == config::Fabric::Efa);
    CHECK(back.value().nics_per_node == 4);
    CHECK(config::hardware_json(back.value()) == hs.json());
}

TEST_CASE("collectivePerf from text: rows, and every problem named", "[hardware][ui]") {
    auto ok =
        ui::collective_perf_from_text(R"({"gpu": "H100-SXM"})", "all_gather", "ring", "1M", "4M", false);
    REQUIRE(ok.is_ok());
    CHECK(ok.value().find("\"size_bytes\": 4194304") != std::string::npos);
    auto bad = ui::collective_perf_from_text(R"({"gpu": "H100-SMX"})", "allreduce", "rign", "x", "", false);
    REQUIRE_FALSE(bad.is_ok());
    const std::string m = bad.status().message();
    CHECK(m.find("did you mean 'H100-SXM'") != std::string::npos);
    CHECK(m.find("op: 'allreduce'") != std::string::npos);
    CHECK(m.find("algo: 'rign'") != std::string::npos);
    CHECK(m.find("minBytes: 'x'") != std::string::npos);
}

TEST_CASE("hardware tab: a scenario's description loaded for editing", "[hardware][ui]") {
    // "Edit in the Hardware tab": 2 nodes x 8 H100 at 100 Gb/s is no preset, so the tab names it the
    // scenario's, keeps its keys, and draws collective-perf's curve for it (8 B to 16 GiB, 32 sizes).
    auto hw = config::parse_hardware_json(
        R"({"gpu": "H100-SXM", "nodes": 2, "gpus_per_node": 8, "nic_gbps": 100, "fabric": "infiniband"})",
        "sc");
    REQUIRE(hw.is_ok());
    ui::HardwareState hs;
    hs.load(hw.value());
    CHECK(hs.preset() == -1);
    REQUIRE(hs.problems().is_ok());
    REQUIRE(hs.rows().size() == 32);
    CollectivePerfRequest req;
    req.hardware = hw.value();
    auto rows = run_collective_perf(req);
    REQUIRE(rows.is_ok());
    CHECK(rows.value().back().time_us == hs.rows().back().time_us);
    const std::string summary = hs.summary_json();
    CHECK(summary.find("\"preset\": \"(the scenario's)\"") != std::string::npos);
    CHECK(summary.find("\"nic_gbps\": 100") != std::string::npos);
    CHECK(summary.find("\"fabric\": \"infiniband\"") != std::string::npos);
}

// The browser app's logic, run natively: the same scenario gives the CLI's report (the golden sample
// reports are the CLI's), however the run is sliced into frames; cancelling leaves a partial report; bad
// input leaves a message and the previous scenario.
#include "core/session/share_link.h"
#include "support/test_support.h"
#include "ui/app_state.h"

#include <catch2/catch.hpp>

using namespace astrolabe;
using namespace astrolabe::ui;
using Catch::Matchers::Contains;

namespace {

// Steps like the browser: a small wall-time budget per frame until the run ends.
void run_like_frames(App& app, double budget_ms) {
    REQUIRE(app.start_run());
    int frames = 0;
    while (app.phase() == RunPhase::Running && frames++ < 1000000)
        app.step(budget_ms);
    REQUIRE(app.phase() == RunPhase::Done);
}

std::string golden(const std::string& sample) {
    std::string text;
    REQUIRE(test::read_file(test::data_path("golden/" + sample + ".report.json"), text));
    return text;
}

} // namespace

TEST_CASE("browser app: every sample gives the CLI's golden report", "[ui][samples]") {
    App app(ASTROLABE_SAMPLES_DIR);
    REQUIRE(app.samples().size() >= 2);
    for (const auto& s : app.samples()) {
        INFO(s.name);
        REQUIRE(app.load_sample(s.name).is_ok());
        CHECK(app.validation().is_ok());
        // Budgets of 0 ms run one 4096-event slice per "frame": many frames, same answer.
        run_like_frames(app, 0.0);
        CHECK(test::strip_host_fields(app.report_json()) == golden(s.name));
    }
}

TEST_CASE("browser app: a share link reproduces the scenario and its report", "[ui][share]") {
    App app(ASTROLABE_SAMPLES_DIR);
    REQUIRE(app.load_sample("allreduce_ring8").is_ok());
    app.doc().set_number("/network/bandwidth/0", 25); // half the bandwidth: a different, longer run
    app.doc_changed();
    run_like_frames(app, 1.0);
    std::string first = test::strip_host_fields(app.report_json());
    auto frag = app.share_fragment();
    REQUIRE(frag.is_ok());

    App other(ASTROLABE_SAMPLES_DIR);
    REQUIRE(other.load_link("https://example.org/#" + frag.value()).is_ok());
    CHECK(other.doc().get_number("/network/bandwidth/0") == 25);
    run_like_frames(other, 1000.0);
    CHECK(test::strip_host_fields(other.report_json()) == first);
    CHECK(first != golden("allreduce_ring8"));
}

TEST_CASE("browser app: opened traces are ordered by rank and resize a 1-D network", "[ui][traces]") {
    App app(ASTROLABE_SAMPLES_DIR);
    REQUIRE(app.load_sample("allreduce_ring8").is_ok());
    std::vector<std::pair<std::string, std::string>> files;
    for (int r = 7; r >= 0; --r) {
        std::string name = "allreduce." + std::to_string(r) + ".et", bytes;
        REQUIRE(test::read_file(std::string(ASTROLABE_SAMPLES_DIR) + "/allreduce_ring8/" + name, bytes));
        files.emplace_back(name, bytes);
    }
    // Four of the eight first: the 1-D ring follows the trace count.
    REQUIRE(app.load_traces({files.begin() + 4, files.end()}).is_ok());
    CHECK(app.doc().get_number("/network/npus_count/0") == 4);
    REQUIRE(app.load_traces(files).is_ok());
    CHECK(app.doc().get_number("/network/npus_count/0") == 8);
    CHECK(app.doc().get_string("/workload/traces/0/name") == "allreduce.0.et");
    run_like_frames(app, 5.0);
    // Same traces, same configs as the sample: the same report but for the workload label.
    std::string report = test::strip_host_fields(app.report_json());
    CHECK_THAT(report, Contains("\"workload\": \"embedded (8 traces)\""));
    CHECK_THAT(report, Contains("\"total_ns\": 337760"));
}

TEST_CASE("browser app: opened traces on a real system leave the network out", "[ui][traces][hardware]") {
    // A scenario with a hardware description has no network; opening traces must not add one (it did:
    // npus_count [8] beside "hardware" is the parser's "hardware replaces network and system" error). The
    // eight ring traces on one HGX H100 node run as `run --hardware` runs them.
    App app(ASTROLABE_SAMPLES_DIR);
    REQUIRE(app.load_scenario_text(R"({"workload": {"sample": "allreduce_ring8"},
        "hardware": {"gpu": "H100-SXM", "nodes": 1, "gpus_per_node": 8}})",
                                   "hw.json")
                .is_ok());
    const uint64_t adopted = app.scenarios_adopted();
    std::vector<std::pair<std::string, std::string>> files;
    for (int r = 0; r < 8; ++r) {
        std::string name = "allreduce." + std::to_string(r) + ".et", bytes;
        REQUIRE(test::read_file(std::string(ASTROLABE_SAMPLES_DIR) + "/allreduce_ring8/" + name, bytes));
        files.emplace_back(name, bytes);
    }
    REQUIRE(app.load_traces(files).is_ok());
    CHECK_FALSE(app.doc().has("/network"));
    CHECK(app.validation().is_ok());
    CHECK(app.scenarios_adopted() == adopted); // traces replace the workload, not the scenario
    run_like_frames(app, 5.0);
    REQUIRE(app.result() != nullptr);
    CHECK(app.result()->complete);
}

TEST_CASE("browser app: cancelling keeps a partial report that says so", "[ui][cancel]") {
    App app(ASTROLABE_SAMPLES_DIR);
    REQUIRE(app.load_sample("alltoall_2d16").is_ok());
    REQUIRE(app.start_run());
    app.cancel();
    CHECK(app.phase() == RunPhase::Cancelled);
    REQUIRE(app.result() != nullptr);
    CHECK_THAT(app.report_json(), Contains("\"partial\": true"));
}

TEST_CASE("browser app: bad input leaves a message and the scenario as it was", "[ui][errors]") {
    App app(ASTROLABE_SAMPLES_DIR);
    REQUIRE(app.load_sample("allreduce_ring8").is_ok());
    std::string before = app.doc().dump();
    CHECK_FALSE(app.load_link("#s=garbage!").is_ok());
    CHECK_THAT(app.message(), Contains("share link"));
    CHECK_FALSE(app.load_scenario_text("{not json", "upload.json").is_ok());
    CHECK_THAT(app.message(), Contains("upload.json: invalid JSON"));
    CHECK_FALSE(app.load_sample("no_such_sample").is_ok());
    CHECK_FALSE(app.load_traces({{"a.0.et", "x"}, {"a.2.et", "y"}}).is_ok());
    CHECK(app.doc().dump() == before);

    // A corrupt trace is taken as a scenario (its problems are the run's): the run fails with the file named.
    REQUIRE(app.load_traces({{"broken.0.et", std::string("\xff\xff\xff\xff\x0f", 5)}}).is_ok());
    CHECK_FALSE(app.start_run());
    CHECK(app.phase() == RunPhase::Failed);
    CHECK_THAT(app.message(), Contains("broken.0.et"));
    // Validation problems name the section and key; the Run button is disabled while they exist.
    REQUIRE(app.load_sample("allreduce_ring8").is_ok());
    app.doc().set_string("/network_model", "quantum");
    app.doc_changed();
    CHECK_FALSE(app.problems_for("network_model", "").empty());
}

TEST_CASE("browser app: the Compare tab keeps the previous run, and the critical path ends at the total",
          "[ui][compare]") {
    // allreduce_ring8 at its bandwidth, then at double: the ring all-reduce's transfer time halves, so the
    // second run is faster, and both runs are kept, oldest first. The critical path of each run ends at its
    // total time (the chain ends with the node that ends last).
    App app(ASTROLABE_SAMPLES_DIR);
    REQUIRE(app.load_sample("allreduce_ring8").is_ok());
    run_like_frames(app, 50);
    CHECK(app.previous_run() == nullptr);
    REQUIRE(app.current_run() != nullptr);
    const TimeNs first = app.result()->total_ns;
    CHECK(app.critical_path().end_ns == first);
    CHECK(!app.critical_path().steps.empty());
    const double bw = app.doc().get_number("/network/bandwidth/0", 0);
    app.doc().set_number("/network/bandwidth/0", 2 * bw);
    app.doc_changed();
    run_like_frames(app, 50);
    REQUIRE(app.previous_run() != nullptr);
    CHECK(app.previous_run()->total_ns == first);
    CHECK(app.current_run()->total_ns == app.result()->total_ns);
    CHECK(app.current_run()->total_ns < first);
    CHECK(app.current_run()->number == 2);
    CHECK_THAT(app.current_run()->label, Contains("sample allreduce_ring8"));
    CHECK(app.critical_path().end_ns == app.result()->total_ns);
}

TEST_CASE("browser app: an internal error during a run ends it with a message and the app runs on",
          "[ui][session]") {
    // The browser's main loop calls App::step every frame; a failed SIM_ASSERT inside must not escape it.
    App app(ASTROLABE_SAMPLES_DIR);
    REQUIRE(app.load_sample("allreduce_ring8").is_ok());
    app.inject_internal_error();
    REQUIRE(app.start_run());
    REQUIRE_NOTHROW(app.step(5));
    CHECK(app.phase() == RunPhase::Failed);
    CHECK_THAT(app.message(), Contains("the run failed: internal error at"));
    CHECK(app.result() == nullptr);
    CHECK(app.report_json().empty());
    // The next run is unaffected: the sample's golden total, 4 * (20000 + 64440) ns.
    run_like_frames(app, 5);
    REQUIRE(app.result());
    CHECK(app.result()->total_ns == 337760);
    CHECK(app.message().empty());
}

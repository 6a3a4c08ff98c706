// The Session: the one run pipeline. Concurrent sessions give the serial reports (no shared mutable
// state), limits and cancel give partial reports, an internal error ends the run without escaping, and
// bad input comes back from open() as a message.
#include "core/session/session.h"
#include "support/test_support.h"

#include <catch2/catch.hpp>

#include <thread>

using namespace astrolabe;
using Catch::Matchers::Contains;

namespace {

// A generated microbenchmark on an 8-NPU ring: `repeat` rounds of 3 us compute and a 256 KiB collective.
std::string microbench(const std::string& collective, int repeat, const std::string& model = "analytical") {
    return R"({"schema": "astrolabe.scenario/1",
      "workload": {"generate": {"kind": "microbench", "collective": ")" +
           collective + R"(", "size": "256KiB", "npus": 8, "repeat": )" + std::to_string(repeat) +
           R"(, "compute-us": 3}},
      "network": {"topology": ["Ring"], "npus_count": [8], "bandwidth": [50], "latency": [500]},
      "system": {"endpoint-delay": 10, "local-mem-bw": 1600}, "network_model": ")" +
           model + R"("})";
}

std::string sample_scenario(const std::string& name) {
    std::string text;
    REQUIRE(test::read_file(std::string(ASTROLABE_SAMPLES_DIR) + "/" + name + "/scenario.json", text));
    return text;
}

// The report of a finished run without the two host-dependent engine fields ("" when it failed).
std::string evaluate(const std::string& scenario) {
    auto e = evaluate_scenario(scenario, test::data_host());
    if (!e.is_ok()) return "error: " + e.status().message();
    return test::strip_host_fields(e.value().report_json);
}

Result<std::unique_ptr<Session>> open(const std::string& text, const RunOptions& options = {}) {
    auto sc = config::parse_scenario_json(text, "s.json");
    if (!sc.is_ok()) return sc.status();
    return Session::open(std::move(sc.value()), options, test::data_host());
}

} // namespace

TEST_CASE("sessions run concurrently on threads give the serial reports byte for byte", "[session]") {
    // Eight scenarios (two bundled samples, the flow-model sample and generated microbenchmarks of all
    // four collectives under two network models), evaluated once serially and then all at once on eight
    // std::threads. Any shared mutable state in the pipeline (parsers, generator, models, report writer)
    // would show as a differing or failed report.
    std::vector<std::string> scenarios = {sample_scenario("allreduce_ring8"),
                                          sample_scenario("alltoall_2d16"),
                                          sample_scenario("gpt_dp2tp2pp2_flow"),
                                          microbench("all_reduce", 3),
                                          microbench("all_gather", 2, "congestion"),
                                          microbench("reduce_scatter", 2, "flow"),
                                          microbench("all_to_all", 2),
                                          microbench("all_reduce", 2, "flow")};
    std::vector<std::string> serial;
    for (const auto& s : scenarios)
        serial.push_back(evaluate(s));
    std::vector<std::string> parallel(scenarios.size());
    std::vector<std::thread> threads;
    for (size_t i = 0; i < scenarios.size(); ++i)
        threads.emplace_back([&, i] { parallel[i] = evaluate(scenarios[i]); });
    for (auto& t : threads)
        t.join();
    for (size_t i = 0; i < scenarios.size(); ++i) {
        INFO("scenario " << i);
        CHECK(serial[i].rfind("{", 0) == 0); // a report, not an error
        CHECK(parallel[i] == serial[i]);
    }
}

TEST_CASE("a session stepped in tiny slices gives the report of one uninterrupted run", "[session]") {
    // Slicing only decides where the run pauses: 7-event slices with a zero budget (one slice per step)
    // must reach the same events, times and report as run().
    const std::string text = sample_scenario("allreduce_ring8");
    RunOptions tiny;
    tiny.slice_events = 7;
    // Every packet an event: symmetric and on the ring fast path this sample is 8 events in all.
    tiny.fast_ring = false;
    auto a = open(text, tiny);
    REQUIRE(a.is_ok());
    size_t steps = 0;
    while (a.value()->step(0))
        ++steps;
    CHECK(steps > 10);
    CHECK(a.value()->phase() == SessionPhase::Done);
    RunOptions whole;
    whole.fast_ring = false;
    auto b = open(text, whole);
    REQUIRE(b.is_ok());
    b.value()->run();
    CHECK(test::strip_host_fields(a.value()->report_json()) ==
          test::strip_host_fields(b.value()->report_json()));
    // The sample's ASTRA-sim-derived total (sample_golden_test): 4 * (20000 + 64440) ns.
    CHECK(a.value()->result().total_ns == 337760);
}

TEST_CASE("a simulated-time limit and a cancel stop the session with a partial report", "[session]") {
    const std::string text = sample_scenario("allreduce_ring8");
    SECTION("max_sim_ns: no event after the limit runs") {
        RunOptions o;
        o.max_sim_ns = 100000; // the first of 4 steps ends at 84440 ns, the second at 168880 ns
        auto s = open(text, o);
        REQUIRE(s.is_ok());
        s.value()->run();
        CHECK(s.value()->phase() == SessionPhase::Stopped);
        CHECK(s.value()->stop_reason() == "max-sim-time 100000 ns reached");
        CHECK(s.value()->sim_now() <= 100000);
        CHECK_FALSE(s.value()->result().complete);
        CHECK_THAT(s.value()->report_json(), Contains("max-sim-time 100000 ns reached"));
    }
    SECTION("cancel") {
        RunOptions o;
        o.slice_events = 16;
        o.fast_ring = false; // the fast path would finish the sample within the first slice
        auto s = open(text, o);
        REQUIRE(s.is_ok());
        REQUIRE(s.value()->step(0));
        s.value()->cancel("cancelled by the test");
        CHECK(s.value()->phase() == SessionPhase::Stopped);
        CHECK_FALSE(s.value()->step(10)); // a stopped session does not resume
        CHECK_THAT(s.value()->report_json(), Contains("cancelled by the test"));
    }
}

TEST_CASE("an internal error during a run ends the session with its message instead of escaping",
          "[session]") {
    auto s = open(sample_scenario("allreduce_ring8"));
    REQUIRE(s.is_ok());
    s.value()->inject_internal_error();
    bool more = true;
    REQUIRE_NOTHROW(more = s.value()->step(10));
    CHECK_FALSE(more);
    CHECK(s.value()->phase() == SessionPhase::Failed);
    CHECK_THAT(s.value()->stop_reason(), Contains("internal error at"));
    CHECK_THAT(s.value()->stop_reason(), Contains("injected by a test"));
}

TEST_CASE("bad input comes back from the session as one message per problem", "[session]") {
    SECTION("a model spelled wrong names the key, the choices and the nearest one") {
        std::string text = microbench("all_reduce", 1, "flwo");
        auto s = open(text);
        REQUIRE_FALSE(s.is_ok());
        CHECK_THAT(s.status().message(),
                   Contains("network_model: 'flwo'; analytical, congestion or flow was expected (did you "
                            "mean 'flow'?)"));
    }
    SECTION("NPU counts whose product overflows 64 bits name the limit, not 'no dimensions'") {
        // 65536^4 = 2^64 wraps a 64-bit product around to 0.
        std::string text = R"({"workload": {"sample": "allreduce_ring8"}, "system": {},
          "network": {"topology": ["Ring", "Ring", "Ring", "Ring"], "npus_count": [65536, 65536, 65536, 65536],
                      "bandwidth": [1, 1, 1, 1], "latency": [1, 1, 1, 1]}})";
        auto s = open(text);
        REQUIRE_FALSE(s.is_ok());
        CHECK_THAT(s.status().message(),
                   Contains("npus_count: the dimensions multiply to 18446744073709551616 "
                            "NPUs, which exceeds the limit of 16777216 NPUs"));
        CHECK_THAT(s.status().message(), !Contains("no dimensions"));
    }
    SECTION("a generated workload that defines groups refuses the scenario's own comm_groups") {
        // dp 2 x tp 2 makes the generator define its data and tensor groups; the scenario names one too.
        SessionHost no_files;
        auto e = evaluate_scenario(R"({"workload": {"generate": {"kind": "transformer", "model": "gpt",
            "layers": 2, "hidden": 256, "heads": 4, "seq": 128, "batch": 4, "micro-batch": 2, "dp": 2, "tp": 2}},
          "comm_groups": {"1": [0, 1]}, "system": {},
          "network": {"topology": ["Ring"], "npus_count": [4], "bandwidth": [1], "latency": [1]}})",
                                   no_files);
        REQUIRE_FALSE(e.is_ok());
        CHECK_THAT(e.status().message(), Contains("comm_groups: leave it out with a generated workload"));
    }
    SECTION("a host without files refuses a prefix workload with a message") {
        SessionHost no_files;
        auto e = evaluate_scenario(R"({"workload": {"prefix": "x/y"}, "system": {},
          "network": {"topology": ["Ring"], "npus_count": [2], "bandwidth": [1], "latency": [1]}})",
                                   no_files);
        REQUIRE_FALSE(e.is_ok());
        CHECK_THAT(e.status().message(), Contains("prefix 'x/y': no files can be read here"));
    }
}

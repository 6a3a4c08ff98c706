// Using the cores without changing a result: the parts of a run that RunOptions::runner spreads over
// threads (decoding a full run's traces, expanding a symmetric result, sorting the collectives, writing the
// report) give the bytes of one thread, for any thread count; and the pool itself runs every task once.
#include "core/session/session.h"
#include "native/thread_pool.h"
#include "support/test_support.h"
#include "support/trace_builder.h"

#include <catch2/catch.hpp>

#include <atomic>
#include <random>
#include <stdexcept>

using namespace astrolabe;
using Catch::Matchers::Contains;

namespace {

// 64 NPUs on a ring, each computing a different time ((r * 37) mod 61 + 1 us) before a 256 KiB
// all-reduce and then a 64 KiB all-gather: no two NPUs alike, so every NPU is simulated.
config::Scenario distinct_ring(std::vector<int> bad_ranks = {}) {
    config::Scenario sc;
    sc.network = test::network_yaml("topology: [Ring]\nnpus_count: [64]\nbandwidth: [50]\nlatency: [500]\n");
    sc.system = test::system_json(R"({"endpoint-delay": 10, "local-mem-bw": 1600})");
    sc.workload_kind = config::Scenario::WorkloadKind::Embedded;
    for (uint64_t r = 0; r < 64; ++r) {
        test::TraceBuilder t;
        t.comp(1, (r * 37) % 61 + 1);
        t.coll(2, trace::CollectiveType::AllReduce, 262144, {1});
        t.coll(3, trace::CollectiveType::AllGather, 65536, {2});
        std::string bytes = t.bytes();
        for (int bad : bad_ranks)
            if (static_cast<uint64_t>(bad) == r) bytes = "not a trace";
        sc.traces.push_back({"distinct." + std::to_string(r) + ".et", bytes});
    }
    return sc;
}

// A generated GPT-3-shaped step at 32768 NPUs (DP 128 x TP 8 x PP 32, the bench's train_gpt_32768): 32768
// per-NPU entries, over 65536 collective records, one simulated NPU per pipeline stage.
config::Scenario gpt_32k() {
    auto sc = config::parse_scenario_json(R"({"schema": "astrolabe.scenario/1",
  "workload": {"generate": {"kind": "transformer", "preset": "gpt3-175b", "layers": 32, "batch": 16,
               "micro-batch": 8, "dp": 128, "tp": 8, "pp": 32}},
  "network": {"topology": ["Ring", "Switch", "Ring"], "npus_count": [128, 8, 32],
              "bandwidth": [50, 400, 50], "latency": [500, 100, 500]},
  "system": {"scheduling-policy": "LIFO", "endpoint-delay": 10, "active-chunks-per-dimension": 1,
             "preferred-dataset-splits": 4, "collective-optimization": "localBWAware", "local-mem-bw": 1600,
             "roofline-enabled": 1, "peak-perf": 900,
             "all-reduce-implementation": ["ring", "ring", "ring"],
             "all-gather-implementation": ["ring", "ring", "ring"],
             "reduce-scatter-implementation": ["ring", "ring", "ring"],
             "all-to-all-implementation": ["direct", "direct", "direct"]},
  "compute_model": "roofline"})",
                                          "gpt_32k.json");
    REQUIRE(sc.is_ok());
    return std::move(sc.value());
}

struct Outcome {
    std::string report;   // host fields stripped; "error: ..." when open() refused
    std::string streamed; // the same report through write_report_json
    uint32_t simulated = 0;
    size_t collectives = 0;
};

Outcome run(config::Scenario sc, TaskRunner* runner) {
    RunOptions options;
    options.runner = runner;
    auto s = Session::open(std::move(sc), options, test::data_host());
    if (!s.is_ok()) return {"error: " + s.status().message(), "", 0, 0};
    s.value()->run();
    Outcome out;
    out.report = test::strip_host_fields(s.value()->report_json());
    StringSink sink;
    s.value()->write_report_json(sink);
    out.streamed = test::strip_host_fields(sink.text);
    out.simulated = s.value()->result().simulated_npus;
    out.collectives = s.value()->result().stats.collectives.size();
    return out;
}

} // namespace

TEST_CASE("a full run decoded on several threads gives the one-thread report", "[session][threads]") {
    // 64 distinct traces, decoded in windows of 16 x threads ranks: 1, 2 and 3 threads give the report of
    // no runner at all, byte for byte, and the streamed report equals the string.
    const Outcome serial = run(distinct_ring(), nullptr);
    REQUIRE(serial.report.rfind("{", 0) == 0);
    CHECK(serial.simulated == 64);
    CHECK(serial.streamed == serial.report);
    for (unsigned threads : {1u, 2u, 3u}) {
        INFO(threads << " threads");
        cli::ThreadPool pool(threads);
        const Outcome o = run(distinct_ring(), &pool);
        CHECK(o.report == serial.report);
        CHECK(o.streamed == serial.report);
    }
}

TEST_CASE("bad traces decoded on several threads give the one-thread messages", "[session][threads]") {
    // Ranks 5 and 40 are not traces: the same two messages, in rank order, for any thread count.
    const Outcome serial = run(distinct_ring({40, 5}), nullptr);
    REQUIRE_THAT(serial.report, Contains("distinct.5.et"));
    CHECK_THAT(serial.report, Contains("distinct.40.et"));
    CHECK(serial.report.find("distinct.5.et") < serial.report.find("distinct.40.et"));
    cli::ThreadPool pool(3);
    CHECK(run(distinct_ring({40, 5}), &pool).report == serial.report);
}

TEST_CASE("a symmetric 32768-NPU run expanded and written on several threads gives the one-thread report",
          "[session][threads]") {
    // 32768 per-NPU entries (8 blocks of 4096 for the report's fragments), over 65536 collective records
    // (the parallel sort's threshold) and the per-NPU copy of the expansion.
    const Outcome serial = run(gpt_32k(), nullptr);
    REQUIRE(serial.report.rfind("{", 0) == 0);
    CHECK(serial.simulated == 32);
    CHECK(serial.collectives > 65536);
    CHECK(serial.streamed == serial.report);
    cli::ThreadPool pool(3);
    const Outcome o = run(gpt_32k(), &pool);
    CHECK(o.report == serial.report);
    CHECK(o.streamed == serial.report);
}

TEST_CASE("parallel_sort gives std::sort's sequence under a total order", "[base][threads]") {
    // 300000 pairs with many equal first members; ordered by both members (a total order on the contents),
    // so every correct sort gives one sequence.
    std::mt19937 rng(7);
    std::vector<std::pair<int, int>> v(300000);
    for (auto& p : v)
        p = {static_cast<int>(rng() % 1000), static_cast<int>(rng() % 1000000)};
    auto expected = v;
    std::sort(expected.begin(), expected.end());
    for (unsigned threads : {2u, 3u, 5u}) {
        cli::ThreadPool pool(threads);
        auto got = v;
        parallel_sort(&pool, got, std::less<std::pair<int, int>>());
        CHECK(got == expected);
    }
}

TEST_CASE("the thread pool runs every task once and rethrows the lowest failing task's error",
          "[native][threads]") {
    cli::ThreadPool pool(3);
    CHECK(pool.workers() == 3);
    std::vector<std::atomic<int>> ran(1000);
    for (int round = 0; round < 3; ++round) // the pool is reused across calls
        pool.run(ran.size(), [&](size_t i) { ran[i]++; });
    for (auto& n : ran)
        CHECK(n == 3);
    // Tasks 700 and 300 fail: task 300's message comes back, whichever thread failed first.
    try {
        pool.run(1000, [](size_t i) {
            if (i == 700 || i == 300) throw std::runtime_error("task " + std::to_string(i));
        });
        FAIL("no exception");
    } catch (const std::runtime_error& e) {
        CHECK(std::string(e.what()) == "task 300");
    }
}

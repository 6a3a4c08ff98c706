// The report contract (docs/report.md): stable keys, totals that agree with the per-NPU numbers, and the
// same bytes for the same run.
#include "core/base/time_format.h"
#include "core/report/report.h"
#include "support/test_support.h"
#include "support/trace_builder.h"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

using namespace astrolabe;
using Catch::Matchers::Contains;
using nlohmann::json;
using trace::CollectiveType;

namespace {

// NPUs finish at different times: NPU i computes (i + 1) us, then all four all-reduce 256 KiB on a
// 4-ring (100 GB/s, 200 ns, ep 10, local-mem-bw 1000; 5515 ns alone, see system/ring_test.cpp).
config::Scenario four_ring() {
    config::Scenario cfg;
    cfg.network = test::network_yaml("topology: [Ring]\nnpus_count: [4]\nbandwidth: [100]\nlatency: [200]\n");
    cfg.system = test::system_json(R"({"preferred-dataset-splits": 1, "local-mem-bw": 1000})");
    return cfg;
}

std::vector<std::string> staggered() {
    std::vector<std::string> out;
    for (uint64_t i = 0; i < 4; ++i) {
        test::TraceBuilder t;
        t.comp(1, i + 1);
        t.coll(2, CollectiveType::AllReduce, 262144, {1});
        out.push_back(t.bytes());
    }
    return out;
}

ReportContext context() {
    ReportContext ctx;
    ctx.workload = "staggered";
    ctx.network_model = "analytical";
    ctx.compute_model = "trace";
    ctx.wall_s = 0; // the only host-dependent field; fixed so bytes can be compared
    return ctx;
}

} // namespace

TEST_CASE("report JSON: schema and totals and per-NPU breakdown", "[report]") {
    RunResult r = test::run(four_ring(), staggered());
    REQUIRE(r.complete);
    json j = json::parse(report_json(r, context()));
    CHECK(j.at("schema") == "astrolabe.report/1");
    CHECK(j.at("complete") == true);
    CHECK(j.at("workload") == "staggered");
    REQUIRE(j.at("npus").size() == 4);
    // total_ns is the last NPU's finish.
    uint64_t max_finish = 0;
    for (size_t i = 0; i < 4; ++i) {
        const json& n = j.at("npus")[i];
        CHECK(n.at("id") == i);
        CHECK(n.at("finish_ns") == r.stats.npus[i].finish_ns);
        // exposed communication = finish - GPU compute, as ASTRA-sim defines it.
        CHECK(n.at("exposed_comm_ns").get<uint64_t>() ==
              n.at("finish_ns").get<uint64_t>() - n.at("compute_ns").get<uint64_t>());
        CHECK(n.at("compute_ns") == (i + 1) * 1000);
        max_finish = std::max(max_finish, n.at("finish_ns").get<uint64_t>());
    }
    CHECK(j.at("total_ns") == max_finish);
    CHECK(j.at("total_ns") == r.total_ns);
    REQUIRE(j.at("collectives").size() == 1);
    CHECK(j.at("collectives")[0].at("type") == "ALL_REDUCE");
    CHECK(j.at("collectives")[0].at("bytes") == 262144);
    CHECK(j.at("collectives")[0].at("group") == "all");
    CHECK(j.at("collectives")[0].at("npus") == 4);
    CHECK(j.at("collectives")[0].at("start_ns") == 1000); // NPU 0 issued it after its 1 us
    CHECK(j.at("collectives")[0].at("end_ns") == max_finish);
    CHECK(j.at("links").empty()); // the analytical model has no links
    CHECK(j.at("engine").at("events") == r.events);
    CHECK(j.at("network").at("messages") == 4 * 6);
    CHECK(j.at("stuck").empty());
}

TEST_CASE("report JSON: the same inputs give the same bytes", "[report]") {
    // Two independent simulations of the same inputs (wall time fixed at 0) -> identical reports.
    std::string a = report_json(test::run(four_ring(), staggered()), context());
    std::string b = report_json(test::run(four_ring(), staggered()), context());
    CHECK(a == b);
    CHECK(a.back() == '\n');
}

TEST_CASE("report JSON: an incomplete run says so and lists the stuck nodes", "[report]") {
    // NPU 3 never issues the all-reduce: complete false, three stuck entries, and a partial-run reason
    // when the front end stopped early.
    std::vector<std::string> traces = staggered();
    test::TraceBuilder absent;
    absent.comp(1, 1);
    traces[3] = absent.bytes();
    RunResult r = test::run(four_ring(), traces);
    REQUIRE_FALSE(r.complete);
    ReportContext ctx = context();
    ctx.partial = true;
    ctx.partial_reason = "interrupted";
    json j = json::parse(report_json(r, ctx));
    CHECK(j.at("complete") == false);
    CHECK(j.at("partial_reason") == "interrupted");
    CHECK(j.at("stuck").size() == 3);
    CHECK(j.at("npus")[3].at("finished") == true);
    CHECK(j.at("npus")[0].at("finished") == false);
    CHECK_THAT(report_summary(r, ctx), Contains("INCOMPLETE"));
}

TEST_CASE("report summary and timeline", "[report]") {
    // The summary states the total in a human unit with the exact ns after it; the timeline has one complete
    // ("X") event per node run, with times in microseconds as the trace-event format wants.
    config::Scenario cfg = four_ring();
    RunOptions options;
    options.keep_timeline = true;
    auto sim = test::build(cfg, staggered(), nullptr, options);
    REQUIRE(sim.is_ok());
    sim.value()->run_to_end();
    RunResult r = sim.value()->result();
    REQUIRE(r.total_ns >= 1000);
    REQUIRE(r.total_ns < 1000000); // a few us: the summary says "us", then the exact ns
    CHECK_THAT(report_summary(r, context()), Contains("total time: " + format_duration(double(r.total_ns)) +
                                                      " (" + std::to_string(r.total_ns) + " ns)"));
    CHECK_THAT(report_summary(r, context()), Contains(" us"));
    json t = json::parse(timeline_json(*sim.value(), r));
    size_t complete_events = 0;
    double first_comp_dur = -1;
    for (const auto& e : t.at("traceEvents")) {
        if (e.at("ph") != "X") continue;
        ++complete_events;
        if (e.at("pid") == 2 && e.at("cat") == "compute") first_comp_dur = e.at("dur").get<double>();
    }
    CHECK(complete_events == 8);  // 4 NPUs x (compute + all-reduce)
    CHECK(first_comp_dur == 3.0); // NPU 2 computes 3 us

    // Filters: NPUs 1-2 keep their 2 x 2 nodes and only their process metadata; a window after the
    // computes (which end by 4 us) and before the all-reduces end keeps the 4 all-reduces only.
    auto count = [&](const TimelineFilter& f, size_t& meta) {
        json tf = json::parse(timeline_json(*sim.value(), r, f));
        size_t x = 0;
        meta = 0;
        for (const auto& e : tf.at("traceEvents")) {
            if (e.at("ph") == "X") ++x;
            if (e.at("ph") == "M" && e.at("name") == "process_name") ++meta;
        }
        return x;
    };
    size_t meta = 0;
    TimelineFilter npus;
    npus.first_npu = 1, npus.last_npu = 2;
    CHECK(count(npus, meta) == 4);
    CHECK(meta == 2);
    TimelineFilter window;
    window.from_ns = 4001, window.to_ns = r.total_ns;
    CHECK(count(window, meta) == 4);
    CHECK(meta == 4);
}

TEST_CASE("report JSON: per-link statistics of the congestion model", "[report][congestion]") {
    // The staggered 4-ring all-reduce on the congestion model. The ring algorithm sends 2(N-1) = 6
    // messages of 256 KiB / 4 = 64 KiB per NPU, each to a ring neighbour (one hop), so 4 links carry
    // 6 * 65536 = 393216 bytes each, and each is busy 6 * floor(65536 / 107.3741824 B/ns) = 6 * 610 = 3660
    // ns. All link bytes add up to the network's bytes (every message is one hop).
    config::Scenario cfg = four_ring();
    cfg.network_model = config::NetworkModel::Congestion;
    RunResult r = test::run(cfg, staggered());
    REQUIRE(r.complete);
    ReportContext ctx = context();
    ctx.network_model = "congestion";
    json j = json::parse(report_json(r, ctx));
    const json& links = j.at("links");
    REQUIRE(links.size() == 4);
    uint64_t bytes = 0;
    for (const json& l : links) {
        CHECK(l.at("dim") == 0);
        CHECK(l.at("bytes") == 393216);
        CHECK(l.at("busy_ns") == 3660);
        CHECK(l.at("utilization").get<double>() ==
              Approx(3660.0 / static_cast<double>(r.total_ns)).epsilon(1e-5));
        CHECK(l.at("src_name") == "npu" + std::to_string(l.at("src").get<uint64_t>()));
        CHECK(l.at("peak_queue").is_number_unsigned()); // chunks that waited: timing-dependent here
        bytes += l.at("bytes").get<uint64_t>();
    }
    CHECK(bytes == j.at("network").at("bytes").get<uint64_t>());
    // Ordered by (src, dst).
    for (size_t i = 1; i < links.size(); ++i)
        CHECK(links[i - 1].at("src").get<uint64_t>() < links[i].at("src").get<uint64_t>());
    CHECK_THAT(report_summary(r, ctx), Contains("links used: 4; busiest npu0 -> "));
}

// Heterogeneous and straggling NPUs: the system key npu-overrides gives listed NPUs their own compute
// slowdown, peak-perf and local-mem-bw. A straggler must delay exactly the collectives that wait on it.
#include "core/config/config_parse.h"
#include "support/test_support.h"
#include "support/trace_builder.h"

#include <catch2/catch.hpp>

using namespace astrolabe;
using Catch::Matchers::Contains;
using trace::CollectiveType;

namespace {

// 4 NPUs on a ring; groups {0,1} (id 1) and {2,3} (id 2). Every NPU computes 10 us, then all-reduces
// 1 MiB within its group.
config::Scenario four_npus(const std::string& system) {
    config::Scenario cfg;
    cfg.network = test::network_yaml("topology: [Ring]\nnpus_count: [4]\nbandwidth: [50]\nlatency: [500]\n");
    cfg.system = test::system_json(system);
    auto groups = config::parse_comm_groups_json(R"({"1": [0, 1], "2": [2, 3]})", "groups.json", 4);
    REQUIRE(groups.is_ok());
    cfg.groups = groups.value();
    return cfg;
}

std::vector<std::string> traces() {
    std::vector<std::string> out;
    for (uint32_t r = 0; r < 4; ++r) {
        test::TraceBuilder t;
        t.comp(1, 10);
        t.coll(2, CollectiveType::AllReduce, 1 << 20, {1}).pg_name = r < 2 ? "1" : "2";
        out.push_back(t.bytes());
    }
    return out;
}

const CollectiveRecord& in_group(const RunResult& r, uint32_t group) {
    for (const auto& c : r.stats.collectives)
        if (c.group_id == group) return c;
    FAIL("no collective in group " << group);
    return r.stats.collectives.front();
}

} // namespace

TEST_CASE("npu-overrides: a straggler delays exactly the collectives that wait on it", "[system][override]") {
    const std::string ring = R"("all-reduce-implementation": ["ring"])";
    RunResult base = test::run(four_npus("{" + ring + "}"), traces());
    // NPU 3 computes 11 times as slowly: 110 us instead of 10, so it joins its group's all-reduce 100 us
    // late.
    RunResult slow = test::run(
        four_npus("{" + ring + R"(, "npu-overrides": [{"npus": [3], "compute-slowdown": 11}]})"), traces());
    // The same straggler written into the trace instead: NPU 3's compute node lasts 110 us.
    std::vector<std::string> edited = traces();
    {
        test::TraceBuilder t;
        t.comp(1, 110);
        t.coll(2, CollectiveType::AllReduce, 1 << 20, {1}).pg_name = "2";
        edited[3] = t.bytes();
    }
    RunResult by_trace = test::run(four_npus("{" + ring + "}"), edited);
    REQUIRE(base.complete);
    REQUIRE(slow.complete);
    CHECK(slow.stats.npus[3].compute_ns == 110000);
    CHECK(slow.stats.npus[2].compute_ns == 10000);
    // Group 1 never waits on NPU 3: its collective and NPUs 0 and 1 are exactly as before.
    CHECK(in_group(slow, 1).start_ns == in_group(base, 1).start_ns);
    CHECK(in_group(slow, 1).end_ns == in_group(base, 1).end_ns);
    CHECK(slow.stats.npus[0].finish_ns == base.stats.npus[0].finish_ns);
    CHECK(slow.stats.npus[1].finish_ns == base.stats.npus[1].finish_ns);
    // Group 2 waits: its all-reduce ends when NPU 3's part does, 100 us later than before, and NPU 2, whose
    // ring steps need NPU 3's messages, finishes later too.
    CHECK(in_group(slow, 2).end_ns == in_group(base, 2).end_ns + 100000);
    CHECK(slow.stats.npus[3].finish_ns == base.stats.npus[3].finish_ns + 100000);
    CHECK(slow.stats.npus[2].finish_ns > base.stats.npus[2].finish_ns + 80000);
    // And the override is indistinguishable from the slower trace, NPU by NPU and collective by collective.
    for (size_t i = 0; i < 4; ++i) {
        CHECK(slow.stats.npus[i].finish_ns == by_trace.stats.npus[i].finish_ns);
        CHECK(slow.stats.npus[i].exposed_comm_ns() == by_trace.stats.npus[i].exposed_comm_ns());
    }
    REQUIRE(slow.stats.collectives.size() == by_trace.stats.collectives.size());
    for (size_t i = 0; i < slow.stats.collectives.size(); ++i) {
        CHECK(slow.stats.collectives[i].start_ns == by_trace.stats.collectives[i].start_ns);
        CHECK(slow.stats.collectives[i].end_ns == by_trace.stats.collectives[i].end_ns);
    }
}

TEST_CASE("npu-overrides: per-NPU peak-perf and local-mem-bw for the roofline", "[system][override]") {
    // 1e9 ops on 1e6 bytes with peak 989 TFLOPS, 3350 GB/s: compute bound, 1011 ns (compute_time_test).
    // NPUs "2-3" get peak 494.5: 2022 ns. NPU 1 gets local-mem-bw 0.5 GB/s: the memory roof is 0.5e9 * 1000
    // = 5e11 op/s, so 1e9 ops take 2 ms, memory-bound.
    config::Scenario cfg = four_npus(R"({"roofline-enabled": 1, "peak-perf": 989, "local-mem-bw": 3350,
        "npu-overrides": [{"npus": "2-3", "peak-perf": 494.5}, {"npus": [1], "local-mem-bw": 0.5}]})");
    test::TraceBuilder t;
    t.roofline_comp(1, 1000000000, 1000000);
    RunResult r = test::run(cfg, test::same_on_all(t, 4));
    CHECK(r.stats.npus[0].finish_ns == 1011);
    CHECK(r.stats.npus[1].finish_ns == 2000000);
    CHECK(r.stats.npus[1].memory_bound_ns == 2000000);
    CHECK(r.stats.npus[2].finish_ns == 2022);
    CHECK(r.stats.npus[3].compute_bound_ns == 2022);
}

TEST_CASE("npu-overrides: bad entries are refused with the key named", "[system][override]") {
    auto parsed = config::parse_system_json(
        R"({"npu-overrides": [{"npus": "3-1"}, {"npus": [0], "compute-slowdown": 0}, {"speed": 2, "npus": [1]}, {}]})",
        "sys.json");
    REQUIRE_FALSE(parsed.is_ok());
    const std::string m = parsed.status().message();
    CHECK_THAT(
        m, Contains("sys.json: npu-overrides[0].npus: is \"3-1\"; a range \"a-b\" with a <= b was expected"));
    CHECK_THAT(m, Contains("npu-overrides[1].compute-slowdown: is 0; a positive number was expected"));
    CHECK_THAT(m, Contains("npu-overrides[2].speed: unknown key"));
    CHECK_THAT(m, Contains("npu-overrides[3].npus: is missing or empty"));

    // A rank outside the network is caught when the simulation is built.
    config::Scenario cfg = four_npus(R"({"npu-overrides": [{"npus": [4], "compute-slowdown": 2}]})");
    test::TraceBuilder t;
    t.comp(1, 1);
    auto sim = test::build(cfg, test::same_on_all(t, 4));
    REQUIRE_FALSE(sim.is_ok());
    CHECK_THAT(sim.status().message(), Contains("npu-overrides[0].npus: NPU 4 is not in the network"));
}

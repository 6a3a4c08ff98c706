// Remote memory: latency + floor(bytes / bw) per access (1 GB = 1e9 B), shared memories serve FIFO.
#include "core/config/config_parse.h"
#include "core/memory/remote_memory.h"
#include "support/test_support.h"
#include "support/trace_builder.h"

#include <catch2/catch.hpp>

using namespace astrolabe;
using Catch::Matchers::Contains;

namespace {

// Every NPU of a 4-NPU ring loads 1024 bytes once.
RunResult run_loads(const std::string& memory) {
    config::Scenario cfg;
    cfg.network = test::network_yaml("topology: [Ring]\nnpus_count: [4]\nbandwidth: [50]\nlatency: [500]\n");
    cfg.memory = test::memory_json(memory);
    test::TraceBuilder t;
    t.mem_load(1, 1024);
    return test::run(cfg, test::same_on_all(t, 4));
}

std::vector<TimeNs> finishes(const RunResult& r) {
    std::vector<TimeNs> out;
    for (const auto& n : r.stats.npus)
        out.push_back(n.finish_ns);
    return out;
}

} // namespace

TEST_CASE("remote memory: access time", "[memory]") {
    // 1024 B at 50 GB/s = 20.48 ns -> 20, plus 500 ns latency = 520 (the gen8 remote-memory anchors).
    Engine engine;
    NpuBuckets buckets(engine, 1);
    RemoteMemory m(test::memory_json(R"({"memory-type": "PER_NPU_MEMORY_EXPANSION", "remote-mem-latency": 500,
                                          "remote-mem-bw": 50})"),
                   buckets, 1);
    CHECK(m.access_time(1024) == 520);
    CHECK(m.access_time(0) == 500);
    CHECK(m.access_time(1000000) == 500 + 20000);
}

TEST_CASE("remote memory: per-NPU memories never wait and shared ones serve one access at a time",
          "[memory][executor]") {
    // Four NPUs issue one 1024 B load at t = 0 (NPU 0 first). Each access takes 520 ns.
    SECTION("PER_NPU_MEMORY_EXPANSION: all finish at 520") {
        RunResult r = run_loads(
            R"({"memory-type": "PER_NPU_MEMORY_EXPANSION", "remote-mem-latency": 500, "remote-mem-bw": 50})");
        CHECK(finishes(r) == std::vector<TimeNs>{520, 520, 520, 520});
        CHECK(r.stats.npus[3].memory_ns == 520);
    }
    SECTION("MEMORY_POOL: one memory for all, FIFO -> 520, 1040, 1560, 2080") {
        RunResult r =
            run_loads(R"({"memory-type": "MEMORY_POOL", "remote-mem-latency": 500, "remote-mem-bw": 50})");
        CHECK(finishes(r) == std::vector<TimeNs>{520, 1040, 1560, 2080});
        // memory_ns counts issue to completion, so waiting in the queue is included.
        CHECK(r.stats.npus[3].memory_ns == 2080);
        // No GPU compute at all: the whole run is "exposed communication" in ASTRA-sim's definition.
        CHECK(r.stats.npus[3].exposed_comm_ns() == 2080);
    }
    SECTION("PER_NODE_MEMORY_EXPANSION, 2 NPUs per node: pairs share -> 520, 1040, 520, 1040") {
        RunResult r = run_loads(R"({"memory-type": "PER_NODE_MEMORY_EXPANSION", "remote-mem-latency": 500,
                                     "remote-mem-bw": 50, "num-nodes": 2, "num-npus-per-node": 2})");
        CHECK(finishes(r) == std::vector<TimeNs>{520, 1040, 520, 1040});
    }
    SECTION("NO_MEMORY_EXPANSION: memory nodes are refused up front") {
        config::Scenario cfg;
        cfg.network =
            test::network_yaml("topology: [Ring]\nnpus_count: [4]\nbandwidth: [50]\nlatency: [500]\n");
        test::TraceBuilder t;
        t.mem_load(1, 1024);
        auto sim = test::build(cfg, test::same_on_all(t, 4));
        REQUIRE_FALSE(sim.is_ok());
        CHECK_THAT(sim.status().message(), Contains("4 memory load/store node(s) but no remote memory"));
    }
}

TEST_CASE("remote memory: bandwidth-sharing fair splits a shared memory's bandwidth among accesses in flight",
          "[memory][executor]") {
    SECTION(
        "MEMORY_POOL: four 1024 B loads at once share 50 GB/s -> all done at floor(4096 / 50) + 500 = 581") {
        // FIFO would give 520, 1040, 1560, 2080: the same last byte (81.92 ns of transfer in all, plus the
        // latencies one after another there); fair sharing overlaps the latencies and finishes together.
        RunResult r =
            run_loads(R"({"memory-type": "MEMORY_POOL", "remote-mem-latency": 500, "remote-mem-bw": 50,
                                     "bandwidth-sharing": "fair"})");
        CHECK(finishes(r) == std::vector<TimeNs>{581, 581, 581, 581});
        CHECK(r.stats.npus[0].memory_ns == 581);
    }
    SECTION(
        "PER_NODE_MEMORY_EXPANSION, 2 NPUs per node: pairs share 50 GB/s -> floor(2048 / 50) + 500 = 540") {
        RunResult r = run_loads(R"({"memory-type": "PER_NODE_MEMORY_EXPANSION", "remote-mem-latency": 500,
                                     "remote-mem-bw": 50, "num-npus-per-node": 2, "bandwidth-sharing": "fair"})");
        CHECK(finishes(r) == std::vector<TimeNs>{540, 540, 540, 540});
    }
    SECTION("unequal accesses: the short one leaves and the long one speeds up") {
        // Pool at 50 GB/s, no latency. NPU 0 loads 3000 B, NPU 1 1000 B: both move 25 B/ns until NPU 1's
        // 1000 B are done at 40 ns; NPU 0 then has 2000 B left at the full 50 B/ns: done at 80 ns, which is
        // all 4000 bytes at the memory's bandwidth.
        config::Scenario cfg;
        cfg.network =
            test::network_yaml("topology: [Ring]\nnpus_count: [2]\nbandwidth: [50]\nlatency: [500]\n");
        cfg.memory = test::memory_json(
            R"({"memory-type": "MEMORY_POOL", "remote-mem-bw": 50, "bandwidth-sharing": "fair"})");
        test::TraceBuilder a, b;
        a.mem_load(1, 3000);
        b.mem_load(1, 1000);
        RunResult r = test::run(cfg, {a.bytes(), b.bytes()});
        CHECK(finishes(r) == std::vector<TimeNs>{80, 40});
    }
    SECTION("a lone access takes what it takes in FIFO mode, and bad values are named") {
        RunResult r = run_loads(R"({"memory-type": "PER_NODE_MEMORY_EXPANSION", "remote-mem-latency": 500,
                                     "remote-mem-bw": 50, "num-npus-per-node": 1, "bandwidth-sharing": "fair"})");
        CHECK(finishes(r) == std::vector<TimeNs>{520, 520, 520, 520});
        auto bad = config::parse_memory_json(R"({"memory-type": "MEMORY_POOL", "remote-mem-bw": 50,
                                                 "bandwidth-sharing": "equal"})",
                                             "mem.json");
        REQUIRE_FALSE(bad.is_ok());
        CHECK_THAT(bad.status().message(),
                   Contains("mem.json: bandwidth-sharing: is \"equal\"; \"fifo\" (ASTRA-sim's) "
                            "or \"fair\" was expected"));
    }
}

TEST_CASE("local memory: MEM nodes use each NPU's own memory, latency + bytes / bandwidth", "[memory]") {
    // LOCAL_MEMORY (ours): 1024 B at 2000 GB/s = 0.512 ns -> 0, plus 100 ns latency = 100 ns on every NPU at
    // once (no NPU waits for another, unlike a pool, where the fourth would finish at 4 x 100 = 400 ns).
    RunResult r =
        run_loads(R"({"memory-type": "LOCAL_MEMORY", "local-mem-latency": 100, "local-mem-bw": 2000})");
    CHECK(finishes(r) == std::vector<TimeNs>{100, 100, 100, 100});
    CHECK(r.stats.npus[0].memory_ns == 100);
    // 1024 B at 1 GB/s = 1024 ns more: the bandwidth term is what a slower memory changes.
    RunResult slow =
        run_loads(R"({"memory-type": "LOCAL_MEMORY", "local-mem-latency": 100, "local-mem-bw": 1})");
    CHECK(slow.stats.npus[0].finish_ns == 100 + 1024);
}

TEST_CASE("local memory: its keys are checked", "[memory]") {
    auto missing = config::parse_memory_json(R"({"memory-type": "LOCAL_MEMORY"})", "m.json");
    REQUIRE_FALSE(missing.is_ok());
    CHECK_THAT(missing.status().message(), Contains("m.json: local-mem-bw: is missing"));
    auto mixed = config::parse_memory_json(
        R"({"memory-type": "LOCAL_MEMORY", "local-mem-bw": 100, "remote-mem-bw": 50})", "m.json");
    REQUIRE_FALSE(mixed.is_ok());
    CHECK_THAT(mixed.status().message(), Contains("remote-mem-bw: does not apply to LOCAL_MEMORY"));
}

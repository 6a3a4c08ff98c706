// ASTRA-sim's remote-memory JSON.
#include "core/config/config_parse.h"
#include "support/test_support.h"

#include <catch2/catch.hpp>

using namespace astrolabe;
using namespace astrolabe::config;
using Catch::Matchers::Contains;

TEST_CASE("memory JSON: ASTRA-sim's files", "[config][memory]") {
    // mem_per_npu_expansion_lat500_bw50.json: per-NPU expansion, 500 ns latency, 50 GB/s.
    MemoryConfig m = test::memory_json(test::read_data("configs/mem_per_npu_expansion_lat500_bw50.json"));
    CHECK(m.type == MemoryType::PerNpuExpansion);
    CHECK(m.latency_ns == 500);
    CHECK(m.bandwidth_gbps == 50);
    CHECK(m.warnings.empty());
    CHECK(test::memory_json(test::read_data("configs/mem_no_memory_expansion.json")).type ==
          MemoryType::NoExpansion);

    MemoryConfig pool =
        test::memory_json(R"({"memory-type": "PER_NODE_MEMORY_EXPANSION", "remote-mem-latency": 10,
                                              "remote-mem-bw": 100, "num-nodes": 2, "num-npus-per-node": 4})");
    CHECK(pool.type == MemoryType::PerNodeExpansion);
    CHECK(pool.num_nodes == 2);
    CHECK(pool.npus_per_node == 4);
}

TEST_CASE("memory JSON: a fractional bandwidth is truncated as ASTRA-sim does and warned about",
          "[config][memory]") {
    // ASTRA-sim reads remote-mem-bw into an integer: 50.7 -> 50 GB/s. Below 1 it would become 0: refused.
    MemoryConfig m =
        test::memory_json(R"({"memory-type": "MEMORY_POOL", "remote-mem-bw": 50.7, "extra": 1})");
    CHECK(m.bandwidth_gbps == 50);
    REQUIRE(m.warnings.size() == 2);
    CHECK_THAT(m.warnings[0] + m.warnings[1], Contains("remote-mem-bw: 50.7 is truncated to 50 GB/s"));
    CHECK_THAT(m.warnings[0] + m.warnings[1], Contains("extra: unknown key"));
    auto r = parse_memory_json(R"({"memory-type": "MEMORY_POOL", "remote-mem-bw": 0.5})", "m.json");
    REQUIRE_FALSE(r.is_ok());
    CHECK_THAT(r.status().message(), Contains("m.json: remote-mem-bw: is 0.5"));
}

TEST_CASE("memory JSON: missing or bad keys are errors naming the key", "[config][memory]") {
    auto msg = [](const char* text) {
        auto r = parse_memory_json(text, "m.json");
        CHECK_FALSE(r.is_ok());
        return r.status().message();
    };
    CHECK_THAT(msg("{}"), Contains("m.json: memory-type: is missing"));
    CHECK_THAT(msg(R"({"memory-type": "HBM"})"), Contains("m.json: memory-type: is \"HBM\""));
    // An expansion memory without a bandwidth cannot be timed.
    CHECK_THAT(msg(R"({"memory-type": "PER_NPU_MEMORY_EXPANSION"})"), Contains("remote-mem-bw: is missing"));
    CHECK_THAT(msg(R"({"memory-type": "MEMORY_POOL", "remote-mem-bw": 1, "num-npus-per-node": 0})"),
               Contains("num-npus-per-node: is 0"));
}

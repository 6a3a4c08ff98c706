// Rescaling a data-parallel trace set: STAGE's traces and our own, checked against generating the target
// size directly, plus the refusals that say why a set is not regular.
#include "core/config/config_parse.h"
#include "core/generate/rescale.h"
#include "core/generate/transformer.h"
#include "core/trace/trace_reader.h"
#include "support/test_support.h"

#include <catch2/catch.hpp>

using namespace astrolabe;
using namespace astrolabe::generate;
using Catch::Matchers::Contains;

namespace {

RankGroups to_rank_groups(const std::string& json, uint32_t npus) {
    auto g = config::parse_comm_groups_json(json, "groups.json", npus);
    REQUIRE(g.is_ok());
    RankGroups out;
    for (const auto& grp : g.value().groups)
        out.groups.emplace_back(grp.id, grp.ranks);
    return out;
}

ReadTrace reader(const std::vector<std::string>& files) {
    return [files](uint32_t r) -> Result<trace::Trace> {
        trace::ReadOptions o;
        o.keep_attributes = true;
        return trace::decode_trace(files.at(r), "in." + std::to_string(r) + ".et", o);
    };
}

TransformerParams plan(uint32_t dp) {
    TransformerParams p;
    REQUIRE(apply_params(p, {{"layers", "2"},
                             {"hidden", "128"},
                             {"heads", "4"},
                             {"vocab", "256"},
                             {"seq", "32"},
                             {"batch", std::to_string(2 * dp)},
                             {"micro-batch", std::to_string(dp)},
                             {"dp", std::to_string(dp)},
                             {"tp", "2"},
                             {"pp", "2"},
                             {"dtype-bytes", "2"}})
                .is_ok());
    REQUIRE(check(p).is_ok());
    return p;
}

RunResult simulate(const MemorySink& s, uint32_t npus) {
    config::Scenario cfg;
    cfg.network =
        test::network_yaml("topology: [ Ring, Switch ]\nnpus_count: [ 4, " + std::to_string(npus / 4) +
                           " ]\nbandwidth: [ 100, 50 ]\nlatency: [ 500, 1000 ]\n");
    cfg.system = test::system_json(
        test::read_data("configs/sys_ring_d2_s4_a1_LIFO_ep10_mem3350_localBWAware_roof989.json"));
    auto g = config::parse_comm_groups_json(s.comm_groups, "groups.json", npus);
    REQUIRE(g.is_ok());
    cfg.groups = g.value();
    return test::run(cfg, s.ranks);
}

} // namespace

TEST_CASE("rescale: a DP x TP x PP set to more replicas runs like the set generated at that size",
          "[generate][rescale]") {
    // Our dp 2 x tp 2 x pp 2 training step rescaled to 16 NPUs must be dp 4 x tp 2 x pp 2 with the same
    // per-replica work: the same simulated time as generating dp 4 directly (same DAGs and group members).
    MemorySink small;
    REQUIRE(generate_transformer(plan(2), small).is_ok());
    MemorySink rescaled;
    auto rp = rescale(8, to_rank_groups(small.comm_groups, 8), reader(small.ranks), 16, rescaled);
    INFO(rp.status().message());
    REQUIRE(rp.is_ok());
    CHECK(rp.value().dp_in == 2);
    CHECK(rp.value().dp_out == 4);
    CHECK(rp.value().shards == 4);
    REQUIRE(rescaled.ranks.size() == 16);
    MemorySink direct;
    REQUIRE(generate_transformer(plan(4), direct).is_ok());
    RunResult a = simulate(rescaled, 16), b = simulate(direct, 16);
    CHECK(a.complete);
    CHECK(a.unreceived.empty());
    CHECK(a.total_ns == b.total_ns);
}

TEST_CASE("rescale: STAGE's sets keep their per-rank totals at the new size", "[generate][rescale]") {
    SECTION("gpt_dp4_8l (pure DP with a group of all 4 ranks) to 12 NPUs, and down to 2") {
        std::vector<std::string> files;
        for (int r = 0; r < 4; ++r)
            files.push_back(test::read_data("traces/stage/gpt_dp4_8l/workload." + std::to_string(r) + ".et"));
        RankGroups g = to_rank_groups(test::read_data("traces/stage/gpt_dp4_8l/workload.json"), 4);
        for (uint32_t m : {12u, 2u}) {
            MemorySink out;
            auto rp = rescale(4, g, reader(files), m, out);
            REQUIRE(rp.is_ok());
            REQUIRE(out.ranks.size() == m);
            // Every rank keeps rank 0's nodes; the gradient all-reduce now spans all m ranks (group 1).
            auto t = trace::decode_trace(out.ranks[m - 1], "out");
            REQUIRE(t.is_ok());
            CHECK(t.value().nodes.size() == 1014);
            CHECK_THAT(out.comm_groups,
                       Contains(m == 2 ? "\"1\":[0,1]" : "\"1\":[0,1,2,3,4,5,6,7,8,9,10,11]"));
        }
    }
    SECTION("pure data parallel without groups: ASTRA-sim's 4-NPU all-reduce microbenchmark to 16") {
        std::vector<std::string> files;
        for (int r = 0; r < 4; ++r)
            files.push_back(
                test::read_data("traces/astra-sim-microbenchmarks/all_reduce/4npus_1MB/all_reduce." +
                                std::to_string(r) + ".et"));
        MemorySink out;
        auto rp = rescale(4, {}, reader(files), 16, out);
        REQUIRE(rp.is_ok());
        CHECK(out.ranks.size() == 16);
        CHECK(out.ranks[15] == files[0]); // identical files, untouched: no groups, no peers
        CHECK(out.comm_groups.empty());
    }
}

TEST_CASE("rescale: refusals say why", "[generate][rescale]") {
    MemorySink small;
    REQUIRE(generate_transformer(plan(2), small).is_ok());
    SECTION("the NPU count must be a multiple of the model shards") {
        // 8 NPUs = 4 shards (tp 2 x pp 2) x dp 2: 10 NPUs cannot hold whole replicas.
        MemorySink out;
        auto rp = rescale(8, to_rank_groups(small.comm_groups, 8), reader(small.ranks), 10, out);
        REQUIRE_FALSE(rp.is_ok());
        CHECK_THAT(rp.status().message(),
                   Contains("--npus: 10; the set has 4 model shard(s) of data-parallel "
                            "degree 2, so a multiple of 4 was expected"));
    }
    SECTION("a group across replicas is not a regular layout") {
        MemorySink out;
        auto rp =
            rescale(8, to_rank_groups(R"({"1": [0, 1], "2": [1, 2]})", 8), reader(small.ranks), 16, out);
        REQUIRE_FALSE(rp.is_ok());
        CHECK_THAT(rp.status().message(),
                   Contains("group 2 mixes ranks of different data-parallel replicas"));
    }
    SECTION("a set numbered tensor-parallel first") {
        // Its tensor groups {0,1}, {2,3}, ... look like STAGE-order data groups; the files say otherwise.
        TransformerParams p = plan(2);
        REQUIRE(set_param(p, "rank-order", "tp-first").is_ok());
        MemorySink tp_first;
        REQUIRE(generate_transformer(p, tp_first).is_ok());
        MemorySink out;
        auto rp = rescale(8, to_rank_groups(tp_first.comm_groups, 8), reader(tp_first.ranks), 16, out);
        REQUIRE_FALSE(rp.is_ok());
        CHECK(rp.status().message() ==
              "rescale: the set was generated with rank-order tp-first; rescale needs data-parallel ranks "
              "fastest (rank = dp + D q): generate it with rank-order dp-first, or generate the new size");
    }
    SECTION("different files and no groups") {
        MemorySink out;
        auto rp = rescale(8, {}, reader(small.ranks), 16, out);
        REQUIRE_FALSE(rp.is_ok());
        CHECK_THAT(rp.status().message(), Contains("rescale:"));
    }
}

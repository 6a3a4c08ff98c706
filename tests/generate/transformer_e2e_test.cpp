// Generated workloads run to completion in our own simulator (the same executor rules as ASTRA-sim), with
// the generator's communicator groups and the h100 hardware preset.
#include "core/config/config_parse.h"
#include "core/generate/system_preset.h"
#include "core/generate/transformer.h"
#include "generate/generate_test_util.h"
#include "support/test_support.h"

#include <catch2/catch.hpp>

using namespace astrolabe;
using namespace astrolabe::generate;
using namespace astrolabe::generate::test_util;

namespace {

using Named = std::vector<std::pair<std::string, std::string>>;

// Generates every rank of `p` and runs it on `cfg`, with the generator's communicator groups (when it made
// any) read by the same parser as ASTRA-sim's comm-group files.
RunResult run_generated(config::Scenario cfg, const TransformerParams& p) {
    MemorySink sink = generate_all(p);
    if (!sink.comm_groups.empty()) {
        auto g = config::parse_comm_groups_json(sink.comm_groups, "generated.json",
                                                static_cast<uint32_t>(p.npus()));
        REQUIRE(g.is_ok());
        cfg.groups = g.value();
    }
    return test::run(cfg, sink.ranks);
}

// `a`, then `b`: a base plan and the options of one case.
Named joined(Named a, const Named& b) {
    a.insert(a.end(), b.begin(), b.end());
    return a;
}

} // namespace

TEST_CASE("generated transformer traces run to completion in our simulator", "[generate][e2e]") {
    // A 2-D switch network of 8 NPUs and the roofline model; each workload must finish on every NPU with
    // every send received, the comm groups read by the same parser as ASTRA-sim's files.
    config::Scenario base;
    base.network = test::network_yaml("topology: [ Switch, Switch ]\nnpus_count: [ 2, 4 ]\n"
                                      "bandwidth: [ 100, 50 ]\nlatency: [ 500, 1000 ]\n");
    base.system = test::system_json(
        test::read_data("configs/sys_ring_d2_s4_a1_LIFO_ep10_mem3350_localBWAware_roof989.json"));
    auto run = [&](const TransformerParams& p) {
        REQUIRE(p.npus() == 8);
        RunResult r = run_generated(base, p);
        CHECK(r.complete);
        CHECK(r.unreceived.empty());
        CHECK(r.total_ns > 0);
    };
    SECTION("dp 2 x tp 2 x pp 2, 4 micro-batches, 1F1B") {
        run(params({{"layers", "4"},
                    {"hidden", "256"},
                    {"heads", "4"},
                    {"vocab", "1000"},
                    {"seq", "64"},
                    {"batch", "8"},
                    {"micro-batch", "2"},
                    {"dp", "2"},
                    {"tp", "2"},
                    {"pp", "2"}}));
    }
    SECTION("pp 8 with recomputation, dtype 2") {
        run(params({{"layers", "8"},
                    {"hidden", "128"},
                    {"heads", "4"},
                    {"vocab", "512"},
                    {"seq", "32"},
                    {"batch", "6"},
                    {"micro-batch", "1"},
                    {"pp", "8"},
                    {"recompute", "true"},
                    {"dtype-bytes", "2"}}));
    }
    SECTION("ZeRO-3 over dp 4, context parallel sp 2") {
        run(params({{"layers", "2"},
                    {"hidden", "128"},
                    {"heads", "4"},
                    {"vocab", "512"},
                    {"seq", "64"},
                    {"batch", "8"},
                    {"micro-batch", "4"},
                    {"dp", "4"},
                    {"sp", "2"},
                    {"weight-sharded", "true"},
                    {"grad-sync", "step"}}));
    }
    SECTION("Mixtral-like MoE, ep 4 in dp 4, tp 2") {
        run(params({{"model", "llama"},
                    {"layers", "2"},
                    {"hidden", "128"},
                    {"ffn", "256"},
                    {"heads", "4"},
                    {"kv-heads", "2"},
                    {"vocab", "512"},
                    {"seq", "32"},
                    {"batch", "4"},
                    {"dp", "4"},
                    {"tp", "2"},
                    {"ep", "4"},
                    {"experts", "8"},
                    {"top-k", "2"}}));
    }
    SECTION("inference: prefill tp 2 x pp 4 and 3 decode steps") {
        // KV-cache nodes are MEM_LOAD / MEM_STORE, which need a memory model (as in ASTRA-sim).
        base.memory = test::memory_json(test::read_data("configs/mem_per_npu_expansion_lat500_bw50.json"));
        // The same model twice: a prefill, then 3 decode steps.
        const Named llama_tp2_pp4 = {{"model", "llama"}, {"layers", "4"},   {"hidden", "128"},
                                     {"heads", "4"},     {"kv-heads", "2"}, {"vocab", "512"},
                                     {"seq", "64"},      {"batch", "4"},    {"micro-batch", "2"},
                                     {"tp", "2"},        {"pp", "4"}};
        run(params(joined(llama_tp2_pp4, {{"phase", "prefill"}})));
        run(params(joined(llama_tp2_pp4, {{"phase", "decode"}, {"decode-steps", "3"}})));
    }
}

TEST_CASE("the h100 hardware preset runs a generated workload", "[generate]") {
    // 16 NPUs = two 8-GPU nodes: a 2-D switch network [8, 2] with NVSwitch and InfiniBand bandwidths, and a
    // roofline system; both parse with the ASTRA-sim config readers and a dp 2 x tp 8 step completes.
    auto files = system_preset("h100", 16);
    REQUIRE(files.is_ok());
    auto net = config::parse_network_yaml(files.value().network_yaml, "h100.network.yml");
    auto sys = config::parse_system_json(files.value().system_json, "h100.system.json");
    REQUIRE(net.is_ok());
    REQUIRE(sys.is_ok());
    CHECK(net.value().dims.size() == 2);
    TransformerParams p = params({{"layers", "2"},
                                  {"hidden", "256"},
                                  {"heads", "8"},
                                  {"vocab", "512"},
                                  {"seq", "64"},
                                  {"batch", "2"},
                                  {"dp", "2"},
                                  {"tp", "8"},
                                  {"dtype-bytes", "2"}});
    config::Scenario cfg;
    cfg.network = net.value();
    cfg.system = sys.value();
    RunResult r = run_generated(cfg, p);
    CHECK(r.complete);
    // 12 NPUs do not fill whole 8-GPU nodes.
    CHECK_FALSE(system_preset("h100", 12).is_ok());
    CHECK_FALSE(system_preset("tpu", 8).is_ok());
}

TEST_CASE("every small plan completes: dp, tp, pp, sp in {1, 2} with each option", "[generate][e2e]") {
    // 16 layouts x 4 option sets on a 1-D switch of the plan's size: each must finish on every NPU with
    // every send received (1F1B order, blocking TP/context collectives, overlapping gradient collectives).
    const std::vector<Named> options = {{},
                                        {{"recompute", "true"}},
                                        {{"weight-sharded", "true"}, {"grad-sync", "step"}},
                                        {{"model", "llama"}, {"kv-heads", "2"}, {"mixed-precision", "true"}}};
    for (uint32_t dp : {1u, 2u})
        for (uint32_t tp : {1u, 2u})
            for (uint32_t pp : {1u, 2u})
                for (uint32_t sp : {1u, 2u})
                    for (const auto& extra : options) {
                        const Named plan = {{"layers", "2"},
                                            {"hidden", "64"},
                                            {"heads", "4"},
                                            {"vocab", "128"},
                                            {"seq", "32"},
                                            {"batch", std::to_string(4 * dp)},
                                            {"micro-batch", std::to_string(2 * dp)},
                                            {"dp", std::to_string(dp)},
                                            {"tp", std::to_string(tp)},
                                            {"pp", std::to_string(pp)},
                                            {"sp", std::to_string(sp)}};
                        TransformerParams p = params(joined(plan, extra));
                        const uint32_t n = static_cast<uint32_t>(p.npus());
                        config::Scenario cfg;
                        cfg.network =
                            test::network_yaml("topology: [ Switch ]\nnpus_count: [ " + std::to_string(n) +
                                               " ]\nbandwidth: [ 50 ]\nlatency: [ 500 ]\n");
                        cfg.system = test::system_json(test::read_data(
                            "configs/sys_ring_d1_s4_a1_LIFO_ep10_mem3350_localBWAware_roof989.json"));
                        INFO("dp " << dp << " tp " << tp << " pp " << pp << " sp " << sp << " options "
                                   << extra.size());
                        RunResult r = run_generated(cfg, p);
                        CHECK(r.complete);
                        CHECK(r.unreceived.empty());
                    }
}

// `run --hardware`: every collective of a run takes the time collective-perf gives for its op, size and
// group on the described system (NCCL's per-size choice), through the normal engine.
#include "core/config/config_parse.h"
#include "core/config/scenario.h"
#include "core/hardware/collective_links.h"
#include "core/hardware/hardware_mapping.h"
#include "core/trace/trace_reader.h"
#include "support/collective_perf_ns.h"
#include "support/test_support.h"
#include "support/trace_builder.h"
#include "tests/hardware/p5_system.h"

#include <catch2/catch.hpp>

#include <cmath>

using namespace astrolabe;
using config::NcclAlgo;
using config::NcclProto;
using hardware::CollOp;
using trace::CollectiveType;

namespace {

// The scenario `run --hardware` builds: the mapped network and system plus the description.
config::Scenario scenario(const config::HardwareConfig& hw, bool per_collective = true) {
    config::Scenario sc;
    hardware::MappedSystem m = hardware::map_system(hw);
    sc.network = m.network;
    sc.system = m.system;
    if (per_collective) sc.hardware = hw;
    return sc;
}

// Each rank: the collectives in order, each after the previous one (`pg` per collective, "" = all).
std::vector<std::string> chain(uint32_t ranks, const std::vector<CollectiveType>& types,
                               const std::vector<uint64_t>& sizes, const std::vector<std::string>& pgs = {}) {
    std::vector<std::string> out;
    for (uint32_t r = 0; r < ranks; ++r) {
        test::TraceBuilder b;
        for (size_t i = 0; i < types.size(); ++i) {
            test::Deps deps;
            if (i > 0) deps.push_back(i - 1);
            trace::Node& n = b.coll(i, types[i], sizes[i], deps);
            if (i < pgs.size() && !pgs[i].empty()) n.pg_name = pgs[i];
        }
        out.push_back(trace::encode_trace(b.trace()));
    }
    return out;
}

} // namespace

TEST_CASE("run --hardware: each collective takes collective-perf's time for its op and size",
          "[hardware][run]") {
    // 16 ranks all-reduce 64 KiB (NCCL: a low-latency protocol, LL/LL128) and then 256 MiB (Simple on
    // NVLS-tree across the two nodes). The run's total is the sum of collective-perf's two rows: each
    // collective gets its own algorithm, protocol, channels, latency and bus bandwidth.
    const auto hw = test::hardware_json(test::kH100x16);
    const uint64_t small = 64 << 10, large = 256ull << 20;
    const hardware::NcclChoice cs = hardware::choose(hw, CollOp::AllReduce, small);
    const hardware::NcclChoice cl = hardware::choose(hw, CollOp::AllReduce, large);
    CHECK(cs.proto != NcclProto::Simple);
    CHECK(cl.proto == NcclProto::Simple);
    CHECK(cl.algo == NcclAlgo::NvlsTree);

    const auto traces = chain(16, {CollectiveType::AllReduce, CollectiveType::AllReduce}, {small, large});
    RunResult r = test::run(scenario(hw), traces);
    REQUIRE(r.complete);
    const uint64_t t_small = test::collective_perf_ns(hw, CollOp::AllReduce, small);
    const uint64_t t_large = test::collective_perf_ns(hw, CollOp::AllReduce, large);
    CHECK(r.total_ns == t_small + t_large);

    // The closed form behind both (hardware_mapping.h): latency + bus bytes / bus bandwidth, each of the
    // ring's 30 messages truncated to whole ns (hence the 30 ns tolerance).
    for (auto [bytes, c, t] : {std::tuple{small, cs, t_small}, std::tuple{large, cl, t_large}}) {
        const double closed = c.latency_us * 1e3 + double(bytes) * 30.0 / 16 / c.busbw_gbs;
        CHECK(double(t) <= closed);
        CHECK(double(t) >= closed - 30);
    }

    SECTION("the report's notes name each collective's choice, counted per NPU") {
        auto note = [](const hardware::NcclChoice& c) {
            return std::string("all_reduce timed as NCCL's ") + config::nccl_algo_name(c.algo) + "/" +
                   config::nccl_proto_name(c.proto) + " on 2 node(s) x 8 GPU(s) (hardware description)";
        };
        CHECK(r.stats.notes.at(note(cs)) == 16);
        CHECK(r.stats.notes.at(note(cl)) == 16);
    }
    SECTION("differs from the old single operating point (a large all-reduce's path for every collective)") {
        RunResult old = test::run(scenario(hw, false), traces);
        REQUIRE(old.complete);
        CHECK(old.total_ns != r.total_ns);
    }
    SECTION("all-gather and all-to-all: the engine's all-gather size is one rank's part") {
        // all-gather 16 x 256 KiB = 4 MiB gathered, then all-to-all of 32 MiB.
        const auto t2 =
            chain(16, {CollectiveType::AllGather, CollectiveType::AllToAll}, {256 << 10, 32ull << 20});
        RunResult r2 = test::run(scenario(hw), t2);
        REQUIRE(r2.complete);
        CHECK(r2.total_ns == test::collective_perf_ns(hw, CollOp::AllGather, 4 << 20) +
                                 test::collective_perf_ns(hw, CollOp::AllToAll, 32 << 20));
    }
    SECTION("deterministic: the same inputs give the same time") {
        CHECK(test::run(scenario(hw), traces).total_ns == r.total_ns);
    }
    SECTION("a run of representatives (moves by whole nodes only) equals the full run") {
        CHECK(r.simulated_npus == 8); // the two nodes are alike
        RunOptions full;
        full.symmetry = false;
        RunResult f = test::run(scenario(hw), traces, full);
        CHECK(f.simulated_npus == 16);
        CHECK(f.total_ns == r.total_ns);
    }
}

TEST_CASE("run --hardware: the notes say when aws-ofi-nccl's map picked", "[hardware][run]") {
    // 4 x p5 (32 GPUs over EFA), a 1 GiB all-reduce: AWS's map gives ring/LL128 there (aws_ofi_tuner.h;
    // the same point nccl_model_test times in closed form), NCCL's own tuner something else. The run's
    // note names the map only when it picked; the time is collective-perf's either way.
    const uint64_t bytes = 1ull << 30;
    const auto traces = chain(32, {CollectiveType::AllReduce}, {bytes});
    for (auto tuner : {config::NcclTuner::AwsOfiNccl, config::NcclTuner::Nccl}) {
        const config::HardwareConfig hw = testing::p5_nodes(4, tuner);
        const hardware::NcclChoice c = hardware::choose(hw, CollOp::AllReduce, bytes);
        RunResult r = test::run(scenario(hw), traces);
        REQUIRE(r.complete);
        CHECK(r.total_ns == test::collective_perf_ns(hw, CollOp::AllReduce, bytes));
        const std::string pick =
            std::string(config::nccl_algo_name(c.algo)) + "/" + config::nccl_proto_name(c.proto);
        if (tuner == config::NcclTuner::AwsOfiNccl) {
            CHECK(pick == "ring/LL128");
            CHECK(r.stats.notes.at(
                      "all_reduce timed as NCCL's ring/LL128 (aws-ofi-nccl's map) on 4 node(s) x 8 "
                      "GPU(s) (hardware description)") == 32);
        } else {
            CHECK(pick != "ring/LL128"); // LL128 does not cross EFA in NCCL's own tuner
            CHECK(r.stats.notes.at("all_reduce timed as NCCL's " + pick +
                                   " on 4 node(s) x 8 GPU(s) (hardware description)") == 32);
        }
    }
}

TEST_CASE("run --hardware: a group inside a node vs a group across nodes", "[hardware][run]") {
    // Tensor-parallel groups {0..7}, {8..15} (one node each) all-reduce 32 MiB, then data-parallel groups
    // {i, i+8} (one GPU on each node) all-reduce 128 MiB. The first is the in-node figure of one HGX node
    // (NVLS); the second the network path of 2 nodes x 1 GPU, each GPU on its own 400 Gb/s NIC.
    const auto hw = test::hardware_json(test::kH100x16);
    const auto one_node = test::hardware_json(R"({"gpu": "H100-SXM", "nodes": 1, "gpus_per_node": 8})");
    const auto two_gpus = test::hardware_json(R"({"gpu": "H100-SXM", "nodes": 2, "gpus_per_node": 1,
      "nics_per_node": 1, "nic_gbps": 400, "fabric": "infiniband"})");
    config::Scenario sc = scenario(hw);
    for (uint32_t g = 0; g < 2; ++g) {
        config::CommGroup tp;
        tp.id = 1 + g;
        for (uint32_t i = 0; i < 8; ++i)
            tp.ranks.push_back(8 * g + i);
        sc.groups.groups.push_back(tp);
    }
    for (uint32_t i = 0; i < 8; ++i)
        sc.groups.groups.push_back(config::CommGroup{10 + i, {i, i + 8}});
    std::vector<std::string> traces;
    for (uint32_t r = 0; r < 16; ++r) {
        test::TraceBuilder b;
        b.coll(0, CollectiveType::AllReduce, 32 << 20).pg_name = std::to_string(1 + r / 8);
        b.coll(1, CollectiveType::AllReduce, 128ull << 20, {0}).pg_name = std::to_string(10 + r % 8);
        traces.push_back(trace::encode_trace(b.trace()));
    }
    RunResult r = test::run(sc, traces);
    REQUIRE(r.complete);
    const uint64_t t_tp = test::collective_perf_ns(one_node, CollOp::AllReduce, 32 << 20);
    const uint64_t t_dp = test::collective_perf_ns(two_gpus, CollOp::AllReduce, 128ull << 20);
    CHECK(r.total_ns == t_tp + t_dp);
    RunOptions full;
    full.symmetry = false;
    CHECK(test::run(sc, traces, full).total_ns == r.total_ns);
    CHECK(hardware::choose(one_node, CollOp::AllReduce, 32 << 20).algo == NcclAlgo::Nvls);

    SECTION("issued together, they still run one after the other (the GPU's one communication slot)") {
        // Each rank's TP and DP all-reduce have no dependency, but a GPU runs one communication node at a
        // time (ASTRA-sim's executor), so concurrent NCCL streams are not modelled: the sum again.
        std::vector<std::string> both;
        for (uint32_t rank = 0; rank < 16; ++rank) {
            test::TraceBuilder b;
            b.coll(0, CollectiveType::AllReduce, 32 << 20).pg_name = std::to_string(1 + rank / 8);
            b.coll(1, CollectiveType::AllReduce, 128ull << 20).pg_name = std::to_string(10 + rank % 8);
            both.push_back(trace::encode_trace(b.trace()));
        }
        CHECK(test::run(sc, both).total_ns == t_tp + t_dp);
    }
    SECTION("the group's shape and the system it sees") {
        std::vector<uint32_t> dp{3, 11};
        PhaseMembers m;
        m.list = &dp;
        m.size = 2;
        hardware::GroupShape s = hardware::group_shape(hw, m);
        CHECK(s.nodes == 2);
        CHECK(s.gpus_per_node == 1);
        config::HardwareConfig sub = hardware::group_system(hw, s);
        CHECK(sub.nics_per_node == 1); // its own NIC of the node's eight
        CHECK(sub.nic_gbps == 400);
        CHECK_FALSE(sub.nvls); // NVLink SHARP needs two GPUs of the group on a node
        PhaseMembers tp;
        tp.base = 8;
        tp.size = 8;
        s = hardware::group_shape(hw, tp);
        CHECK(s.nodes == 1);
        CHECK(s.gpus_per_node == 8);
        // Members listed out of node order, two on node 0 and one on node 1: 2 nodes, 2 on the fullest,
        // not regular.
        std::vector<uint32_t> mixed{9, 0, 1};
        PhaseMembers mm;
        mm.list = &mixed;
        mm.size = 3;
        s = hardware::group_shape(hw, mm);
        CHECK(s.ranks == 3);
        CHECK(s.nodes == 2);
        CHECK(s.gpus_per_node == 2);
        CHECK_FALSE(s.regular);
    }
    SECTION("a whole-system collective restricted to one dimension takes that dimension's group") {
        // involved_dim [true, false]: only the in-node dimension, i.e. the TP group of each node.
        std::vector<std::string> t2;
        for (uint32_t rank = 0; rank < 16; ++rank) {
            test::TraceBuilder b;
            b.coll(0, CollectiveType::AllReduce, 32 << 20).involved_dim = {true, false};
            t2.push_back(trace::encode_trace(b.trace()));
        }
        RunResult r2 = test::run(scenario(hw), t2);
        REQUIRE(r2.complete);
        CHECK(r2.total_ns == t_tp);
    }
}

TEST_CASE("run --hardware: ASTRA-sim inputs are untouched and link models keep the mapped links",
          "[hardware][run]") {
    const auto hw = test::hardware_json(test::kH100x16);
    const auto traces = chain(16, {CollectiveType::AllReduce}, {1 << 20});
    SECTION("the congestion model warns and runs the mapped links") {
        config::Scenario sc = scenario(hw);
        sc.network_model = config::NetworkModel::Congestion;
        std::vector<std::string> warnings;
        auto sim = test::build(sc, traces, &warnings);
        REQUIRE(sim.is_ok());
        bool warned = false;
        for (const auto& w : warnings)
            warned = warned || w.find("per-size choice needs the analytical model") != std::string::npos;
        CHECK(warned);
    }
}

TEST_CASE("scenario with a hardware description: the run of run --hardware", "[hardware][run]") {
    // The same two collectives as above, the system given in the scenario instead of on the command line.
    const std::string text = std::string(R"({"schema": "astrolabe.scenario/1", "workload": {"prefix": "x"},
      "hardware": )") + test::kH100x16 +
                             "}";
    auto sc = config::parse_scenario_json(text, "s.json");
    REQUIRE(sc.is_ok());
    REQUIRE(sc.value().hardware);
    CHECK(sc.value().network.dims.empty()); // mapped when the run is built
    const auto traces =
        chain(16, {CollectiveType::AllReduce, CollectiveType::AllReduce}, {64 << 10, 256ull << 20});
    RunResult r = test::run(sc.value(), traces);
    REQUIRE(r.complete);
    const auto hw = test::hardware_json(test::kH100x16);
    CHECK(r.total_ns == test::collective_perf_ns(hw, CollOp::AllReduce, 64 << 10) +
                            test::collective_perf_ns(hw, CollOp::AllReduce, 256ull << 20));

    SECTION("bad inputs: one message per problem, naming the key") {
        auto both = config::parse_scenario_json(
            R"({"workload": {"prefix": "x"}, "hardware": {"nodes": 2}, "network": {"topology": ["Switch"]}})",
            "s.json");
        REQUIRE_FALSE(both.is_ok());
        CHECK_THAT(both.status().message(),
                   Catch::Contains("s.json: hardware: replaces network and system; give one or the other"));
        auto typo = config::parse_scenario_json(
            R"({"workload": {"prefix": "x"}, "hardware": {"nvsl": true}})", "s.json");
        REQUIRE_FALSE(typo.is_ok());
        CHECK_THAT(typo.status().message(), Catch::Contains("s.json: hardware: nvsl: unknown key"));
        CHECK_THAT(typo.status().message(), Catch::Contains("did you mean 'nvls'?"));
        auto groups = config::parse_scenario_json(
            R"({"workload": {"prefix": "x"}, "hardware": {"nodes": 2}, "comm_groups": {"1": [0, 16]}})",
            "s.json");
        REQUIRE_FALSE(groups.is_ok()); // 2 x 8 GPUs: ranks 0..15
        CHECK_THAT(groups.status().message(), Catch::Contains("16"));
    }
}

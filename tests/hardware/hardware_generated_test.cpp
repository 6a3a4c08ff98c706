// A generated training step under `run --hardware`: where the rank order puts the tensor-parallel groups
// decides which figure their collectives get. Two HGX H100 nodes (8 GPUs each, ranks numbered node by
// node), dp 2 x tp 8: under Megatron's order (rank-order tp-first) each TP group is one node, so every TP
// collective takes collective-perf's in-node (NVLink) time; under STAGE's (dp-first) a TP group is the
// even or the odd ranks, 4 GPUs on each node, and crosses the fabric.
#include "core/config/config_parse.h"
#include "core/config/scenario.h"
#include "core/generate/parallel_layout.h"
#include "core/generate/read_params.h"
#include "core/session/session.h"
#include "support/collective_perf_ns.h"
#include "support/test_support.h"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <map>

using namespace astrolabe;
using hardware::CollOp;

namespace {

// A GPT-like step in bf16, dp 2 x tp 8: hidden 4096, 8 layers, seq 4096, 8 micro-batches of 2 samples
// (4096 tokens per rank), data-parallel gradients reduced once per step (as Megatron does with gradient
// accumulation); `extra` adds generator parameters.
std::string step_params(const std::string& extra) {
    return R"("kind": "transformer", "model": "gpt", "hidden": 4096, "heads": 32, "layers": 8, "seq": 4096,
      "batch": 16, "micro-batch": 2, "dp": 2, "tp": 8, "dtype-bytes": 2, "grad-sync": "step")" +
           extra;
}

struct Step {
    uint64_t total_ns = 0;
    nlohmann::json report;
    std::vector<std::string> warnings;
};

// Runs a whole scenario document to its end.
Step run_text(const std::string& text) {
    auto sc = config::parse_scenario_json(text, "s.json");
    INFO(sc.status().message());
    REQUIRE(sc.is_ok());
    RunOptions options;
    options.keep_timeline = false;
    auto session = test::run_session(sc.value(), options);
    Session& s = *session;
    REQUIRE(s.result().complete);
    Step out;
    out.total_ns = s.result().total_ns;
    out.report = nlohmann::json::parse(s.report_json());
    out.warnings = s.warnings();
    return out;
}

// A generated workload (`generate`: the generator's keys) on two HGX H100 nodes (kH100x16).
Step run_step(const std::string& generate) {
    return run_text(std::string(R"({"schema": "astrolabe.scenario/1", "workload": {"generate": {)") +
                    generate + R"(}}, "hardware": )" + test::kH100x16 + "}");
}

// The generator's layout for the same parameters (group ids -> kinds).
generate::ParallelLayout layout_of(const std::string& generate) {
    auto j = nlohmann::json::parse("{" + generate + "}");
    std::vector<std::pair<std::string, std::string>> named;
    for (auto it = j.begin(); it != j.end(); ++it)
        if (it.key() != "kind")
            named.push_back({it.key(), it->is_string() ? it->get<std::string>() : it->dump()});
    generate::TransformerParams p;
    REQUIRE(generate::read_params(p, named).is_ok());
    return generate::ParallelLayout(p);
}

CollOp op_of(const std::string& type) {
    if (type == "ALL_REDUCE") return CollOp::AllReduce;
    if (type == "ALL_GATHER") return CollOp::AllGather;
    if (type == "REDUCE_SCATTER") return CollOp::ReduceScatter;
    FAIL("unexpected collective " << type);
    return CollOp::AllReduce;
}

// Every collective of `kind` in the report took collective-perf's time on `system` for its op and
// nccl-tests size (an all-gather's is the gathered output: the node's comm_size x the group's size).
// Returns how many were checked.
size_t check_kind(const Step& step, const generate::ParallelLayout& l, generate::GroupKind kind,
                  const config::HardwareConfig& system) {
    size_t n = 0;
    std::map<std::pair<std::string, uint64_t>, uint64_t> expected; // (type, bytes) -> ns
    for (const auto& c : step.report.at("collectives")) {
        if (l.kind_of(c.at("group").get<std::string>()) != int(kind)) continue;
        const std::string type = c.at("type").get<std::string>();
        uint64_t bytes = c.at("bytes").get<uint64_t>();
        if (type == "ALL_GATHER") bytes *= l.size(kind);
        auto key = std::make_pair(type, bytes);
        if (!expected.count(key)) expected[key] = test::collective_perf_ns(system, op_of(type), bytes);
        INFO(type << " of " << bytes << " bytes on group " << c.at("group").get<std::string>());
        CHECK(c.at("end_ns").get<uint64_t>() - c.at("start_ns").get<uint64_t>() == expected[key]);
        ++n;
    }
    return n;
}

} // namespace

TEST_CASE("run --hardware: tp-first puts every tensor-parallel collective inside a node",
          "[hardware][run][rank-order]") {
    using generate::GroupKind;
    // The systems each group's communicator sees (docs/hardware.md, "the group's system"). tp-first:
    // tensor groups {0..7}, {8..15} are one HGX node each; data groups {i, i+8} one GPU on each node, each
    // with its own 400 Gb/s NIC. dp-first: tensor groups {0,2,..,14}, {1,3,..,15} are four GPUs on each
    // node with their four NICs; data groups {2k, 2k+1} two GPUs of one node.
    const auto one_node = test::hardware_json(R"({"gpu": "H100-SXM", "nodes": 1, "gpus_per_node": 8})");
    const auto one_gpu_each = test::hardware_json(R"({"gpu": "H100-SXM", "nodes": 2, "gpus_per_node": 1,
      "nics_per_node": 1, "nic_gbps": 400, "fabric": "infiniband"})");
    const auto four_gpus_each = test::hardware_json(R"({"gpu": "H100-SXM", "nodes": 2, "gpus_per_node": 4,
      "nics_per_node": 4, "nic_gbps": 400, "fabric": "infiniband"})");
    const auto two_gpus = test::hardware_json(R"({"gpu": "H100-SXM", "nodes": 1, "gpus_per_node": 2})");

    SECTION("sequence-parallel TP (the default): all-gathers and reduce-scatters") {
        const std::string tp_first = step_params(R"(, "rank-order": "tp-first")");
        const std::string dp_first = step_params(R"(, "rank-order": "dp-first")");
        const Step t = run_step(tp_first), d = run_step(dp_first);
        const auto lt = layout_of(tp_first), ld = layout_of(dp_first);
        // Per TP group: 6 AG + 4 RS per layer and micro-batch (8 x 8 x 10 = 640) and the two embedding
        // tables' all-reduces; 2 groups. Per data group: 8 layer gradients and 2 tables; 8 groups.
        CHECK(check_kind(t, lt, GroupKind::Tensor, one_node) == 2 * 642);
        CHECK(check_kind(t, lt, GroupKind::Data, one_gpu_each) == 8 * 10);
        CHECK(check_kind(d, ld, GroupKind::Tensor, four_gpus_each) == 2 * 642);
        CHECK(check_kind(d, ld, GroupKind::Data, two_gpus) == 8 * 10);
        // Ring/LL128 either way, over NVLink in one node or through 4 NICs per node: the step is 116.9 ms
        // tp-first, 155.4 ms dp-first (docs/hardware.md). Compute is the same 26.4 ms in both.
        CHECK(t.total_ns < d.total_ns);
        CHECK(double(d.total_ns) / double(t.total_ns) > 1.25);
    }
    SECTION("plain TP (tpsp false): the TP all-reduces") {
        const std::string tp_first = step_params(R"(, "tpsp": "false", "rank-order": "tp-first")");
        const std::string dp_first = step_params(R"(, "tpsp": "false", "rank-order": "dp-first")");
        const Step t = run_step(tp_first), d = run_step(dp_first);
        const auto lt = layout_of(tp_first), ld = layout_of(dp_first);
        // 4 all-reduces of 4096 tokens x 4096 x 2 bytes = 32 MiB per layer and micro-batch: 256 per TP
        // group (no embedding all-reduce over tensor without tpsp).
        CHECK(check_kind(t, lt, GroupKind::Tensor, one_node) == 2 * 256);
        CHECK(check_kind(t, lt, GroupKind::Data, one_gpu_each) == 8 * 10);
        CHECK(check_kind(d, ld, GroupKind::Tensor, four_gpus_each) == 2 * 256);
        CHECK(check_kind(d, ld, GroupKind::Data, two_gpus) == 8 * 10);
        // In one node NVLS takes 188 us for 32 MiB, 2 x 4 GPUs' tree 301 us: 256 x 113 us = 29.0 ms
        // saved per rank. But the data all-reduces now cross the fabric on one NIC per GPU: 8 layer
        // gradients of 12 x 4096^2 / 8 x 2 bytes (48 MiB) and the two whole 32000 x 4096 embedding tables
        // (STAGE's convention, 250 MiB each) cost 16.6 ms more than on NVLink. So this step is 122.6 ms
        // tp-first and 135.1 ms dp-first (docs/hardware.md): the orders' difference is these sums'
        // (12.5 ms).
        auto ns = [](const config::HardwareConfig& hw, uint64_t bytes) {
            return double(test::collective_perf_ns(hw, CollOp::AllReduce, bytes));
        };
        const double tp_saved = 256 * (ns(four_gpus_each, 32 << 20) - ns(one_node, 32 << 20));
        const uint64_t layer = 12ull * 4096 * 4096 / 8 * 2, table = 32000ull * 4096 * 2;
        const double dp_added = 8 * (ns(one_gpu_each, layer) - ns(two_gpus, layer)) +
                                2 * (ns(one_gpu_each, table) - ns(two_gpus, table));
        CHECK(tp_saved == Approx(29.0e6).epsilon(0.01));
        CHECK(dp_added == Approx(16.6e6).epsilon(0.01));
        CHECK(double(t.total_ns) - double(d.total_ns) == Approx(dp_added - tp_saved).epsilon(0.01));
    }
}

TEST_CASE("run --hardware: a generated transformer is numbered tp-first unless it names an order",
          "[hardware][run][rank-order]") {
    // With a hardware description and no rank-order, the run is the tp-first run, and a note says so.
    const Step by_default = run_step(step_params(""));
    const Step tp_first = run_step(step_params(R"(, "rank-order": "tp-first")"));
    const Step dp_first = run_step(step_params(R"(, "rank-order": "dp-first")"));
    CHECK(by_default.total_ns == tp_first.total_ns);
    CHECK(by_default.report.at("collectives") == tp_first.report.at("collectives"));
    CHECK(by_default.total_ns != dp_first.total_ns);
    auto has_note = [](const Step& s) {
        for (const auto& w : s.warnings)
            if (w.find("ranks numbered tp-first (Megatron's order") != std::string::npos) return true;
        return false;
    };
    CHECK(has_note(by_default));
    CHECK_FALSE(has_note(tp_first));
    CHECK_FALSE(has_note(dp_first));
}

TEST_CASE("a generated microbenchmark that names no npus spans the whole system",
          "[hardware][run][generate]") {
    // 2 x 8 H100 (kH100x16) and no `npus`: the microbenchmark has 16 ranks (it had the generator's default,
    // 8, and the run was refused for not matching the 16 GPUs), and its one all-reduce of 1 MiB takes
    // collective-perf's time for 16 ranks on that system. With npus 8 named, the old refusal stands.
    const Step all = run_step(R"("kind": "microbench", "collective": "all_reduce", "size": "1MiB")");
    REQUIRE(all.report.at("npus").size() == 16);
    REQUIRE(all.report.at("collectives").size() == 1);
    const auto system = test::hardware_json(test::kH100x16);
    const uint64_t expected = test::collective_perf_ns(system, CollOp::AllReduce, 1 << 20);
    for (const auto& c : all.report.at("collectives"))
        CHECK(c.at("end_ns").get<uint64_t>() - c.at("start_ns").get<uint64_t>() == expected);

    const std::string eight = std::string(R"({"schema": "astrolabe.scenario/1", "workload": {"generate":
      {"kind": "microbench", "collective": "all_reduce", "size": "1MiB", "npus": 8}}, "hardware": )") +
                              test::kH100x16 + "}";
    auto sc = config::parse_scenario_json(eight, "s.json");
    REQUIRE(sc.is_ok());
    auto opened = Session::open(std::move(sc.value()), RunOptions{}, test::data_host());
    REQUIRE_FALSE(opened.is_ok());
    INFO(opened.status().message());
    CHECK(opened.status().message().find("8 trace") != std::string::npos);
}

TEST_CASE("a generated microbenchmark that names no npus spans the network's NPUs", "[run][generate]") {
    // Without hardware the network's dimensions count: Ring 4 x Switch 2 gives 8 ranks, Ring 4 x Switch 4
    // gives 16 (one all-gather each).
    for (int second : {2, 4}) {
        const std::string text = R"({"schema": "astrolabe.scenario/1",
          "workload": {"generate": {"kind": "microbench", "collective": "all_gather", "size": "64KiB"}},
          "network": {"topology": ["Ring", "Switch"], "npus_count": [4, )" +
                                 std::to_string(second) + R"(], "bandwidth": [50, 25], "latency": [500, 500]},
          "system": {"all-gather-implementation": ["ring", "ring"], "collective-optimization": "baseline",
                     "local-mem-bw": 1600, "endpoint-delay": 10, "active-chunks-per-dimension": 1,
                     "preferred-dataset-splits": 1}})";
        CHECK(run_text(text).report.at("npus").size() == size_t(4 * second));
    }
}

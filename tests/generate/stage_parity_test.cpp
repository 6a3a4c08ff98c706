// Parity with STAGE, collective by collective: for each STAGE reference set, our generator with the same
// options must give every rank the same multiset of (collective type, group size, comm_size) x count, the
// same sends and receives and the same num_ops. The expected profiles are tests/data/stage/<set>.json
// (`astrolabe inspect --collectives --json` of STAGE @ 3a7f49c's traces, which are in
// ../shared/traces/stage/; each file names its source and the STAGE command). A mismatch prints the
// collective that differs ("ALL_REDUCE group 4 size 12582912: count 0, expected 8").
//
// Both generating paths are checked: generate_transformer() into a sink (the CLI) and generate_workload()
// (a scenario's {"generate": ...} workload, run --scenario and the browser).
#include "core/config/config_parse.h"
#include "core/config/scenario.h"
#include "core/session/generated_workload.h"
#include "core/trace/collective_profile.h"
#include "core/trace/trace_reader.h"
#include "generate/generate_test_util.h"
#include "support/test_support.h"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <map>
#include <string>
#include <utility>
#include <vector>

using namespace astrolabe;
using namespace astrolabe::generate;
using trace::RankProfile;

namespace {

using Named = std::vector<std::pair<std::string, std::string>>;

// tests/data/stage/<set>.json, one profile per rank.
std::vector<RankProfile> expected_profiles(const std::string& set) {
    const auto j = nlohmann::json::parse(test::read_data("stage/" + set + ".json"));
    std::vector<RankProfile> out(j.at("npus").get<size_t>());
    for (const auto& c : j.at("classes")) {
        RankProfile p;
        p.num_ops = c.at("num_ops").get<uint64_t>();
        for (const auto& e : c.at("collectives")) {
            auto type = trace::collective_type_from_name(e.at(0).get<std::string>());
            REQUIRE(type);
            p.collectives[{*type, e.at(1).get<uint32_t>(), e.at(2).get<uint64_t>()}] =
                e.at(3).get<uint64_t>();
        }
        for (const auto& e : c.at("sends"))
            p.sends[e.at(0).get<uint64_t>()] = e.at(1).get<uint64_t>();
        for (const auto& e : c.at("recvs"))
            p.recvs[e.at(0).get<uint64_t>()] = e.at(1).get<uint64_t>();
        for (const auto& r : c.at("ranks"))
            out.at(r.get<size_t>()) = p;
    }
    return out;
}

std::vector<RankProfile> profiles_of(TraceSource& traces, const config::CommGroups& groups) {
    std::map<std::string, uint32_t> sizes;
    for (const auto& g : groups.groups)
        sizes[std::to_string(g.id)] = static_cast<uint32_t>(g.ranks.size());
    const trace::GroupSizeFn size_of = [&sizes](const std::string& pg) -> uint32_t {
        auto it = sizes.find(pg);
        return it == sizes.end() ? 0 : it->second;
    };
    std::vector<RankProfile> out;
    std::string bytes, name;
    for (uint32_t r = 0; r < traces.count(); ++r) {
        REQUIRE(traces.read(r, bytes, name).is_ok());
        auto t = trace::decode_trace(bytes, name);
        REQUIRE(t.is_ok());
        out.push_back(trace::profile_of(t.value(), size_of));
    }
    return out;
}

void require_same(const std::vector<RankProfile>& expected, const std::vector<RankProfile>& ours) {
    REQUIRE(ours.size() == expected.size());
    for (size_t r = 0; r < ours.size(); ++r) {
        std::string lines;
        for (const auto& l : trace::profile_diff(expected[r], ours[r]))
            lines += "\n  " + l;
        INFO("rank " << r << " differs from STAGE:" << lines);
        CHECK(lines.empty());
    }
}

// Our traces for `named` by both paths, each compared with STAGE's set.
void check_set(const std::string& set, const Named& named) {
    const std::vector<RankProfile> expected = expected_profiles(set);
    {
        INFO("CLI path: generate_transformer");
        MemorySink sink = test_util::generate_all(test_util::params(named));
        auto groups = config::parse_comm_groups_json(sink.comm_groups, "groups.json");
        REQUIRE(groups.is_ok());
        MemoryTraceSource traces;
        for (size_t r = 0; r < sink.ranks.size(); ++r)
            traces.add("generated." + std::to_string(r), sink.ranks[r]);
        require_same(expected, profiles_of(traces, groups.value()));
    }
    {
        INFO("scenario path: generate_workload");
        auto gen = generate_workload("transformer", named);
        INFO(gen.status().message());
        REQUIRE(gen.is_ok());
        require_same(expected, profiles_of(gen.value().traces, gen.value().groups));
    }
}

} // namespace

TEST_CASE("STAGE gpt_dp2tp1pp1sp4_4l: sequence (context) parallelism x DP", "[generate][stage]") {
    // STAGE --sp 4 --dp 2, 2 micro-batches of 2 samples, d 1024, seq 2048: T = 2 x 2048 / (2 x 4) = 512
    // tokens per rank. Per rank: K and V all-gathered over the 4 context ranks (T d = 524288, 16 = 4 layers x
    // 2 micro-batches x 2), dK and dV reduce-scattered (4 T d = 2097152, 16), each layer's 12 d^2 = 12582912
    // gradient all-reduced over dp (group 2) and then over cp (group 4) per micro-batch (8 each), and both
    // embeddings' 32000 x 1024 over dp and cp once per step.
    check_set("gpt_dp2tp1pp1sp4_4l", {{"model", "gpt"},
                                      {"dp", "2"},
                                      {"tp", "1"},
                                      {"pp", "1"},
                                      {"sp", "4"},
                                      {"layers", "4"},
                                      {"hidden", "1024"},
                                      {"ffn", "4096"},
                                      {"heads", "16"},
                                      {"kv-heads", "16"},
                                      {"seq", "2048"},
                                      {"batch", "4"},
                                      {"micro-batch", "2"}});
}

TEST_CASE("STAGE gpt_dp1tp2pp2sp2_4l: context parallelism x TP with sequence parallelism x PP",
          "[generate][stage]") {
    // dp 1: layer gradients (2 layers x 12 d^2 / tp = 25165824) all-reduce over cp only, 8 = 2 layers x 4
    // micro-batches; the stage's embedding over tp and cp (65536000 = 32000 x 2048, 1 + 1). TP-SP: 6 AG of
    // T d / tp and 4 RS of T d per layer and micro-batch, plus K/V AG (2) and dK/dV RS (2) on the cp group
    // of the same size 2: AG 48 + 16 = 64 x 524288, RS 32 + 16 = 48 x 1048576.
    check_set("gpt_dp1tp2pp2sp2_4l", {{"model", "gpt"},
                                      {"dp", "1"},
                                      {"tp", "2"},
                                      {"pp", "2"},
                                      {"sp", "2"},
                                      {"layers", "4"},
                                      {"hidden", "2048"},
                                      {"ffn", "8192"},
                                      {"heads", "16"},
                                      {"kv-heads", "16"},
                                      {"seq", "1024"},
                                      {"batch", "4"},
                                      {"micro-batch", "1"}});
}

TEST_CASE("STAGE llama_dp4tp2pp1_fsdp_4l: weight sharding x TP (STAGE's llama without mixed precision)",
          "[generate][stage]") {
    // STAGE builds its GPT graph for llama without --mixed_precision, so --stage-compat: per layer and tp
    // rank W = (2 F d + 4 d^2) / tp = 19922944. Per layer and micro-batch: AG of W / 4 = 4980736 over dp
    // before forward and before backward (32), RS of W (16); embeddings never sharded: 65536000 all-reduced
    // over dp and tp once per step.
    check_set("llama_dp4tp2pp1_fsdp_4l", {{"model", "llama"},
                                          {"stage-compat", "true"},
                                          {"dp", "4"},
                                          {"tp", "2"},
                                          {"pp", "1"},
                                          {"sp", "1"},
                                          {"weight-sharded", "true"},
                                          {"layers", "4"},
                                          {"hidden", "2048"},
                                          {"ffn", "5632"},
                                          {"heads", "16"},
                                          {"kv-heads", "4"},
                                          {"seq", "1024"},
                                          {"batch", "8"},
                                          {"micro-batch", "2"}});
}

TEST_CASE("STAGE llama_dp2tp2pp2_fsdp_mp_4l: weight sharding + mixed precision x TP x PP",
          "[generate][stage]") {
    // Real llama graph (GQA 8 / 2 heads, gated FFN): W = (3 F d + d^2 + d^2 (8 + 2 x 2) / 8) / tp = 5636096;
    // AG of W / 2 = 2818048 (16 = 2 layers x 4 micro-batches x 2), RS of W (8). Mixed precision changes no
    // comm_size: the embedding all-reduces stay 32000 x 1024 = 32768000. num_ops include llama's element-wise
    // work (slices of the narrower K/V, silu(gate) x up and its gradients).
    check_set("llama_dp2tp2pp2_fsdp_mp_4l", {{"model", "llama"},
                                             {"dp", "2"},
                                             {"tp", "2"},
                                             {"pp", "2"},
                                             {"weight-sharded", "true"},
                                             {"mixed-precision", "true"},
                                             {"layers", "4"},
                                             {"hidden", "1024"},
                                             {"ffn", "2816"},
                                             {"heads", "8"},
                                             {"kv-heads", "2"},
                                             {"seq", "2048"},
                                             {"batch", "8"},
                                             {"micro-batch", "2"}});
}

TEST_CASE("STAGE gpt_dp2tp2pp2_4l and gpt_dp4_8l: plain DP x TP x PP", "[generate][stage]") {
    // The two sets the generator was first checked against (tests/generate/transformer_test.cpp compares
    // their totals); here collective by collective.
    check_set("gpt_dp2tp2pp2_4l", {{"model", "gpt"},
                                   {"dp", "2"},
                                   {"tp", "2"},
                                   {"pp", "2"},
                                   {"layers", "4"},
                                   {"hidden", "1024"},
                                   {"ffn", "4096"},
                                   {"heads", "16"},
                                   {"kv-heads", "16"},
                                   {"seq", "512"},
                                   {"batch", "8"},
                                   {"micro-batch", "2"}});
    check_set("gpt_dp4_8l", {{"model", "gpt"},
                             {"dp", "4"},
                             {"layers", "8"},
                             {"hidden", "1024"},
                             {"ffn", "4096"},
                             {"heads", "16"},
                             {"kv-heads", "16"},
                             {"seq", "512"},
                             {"batch", "16"},
                             {"micro-batch", "4"}});
}

TEST_CASE("STAGE parity through a scenario file's generate workload", "[generate][stage][scenario]") {
    // The same plans written as a scenario's {"generate": ...} object (what run --scenario reads and a
    // browser link carries), numbers as JSON numbers and flags as booleans: the parsed parameters generate
    // STAGE's collectives exactly (one sequence-parallel and one weight-sharded set).
    const std::pair<const char*, const char*> cases[] = {
        {"gpt_dp2tp1pp1sp4_4l",
         R"("model": "gpt", "dp": 2, "sp": 4, "layers": 4, "hidden": 1024, "ffn": 4096, "heads": 16,
            "kv-heads": 16, "seq": 2048, "batch": 4, "micro-batch": 2)"},
        {"llama_dp2tp2pp2_fsdp_mp_4l",
         R"("model": "llama", "dp": 2, "tp": 2, "pp": 2, "weight-sharded": true, "mixed-precision": true,
            "layers": 4, "hidden": 1024, "ffn": 2816, "heads": 8, "kv-heads": 2, "seq": 2048, "batch": 8,
            "micro-batch": 2)"},
    };
    for (const auto& c : cases) {
        DYNAMIC_SECTION(c.first) {
            const std::string text =
                std::string(R"({"workload": {"generate": {"kind": "transformer", )") + c.second + R"(}},
                "network": {"topology": ["Switch"], "npus_count": [8], "bandwidth": [50], "latency": [500]},
                "system": {"endpoint-delay": 10, "local-mem-bw": 1600}})";
            auto sc = config::parse_scenario_json(text, "s.json");
            INFO(sc.status().message());
            REQUIRE(sc.is_ok());
            auto gen = generate_workload(sc.value().workload, sc.value().generate_params);
            INFO(gen.status().message());
            REQUIRE(gen.is_ok());
            require_same(expected_profiles(c.first), profiles_of(gen.value().traces, gen.value().groups));
        }
    }
}

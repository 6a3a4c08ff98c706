// core/session/generated_source: a transformer workload made in pieces (GeneratedSourceBuild, as the
// browser's search does between frames) gives the same traces and groups as the generator made whole.
#include "core/session/generated_source.h"
#include "core/session/generated_workload.h"

#include <catch2/catch.hpp>

#include <string>
#include <utility>
#include <vector>

using namespace astrolabe;

namespace {

// A 4-layer GPT on 8 NPUs, dp 1 x tp 2 x pp 4 (as tests/search/scenario_evaluator_test.cpp's points).
std::vector<std::pair<std::string, std::string>> gpt_params(const std::string& layers) {
    return {{"model", "gpt"}, {"layers", layers}, {"hidden", "256"},    {"heads", "8"},
            {"seq", "256"},   {"batch", "8"},     {"micro-batch", "2"}, {"dp", "1"},
            {"tp", "2"},      {"pp", "4"},        {"dtype-bytes", "2"}};
}

} // namespace

// Pieces: the parameters and groups, then per pipeline stage its trace, 8 layer passes a piece
// (TransformerTraceBuild), its encoding and its freeing (8192 nodes a piece: one each here). A stage here
// has 1 layer and 4 micro-batches: 8 layer passes (4 forward, 4 backward) and the optimizer step, so 2
// trace pieces; 1 + (2 + 1 + 1) x 4 = 17 step() calls, the last returning false. Each stage rank's trace
// is then byte for byte generate_workload's.
TEST_CASE("a transformer source made a piece at a time has the generator's traces and groups",
          "[session][generate]") {
    const auto params = gpt_params("4");
    GeneratedSourceBuild build("transformer", params);
    int calls = 1;
    while (build.step())
        ++calls;
    CHECK(calls == 17);
    auto made = build.take();
    REQUIRE(made.is_ok());
    auto whole = generate_workload("transformer", params);
    REQUIRE(whole.is_ok());
    CHECK(made.value().has_groups == whole.value().has_groups);
    const auto& groups = made.value().groups.groups;
    REQUIRE(groups.size() == whole.value().groups.groups.size());
    CHECK(!groups.empty()); // tp 2: tensor-parallel groups at least
    for (size_t i = 0; i < groups.size(); ++i) {
        CHECK(groups[i].id == whole.value().groups.groups[i].id);
        CHECK(groups[i].ranks == whole.value().groups.groups[i].ranks);
    }
    TraceSource& traces = *made.value().traces;
    REQUIRE(traces.count() == 8);
    const std::vector<uint32_t> stages = traces.distinct_ranks();
    REQUIRE(stages.size() == 4);
    for (uint32_t rank : stages) {
        INFO("rank " << rank);
        std::string bytes, name, expected, expected_name;
        REQUIRE(traces.read_alone(rank, bytes, name).is_ok());
        REQUIRE(whole.value().traces.read(rank, expected, expected_name).is_ok());
        CHECK(bytes == expected);
        CHECK(name == expected_name);
    }
}

// A refusal (pp 4 over 2 layers) ends after the first piece, with generated_source's message.
TEST_CASE("a refused transformer source ends after one piece", "[session][generate]") {
    const auto params = gpt_params("2");
    GeneratedSourceBuild build("transformer", params);
    CHECK_FALSE(build.step());
    auto made = build.take();
    REQUIRE_FALSE(made.is_ok());
    auto whole = generated_source("transformer", params);
    REQUIRE_FALSE(whole.is_ok());
    CHECK(made.status().message() == whole.status().message());
}

// Communicator groups: {"<id>": [rank, ...]}, the file STAGE traces' pg_name refers to.
#include "core/config/config_parse.h"
#include "support/test_support.h"

#include <catch2/catch.hpp>

using namespace astrolabe;
using namespace astrolabe::config;
using Catch::Matchers::Contains;

TEST_CASE("comm groups JSON: ids ascending and ranks in file order", "[config][groups]") {
    // commgroup_stage_gpt_dp2tp2pp2_4l.json (STAGE's workload.json): 16 groups over 8 NPUs; group 5 is
    // [0, 2]. The file's order of ranks defines ring positions, so [3, 1] must stay [3, 1].
    auto r =
        parse_comm_groups_json(test::read_data("configs/commgroup_stage_gpt_dp2tp2pp2_4l.json"), "g.json", 8);
    INFO(r.status().message());
    REQUIRE(r.is_ok());
    const CommGroups& g = r.value();
    REQUIRE(g.groups.size() == 16);
    for (size_t i = 0; i < g.groups.size(); ++i)
        CHECK(g.groups[i].id == i + 1);
    REQUIRE(g.find(5) != nullptr);
    CHECK(g.find(5)->ranks == std::vector<uint32_t>{0, 2});
    CHECK(g.find(17) == nullptr);

    auto order = parse_comm_groups_json(R"({"7": [3, 1], "2": [0, 2]})", "o.json", 4);
    REQUIRE(order.is_ok());
    CHECK(order.value().groups[0].id == 2);
    CHECK(order.value().groups[1].ranks == std::vector<uint32_t>{3, 1});
}

TEST_CASE("comm groups JSON: a rank outside the network is refused", "[config][groups]") {
    // 4 NPUs have ranks 0..3: rank 4 does not exist. Without an NPU count (0) ranks are not range-checked.
    auto r = parse_comm_groups_json(R"({"1": [0, 4]})", "g.json", 4);
    REQUIRE_FALSE(r.is_ok());
    CHECK(r.status().message() ==
          "g.json: \"1\": rank 4 does not exist; the network has 4 NPUs (ranks 0..3)");
    CHECK(parse_comm_groups_json(R"({"1": [0, 4]})", "g.json", 0).is_ok());
}

TEST_CASE("comm groups JSON: every malformed group is reported", "[config][groups]") {
    // Five problems: id 0 (reserved for the whole system), a non-numeric id, an empty list, a duplicate
    // rank and a negative rank.
    auto r =
        parse_comm_groups_json(R"({"0": [1], "abc": [1], "3": [], "4": [1, 1], "5": [-1]})", "g.json", 8);
    REQUIRE_FALSE(r.is_ok());
    const std::string m = r.status().message();
    CHECK(r.status().problems().size() == 5);
    CHECK_THAT(m, Contains("\"0\": a group id must be a positive decimal integer"));
    CHECK_THAT(m, Contains("\"abc\": a group id must be a positive decimal integer"));
    CHECK_THAT(m, Contains("\"3\": is an array; a non-empty list"));
    CHECK_THAT(m, Contains("\"4\": rank 1 is listed twice"));
    CHECK_THAT(m, Contains("\"5\": entry 0 is -1"));
}

TEST_CASE("comm groups JSON: one group id spelled twice is refused", "[config][groups]") {
    // "5" and "05" both name group 5 (ids are parsed as decimal numbers). Keeping both would silently
    // shadow one ring with the other (CommGroups::find returns the first), so this must be an error.
    auto r = parse_comm_groups_json(R"({"5": [0, 1], "05": [2, 3]})", "g.json", 4);
    CHECK_FALSE(r.is_ok());
}

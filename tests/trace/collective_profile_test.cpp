// Per-rank collective multisets: what they count, how equal ranks are grouped, and that a difference is
// reported naming the collective (type, group size, size) and both counts.
#include "core/trace/collective_profile.h"
#include "support/trace_builder.h"

#include <catch2/catch.hpp>

using namespace astrolabe;
using trace::CollectiveType;

namespace {

// Group "1" has 2 ranks, "2" has 4.
uint32_t sizes(const std::string& pg) {
    return pg == "1" ? 2 : pg == "2" ? 4 : 0;
}

trace::Trace sample(uint64_t ag_count) {
    test::TraceBuilder b;
    b.roofline_comp(1, 1000, 10);
    b.roofline_comp(2, 234, 10, {1});
    for (uint64_t i = 0; i < ag_count; ++i)
        b.coll(10 + i, CollectiveType::AllGather, 512, {2}).pg_name = "2";
    b.coll(20, CollectiveType::AllReduce, 4096, {2}).pg_name = "1";
    b.coll(21, CollectiveType::AllReduce, 4096, {2}).pg_name = "2";
    b.send(30, 1, 64, 7);
    b.recv(31, 1, 64, 8);
    return b.trace();
}

} // namespace

TEST_CASE("collective profiles count (type, group size, size) and name what differs", "[trace][profile]") {
    SECTION("counts and totals") {
        // 3 all-gathers of 512 on the 4-rank group; one all-reduce of 4096 on each group; num_ops 1000 + 234.
        trace::RankProfile p = trace::profile_of(sample(3), sizes);
        CHECK(p.num_ops == 1234);
        CHECK(p.collectives.size() == 3);
        CHECK(p.collectives.at({CollectiveType::AllGather, 4, 512}) == 3);
        CHECK(p.collectives.at({CollectiveType::AllReduce, 2, 4096}) == 1);
        CHECK(p.collectives.at({CollectiveType::AllReduce, 4, 4096}) == 1);
        CHECK(p.collective_total(CollectiveType::AllGather) == 1536);
        CHECK(p.collective_total(CollectiveType::AllReduce) == 8192);
        CHECK(p.send_total() == 64);
        CHECK(p.recv_total() == 64);
    }
    SECTION("a difference names the collective and both counts") {
        // Expected 3 all-gathers, found 2: one line naming ALL_GATHER on the 4-rank group, size 512.
        auto lines =
            trace::profile_diff(trace::profile_of(sample(3), sizes), trace::profile_of(sample(2), sizes));
        REQUIRE(lines.size() == 1);
        CHECK(lines[0] == "ALL_GATHER group 4 size 512: count 2, expected 3");
        CHECK(trace::profile_diff(trace::profile_of(sample(3), sizes), trace::profile_of(sample(3), sizes))
                  .empty());
    }
    SECTION("ranks with equal profiles form one class; JSON lists each class once") {
        // Ranks 0 and 2 equal, rank 1 different: two classes, {0, 2} first.
        std::vector<trace::RankProfile> ranks = {trace::profile_of(sample(3), sizes),
                                                 trace::profile_of(sample(1), sizes),
                                                 trace::profile_of(sample(3), sizes)};
        auto classes = trace::group_profiles(ranks);
        REQUIRE(classes.size() == 2);
        CHECK(classes[0].ranks == std::vector<uint32_t>{0, 2});
        CHECK(classes[1].ranks == std::vector<uint32_t>{1});
        const std::string json = trace::profiles_json(ranks, "test");
        CHECK(json.find("\"ranks\":[0,2]") != std::string::npos);
        CHECK(json.find("[\"ALL_GATHER\",4,512,3]") != std::string::npos);
        CHECK(json.find("[\"ALL_GATHER\",4,512,1]") != std::string::npos);
    }
}

// Trace file names to NPU ranks: ASTRA-sim's `<prefix>.<rank>.et`, shared by the CLI's directory workloads
// and the browser's opened files.
#include "core/session/trace_ranks.h"

#include <catch2/catch.hpp>

using namespace astrolabe;
using Catch::Matchers::Contains;

TEST_CASE("trace ranks: the number before .et is the rank", "[session][ranks]") {
    CHECK(trace_rank_of("allreduce.7.et") == 7);
    CHECK(trace_rank_of("a.b.12.et") == 12);
    CHECK(trace_rank_of("3.et") == 3);
    CHECK(trace_rank_of("allreduce.et") == -1);
    CHECK(trace_rank_of("allreduce.7.json") == -1);
    CHECK(trace_rank_of("x.1234567890.et") == -1); // more digits than any real trace set
}

TEST_CASE("trace ranks: files in any order come back in rank order", "[session][ranks]") {
    // Ranks 0..10 given shuffled; a plain string sort would put "10" before "2".
    std::vector<std::string> names = {"w.10.et", "w.2.et", "w.0.et", "w.1.et", "w.3.et", "w.4.et",
                                      "w.5.et",  "w.6.et", "w.7.et", "w.8.et", "w.9.et"};
    auto order = order_traces_by_rank(names, "opened");
    REQUIRE(order.is_ok());
    for (size_t r = 0; r < names.size(); ++r)
        CHECK(trace_rank_of(names[order.value()[r]]) == static_cast<int64_t>(r));
}

TEST_CASE("trace ranks: gaps, repeats and unranked names are refused by name", "[session][ranks]") {
    CHECK_THAT(order_traces_by_rank({"w.0.et", "w.2.et"}, "opened").status().message(), Contains("w.2.et"));
    CHECK_THAT(order_traces_by_rank({"w.0.et", "v.0.et"}, "opened").status().message(), Contains("repeated"));
    CHECK_THAT(order_traces_by_rank({"w.0.et", "notes.txt"}, "opened").status().message(),
               Contains("notes.txt: the name has no rank"));
}

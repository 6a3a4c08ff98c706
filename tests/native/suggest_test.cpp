// The CLI's "did you mean" and the run options checked before loading (native/suggest.h,
// native/run_options.h).
#include "native/run_options.h"
#include "native/suggest.h"

#include <catch2/catch.hpp>

using namespace astrolabe;
using namespace astrolabe::cli;

TEST_CASE("nearest_spelling: slips of the keyboard find the option, unrelated words do not", "[cli]") {
    const std::vector<std::string> flags = {"workload", "system", "network", "memory", "comm-groups"};
    CHECK(nearest_spelling("sytem", flags) == "system");    // a dropped letter
    CHECK(nearest_spelling("netwrok", flags) == "network"); // two letters swapped: one edit
    CHECK(nearest_spelling("SYSTEM", flags) == "system");   // case is ignored
    CHECK(nearest_spelling("frobnicate", flags).empty());   // nothing near
    CHECK(nearest_spelling("xyz", {"os", "ws", "is"})
              .empty()); // three letters allow one edit: none is that close
    CHECK(nearest_spelling("congestoin", {"analytical", "congestion", "flow"}) == "congestion");
}

TEST_CASE("check_choice names the flag and suggests the value", "[cli]") {
    Status st = check_choice("--network-model", "congestoin", {"analytical", "congestion", "flow"});
    REQUIRE(!st.is_ok());
    CHECK(st.message() == "--network-model: 'congestoin'; analytical, congestion or flow was expected (did "
                          "you mean congestion?)");
    CHECK(check_choice("--symmetry", "on", {"on", "off"}).is_ok());
}

TEST_CASE("parse_time_ns reads ns and units", "[cli]") {
    TimeNs t = 0;
    CHECK(parse_time_ns("1500", t));
    CHECK(t == 1500);
    CHECK(parse_time_ns("2.5us", t));
    CHECK(t == 2500);
    CHECK(parse_time_ns("10ms", t));
    CHECK(t == 10000000);
    CHECK(parse_time_ns("1.2s", t));
    CHECK(t == 1200000000);
    CHECK_FALSE(parse_time_ns("10 minutes", t));
    CHECK_FALSE(parse_time_ns("", t));
    CHECK_FALSE(parse_time_ns("1.2.3", t));
}

TEST_CASE("undefined communicator groups are reported once", "[cli]") {
    // 20 per-node lines of two files and the reader's stop marker fold into one line naming groups 1, 5;
    // an unrelated problem stays.
    Status problems;
    for (int i = 0; i < 10; ++i)
        problems.add("t/p.0.et: node " + std::to_string(i) + ": communicator group " + (i % 2 ? "5" : "1") +
                     " is not defined; pass the communicator-group file (--comm-group-configuration) that "
                     "defines it");
    problems.add("t/p.1.et: node 3: attribute 'comm_size' is missing");
    problems.add("(stopped reading traces after 20 problems)");
    Args a;
    a.values["workload"] = "no/such/prefix";
    const std::string out = explain_trace_problems(problems, a);
    CHECK(out == "t/p.0.et (and the other traces): collectives use communicator groups 1, 5, which no "
                 "--comm-groups file defines; pass the communicator-group file that defines them with "
                 "--comm-groups G.json\nt/p.1.et: node 3: attribute 'comm_size' is missing");
}

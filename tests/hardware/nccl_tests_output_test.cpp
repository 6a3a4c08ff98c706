// Reading nccl-tests' printed tables (core/hardware/nccl_tests_output.h).
//
// The fixture tests/data/nccl_tests_output/aws_p5_h100_1node_allreduce.log is the open aws_p5 table (its
// numbers as tests/data/nccl's CSV holds them, i.e. as nccl-tests printed them) laid out as nccl-tests 2.13
// prints a run: header, one "Rank" line per GPU, an NCCL INFO line, 32 rows, summary.
#include "core/hardware/nccl_tests_output.h"
#include "support/test_support.h"

#include <catch2/catch.hpp>

using namespace astrolabe;
using hardware::parse_nccl_tests_output;

namespace {

const char* kHeader =
    "#       size         count      type   redop    root     time   algbw   busbw #wrong     "
    "time   algbw   busbw #wrong\n";

} // namespace

TEST_CASE("nccl-tests output: a whole run as nccl-tests prints it", "[hardware]") {
    auto t = parse_nccl_tests_output(test::read_data("nccl_tests_output/aws_p5_h100_1node_allreduce.log"),
                                     "p5.log");
    REQUIRE(t.is_ok());
    // 8 B to 16 GiB doubling: 32 rows; 8 "Rank" lines; nGpus 1 (one process per GPU).
    REQUIRE(t->rows.size() == 32);
    CHECK(t->ranks == 8);
    CHECK(t->gpus_per_process == 1);
    const auto& first = t->rows.front();
    CHECK(first.size_bytes == 8);
    CHECK(first.count == 2);
    CHECK(first.type == "float");
    CHECK(first.redop == "sum");
    CHECK(first.time_us == Approx(12.90));
    CHECK(first.line == 17); // 3 header lines, 8 Rank lines, the INFO line, "#", 3 column heads, then it
    // Times of 10 ms and more are printed without decimals (nccl-tests' %7.0f): 16 GiB took 62239 us.
    const auto& last = t->rows.back();
    CHECK(last.size_bytes == 17179869184ull);
    CHECK(last.time_us == Approx(62239));
    CHECK(last.busbw_gbs == Approx(483.05));
}

TEST_CASE("nccl-tests output: older and decorated layouts", "[hardware]") {
    // Before nccl-tests 2.10 there was no root column (12 columns); -c 0 prints N/A for #wrong; Open MPI's
    // --tag-output prefixes every line; rows of size 0 (no element per rank) are skipped.
    const std::string text =
        std::string("# nThread 1 nGpus 8 minBytes 0 maxBytes 64\n") + kHeader +
        "[1,0]<stdout>:           0             0     float    none    -1     0.10    0.00"
        "    0.00    N/A     0.11    0.00    0.00    N/A\n"
        "          64             2     float    none    35.20    0.00    0.00    N/A    "
        " 35.10    0.00    0.00    N/A\n";
    auto t = parse_nccl_tests_output(text, "old.log");
    REQUIRE(t.is_ok());
    REQUIRE(t->rows.size() == 1);
    CHECK(t->rows[0].size_bytes == 64);
    CHECK(t->rows[0].redop == "none");
    CHECK(t->rows[0].time_us == Approx(35.20));
    CHECK(t->gpus_per_process == 8);
    CHECK(t->ranks == 0); // no Rank lines in this text
}

TEST_CASE("nccl-tests output: the CSV form of tests/data/nccl", "[hardware]") {
    // A row with no time takes it from algbw (nccl-tests' algbw is size / time): 1 GiB at 100 GB/s.
    const std::string text = "size_bytes,count,type,redop,time_us,algbw_gbs,busbw_gbs\n"
                             "1048576,262144,float,sum,20.50,51.15,89.51\n"
                             "1073741824,268435456,float,sum,,100.00,175.00\n";
    auto t = parse_nccl_tests_output(text, "t.csv");
    REQUIRE(t.is_ok());
    REQUIRE(t->rows.size() == 2);
    CHECK(t->rows[0].time_us == Approx(20.50));
    CHECK(t->rows[1].time_us == Approx(1073741824.0 / 100e3));
}

TEST_CASE("nccl-tests output: each problem named with its file and line", "[hardware]") {
    SECTION("no row at all") {
        auto t = parse_nccl_tests_output("# nThread 1 nGpus 1\nhost:1:1 [0] NCCL INFO Init\n", "empty.log");
        REQUIRE_FALSE(t.is_ok());
        CHECK(t.status().message().find("empty.log: no nccl-tests row") != std::string::npos);
    }
    SECTION("a row cut short") {
        auto t = parse_nccl_tests_output("          64            16     float     sum      -1    12.5\n",
                                         "cut.log");
        REQUIRE_FALSE(t.is_ok());
        CHECK(t.status().message().find("cut.log: line 1: 6 columns; nccl-tests' 13") != std::string::npos);
    }
    SECTION("a type nccl-tests does not print, with its own name suggested") {
        auto t = parse_nccl_tests_output(
            "          64            16      bf16     sum      -1    12.50    0.01    0.01"
            "      0    12.40    0.01    0.01      0\n",
            "t.log");
        REQUIRE_FALSE(t.is_ok());
        CHECK(t.status().message().find("t.log: line 1: type: 'bf16'") != std::string::npos);
        CHECK(t.status().message().find("bfloat16") != std::string::npos);
    }
    SECTION("a reduction and a time that are not") {
        auto t = parse_nccl_tests_output(
            "          64            16     float     add      -1    fast    0.01    0.01"
            "      0    12.40    0.01    0.01      0\n",
            "t.log");
        REQUIRE_FALSE(t.is_ok());
        const std::string m = t.status().message();
        CHECK(m.find("t.log: line 1: redop 'add'; sum, prod, max, min, avg or none was expected") !=
              std::string::npos);
        CHECK(m.find("t.log: line 1: time, algbw, busbw 'fast 0.01 0.01'; three numbers were expected") !=
              std::string::npos);
    }
    SECTION("a file of something else: the first 20 problems, then how many more") {
        std::string text;
        for (int i = 0; i < 50; ++i)
            text += "1 2 3\n";
        auto t = parse_nccl_tests_output(text, "x.txt");
        REQUIRE_FALSE(t.is_ok());
        REQUIRE(t.status().problems().size() == 21);
        CHECK(t.status().problems().back() ==
              "x.txt: 30 more problems like these; is it nccl-tests' output?");
    }
    SECTION("a CSV without a column") {
        auto t = parse_nccl_tests_output(
            "size_bytes,count,type,time_us,algbw_gbs,busbw_gbs\n8,2,float,1,0,0\n", "t.csv");
        REQUIRE_FALSE(t.is_ok());
        CHECK(t.status().message().find("t.csv: line 1: no 'redop' column") != std::string::npos);
    }
}

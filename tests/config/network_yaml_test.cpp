// ASTRA-sim's analytical network YAML: the subset its files use, read unchanged; everything else refused.
#include "core/config/config_parse.h"
#include "support/test_support.h"

#include <catch2/catch.hpp>

using namespace astrolabe;
using namespace astrolabe::config;
using Catch::Matchers::Contains;

TEST_CASE("network YAML: flow lists with comments as ASTRA-sim's files write them", "[config][network]") {
    // net_Ring-Switch_2x4.yml (copied from shared/anchors/astra-sim/configs): 2 dimensions, Ring of 2 then
    // Switch of 4, so 8 NPUs; the trailing "# GB/s" comments are ignored.
    auto r =
        parse_network_yaml(test::read_data("configs/net_Ring-Switch_2x4.yml"), "net_Ring-Switch_2x4.yml");
    INFO(r.status().message());
    REQUIRE(r.is_ok());
    const NetworkConfig& n = r.value();
    REQUIRE(n.dims.size() == 2);
    CHECK(n.dims[0].topology == Topology::Ring);
    CHECK(n.dims[0].npus == 2);
    CHECK(n.dims[0].bandwidth_gbps == 100.0);
    CHECK(n.dims[0].latency_ns == 500.0);
    CHECK(n.dims[1].topology == Topology::Switch);
    CHECK(n.dims[1].npus == 4);
    CHECK(n.dims[1].bandwidth_gbps == 50.0);
    CHECK(n.dims[1].latency_ns == 1000.0);
    CHECK(n.npus() == 8);
    CHECK(n.warnings.empty());
}

TEST_CASE("network YAML: block lists and quoted scalars and multi-line flow lists", "[config][network]") {
    // The same 3-D network three ways: FullyConnected 2 x Ring 2 x Switch 3 = 12 NPUs, 936.25 ns kept
    // as a fraction (the HGX-H100 config uses it).
    const char* block = "# a comment line\n"
                        "topology:\n"
                        "  - FullyConnected\n"
                        "  - 'Ring'\n"
                        "  - \"Switch\"\n"
                        "npus_count:\n"
                        "  - 2\n"
                        "  - 2\n"
                        "  - 3\n"
                        "bandwidth: [200, 100,\n"
                        "            50.5]   # continued\n"
                        "latency: [936.25, 10, 0]\n";
    NetworkConfig n = test::network_yaml(block);
    REQUIRE(n.dims.size() == 3);
    CHECK(n.dims[0].topology == Topology::FullyConnected);
    CHECK(n.dims[1].topology == Topology::Ring);
    CHECK(n.dims[2].topology == Topology::Switch);
    CHECK(n.dims[2].npus == 3);
    CHECK(n.dims[2].bandwidth_gbps == 50.5);
    CHECK(n.dims[0].latency_ns == 936.25);
    CHECK(n.dims[2].latency_ns == 0.0);
    CHECK(n.npus() == 12);
}

TEST_CASE("network YAML: an unknown key is a warning and not an error", "[config][network]") {
    NetworkConfig n =
        test::network_yaml("topology: [Ring]\nnpus_count: [4]\nbandwidth: [50]\nlatency: [500]\n"
                           "links: [1]\n");
    REQUIRE(n.warnings.size() == 1);
    CHECK_THAT(n.warnings[0], Contains("test.yml: links: unknown key"));
}

TEST_CASE("network YAML: errors name the file and line and key all at once", "[config][network]") {
    // Three bad values on three lines: every one reported, each "<file>: line N: <key>: ...".
    auto r = parse_network_yaml("topology: [Torus]\n"
                                "npus_count: [2.5]\n"
                                "bandwidth: [0]\n"
                                "latency: [500]\n",
                                "bad.yml");
    REQUIRE_FALSE(r.is_ok());
    const auto& p = r.status().problems();
    REQUIRE(p.size() == 3);
    CHECK_THAT(p[0], Contains("bad.yml: line 1: topology: \"Torus\" is not a topology"));
    CHECK_THAT(p[1], Contains("bad.yml: line 2: npus_count: \"2.5\""));
    CHECK_THAT(p[2], Contains("bad.yml: line 3: bandwidth: \"0\""));

    SECTION("a missing key and a count mismatch") {
        auto m = parse_network_yaml("topology: [Ring, Ring]\nnpus_count: [2]\nbandwidth: [1, 1]\n", "m.yml");
        REQUIRE_FALSE(m.is_ok());
        CHECK_THAT(m.status().message(), Contains("npus_count: has 1 entries but topology has 2"));
        CHECK_THAT(m.status().message(), Contains("m.yml: latency: is missing"));
    }
    SECTION("negative latency") {
        auto m =
            parse_network_yaml("topology: [Ring]\nnpus_count: [2]\nbandwidth: [1]\nlatency: [-1]\n", "m.yml");
        REQUIRE_FALSE(m.is_ok());
        CHECK_THAT(m.status().message(), Contains("latency: \"-1\" is not a latency"));
    }
}

TEST_CASE("network YAML: constructs outside the supported subset are refused rather than misread",
          "[config][network]") {
    // Nested maps, anchors and indented structures are not part of ASTRA-sim's network files; reading
    // them as something else would silently change the network, so each is an error naming its line.
    auto refused = [](const std::string& text) {
        auto r = parse_network_yaml(text, "x.yml");
        INFO(text);
        CHECK_FALSE(r.is_ok());
        return r.status().message();
    };
    const std::string rest = "npus_count: [2]\nbandwidth: [1]\nlatency: [1]\n";
    CHECK_THAT(refused("topology: {a: Ring}\n" + rest),
               Contains("x.yml: line 1: topology: this YAML construct is not supported"));
    CHECK_THAT(refused("topology: &t [Ring]\n" + rest), Contains("not supported"));
    CHECK_THAT(refused("topology:\n  nested: Ring\n" + rest), Contains("line 2: unexpected indentation"));
    CHECK_THAT(refused("topology:\n  - [Ring]\n" + rest), Contains("nested structures are not supported"));
    CHECK_THAT(refused("- Ring\n" + rest), Contains("a list item outside any key"));
    CHECK_THAT(refused(rest + "topology: [Ring\n"),
               Contains("x.yml: line 4: topology: the list '[' is never closed"));
    CHECK_THAT(refused("topology: [Ring]\ntopology: [Ring]\n" + rest), Contains("topology: appears twice"));
}

TEST_CASE("network YAML: Windows line endings and a document marker are accepted", "[config][network]") {
    // Files edited on Windows end lines with CR LF; "---" opens a YAML document. Same 4-NPU ring either way.
    NetworkConfig n = test::network_yaml(
        "---\r\ntopology: [Ring]\r\nnpus_count: [4]\r\nbandwidth: [50]\r\nlatency: [500]\r\n");
    REQUIRE(n.dims.size() == 1);
    CHECK(n.dims[0].npus == 4);
    CHECK(n.dims[0].latency_ns == 500.0);
}

TEST_CASE("network YAML: an unclosed flow list is reported where it opens", "[config][network]") {
    // A flow list missing its ']' must not swallow the following "key: [...]" lines (which once made the
    // error say "npus_count: is missing", pointing away from the real mistake): the refusal names
    // topology and line 1.
    auto r = parse_network_yaml("topology: [Ring\nnpus_count: [2]\nbandwidth: [1]\nlatency: [1]\n", "x.yml");
    REQUIRE_FALSE(r.is_ok());
    CHECK_THAT(r.status().message(), Contains("x.yml: line 1: topology:"));
}

TEST_CASE("network YAML: a binary file is refused at its first control byte", "[config][network]") {
    // A NUL on line 2 (a trace or an archive given as --network): one message naming the line and byte,
    // not messages that quote raw bytes (a NUL would cut the printed line short).
    std::string text = std::string("topology: [Ring]\nnpus_count: [2") + '\0' + "]\n";
    auto r = parse_network_yaml(text, "n.yml");
    REQUIRE_FALSE(r.is_ok());
    CHECK(r.status().message() ==
          "n.yml: line 2: control byte 0x00; a text YAML file was expected (is this a binary file?)");
    // Tabs and CRLF line ends are text.
    CHECK(parse_network_yaml("topology:\t[Ring]\r\nnpus_count: [2]\r\nbandwidth: [50]\r\nlatency: [500]\r\n",
                             "n.yml")
              .is_ok());
}

TEST_CASE("network YAML: NPU counts whose product overflows 64 bits name the NPU limit",
          "[config][network]") {
    // 65536^4 = 2^64: a 64-bit product wraps around to 0, which once read as "no dimensions". Each count
    // is legal alone (at most 2^24); the product is what exceeds the limit, and the message says so.
    auto r =
        parse_network_yaml("topology: [Ring, Ring, Ring, Ring]\nnpus_count: [65536, 65536, 65536, 65536]\n"
                           "bandwidth: [1, 1, 1, 1]\nlatency: [1, 1, 1, 1]\n",
                           "big.yml");
    REQUIRE_FALSE(r.is_ok());
    CHECK_THAT(r.status().message(),
               Contains("big.yml: npus_count: the dimensions multiply to "
                        "18446744073709551616 NPUs, which exceeds the limit of 16777216 NPUs"));
}

TEST_CASE("network YAML: a misspelt topology suggests the nearest spelling", "[config][network]") {
    auto r = parse_network_yaml("topology: [ring]\nnpus_count: [4]\nbandwidth: [1]\nlatency: [1]\n", "n.yml");
    REQUIRE_FALSE(r.is_ok());
    CHECK_THAT(r.status().message(), Contains("\"ring\" is not a topology; Ring, FullyConnected or Switch "
                                              "was expected (did you mean 'Ring'?)"));
}

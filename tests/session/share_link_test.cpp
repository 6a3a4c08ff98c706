// Share links: a scenario survives the trip through a URL fragment exactly, and damaged links are refused
// with a message instead of a crash or a silently different scenario.
#include "core/session/share_link.h"

#include <catch2/catch.hpp>

#include <string>

using namespace astrolabe;
using Catch::Matchers::Contains;

TEST_CASE("share link: a scenario round-trips through the fragment", "[session][share]") {
    std::string json = R"({"network":{"bandwidth":[50.0]},"workload":{"sample":"allreduce_ring8"}})";
    std::string frag = encode_share_fragment(json);
    REQUIRE(frag.rfind("s=", 0) == 0);
    // Only URL-safe characters: the fragment goes into an address bar unescaped.
    CHECK(frag.find_first_not_of("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_=", 2) ==
          std::string::npos);
    for (const std::string& link :
         {frag, "#" + frag, "https://example.org/app/?x=1#" + frag, "#a=1&" + frag}) {
        auto back = decode_share_link(link);
        INFO(link);
        REQUIRE(back.is_ok());
        CHECK(back.value() == json);
    }
}

TEST_CASE("share link: repetitive scenarios compress well", "[session][share]") {
    // 64 identical dimensions' worth of keys: deflate must shrink this many times over (level 9).
    std::string json = "{";
    for (int i = 0; i < 64; ++i)
        json += "\"all-reduce-implementation-" + std::to_string(i) + "\":[\"ring\",\"direct\",\"ring\"],";
    json += "\"x\":0}";
    CHECK(encode_share_fragment(json).size() < json.size() / 4);
}

TEST_CASE("share link: damaged links are refused with a reason", "[session][share]") {
    std::string frag = encode_share_fragment(R"({"workload":{"sample":"allreduce_ring8"}})");
    CHECK_THAT(decode_share_link("https://example.org/#x=1").status().message(), Contains("no scenario"));
    CHECK_THAT(decode_share_link("#s=").status().message(), Contains("empty"));
    CHECK_THAT(decode_share_link("#s=ab$cd").status().message(), Contains("not base64url"));
    // Cut short, as a chat tool might: the deflate stream is incomplete.
    CHECK_THAT(decode_share_link(frag.substr(0, frag.size() / 2)).status().message(),
               Contains("corrupt or cut short"));
    // Valid base64 that is not a deflate stream at all.
    CHECK_FALSE(decode_share_link("#s=AAAAAAAAAAAA").is_ok());
}

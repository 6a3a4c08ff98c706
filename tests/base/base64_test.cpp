// Base64 (RFC 4648): the encoding of trace bytes embedded in scenario JSON and shared URLs.
#include "core/base/base64.h"

#include <catch2/catch.hpp>

#include <string>

using astrolabe::base64_decode;
using astrolabe::base64_encode;

TEST_CASE("base64 encodes the RFC 4648 test vectors", "[base][base64]") {
    // RFC 4648 section 10: padding to a multiple of 4 characters with '='.
    CHECK(base64_encode("") == "");
    CHECK(base64_encode("f") == "Zg==");
    CHECK(base64_encode("fo") == "Zm8=");
    CHECK(base64_encode("foo") == "Zm9v");
    CHECK(base64_encode("foob") == "Zm9vYg==");
    CHECK(base64_encode("fooba") == "Zm9vYmE=");
    CHECK(base64_encode("foobar") == "Zm9vYmFy");
}

TEST_CASE("base64 round trip of every byte value and every length up to 64", "[base][base64]") {
    // decode(encode(x)) == x for binary data, including NUL and bytes >= 0x80 (trace files are binary).
    std::string all;
    for (int b = 0; b < 256; ++b)
        all += static_cast<char>(b);
    auto back = base64_decode(base64_encode(all));
    REQUIRE(back.has_value());
    CHECK(*back == all);
    for (size_t len = 0; len <= 64; ++len) {
        std::string s = all.substr(200, len < 56 ? len : 56) + all.substr(0, len < 56 ? 0 : len - 56);
        auto r = base64_decode(base64_encode(s));
        REQUIRE(r.has_value());
        CHECK(*r == s);
        CHECK(base64_encode(s).size() == (s.size() + 2) / 3 * 4);
    }
}

TEST_CASE("base64 decoding skips whitespace and accepts the URL-safe alphabet and refuses garbage",
          "[base][base64]") {
    // Whitespace (line breaks in pasted text) is skipped.
    CHECK(base64_decode("Zm9v\nYmFy") == std::string("foobar"));
    CHECK(base64_decode(" Zm9v YmE= ") == std::string("fooba"));
    // '-' and '_' decode as '+' and '/' (62 and 63): 0xfb 0xff encodes to "+/8=" / "-_8=".
    CHECK(base64_encode("\xfb\xff") == "+/8=");
    CHECK(base64_decode("-_8=") == std::string("\xfb\xff"));
    // A character outside the alphabet, data after padding, or a lone 6-bit group is not base64.
    CHECK_FALSE(base64_decode("Zm9v*mFy").has_value());
    CHECK_FALSE(base64_decode("Zg==Zg==").has_value());
    CHECK_FALSE(base64_decode("Z").has_value());
    CHECK_FALSE(base64_decode("Zm9vY").has_value());
}

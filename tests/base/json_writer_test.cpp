// JsonWriter: the deterministic writer behind reports; same calls must give the same bytes.
#include "core/base/json_writer.h"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

using astrolabe::JsonWriter;

namespace {
void write_sample(JsonWriter& w) {
    w.begin_object();
    w.field("a", 1);
    w.key("b").begin_array().value(1.5).value(true).null().end_array();
    w.field("s", "x\"y\n");
    w.key("empty_obj").begin_object().end_object();
    w.key("empty_arr").begin_array().end_array();
    w.end_object();
}
} // namespace

TEST_CASE("JsonWriter writes exactly what it is told both compact and indented", "[base][json]") {
    // Keys in call order, integers exact, strings escaped, empty containers as {} and [].
    JsonWriter compact(0);
    write_sample(compact);
    CHECK(compact.str() == R"({"a":1,"b":[1.5,true,null],"s":"x\"y\n","empty_obj":{},"empty_arr":[]})");

    JsonWriter pretty(2);
    write_sample(pretty);
    CHECK(pretty.str() == "{\n"
                          "  \"a\": 1,\n"
                          "  \"b\": [\n"
                          "    1.5,\n"
                          "    true,\n"
                          "    null\n"
                          "  ],\n"
                          "  \"s\": \"x\\\"y\\n\",\n"
                          "  \"empty_obj\": {},\n"
                          "  \"empty_arr\": []\n"
                          "}");
    // Both are valid JSON meaning the same thing.
    CHECK(nlohmann::json::parse(compact.str()) == nlohmann::json::parse(pretty.str()));
}

TEST_CASE("JsonWriter is deterministic: numbers have one spelling", "[base][json]") {
    // Doubles: up to 6 decimals, trailing zeros trimmed, -0 printed as 0, non-finite as null.
    // uint64 max is written exactly (a DOM that goes through double would round it).
    auto one = [](auto v) {
        JsonWriter w(0);
        w.begin_array().value(v).end_array();
        return w.str();
    };
    CHECK(one(2.0) == "[2]");
    CHECK(one(0.1 + 0.2) == "[0.3]");
    CHECK(one(1.0 / 3.0) == "[0.333333]");
    CHECK(one(-1e-9) == "[0]");
    CHECK(one(1e300 * 1e300) == "[null]");
    CHECK(one(uint64_t(18446744073709551615ull)) == "[18446744073709551615]");
    CHECK(one(int64_t(-42)) == "[-42]");
    // Control characters become \u00XX escapes.
    CHECK(JsonWriter::escape(std::string("a\x01"
                                         "b\tc",
                                         5)) == "\"a\\u0001b\\tc\"");
    // The same sequence of calls twice gives identical bytes.
    JsonWriter a, b;
    write_sample(a);
    write_sample(b);
    CHECK(a.str() == b.str());
}

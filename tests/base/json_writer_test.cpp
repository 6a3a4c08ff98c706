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

namespace {
// A sink that records how the text arrived: the pieces' sizes, and the text.
struct Pieces final : astrolabe::ByteSink {
    void write(std::string_view bytes) override {
        sizes.push_back(bytes.size());
        text.append(bytes);
    }
    std::vector<size_t> sizes;
    std::string text;
};

// 60000 objects of about 60 bytes each: a 3.7 MB document, more than two flush sizes.
void write_big(JsonWriter& w) {
    w.begin_object().key("items").begin_array();
    for (int i = 0; i < 60000; ++i)
        w.begin_object().field("id", i).field("name", "item \"" + std::to_string(i) + "\"").end_object();
    w.end_array().end_object().raw("\n");
}
} // namespace

TEST_CASE("JsonWriter streams to a sink in pieces with the bytes it would have kept", "[base][json]") {
    JsonWriter whole;
    write_big(whole);
    Pieces sink;
    JsonWriter streamed(2, &sink);
    write_big(streamed);
    streamed.flush();
    CHECK(sink.text == whole.str());
    // The document is over 3 MB; the writer never held much more than one flush size (1 MiB) of it.
    REQUIRE(whole.str().size() > 3 * JsonWriter::kFlushBytes);
    CHECK(sink.sizes.size() >= 3);
    for (size_t n : sink.sizes)
        CHECK(n < JsonWriter::kFlushBytes + 256);
}

TEST_CASE("JsonWriter fragments spliced in order give the bytes of writing in order", "[base][json]") {
    // One array of 10 objects written directly, and the same as fragments of 3, 3 and 4 objects made
    // before any is appended (as threads would write them), in both layouts.
    for (int indent : {0, 2}) {
        auto item = [](JsonWriter& w, int i) { w.begin_object().field("i", i).end_object(); };
        JsonWriter direct(indent);
        direct.begin_object().field("a", 1).key("list").begin_array();
        for (int i = 0; i < 10; ++i)
            item(direct, i);
        direct.end_array().field("z", true).end_object();

        JsonWriter spliced(indent);
        spliced.begin_object().field("a", 1).key("list").begin_array();
        std::vector<JsonWriter> parts;
        parts.push_back(spliced.fragment(true));
        parts.push_back(spliced.fragment(false));
        parts.push_back(spliced.fragment(false));
        const int bounds[] = {0, 3, 6, 10};
        for (int p = 2; p >= 0; --p) // any order of writing
            for (int i = bounds[p]; i < bounds[p + 1]; ++i)
                item(parts[p], i);
        for (auto& part : parts)
            spliced.append_fragment(part);
        spliced.end_array().field("z", true).end_object();
        CHECK(spliced.str() == direct.str());
    }
}

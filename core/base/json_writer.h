// A small streaming JSON writer with deterministic output (fixed key order as written, integers exact,
// doubles with a fixed format). Reports must be byte-identical across runs and platforms, which a generic
// DOM serialiser does not promise; this one writes exactly what it is told.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace astrolabe {

class JsonWriter {
public:
    explicit JsonWriter(int indent = 2) : indent_(indent) {}

    JsonWriter& begin_object();
    JsonWriter& end_object();
    JsonWriter& begin_array();
    JsonWriter& end_array();
    JsonWriter& key(std::string_view k);

    JsonWriter& value(std::string_view s);
    JsonWriter& value(const char* s) { return value(std::string_view(s)); }
    JsonWriter& value(const std::string& s) { return value(std::string_view(s)); }
    JsonWriter& value(bool b);
    JsonWriter& value(int64_t v);
    JsonWriter& value(uint64_t v);
    JsonWriter& value(int v) { return value(static_cast<int64_t>(v)); }
    JsonWriter& value(unsigned v) { return value(static_cast<uint64_t>(v)); }
    JsonWriter& value(double v); // up to 6 decimals, trailing zeros trimmed
    JsonWriter& null();

    template <typename T>
    JsonWriter& field(std::string_view k, const T& v) {
        key(k);
        return value(v);
    }

    // `k: [{...}, ...]`, one object per item of `items`, its fields written by `fields(item)`.
    template <typename Items, typename Fields>
    JsonWriter& object_array(std::string_view k, const Items& items, Fields fields) {
        key(k).begin_array();
        for (const auto& item : items) {
            begin_object();
            fields(item);
            end_object();
        }
        return end_array();
    }

    const std::string& str() const { return out_; }

    static std::string escape(std::string_view s);

private:
    void before_value();
    void newline();

    std::string out_;
    int indent_;
    struct Level {
        bool array;
        bool empty;
    };
    std::vector<Level> stack_;
    bool after_key_ = false;
};

} // namespace astrolabe

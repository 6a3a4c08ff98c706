// A small streaming JSON writer with deterministic output (fixed key order as written, integers exact,
// doubles with a fixed format). Reports must be byte-identical across runs and platforms, which a generic
// DOM serialiser does not promise; this one writes exactly what it is told.
//
// Two sinks, one writer: without a ByteSink the text collects in memory (str(), the browser's report);
// with one, the text goes to the sink in pieces of about kFlushBytes as it is written (the CLI's report
// file), so a report of hundreds of MB never exists as one string. The bytes are the same either way.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace astrolabe {

// Where streamed bytes go. Implementations remember their own errors (a full disk) for the caller.
class ByteSink {
public:
    virtual ~ByteSink() = default;
    virtual void write(std::string_view bytes) = 0;
};

// A sink that keeps everything in one string.
class StringSink final : public ByteSink {
public:
    void write(std::string_view bytes) override { text.append(bytes); }
    std::string text;
};

class JsonWriter {
public:
    static constexpr size_t kFlushBytes = size_t(1) << 20;

    explicit JsonWriter(int indent = 2, ByteSink* sink = nullptr) : indent_(indent), sink_(sink) {}
    JsonWriter(const JsonWriter&) = delete;
    JsonWriter& operator=(const JsonWriter&) = delete;
    JsonWriter(JsonWriter&&) = default;
    JsonWriter& operator=(JsonWriter&&) = default;

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
    // Bytes outside the JSON grammar (the newline that ends a document).
    JsonWriter& raw(std::string_view bytes);

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

    // [SECTION] fragments: part of a document written elsewhere (another thread) and spliced in.
    // A writer in the state this one is in now, writing into its own string; append_fragment() adds
    // what it wrote here as if it had been written here. Fragments of consecutive elements of one
    // array, each made by fragment() before any of them is appended and marked by
    // `first` whether it holds the array's first element, give the bytes of writing them in order.
    JsonWriter fragment(bool first) const;
    void append_fragment(JsonWriter& f);

    // The text written so far (without a sink; with one, what is not yet flushed).
    const std::string& str() const { return out_; }
    std::string take() { return std::move(out_); }
    // Hands the buffered text to the sink (no-op without one); the writer's owner calls it at the end.
    void flush();

    static std::string escape(std::string_view s);

private:
    JsonWriter(const JsonWriter& parent, bool first);
    void before_value();
    void newline();
    void append_escaped(std::string_view s);

    std::string out_;
    int indent_;
    ByteSink* sink_ = nullptr;
    struct Level {
        bool array;
        bool empty;
    };
    std::vector<Level> stack_;
    bool after_key_ = false;
};

} // namespace astrolabe

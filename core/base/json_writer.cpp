#include "core/base/json_writer.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>

namespace astrolabe {

// [SECTION] strings

void JsonWriter::append_escaped(std::string_view s) {
    out_ += '"';
    // Runs of plain bytes are appended at once; only the bytes JSON needs escaped go one by one.
    size_t plain = 0;
    for (size_t i = 0; i < s.size(); ++i) {
        const char c = s[i];
        const auto b = static_cast<unsigned char>(c);
        if (b >= 0x20 && c != '"' && c != '\\') continue;
        out_.append(s.data() + plain, i - plain);
        plain = i + 1;
        switch (c) {
        case '"':
            out_ += "\\\"";
            break;
        case '\\':
            out_ += "\\\\";
            break;
        case '\n':
            out_ += "\\n";
            break;
        case '\r':
            out_ += "\\r";
            break;
        case '\t':
            out_ += "\\t";
            break;
        default: {
            char buf[8];
            std::snprintf(buf, sizeof buf, "\\u%04x", static_cast<unsigned>(b));
            out_ += buf;
        }
        }
    }
    out_.append(s.data() + plain, s.size() - plain);
    out_ += '"';
}

std::string JsonWriter::escape(std::string_view s) {
    JsonWriter w(0);
    w.append_escaped(s);
    return w.take();
}

// [SECTION] structure

void JsonWriter::newline() {
    if (indent_ <= 0) return;
    out_ += '\n';
    out_.append(stack_.size() * static_cast<size_t>(indent_), ' ');
}

void JsonWriter::before_value() {
    if (after_key_) {
        after_key_ = false;
        return;
    }
    // Between values is where a streamed document goes out in pieces.
    if (sink_ && out_.size() >= kFlushBytes) flush();
    if (!stack_.empty()) {
        if (!stack_.back().empty) out_ += ',';
        stack_.back().empty = false;
        newline();
    }
}

void JsonWriter::flush() {
    if (!sink_ || out_.empty()) return;
    sink_->write(out_);
    out_.clear();
}

JsonWriter::JsonWriter(const JsonWriter& parent, bool first)
    : indent_(parent.indent_), stack_(parent.stack_), after_key_(parent.after_key_) {
    if (!stack_.empty()) stack_.back().empty = first && parent.stack_.back().empty;
}

JsonWriter JsonWriter::fragment(bool first) const {
    return JsonWriter(*this, first);
}

void JsonWriter::append_fragment(JsonWriter& f) {
    if (sink_ && out_.size() >= kFlushBytes) flush();
    out_ += f.out_;
    f.out_.clear();
    if (!stack_.empty() && !f.stack_.empty())
        stack_.back().empty = stack_.back().empty && f.stack_.back().empty;
    after_key_ = f.after_key_;
    if (sink_ && out_.size() >= kFlushBytes) flush();
}

JsonWriter& JsonWriter::begin_object() {
    before_value();
    out_ += '{';
    stack_.push_back({false, true});
    return *this;
}

JsonWriter& JsonWriter::end_object() {
    bool empty = stack_.back().empty;
    stack_.pop_back();
    if (!empty) newline();
    out_ += '}';
    return *this;
}

JsonWriter& JsonWriter::begin_array() {
    before_value();
    out_ += '[';
    stack_.push_back({true, true});
    return *this;
}

JsonWriter& JsonWriter::end_array() {
    bool empty = stack_.back().empty;
    stack_.pop_back();
    if (!empty) newline();
    out_ += ']';
    return *this;
}

JsonWriter& JsonWriter::key(std::string_view k) {
    before_value();
    append_escaped(k);
    out_ += indent_ > 0 ? ": " : ":";
    after_key_ = true;
    return *this;
}

// [SECTION] values

JsonWriter& JsonWriter::value(std::string_view s) {
    before_value();
    append_escaped(s);
    return *this;
}

JsonWriter& JsonWriter::value(bool b) {
    before_value();
    out_ += b ? "true" : "false";
    return *this;
}

JsonWriter& JsonWriter::value(int64_t v) {
    before_value();
    char buf[24];
    out_.append(buf, std::to_chars(buf, buf + sizeof buf, v).ptr);
    return *this;
}

JsonWriter& JsonWriter::value(uint64_t v) {
    before_value();
    char buf[24];
    out_.append(buf, std::to_chars(buf, buf + sizeof buf, v).ptr);
    return *this;
}

JsonWriter& JsonWriter::value(double v) {
    before_value();
    if (!std::isfinite(v)) {
        out_ += "null";
        return *this;
    }
    char buf[400]; // %.6f of the largest double needs 316 bytes
    int n = std::snprintf(buf, sizeof buf, "%.6f", v);
    if (n < 0) n = 0;
    size_t len = std::min(static_cast<size_t>(n), sizeof buf - 1);
    while (len > 0 && buf[len - 1] == '0')
        --len;
    if (len > 0 && buf[len - 1] == '.') --len;
    if (std::string_view(buf, len) == "-0")
        out_ += '0';
    else
        out_.append(buf, len);
    return *this;
}

JsonWriter& JsonWriter::null() {
    before_value();
    out_ += "null";
    return *this;
}

JsonWriter& JsonWriter::raw(std::string_view bytes) {
    out_.append(bytes);
    return *this;
}

} // namespace astrolabe

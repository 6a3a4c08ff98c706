// Minimal protobuf wire-format helpers: varints and a field scanner.
//
// Used for the length framing of .et streams and to tell old-schema files apart before handing a message
// to the generated parser. Bounds-checked: malformed input makes them return false, never read past the end.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace astrolabe::trace {

enum class WireType : uint8_t { Varint = 0, Fixed64 = 1, Len = 2, StartGroup = 3, EndGroup = 4, Fixed32 = 5 };

inline bool read_varint(std::string_view b, size_t& pos, uint64_t& out) {
    out = 0;
    for (int shift = 0; shift < 64; shift += 7) {
        if (pos >= b.size()) return false;
        auto byte = static_cast<uint8_t>(b[pos++]);
        out |= static_cast<uint64_t>(byte & 0x7f) << shift;
        if (!(byte & 0x80)) return true;
    }
    return false;
}

inline void write_varint(std::string& out, uint64_t v) {
    while (v >= 0x80) {
        out.push_back(static_cast<char>((v & 0x7f) | 0x80));
        v >>= 7;
    }
    out.push_back(static_cast<char>(v));
}

struct WireField {
    uint32_t number = 0;
    WireType wire_type = WireType::Varint;
};

// Walks the top-level fields of one message, skipping their payloads.
class WireScanner {
public:
    explicit WireScanner(std::string_view msg) : msg_(msg) {}
    bool next(WireField& f) {
        if (pos_ >= msg_.size()) return false;
        uint64_t key = 0, v = 0;
        if (!read_varint(msg_, pos_, key)) return fail();
        f.number = static_cast<uint32_t>(key >> 3);
        f.wire_type = static_cast<WireType>(key & 7);
        switch (f.wire_type) {
        case WireType::Varint:
            return read_varint(msg_, pos_, v) || fail();
        case WireType::Fixed64:
            return skip(8);
        case WireType::Fixed32:
            return skip(4);
        case WireType::Len:
            return (read_varint(msg_, pos_, v) && skip(v)) || fail();
        default:
            return true; // groups: report the field, payload walking stops being meaningful
        }
    }
    bool malformed() const { return malformed_; }

private:
    bool skip(uint64_t n) {
        if (n > msg_.size() - pos_) return fail();
        pos_ += n;
        return true;
    }
    bool fail() {
        malformed_ = true;
        pos_ = msg_.size();
        return false;
    }
    std::string_view msg_;
    size_t pos_ = 0;
    bool malformed_ = false;
};

} // namespace astrolabe::trace

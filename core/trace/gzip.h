// Transparent gzip: Chakra's own tools accept gzip-compressed traces, so we do too.
#pragma once

#include "core/base/status.h"

#include <cstdint>
#include <string>
#include <string_view>

namespace astrolabe::trace {

bool looks_gzipped(std::string_view bytes); // the gzip magic 1f 8b

// How inflating a whole stream ended; each caller words its own message.
enum class InflateEnd : uint8_t { Done, TooLarge, Corrupt, NoInit };

// Inflates a whole deflate stream into `out`, stopping once it would exceed `max_out` bytes (a hostile
// input cannot exhaust memory). `window_bits` as zlib takes it: 16 + 15 for gzip, -15 for raw deflate.
InflateEnd inflate_bounded(std::string_view bytes, int window_bits, size_t max_out, std::string& out);

// Inflates a whole gzip stream. `max_out` bounds the output so a hostile file cannot exhaust memory.
Result<std::string> gunzip(std::string_view bytes, size_t max_out);

} // namespace astrolabe::trace

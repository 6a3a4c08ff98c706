// Transparent gzip: Chakra's own tools accept gzip-compressed traces, so we do too.
#pragma once

#include "core/base/status.h"

#include <string>
#include <string_view>

namespace astrolabe::trace {

bool looks_gzipped(std::string_view bytes); // the gzip magic 1f 8b

// Inflates a whole gzip stream. `max_out` bounds the output so a hostile file cannot exhaust memory.
Result<std::string> gunzip(std::string_view bytes, size_t max_out);

} // namespace astrolabe::trace

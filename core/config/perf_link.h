// The document behind a busbw curve's share link (`astrolabe.perf-link/1`): collective-perf's arguments as
// text, the way the browser carries them (its scripting API, its Hardware tab) and the CLI reads them back
// (`collective-perf --link`). core/session/collective_perf_args.h checks them and makes the link.
//
//   {"schema": "astrolabe.perf-link/1", "hardware": {...astrolabe.hardware/1...}, "op", "algo",
//    "minBytes", "maxBytes", "type", "redop", "reference"}
#pragma once

#include "core/base/status.h"

#include <string>
#include <string_view>

namespace astrolabe::config {

struct CollectivePerfArgs {
    std::string hardware_json; // an astrolabe.hardware/1 description
    std::string op = "all_reduce";
    std::string algo = "auto";
    std::string min_bytes, max_bytes; // nccl-tests' -b/-e spellings (8, 64K, 16G); empty: 8 and 16G
    std::string type, red_op;         // nccl-tests' -d and -o; a type cuts the sizes as -d does
    bool astra_reference = false;
};

// The document's text; an error when the description is not a JSON object.
Result<std::string> perf_link_json(const CollectivePerfArgs& args);

// The arguments a document holds, or what is wrong with its form (each key's kind); the values themselves
// are checked where they are used. Absent keys keep CollectivePerfArgs' defaults.
Result<CollectivePerfArgs> parse_perf_link_json(std::string_view text, const std::string& source);

} // namespace astrolabe::config

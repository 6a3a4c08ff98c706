// One NPU's Chakra trace as JSON, in the layout protobuf's json_format gives it (field names as in the
// .proto): {"global_metadata": {...}, "nodes": [{...}, ...]}, enums by name, 64-bit integers as strings,
// bytes as base64, zero/empty fields left out. This is the form Chakra users already read, so `astrolabe
// convert` lets them edit a trace by hand and turn it back into a .et file.
//
// Writing is deterministic (keys in field-number order, Python-style shortest floats, ASCII only). Reading
// accepts what json_format accepts (64-bit integers as strings or numbers, enums by name or number,
// lowerCamelCase field names) and reports every problem as "<source>: nodes[i] (id N).key: what".
#pragma once

#include "core/base/status.h"
#include "core/trace/trace_types.h"

#include <string>
#include <string_view>

namespace astrolabe::trace {

// The trace as JSON text (indent 1, a final newline); byte-identical to Python's
// json_format.MessageToJson(preserving_proto_field_name=True, indent=1) of each message. Node attributes are
// written from Node::attrs, so decode with ReadOptions::keep_attributes to keep every attribute; a node
// without attrs whose typed fields are set (a trace decoded without them, or built by a generator) gets its
// typed fields written as attributes, as encode_trace does. Strings that are not valid UTF-8 cannot be JSON
// text: invalid bytes become U+FFFD (the .et reader refuses such strings anyway).
std::string trace_to_json(const trace::Trace& trace);

// Parses and validates that JSON. The result carries Node::attrs verbatim and the typed fields lifted from
// them exactly as the .et reader lifts them (the same checks, the same messages).
Result<trace::Trace> trace_from_json(std::string_view text, const std::string& source);

} // namespace astrolabe::trace

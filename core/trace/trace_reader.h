// Decoding one NPU's Chakra execution trace (.et bytes) into plain Trace structs.
//
// Accepts the schema 0.0.4 and later (every writer in use today): a stream of varint-length-framed
// protobuf messages, a GlobalMetadata first, then Nodes; gzip-compressed files are inflated first.
// Files of the old 0.0.1-0.0.3 schema are recognised and refused with a message that says so. No file I/O
// here: the caller hands in the bytes and a source name for messages.
#pragma once

#include "core/base/status.h"
#include "core/trace/trace_types.h"

#include <algorithm>
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>

namespace astrolabe::trace {

struct ReadOptions {
    bool keep_attributes = false; // fill Node::attrs with every attribute verbatim
    bool keep_names = true;       // node names (labels)
    bool keep_io = true;          // inputs/outputs text (metadata nodes keep theirs always)
    // Bound for gzip inflation: 4 GiB, or what a 32-bit size_t (wasm32) can hold.
    size_t max_decompressed_bytes = static_cast<size_t>(std::min<uint64_t>(uint64_t(1) << 32, SIZE_MAX));
    size_t max_nodes = size_t(1) << 28;              // bound on nodes per file
    size_t max_problems = 20;                        // stop collecting after this many problems
};

// Decodes a whole file into memory.
Result<Trace> decode_trace(std::string_view bytes, const std::string& source,
                           const ReadOptions& options = {});

// Streams the nodes of a file to `visit` one at a time (the Node is reused between calls), so a caller
// that keeps a compact form never holds every decoded node at once. Fills `metadata` first.
Status for_each_node(std::string_view bytes, const std::string& source, const ReadOptions& options,
                     GlobalMetadata& metadata, const std::function<void(const Node&)>& visit);

// Writes a Trace back to the wire format (the metadata message, then every node in order). Attributes are
// written from Node::attrs when present or when Trace::verbatim_attrs says they were read in full; else
// they are derived from the typed fields (traces built in code).
std::string encode_trace(const Trace& trace);

} // namespace astrolabe::trace

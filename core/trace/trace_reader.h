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
#include <memory>
#include <string>
#include <string_view>

namespace astrolabe::trace {

struct ReadOptions {
    bool keep_attributes = false; // fill Node::attrs with every attribute verbatim
    bool keep_names = true;       // node names (labels)
    bool keep_io = true;          // inputs/outputs text (metadata nodes keep theirs always)
    // Bound for gzip inflation: 4 GiB natively; 1 GiB where size_t has 32 bits (wasm32), whose whole heap
    // is at most 4 GiB and a growing string briefly needs twice its size.
    size_t max_decompressed_bytes =
        sizeof(size_t) >= 8 ? static_cast<size_t>(uint64_t(1) << 32) : size_t(1) << 30;
    // A second bound, relative: a file may inflate to this many times its compressed size (or 64 MiB, if
    // more). Chakra traces compress about 5 to 20 times; a gzip bomb about 1000 times, and is refused
    // once it passes the bound instead of filling memory.
    size_t max_inflate_ratio = 256;
    size_t max_nodes = size_t(1) << 28; // bound on nodes per file
    size_t max_problems = 20;           // stop collecting after this many problems
};

// Decodes a whole file into memory.
Result<Trace> decode_trace(std::string_view bytes, const std::string& source,
                           const ReadOptions& options = {});

// Streams the nodes of a file to `visit` one at a time (the Node is reused between calls), so a caller
// that keeps a compact form never holds every decoded node at once. Fills `metadata` first.
Status for_each_node(std::string_view bytes, const std::string& source, const ReadOptions& options,
                     GlobalMetadata& metadata, const std::function<void(const Node&)>& visit);

// for_each_node a number of nodes at a time, for a front end that must not block for long (the browser's
// search decodes a 60 K-node generated stage into its graph between frames). for_each_node runs it to the
// end, so the nodes, problems and messages are the same however it is cut.
class NodeReader {
public:
    // `bytes` must outlive the reader (a gzipped file is inflated into the reader's own copy).
    NodeReader(std::string_view bytes, std::string source, ReadOptions options);
    ~NodeReader();
    NodeReader(const NodeReader&) = delete;
    NodeReader& operator=(const NodeReader&) = delete;
    // Fills `metadata` on the first call, then hands at most `nodes` more nodes (at least one) to `visit`.
    // True while nodes remain and nothing was refused.
    bool step(size_t nodes, GlobalMetadata& metadata, const std::function<void(const Node&)>& visit);
    // After step() returned false: what for_each_node returns (the refusal, or the problems found).
    Status status() const;

private:
    struct State;
    std::unique_ptr<State> s_;
};

// Writes a Trace back to the wire format (the metadata message, then every node in order). Attributes are
// written from Node::attrs when present or when Trace::verbatim_attrs says they were read in full; else
// they are derived from the typed fields (traces built in code).
std::string encode_trace(const Trace& trace);

// encode_trace a number of nodes at a time, for a front end that must not block for long (the browser's
// search encodes a 60 K-node generated stage between frames). encode_trace runs it to the end.
class TraceEncoder {
public:
    // `trace` must outlive the encoder. Writes the metadata message.
    explicit TraceEncoder(const Trace& trace);
    // Writes at most `nodes` more nodes (at least one); true while nodes remain.
    bool step(size_t nodes);
    // The bytes; after step() returned false.
    std::string take() { return std::move(out_); }

private:
    const Trace& trace_;
    std::string out_;
    size_t next_ = 0;
};

} // namespace astrolabe::trace

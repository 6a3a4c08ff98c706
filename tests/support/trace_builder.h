// Building small Chakra traces in memory for tests: add the nodes a scenario needs with their typed
// attributes, then encode them with core/trace's encode_trace, exactly as a trace file would hold them.
//
// The adders return the new node for further tweaks; the reference is valid until the next add.
#pragma once

#include "core/trace/trace_types.h"

#include <cstdint>
#include <string>
#include <vector>

namespace astrolabe::test {

using Deps = std::vector<uint64_t>;

class TraceBuilder {
public:
    TraceBuilder() { trace_.metadata.version = "0.0.4"; }

    // GPU compute replayed from its duration (us); 0 = no duration (1 ns in ASTRA-sim's replay).
    trace::Node& comp(uint64_t id, uint64_t duration_us, Deps deps = {});
    // Host CPU op (is_cpu_op), always replayed from its duration.
    trace::Node& cpu(uint64_t id, uint64_t duration_us, Deps deps = {});
    // GPU compute with num_ops and tensor_size, for the roofline model.
    trace::Node& roofline_comp(uint64_t id, uint64_t num_ops, uint64_t tensor_size, Deps deps = {});
    trace::Node& coll(uint64_t id, trace::CollectiveType type, uint64_t bytes, Deps deps = {});
    trace::Node& send(uint64_t id, uint32_t dst, uint64_t bytes, uint32_t tag, Deps deps = {});
    trace::Node& recv(uint64_t id, uint32_t src, uint64_t bytes, uint32_t tag, Deps deps = {});
    trace::Node& mem_load(uint64_t id, uint64_t bytes, Deps deps = {});
    trace::Node& metadata(uint64_t id, Deps deps = {});

    trace::Trace& trace() { return trace_; }
    const trace::Trace& trace() const { return trace_; }
    std::string bytes() const;

private:
    trace::Node& add(uint64_t id, trace::NodeType type, Deps deps);
    // A COMM_SEND or COMM_RECV with its size and tag; the caller sets the peer.
    trace::Node& message(uint64_t id, trace::NodeType type, uint64_t bytes, uint32_t tag, Deps deps);
    trace::Trace trace_;
};

// The same encoded trace for each of `npus` NPUs (e.g. one collective on every NPU).
std::vector<std::string> same_on_all(const TraceBuilder& t, uint32_t npus);

} // namespace astrolabe::test

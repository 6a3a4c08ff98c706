#include "support/trace_builder.h"

#include "core/trace/trace_reader.h"

namespace astrolabe::test {

trace::Node& TraceBuilder::add(uint64_t id, trace::NodeType type, Deps deps) {
    trace::Node n;
    n.id = id;
    n.name = std::string(trace::node_type_name(type)) + "_" + std::to_string(id);
    n.type = type;
    n.raw_type = static_cast<uint32_t>(type); // what the decoder fills in; GraphBuilder reads it
    n.data_deps = std::move(deps);
    trace_.nodes.push_back(std::move(n));
    return trace_.nodes.back();
}

trace::Node& TraceBuilder::comp(uint64_t id, uint64_t duration_us, Deps deps) {
    trace::Node& n = add(id, trace::NodeType::Comp, std::move(deps));
    n.duration_micros = duration_us;
    return n;
}

trace::Node& TraceBuilder::cpu(uint64_t id, uint64_t duration_us, Deps deps) {
    trace::Node& n = comp(id, duration_us, std::move(deps));
    n.is_cpu_op = true;
    return n;
}

trace::Node& TraceBuilder::roofline_comp(uint64_t id, uint64_t num_ops, uint64_t tensor_size, Deps deps) {
    trace::Node& n = add(id, trace::NodeType::Comp, std::move(deps));
    n.num_ops = num_ops;
    n.tensor_size = tensor_size;
    return n;
}

trace::Node& TraceBuilder::coll(uint64_t id, trace::CollectiveType type, uint64_t bytes, Deps deps) {
    trace::Node& n = add(id, trace::NodeType::CommColl, std::move(deps));
    n.comm_type = static_cast<uint64_t>(type);
    n.comm_size = bytes;
    return n;
}

trace::Node& TraceBuilder::message(uint64_t id, trace::NodeType type, uint64_t bytes, uint32_t tag,
                                   Deps deps) {
    trace::Node& n = add(id, type, std::move(deps));
    n.comm_size = bytes;
    n.comm_tag = tag;
    return n;
}

trace::Node& TraceBuilder::send(uint64_t id, uint32_t dst, uint64_t bytes, uint32_t tag, Deps deps) {
    trace::Node& n = message(id, trace::NodeType::CommSend, bytes, tag, std::move(deps));
    n.comm_dst = dst;
    return n;
}

trace::Node& TraceBuilder::recv(uint64_t id, uint32_t src, uint64_t bytes, uint32_t tag, Deps deps) {
    trace::Node& n = message(id, trace::NodeType::CommRecv, bytes, tag, std::move(deps));
    n.comm_src = src;
    return n;
}

trace::Node& TraceBuilder::mem_load(uint64_t id, uint64_t bytes, Deps deps) {
    trace::Node& n = add(id, trace::NodeType::MemLoad, std::move(deps));
    n.tensor_size = bytes;
    return n;
}

trace::Node& TraceBuilder::metadata(uint64_t id, Deps deps) {
    return add(id, trace::NodeType::Metadata, std::move(deps));
}

std::string TraceBuilder::bytes() const {
    return trace::encode_trace(trace_);
}

std::vector<std::string> same_on_all(const TraceBuilder& t, uint32_t npus) {
    return std::vector<std::string>(npus, t.bytes());
}

} // namespace astrolabe::test

#include "core/generate/trace_emitter.h"

#include "core/base/assert.h"

namespace astrolabe::generate {

namespace {

// Appends an attribute named `name` of `kind` and returns it for its one value.
trace::Attribute& add_attr(trace::Node& n, const char* name, trace::AttrKind kind) {
    trace::Attribute& a = n.attrs.emplace_back();
    a.name = name;
    a.kind = kind;
    return a;
}

void attr_int(trace::Node& n, const char* name, trace::AttrKind kind, int64_t v) {
    add_attr(n, name, kind).ints.push_back(v);
}

void attr_uint(trace::Node& n, const char* name, trace::AttrKind kind, uint64_t v) {
    add_attr(n, name, kind).uints.push_back(v);
}

void attr_string(trace::Node& n, const char* name, const std::string& v) {
    add_attr(n, name, trace::AttrKind::String).strings.push_back(v);
}

} // namespace

// Attributes are written verbatim from Node::attrs (the writer's rule when attrs are present); the typed
// fields are filled too, so a caller can inspect a generated trace without re-reading it.
trace::Node& TraceEmitter::add(std::string name, trace::NodeType type, Parents deps) {
    trace::Node& n = t_.nodes.emplace_back();
    n.id = next_id_++;
    n.name = std::move(name);
    n.type = type;
    n.raw_type = static_cast<uint32_t>(type);
    for (uint64_t d : deps)
        if (d) n.data_deps.push_back(d);
    attr_uint(n, "is_cpu_op", trace::AttrKind::Bool, 0);
    return n;
}

uint64_t TraceEmitter::comp(std::string name, uint64_t num_ops, uint64_t tensor_bytes, Parents deps) {
    trace::Node& n = add(std::move(name), trace::NodeType::Comp, deps);
    n.num_ops = num_ops;
    n.tensor_size = tensor_bytes;
    attr_int(n, "num_ops", trace::AttrKind::Int64, static_cast<int64_t>(num_ops));
    attr_uint(n, "tensor_size", trace::AttrKind::Uint64, tensor_bytes);
    return n.id;
}

uint64_t TraceEmitter::gemm(std::string name, const Gemm& g, uint64_t dtype_bytes, Parents deps) {
    // num_ops counts multiply-accumulates (m*n*k), as STAGE does; tensor_size is the bytes of A, B and C.
    uint64_t id =
        comp(std::move(name), g.m * g.n * g.k, (g.m * g.k + g.k * g.n + g.m * g.n) * dtype_bytes, deps);
    trace::Node& n = t_.nodes.back();
    attr_int(n, "gemm_m", trace::AttrKind::Int64, static_cast<int64_t>(g.m));
    attr_int(n, "gemm_n", trace::AttrKind::Int64, static_cast<int64_t>(g.n));
    attr_int(n, "gemm_k", trace::AttrKind::Int64, static_cast<int64_t>(g.k));
    return id;
}

uint64_t TraceEmitter::coll(std::string name, trace::CollectiveType type, uint64_t bytes,
                            const std::string& pg, Parents deps) {
    trace::Node& n = add(std::move(name), trace::NodeType::CommColl, deps);
    n.comm_type = static_cast<uint64_t>(type);
    n.comm_size = bytes;
    n.pg_name = pg;
    attr_int(n, "comm_type", trace::AttrKind::Int64, static_cast<int64_t>(type));
    attr_int(n, "comm_size", trace::AttrKind::Int64, static_cast<int64_t>(bytes));
    attr_string(n, "pg_name", pg);
    return n.id;
}

uint64_t TraceEmitter::point_to_point(std::string name, trace::NodeType type, uint64_t bytes, uint32_t peer,
                                      uint32_t tag, Parents deps) {
    const bool is_send = type == trace::NodeType::CommSend;
    trace::Node& n = add(std::move(name), type, deps);
    n.comm_size = bytes;
    (is_send ? n.comm_dst : n.comm_src) = peer;
    n.comm_tag = tag;
    attr_int(n, "comm_size", trace::AttrKind::Int64, static_cast<int64_t>(bytes));
    attr_int(n, is_send ? "comm_dst" : "comm_src", trace::AttrKind::Int32, peer);
    attr_int(n, "comm_tag", trace::AttrKind::Int32, tag);
    return n.id;
}

uint64_t TraceEmitter::send(std::string name, uint64_t bytes, uint32_t dst, uint32_t tag, Parents deps) {
    return point_to_point(std::move(name), trace::NodeType::CommSend, bytes, dst, tag, deps);
}

uint64_t TraceEmitter::recv(std::string name, uint64_t bytes, uint32_t src, uint32_t tag, Parents deps) {
    return point_to_point(std::move(name), trace::NodeType::CommRecv, bytes, src, tag, deps);
}

uint64_t TraceEmitter::mem(std::string name, trace::NodeType type, uint64_t bytes, Parents deps) {
    SIM_ASSERT(type == trace::NodeType::MemLoad || type == trace::NodeType::MemStore,
               "mem() emits MEM_LOAD or MEM_STORE nodes only");
    trace::Node& n = add(std::move(name), type, deps);
    n.tensor_size = bytes;
    attr_uint(n, "tensor_size", trace::AttrKind::Uint64, bytes);
    return n.id;
}

void TraceEmitter::add_dep(uint64_t node, uint64_t parent) {
    SIM_ASSERT(node >= 1 && node < next_id_ && parent >= 1 && parent < node,
               "add_dep joins an emitted node to an earlier one");
    t_.nodes[node - 1].data_deps.push_back(parent);
}

} // namespace astrolabe::generate

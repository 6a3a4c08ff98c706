// Encoding plain Trace structs back to the Chakra wire format (used by `convert` and by generators).
#include "core/trace/trace_reader.h"

#include "chakra.pb.h"
#include "core/trace/wire.h"

#include <algorithm>

namespace astrolabe::trace {

namespace pb = ChakraProtoMsg;

namespace {

template <typename List, typename Src>
void fill(List* list, const Src& src) {
    for (const auto& v : src)
        list->add_values(v);
}

void to_proto(const Attribute& a, pb::AttributeProto& out) {
    out.set_name(a.name);
    if (!a.doc_string.empty()) out.set_doc_string(a.doc_string);
    auto i0 = [&a] { return a.ints.empty() ? 0 : a.ints[0]; };
    auto u0 = [&a] { return a.uints.empty() ? 0 : a.uints[0]; };
    auto r0 = [&a] { return a.reals.empty() ? 0.0 : a.reals[0]; };
    auto s0 = [&a] { return a.strings.empty() ? std::string() : a.strings[0]; };
    switch (a.kind) {
    case AttrKind::None:
        break;
    case AttrKind::Double:
        out.set_double_val(r0());
        break;
    case AttrKind::DoubleList:
        fill(out.mutable_double_list(), a.reals);
        break;
    case AttrKind::Float:
        out.set_float_val(static_cast<float>(r0()));
        break;
    case AttrKind::FloatList:
        for (double v : a.reals)
            out.mutable_float_list()->add_values(static_cast<float>(v));
        break;
    case AttrKind::Int32:
        out.set_int32_val(static_cast<int32_t>(i0()));
        break;
    case AttrKind::Int32List:
        for (auto v : a.ints)
            out.mutable_int32_list()->add_values(static_cast<int32_t>(v));
        break;
    case AttrKind::Int64:
        out.set_int64_val(i0());
        break;
    case AttrKind::Int64List:
        fill(out.mutable_int64_list(), a.ints);
        break;
    case AttrKind::Uint32:
        out.set_uint32_val(static_cast<uint32_t>(u0()));
        break;
    case AttrKind::Uint32List:
        for (auto v : a.uints)
            out.mutable_uint32_list()->add_values(static_cast<uint32_t>(v));
        break;
    case AttrKind::Uint64:
        out.set_uint64_val(u0());
        break;
    case AttrKind::Uint64List:
        fill(out.mutable_uint64_list(), a.uints);
        break;
    case AttrKind::Sint32:
        out.set_sint32_val(static_cast<int32_t>(i0()));
        break;
    case AttrKind::Sint32List:
        for (auto v : a.ints)
            out.mutable_sint32_list()->add_values(static_cast<int32_t>(v));
        break;
    case AttrKind::Sint64:
        out.set_sint64_val(i0());
        break;
    case AttrKind::Sint64List:
        fill(out.mutable_sint64_list(), a.ints);
        break;
    case AttrKind::Fixed32:
        out.set_fixed32_val(static_cast<uint32_t>(u0()));
        break;
    case AttrKind::Fixed32List:
        for (auto v : a.uints)
            out.mutable_fixed32_list()->add_values(static_cast<uint32_t>(v));
        break;
    case AttrKind::Fixed64:
        out.set_fixed64_val(u0());
        break;
    case AttrKind::Fixed64List:
        fill(out.mutable_fixed64_list(), a.uints);
        break;
    case AttrKind::Sfixed32:
        out.set_sfixed32_val(static_cast<int32_t>(i0()));
        break;
    case AttrKind::Sfixed32List:
        for (auto v : a.ints)
            out.mutable_sfixed32_list()->add_values(static_cast<int32_t>(v));
        break;
    case AttrKind::Sfixed64:
        out.set_sfixed64_val(i0());
        break;
    case AttrKind::Sfixed64List:
        fill(out.mutable_sfixed64_list(), a.ints);
        break;
    case AttrKind::Bool:
        out.set_bool_val(u0() != 0);
        break;
    case AttrKind::BoolList:
        for (auto v : a.uints)
            out.mutable_bool_list()->add_values(v != 0);
        break;
    case AttrKind::String:
        out.set_string_val(s0());
        break;
    case AttrKind::StringList:
        fill(out.mutable_string_list(), a.strings);
        break;
    case AttrKind::Bytes:
        out.set_bytes_val(s0());
        break;
    case AttrKind::BytesList:
        fill(out.mutable_bytes_list(), a.strings);
        break;
    }
}

// Typed fields back to attributes, with the kinds ASTRA-sim's own generators use.
void typed_attrs_to_proto(const Node& n, pb::Node& out) {
    auto add = [&out](const char* name) {
        auto* a = out.add_attr();
        a->set_name(name);
        return a;
    };
    add("is_cpu_op")->set_bool_val(n.is_cpu_op);
    if (n.num_ops) add("num_ops")->set_int64_val(static_cast<int64_t>(*n.num_ops));
    if (n.tensor_size) add("tensor_size")->set_uint64_val(*n.tensor_size);
    if (n.gemm_m) add("gemm_m")->set_int64_val(static_cast<int64_t>(*n.gemm_m));
    if (n.gemm_n) add("gemm_n")->set_int64_val(static_cast<int64_t>(*n.gemm_n));
    if (n.gemm_k) add("gemm_k")->set_int64_val(static_cast<int64_t>(*n.gemm_k));
    if (n.gemm_batch) add("gemm_batch")->set_int64_val(static_cast<int64_t>(*n.gemm_batch));
    if (n.comm_type) add("comm_type")->set_int64_val(static_cast<int64_t>(*n.comm_type));
    if (n.comm_size) add("comm_size")->set_int64_val(static_cast<int64_t>(*n.comm_size));
    if (n.comm_src) add("comm_src")->set_int32_val(static_cast<int32_t>(*n.comm_src));
    if (n.comm_dst) add("comm_dst")->set_int32_val(static_cast<int32_t>(*n.comm_dst));
    if (n.comm_tag) add("comm_tag")->set_int32_val(static_cast<int32_t>(*n.comm_tag));
    if (n.comm_priority) add("comm_priority")->set_int32_val(static_cast<int32_t>(*n.comm_priority));
    if (n.tensor_loc) add("tensor_loc")->set_uint32_val(*n.tensor_loc);
    if (n.involved_dim) fill(add("involved_dim")->mutable_bool_list(), *n.involved_dim);
    if (n.pg_name) add("pg_name")->set_string_val(*n.pg_name);
}

void append_framed(std::string& out, const google::protobuf::MessageLite& m) {
    std::string body = m.SerializeAsString();
    write_varint(out, body.size());
    out += body;
}

} // namespace

TraceEncoder::TraceEncoder(const Trace& trace) : trace_(trace) {
    pb::GlobalMetadata meta;
    meta.set_version(trace.metadata.version);
    for (const auto& a : trace.metadata.attrs)
        to_proto(a, *meta.add_attr());
    append_framed(out_, meta);
}

bool TraceEncoder::step(size_t nodes) {
    pb::Node pn;
    const size_t end = std::min(trace_.nodes.size(), next_ + std::max<size_t>(nodes, 1));
    for (; next_ < end; ++next_) {
        const Node& n = trace_.nodes[next_];
        pn.Clear();
        pn.set_id(n.id);
        pn.set_name(n.name);
        pn.set_type(static_cast<pb::NodeType>(n.raw_type ? n.raw_type : static_cast<uint32_t>(n.type)));
        for (auto d : n.ctrl_deps)
            pn.add_ctrl_deps(d);
        for (auto d : n.data_deps)
            pn.add_data_deps(d);
        pn.set_start_time_micros(n.start_time_micros);
        pn.set_duration_micros(n.duration_micros);
        if (!n.inputs.empty()) {
            pn.mutable_inputs()->set_values(n.inputs.values);
            pn.mutable_inputs()->set_shapes(n.inputs.shapes);
            pn.mutable_inputs()->set_types(n.inputs.types);
        }
        if (!n.outputs.empty()) {
            pn.mutable_outputs()->set_values(n.outputs.values);
            pn.mutable_outputs()->set_shapes(n.outputs.shapes);
            pn.mutable_outputs()->set_types(n.outputs.types);
        }
        if (trace_.verbatim_attrs || !n.attrs.empty()) {
            for (const auto& a : n.attrs)
                to_proto(a, *pn.add_attr());
        } else {
            typed_attrs_to_proto(n, pn);
        }
        append_framed(out_, pn);
    }
    return next_ < trace_.nodes.size();
}

std::string encode_trace(const Trace& trace) {
    TraceEncoder encoder(trace);
    while (encoder.step(trace.nodes.size())) {
    }
    return encoder.take();
}

} // namespace astrolabe::trace

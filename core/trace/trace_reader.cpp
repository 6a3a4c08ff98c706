// [SECTION] framing and old-schema detection
// [SECTION] attribute conversion (protobuf -> plain)
// [SECTION] node conversion and the decode loop
#include "core/trace/trace_reader.h"

#include "chakra.pb.h"
#include "core/trace/gzip.h"
#include "core/trace/wire.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <functional>
#include <string>

namespace astrolabe::trace {

namespace pb = ChakraProtoMsg;

namespace {

// [SECTION] framing and old-schema detection

// True when the first message cannot be a 0.0.4 GlobalMetadata (fields 1: string, 2: messages) but looks
// like a node of the 0.0.1-0.0.3 schemas, which had no metadata message and began with `id` as a varint.
bool first_message_is_old_schema(std::string_view msg) {
    WireScanner scan(msg);
    WireField f;
    while (scan.next(f)) {
        if (f.number == 1 && f.wire_type != WireType::Len) return true;
        if (f.number == 2 && f.wire_type != WireType::Len) return true;
        if (f.number > 2) return true;
    }
    return false;
}

// [SECTION] attribute conversion (protobuf -> plain)

Attribute to_plain(const pb::AttributeProto& a) {
    Attribute out;
    out.name = a.name();
    out.doc_string = a.doc_string();
    out.kind = static_cast<AttrKind>(a.value_case());
    switch (a.value_case()) {
    case pb::AttributeProto::kDoubleVal:
        out.reals = {a.double_val()};
        break;
    case pb::AttributeProto::kDoubleList:
        out.reals.assign(a.double_list().values().begin(), a.double_list().values().end());
        break;
    case pb::AttributeProto::kFloatVal:
        out.reals = {a.float_val()};
        break;
    case pb::AttributeProto::kFloatList:
        out.reals.assign(a.float_list().values().begin(), a.float_list().values().end());
        break;
    case pb::AttributeProto::kInt32Val:
        out.ints = {a.int32_val()};
        break;
    case pb::AttributeProto::kInt32List:
        out.ints.assign(a.int32_list().values().begin(), a.int32_list().values().end());
        break;
    case pb::AttributeProto::kInt64Val:
        out.ints = {a.int64_val()};
        break;
    case pb::AttributeProto::kInt64List:
        out.ints.assign(a.int64_list().values().begin(), a.int64_list().values().end());
        break;
    case pb::AttributeProto::kUint32Val:
        out.uints = {a.uint32_val()};
        break;
    case pb::AttributeProto::kUint32List:
        out.uints.assign(a.uint32_list().values().begin(), a.uint32_list().values().end());
        break;
    case pb::AttributeProto::kUint64Val:
        out.uints = {a.uint64_val()};
        break;
    case pb::AttributeProto::kUint64List:
        out.uints.assign(a.uint64_list().values().begin(), a.uint64_list().values().end());
        break;
    case pb::AttributeProto::kSint32Val:
        out.ints = {a.sint32_val()};
        break;
    case pb::AttributeProto::kSint32List:
        out.ints.assign(a.sint32_list().values().begin(), a.sint32_list().values().end());
        break;
    case pb::AttributeProto::kSint64Val:
        out.ints = {a.sint64_val()};
        break;
    case pb::AttributeProto::kSint64List:
        out.ints.assign(a.sint64_list().values().begin(), a.sint64_list().values().end());
        break;
    case pb::AttributeProto::kFixed32Val:
        out.uints = {a.fixed32_val()};
        break;
    case pb::AttributeProto::kFixed32List:
        out.uints.assign(a.fixed32_list().values().begin(), a.fixed32_list().values().end());
        break;
    case pb::AttributeProto::kFixed64Val:
        out.uints = {a.fixed64_val()};
        break;
    case pb::AttributeProto::kFixed64List:
        out.uints.assign(a.fixed64_list().values().begin(), a.fixed64_list().values().end());
        break;
    case pb::AttributeProto::kSfixed32Val:
        out.ints = {a.sfixed32_val()};
        break;
    case pb::AttributeProto::kSfixed32List:
        out.ints.assign(a.sfixed32_list().values().begin(), a.sfixed32_list().values().end());
        break;
    case pb::AttributeProto::kSfixed64Val:
        out.ints = {a.sfixed64_val()};
        break;
    case pb::AttributeProto::kSfixed64List:
        out.ints.assign(a.sfixed64_list().values().begin(), a.sfixed64_list().values().end());
        break;
    case pb::AttributeProto::kBoolVal:
        out.uints = {a.bool_val() ? 1u : 0u};
        break;
    case pb::AttributeProto::kBoolList:
        out.uints.assign(a.bool_list().values().begin(), a.bool_list().values().end());
        break;
    case pb::AttributeProto::kStringVal:
        out.strings = {a.string_val()};
        break;
    case pb::AttributeProto::kStringList:
        out.strings.assign(a.string_list().values().begin(), a.string_list().values().end());
        break;
    case pb::AttributeProto::kBytesVal:
        out.strings = {a.bytes_val()};
        break;
    case pb::AttributeProto::kBytesList:
        out.strings.assign(a.bytes_list().values().begin(), a.bytes_list().values().end());
        break;
    case pb::AttributeProto::VALUE_NOT_SET:
        break;
    }
    return out;
}

// Reads an integer-valued attribute written with any integer kind or bool, as ASTRA-sim's reader does.
// Returns an explanation when the value is not a single non-negative integer.
struct IntReading {
    uint64_t value = 0;
    std::string problem; // empty when fine
};

IntReading read_unsigned(const pb::AttributeProto& a) {
    IntReading r;
    auto from_signed = [&r](int64_t v) {
        if (v < 0)
            r.problem = "is negative (" + std::to_string(v) + "); a non-negative integer was expected";
        else
            r.value = static_cast<uint64_t>(v);
    };
    switch (a.value_case()) {
    case pb::AttributeProto::kInt32Val:
        from_signed(a.int32_val());
        break;
    case pb::AttributeProto::kInt64Val:
        from_signed(a.int64_val());
        break;
    case pb::AttributeProto::kSint32Val:
        from_signed(a.sint32_val());
        break;
    case pb::AttributeProto::kSint64Val:
        from_signed(a.sint64_val());
        break;
    case pb::AttributeProto::kSfixed32Val:
        from_signed(a.sfixed32_val());
        break;
    case pb::AttributeProto::kSfixed64Val:
        from_signed(a.sfixed64_val());
        break;
    case pb::AttributeProto::kUint32Val:
        r.value = a.uint32_val();
        break;
    case pb::AttributeProto::kUint64Val:
        r.value = a.uint64_val();
        break;
    case pb::AttributeProto::kFixed32Val:
        r.value = a.fixed32_val();
        break;
    case pb::AttributeProto::kFixed64Val:
        r.value = a.fixed64_val();
        break;
    case pb::AttributeProto::kBoolVal:
        r.value = a.bool_val() ? 1 : 0;
        break;
    default:
        r.problem = std::string("has kind ") + attr_kind_name(static_cast<AttrKind>(a.value_case())) +
                    "; an integer kind (int32/int64/uint32/uint64/sint/fixed/bool) was expected";
    }
    return r;
}

// involved_dim: ASTRA-sim wants a bool_list; integer lists (non-zero = true) are accepted as well.
bool read_bool_list(const pb::AttributeProto& a, std::vector<bool>& out) {
    out.clear();
    switch (a.value_case()) {
    case pb::AttributeProto::kBoolList:
        out.assign(a.bool_list().values().begin(), a.bool_list().values().end());
        return true;
    case pb::AttributeProto::kInt32List:
        for (auto v : a.int32_list().values())
            out.push_back(v != 0);
        return true;
    case pb::AttributeProto::kInt64List:
        for (auto v : a.int64_list().values())
            out.push_back(v != 0);
        return true;
    case pb::AttributeProto::kUint32List:
        for (auto v : a.uint32_list().values())
            out.push_back(v != 0);
        return true;
    case pb::AttributeProto::kUint64List:
        for (auto v : a.uint64_list().values())
            out.push_back(v != 0);
        return true;
    default:
        return false;
    }
}

// [SECTION] node conversion and the decode loop

class NodeConverter {
public:
    NodeConverter(const std::string& source, const ReadOptions& opt, Status& problems)
        : source_(source), opt_(opt), problems_(problems) {}

    void convert(const pb::Node& in, Node& out) {
        out.id = in.id();
        if (opt_.keep_names)
            out.name = in.name();
        else
            out.name.clear();
        out.raw_type = static_cast<uint32_t>(in.type());
        if (out.raw_type >= static_cast<uint32_t>(kNodeTypeCount))
            problem(out, "has unknown node type " + std::to_string(out.raw_type) + " (expected 0..7)");
        else
            out.type = static_cast<NodeType>(out.raw_type);
        out.data_deps.assign(in.data_deps().begin(), in.data_deps().end());
        out.ctrl_deps.assign(in.ctrl_deps().begin(), in.ctrl_deps().end());
        out.start_time_micros = in.start_time_micros();
        out.duration_micros = in.duration_micros();
        // Metadata nodes keep their inputs always: PyTorch-converted traces define process groups there.
        bool io = opt_.keep_io || out.raw_type == static_cast<uint32_t>(NodeType::Metadata);
        if (io && in.has_inputs())
            out.inputs = {in.inputs().values(), in.inputs().shapes(), in.inputs().types()};
        else
            out.inputs = {};
        if (io && in.has_outputs())
            out.outputs = {in.outputs().values(), in.outputs().shapes(), in.outputs().types()};
        else
            out.outputs = {};
        for (const auto& a : in.attr()) {
            if (opt_.keep_attributes) out.attrs.push_back(to_plain(a));
            lift(a, out);
        }
    }

private:
    void problem(const Node& n, const std::string& what) {
        if (problems_.problems().size() < opt_.max_problems)
            problems_.add(source_ + ": node " + std::to_string(n.id) + " ('" + n.name + "') " + what);
    }

    // First match wins, as in ASTRA-sim's reader: later duplicates of a known attribute are ignored.
    template <typename T>
    void set_uint(const pb::AttributeProto& a, Node& n, std::optional<T>& field, uint64_t max) {
        if (field || a.value_case() == pb::AttributeProto::VALUE_NOT_SET) return;
        IntReading r = read_unsigned(a);
        if (r.problem.empty() && r.value > max)
            r.problem =
                "is " + std::to_string(r.value) + ", above the largest allowed " + std::to_string(max);
        if (!r.problem.empty()) return problem(n, "attribute '" + a.name() + "' " + r.problem);
        field = static_cast<T>(r.value);
    }

    void lift(const pb::AttributeProto& a, Node& n) {
        const std::string& name = a.name();
        if (name == "is_cpu_op") {
            if (a.value_case() == pb::AttributeProto::VALUE_NOT_SET) return;
            IntReading r = read_unsigned(a);
            if (!r.problem.empty()) return problem(n, "attribute 'is_cpu_op' " + r.problem);
            n.is_cpu_op = r.value != 0;
        } else if (name == "num_ops") {
            set_uint(a, n, n.num_ops, UINT64_MAX);
        } else if (name == "tensor_size") {
            set_uint(a, n, n.tensor_size, UINT64_MAX);
        } else if (name == "comm_type") {
            set_uint(a, n, n.comm_type, UINT64_MAX);
        } else if (name == "comm_size") {
            set_uint(a, n, n.comm_size, UINT64_MAX);
        } else if (name == "comm_src") {
            set_uint(a, n, n.comm_src, UINT32_MAX);
        } else if (name == "comm_dst") {
            set_uint(a, n, n.comm_dst, UINT32_MAX);
        } else if (name == "comm_tag") {
            set_uint(a, n, n.comm_tag, UINT32_MAX);
        } else if (name == "comm_priority") {
            set_uint(a, n, n.comm_priority, UINT32_MAX);
        } else if (name == "gemm_m") {
            set_uint(a, n, n.gemm_m, UINT64_MAX);
        } else if (name == "gemm_n") {
            set_uint(a, n, n.gemm_n, UINT64_MAX);
        } else if (name == "gemm_k") {
            set_uint(a, n, n.gemm_k, UINT64_MAX);
        } else if (name == "gemm_batch") {
            set_uint(a, n, n.gemm_batch, UINT64_MAX);
        } else if (name == "tensor_loc") {
            set_uint(a, n, n.tensor_loc, UINT32_MAX);
        } else if (name == "involved_dim") {
            if (n.involved_dim || a.value_case() == pb::AttributeProto::VALUE_NOT_SET) return;
            std::vector<bool> dims;
            if (!read_bool_list(a, dims))
                return problem(n, std::string("attribute 'involved_dim' has kind ") +
                                      attr_kind_name(static_cast<AttrKind>(a.value_case())) +
                                      "; a bool_list was expected");
            n.involved_dim = std::move(dims);
        } else if (name == "pg_name" || name == "comm_group") {
            if (a.value_case() == pb::AttributeProto::VALUE_NOT_SET) return;
            if (n.pg_name && name == "comm_group") return; // pg_name wins over the legacy spelling
            if (a.value_case() == pb::AttributeProto::kStringVal) {
                n.pg_name = a.string_val();
                return;
            }
            IntReading r = read_unsigned(a);
            if (!r.problem.empty()) return problem(n, "attribute '" + name + "' " + r.problem);
            n.pg_name = std::to_string(r.value);
        }
    }

    const std::string& source_;
    const ReadOptions& opt_;
    Status& problems_;
};

std::string at(size_t offset) {
    return " at byte " + std::to_string(offset);
}

} // namespace

struct NodeReader::State {
    State(std::string_view b, std::string src, ReadOptions opt)
        : bytes(b), source(std::move(src)), options(std::move(opt)), converter(source, options, problems) {}
    std::string_view bytes;
    std::string source;
    ReadOptions options;
    Status problems; // the converter's, returned at the end
    NodeConverter converter;
    std::string inflated;
    Status refused; // set once, ends the reading
    bool started = false, done = false;
    size_t pos = 0, index = 0;
    pb::Node pnode;
    Node node;
};

NodeReader::NodeReader(std::string_view bytes, std::string source, ReadOptions options)
    : s_(std::make_unique<State>(bytes, std::move(source), std::move(options))) {}
NodeReader::~NodeReader() = default;

Status NodeReader::status() const {
    return s_->refused.is_ok() ? s_->problems : s_->refused;
}

bool NodeReader::step(size_t nodes, GlobalMetadata& metadata, const std::function<void(const Node&)>& visit) {
    State& st = *s_;
    if (st.done) return false;
    auto refuse = [&st](std::string why) {
        st.refused = Status::error(std::move(why));
        st.done = true;
        return false;
    };
    const std::string& source = st.source;
    const ReadOptions& options = st.options;
    if (!st.started) {
        st.started = true;
        if (looks_gzipped(st.bytes)) {
            constexpr size_t kRatioFloor = size_t(64) << 20;
            const size_t ratio = std::max<size_t>(options.max_inflate_ratio, 1);
            const size_t by_ratio = st.bytes.size() > SIZE_MAX / ratio ? SIZE_MAX : st.bytes.size() * ratio;
            const size_t limit = std::min(options.max_decompressed_bytes, std::max(kRatioFloor, by_ratio));
            auto r = gunzip(st.bytes, limit);
            if (!r) {
                std::string why = source + ": " + r.status().message();
                if (limit < options.max_decompressed_bytes)
                    why += " (" + std::to_string(ratio) + " times the compressed " +
                           std::to_string(st.bytes.size()) + " bytes; a gzip bomb?)";
                return refuse(why);
            }
            st.inflated = std::move(r).value();
            st.bytes = st.inflated;
        }
        if (st.bytes.empty())
            return refuse(source +
                          ": the file is empty (a Chakra trace starts with a GlobalMetadata message)");
    }
    const std::string_view bytes = st.bytes;
    size_t visited = 0;
    while (st.pos < bytes.size()) {
        if (visited >= std::max<size_t>(nodes, 1)) return true;
        size_t& pos = st.pos;
        const size_t index = st.index;
        uint64_t len = 0;
        size_t start = pos;
        if (!read_varint(bytes, pos, len) || len > INT32_MAX)
            return refuse(source + ": truncated or malformed length prefix of message " +
                          std::to_string(index) + at(start));
        if (len > bytes.size() - pos)
            return refuse(source + ": message " + std::to_string(index) + at(start) + " declares " +
                          std::to_string(len) + " bytes but only " + std::to_string(bytes.size() - pos) +
                          " remain (truncated file?)");
        std::string_view msg = bytes.substr(pos, len);
        if (index == 0) {
            if (first_message_is_old_schema(msg))
                return refuse(source +
                              ": this looks like a Chakra trace of the old 0.0.1-0.0.3 schema "
                              "(it begins with a node, not a GlobalMetadata message); only schema "
                              "0.0.4 and later is supported: convert it with a current chakra release");
            pb::GlobalMetadata meta;
            if (!meta.ParseFromArray(msg.data(), static_cast<int>(msg.size())))
                return refuse(source + ": the first message" + at(start) +
                              " is not a valid Chakra GlobalMetadata (not a Chakra trace?)");
            metadata.version = meta.version();
            metadata.attrs.clear();
            for (const auto& a : meta.attr())
                metadata.attrs.push_back(to_plain(a));
        } else {
            // An empty message is a node with id 0, no type and nothing else. Refusing it keeps a few bytes
            // of input from standing for millions of nodes (a file of zeros is one node per byte).
            if (len == 0)
                return refuse(source + ": message " + std::to_string(index) + at(start) +
                              " is empty; a Chakra node has at least an id and a type");
            st.pnode.Clear();
            if (!st.pnode.ParseFromArray(msg.data(), static_cast<int>(msg.size())))
                return refuse(source + ": message " + std::to_string(index) + at(start) +
                              " is not a valid Chakra node (corrupt or not a Chakra trace)");
            st.node = Node{};
            st.converter.convert(st.pnode, st.node);
            if (index > options.max_nodes)
                return refuse(source + ": more than " + std::to_string(options.max_nodes) +
                              " nodes; raise the node limit if this trace is genuine");
            visit(st.node);
            ++visited;
        }
        pos += len;
        ++st.index;
    }
    st.done = true;
    return false;
}

Status for_each_node(std::string_view bytes, const std::string& source, const ReadOptions& options,
                     GlobalMetadata& metadata, const std::function<void(const Node&)>& visit) {
    NodeReader reader(bytes, source, options);
    while (reader.step(SIZE_MAX, metadata, visit)) {
    }
    return reader.status();
}

Result<Trace> decode_trace(std::string_view bytes, const std::string& source, const ReadOptions& options) {
    Trace trace;
    trace.source = source;
    trace.verbatim_attrs = options.keep_attributes;
    Status st = for_each_node(bytes, source, options, trace.metadata,
                              [&trace](const Node& n) { trace.nodes.push_back(n); });
    if (!st.is_ok()) return st;
    return trace;
}

} // namespace astrolabe::trace

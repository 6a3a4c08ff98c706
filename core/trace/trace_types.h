// Plain, protobuf-free types for one NPU's Chakra execution trace.
//
// core/trace decodes the wire format into these structs; nothing outside core/trace sees protobuf types.
// Attributes that simulators read are lifted into typed optional fields (accepting every integer kind the
// writers use); every attribute is also kept verbatim in `attrs` when the reader is asked to (inspect and
// convert need them, simulation does not).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace astrolabe::trace {

enum class NodeType : uint8_t {
    Invalid = 0,
    Metadata = 1,
    MemLoad = 2,
    MemStore = 3,
    Comp = 4,
    CommSend = 5,
    CommRecv = 6,
    CommColl = 7,
};
constexpr int kNodeTypeCount = 8;

enum class CollectiveType : uint8_t {
    AllReduce = 0,
    Reduce = 1,
    AllGather = 2,
    Gather = 3,
    Scatter = 4,
    Broadcast = 5,
    AllToAll = 6,
    ReduceScatter = 7,
    ReduceScatterBlock = 8,
    Barrier = 9,
};
constexpr int kCollectiveTypeCount = 10;

// The tag a workload send/recv (or a custom collective's) is matched by: ASTRA-sim folds workload tags
// below 500000000, keeping the range above for its collective streams. Here so that trace inspection
// pairs sends and receives exactly as the simulator's matcher does.
inline uint64_t workload_tag(uint64_t trace_tag) {
    return trace_tag % 500000000u;
}

const char* node_type_name(NodeType t);             // "COMP_NODE", ...
const char* collective_type_name(CollectiveType t); // "ALL_REDUCE", ...
std::optional<NodeType> node_type_from_name(const std::string& name);
std::optional<CollectiveType> collective_type_from_name(const std::string& name);

// The oneof member an attribute was written with; the numbering follows the wire field numbers (3..32).
enum class AttrKind : uint8_t {
    None = 0,
    Double = 3,
    DoubleList,
    Float,
    FloatList,
    Int32,
    Int32List,
    Int64,
    Int64List,
    Uint32,
    Uint32List,
    Uint64,
    Uint64List,
    Sint32,
    Sint32List,
    Sint64,
    Sint64List,
    Fixed32,
    Fixed32List,
    Fixed64,
    Fixed64List,
    Sfixed32,
    Sfixed32List,
    Sfixed64,
    Sfixed64List,
    Bool,
    BoolList,
    String,
    StringList,
    Bytes,
    BytesList,
};
const char* attr_kind_name(AttrKind k); // "int64_val", "bool_list", ...
std::optional<AttrKind> attr_kind_from_name(const std::string& name);
bool attr_kind_is_list(AttrKind k);

// One attribute as written. Scalars are stored as a one-element list in the member matching their family:
// signed integers in `ints`, unsigned integers and bools in `uints`, floating point in `reals`, strings and
// bytes in `strings`.
struct Attribute {
    std::string name;
    std::string doc_string;
    AttrKind kind = AttrKind::None;
    std::vector<int64_t> ints;
    std::vector<uint64_t> uints;
    std::vector<double> reals;
    std::vector<std::string> strings;
};

struct IoInfo {
    std::string values;
    std::string shapes;
    std::string types;
    bool empty() const { return values.empty() && shapes.empty() && types.empty(); }
};

struct Node {
    uint64_t id = 0;
    std::string name;
    NodeType type = NodeType::Invalid;
    uint32_t raw_type = 0; // the enum value as written (may be outside NodeType)
    std::vector<uint64_t> data_deps;
    std::vector<uint64_t> ctrl_deps;
    uint64_t start_time_micros = 0;
    uint64_t duration_micros = 0;
    IoInfo inputs;
    IoInfo outputs;

    // Attributes simulators read (absent = not written).
    bool is_cpu_op = false;
    std::optional<uint64_t> num_ops;
    std::optional<uint64_t> tensor_size;
    std::optional<uint64_t> comm_type; // raw value; see collective()
    std::optional<uint64_t> comm_size;
    std::optional<uint32_t> comm_src;
    std::optional<uint32_t> comm_dst;
    std::optional<uint32_t> comm_tag;
    std::optional<uint32_t> comm_priority;
    std::optional<uint32_t> tensor_loc;
    std::optional<std::vector<bool>> involved_dim;
    std::optional<std::string> pg_name; // also filled from the legacy integer `comm_group`
    // A COMP node's GEMM shape, C[m x n] = A[m x k] * B[k x n], times gemm_batch (docs/trace-format.md).
    std::optional<uint64_t> gemm_m;
    std::optional<uint64_t> gemm_n;
    std::optional<uint64_t> gemm_k;
    std::optional<uint64_t> gemm_batch;

    std::vector<Attribute> attrs; // every attribute verbatim, only when ReadOptions::keep_attributes

    std::optional<CollectiveType> collective() const {
        if (!comm_type || *comm_type >= static_cast<uint64_t>(kCollectiveTypeCount)) return std::nullopt;
        return static_cast<CollectiveType>(*comm_type);
    }
};

struct GlobalMetadata {
    std::string version;
    std::vector<Attribute> attrs;
};

// One NPU's trace: the metadata message and the nodes in file order (not a topological order).
struct Trace {
    std::string source; // file name or label, used in error messages
    GlobalMetadata metadata;
    std::vector<Node> nodes;
    // Node::attrs hold every attribute exactly as read (ReadOptions::keep_attributes), so a node with none
    // had none: the writer then writes attrs verbatim instead of deriving them from the typed fields.
    bool verbatim_attrs = false;
};

} // namespace astrolabe::trace

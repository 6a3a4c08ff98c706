// Names of the Chakra enums as the schema spells them, for reports, inspect and JSON conversion.
#include "core/trace/trace_types.h"

#include <cstring>

namespace astrolabe::trace {

namespace {
const char* const kNodeTypeNames[kNodeTypeCount] = {
    "INVALID_NODE", "METADATA_NODE",  "MEM_LOAD_NODE",  "MEM_STORE_NODE",
    "COMP_NODE",    "COMM_SEND_NODE", "COMM_RECV_NODE", "COMM_COLL_NODE",
};
const char* const kCollectiveNames[kCollectiveTypeCount] = {
    "ALL_REDUCE", "REDUCE",         "ALL_GATHER",           "GATHER",  "SCATTER", "BROADCAST",
    "ALL_TO_ALL", "REDUCE_SCATTER", "REDUCE_SCATTER_BLOCK", "BARRIER",
};
// Indexed by AttrKind value - 3.
const char* const kAttrKindNames[30] = {
    "double_val",  "double_list",  "float_val",    "float_list",    "int32_val",    "int32_list",
    "int64_val",   "int64_list",   "uint32_val",   "uint32_list",   "uint64_val",   "uint64_list",
    "sint32_val",  "sint32_list",  "sint64_val",   "sint64_list",   "fixed32_val",  "fixed32_list",
    "fixed64_val", "fixed64_list", "sfixed32_val", "sfixed32_list", "sfixed64_val", "sfixed64_list",
    "bool_val",    "bool_list",    "string_val",   "string_list",   "bytes_val",    "bytes_list",
};
} // namespace

const char* node_type_name(NodeType t) {
    auto i = static_cast<int>(t);
    return i < kNodeTypeCount ? kNodeTypeNames[i] : "UNKNOWN_NODE";
}

const char* collective_type_name(CollectiveType t) {
    auto i = static_cast<int>(t);
    return i < kCollectiveTypeCount ? kCollectiveNames[i] : "UNKNOWN_COLLECTIVE";
}

std::optional<NodeType> node_type_from_name(const std::string& name) {
    for (int i = 0; i < kNodeTypeCount; ++i)
        if (name == kNodeTypeNames[i]) return static_cast<NodeType>(i);
    return std::nullopt;
}

std::optional<CollectiveType> collective_type_from_name(const std::string& name) {
    for (int i = 0; i < kCollectiveTypeCount; ++i)
        if (name == kCollectiveNames[i]) return static_cast<CollectiveType>(i);
    return std::nullopt;
}

const char* attr_kind_name(AttrKind k) {
    auto i = static_cast<int>(k);
    return (i >= 3 && i <= 32) ? kAttrKindNames[i - 3] : "none";
}

std::optional<AttrKind> attr_kind_from_name(const std::string& name) {
    if (name == "none") return AttrKind::None;
    for (int i = 0; i < 30; ++i)
        if (name == kAttrKindNames[i]) return static_cast<AttrKind>(i + 3);
    return std::nullopt;
}

bool attr_kind_is_list(AttrKind k) {
    auto i = static_cast<int>(k);
    return i >= 3 && i % 2 == 0; // list members have the even field numbers 4..32
}

} // namespace astrolabe::trace

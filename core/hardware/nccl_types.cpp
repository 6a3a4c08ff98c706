#include "core/hardware/nccl_types.h"

namespace astrolabe::hardware {

const std::vector<std::string>& nccl_type_names() {
    static const std::vector<std::string> names = {"int8", "uint8", "int32",  "uint32",   "int64",  "uint64",
                                                   "half", "float", "double", "bfloat16", "f8e4m3", "f8e5m2"};
    return names;
}

const std::vector<std::string>& nccl_red_op_names() {
    static const std::vector<std::string> names = {"sum", "prod", "max", "min", "avg"};
    return names;
}

const char* nccl_type_name(NcclType t) {
    return nccl_type_names()[static_cast<size_t>(t)].c_str();
}

const char* nccl_red_op_name(NcclRedOp op) {
    return nccl_red_op_names()[static_cast<size_t>(op)].c_str();
}

namespace {

// `out` = the enum value at `s`'s position in `names` (both lists are in enum order).
template <typename E>
bool parse_name(const std::vector<std::string>& names, const std::string& s, E& out) {
    for (size_t i = 0; i < names.size(); ++i)
        if (s == names[i]) {
            out = static_cast<E>(i);
            return true;
        }
    return false;
}

} // namespace

bool parse_nccl_type(const std::string& s, NcclType& out) {
    return parse_name(nccl_type_names(), s, out);
}

bool parse_nccl_red_op(const std::string& s, NcclRedOp& out) {
    return parse_name(nccl_red_op_names(), s, out);
}

uint32_t nccl_type_bytes(NcclType t) {
    switch (t) {
    case NcclType::Int8:
    case NcclType::Uint8:
    case NcclType::F8e4m3:
    case NcclType::F8e5m2:
        return 1;
    case NcclType::Half:
    case NcclType::Bfloat16:
        return 2;
    case NcclType::Int32:
    case NcclType::Uint32:
    case NcclType::Float:
        return 4;
    case NcclType::Int64:
    case NcclType::Uint64:
    case NcclType::Double:
        return 8;
    }
    return 4;
}

bool nvls_reduces(NcclType t, NcclRedOp op) {
    switch (t) {
    case NcclType::Int32:
    case NcclType::Uint32:
    case NcclType::Int64:
    case NcclType::Uint64:
    case NcclType::Half:
    case NcclType::Bfloat16:
        return op == NcclRedOp::Sum || op == NcclRedOp::Max || op == NcclRedOp::Min;
    case NcclType::Float:
    case NcclType::Double:
        return op == NcclRedOp::Sum;
    default:
        return false;
    }
}

} // namespace astrolabe::hardware

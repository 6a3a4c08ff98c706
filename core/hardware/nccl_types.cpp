#include "core/hardware/nccl_types.h"

#include "core/config/spellings.h"

#include <utility>

namespace astrolabe::hardware {

namespace {

const char* const kTypeNames[] = {"int8", "uint8", "int32",  "uint32",   "int64",  "uint64",
                                  "half", "float", "double", "bfloat16", "f8e4m3", "f8e5m2"};
const char* const kRedOpNames[] = {"sum", "prod", "max", "min", "avg"};

template <size_t N>
config::SpellingTable table(const char* const (&names)[N]) {
    return {names, N};
}

} // namespace

const std::vector<std::string>& nccl_type_names() {
    static const std::vector<std::string> names = config::names_of(table(kTypeNames));
    return names;
}

const std::vector<std::string>& nccl_red_op_names() {
    static const std::vector<std::string> names = config::names_of(table(kRedOpNames));
    return names;
}

std::string nccl_type_problem(std::string_view key, std::string_view typed) {
    static const std::pair<const char*, const char*> kOtherNames[] = {{"bf16", "bfloat16"},
                                                                      {"fp16", "half"},
                                                                      {"float16", "half"},
                                                                      {"f16", "half"},
                                                                      {"fp32", "float"},
                                                                      {"float32", "float"},
                                                                      {"f32", "float"},
                                                                      {"fp64", "double"},
                                                                      {"float64", "double"},
                                                                      {"f64", "double"},
                                                                      {"fp8", "f8e4m3 or f8e5m2"},
                                                                      {"e4m3", "f8e4m3"},
                                                                      {"e5m2", "f8e5m2"},
                                                                      {"i8", "int8"},
                                                                      {"u8", "uint8"}};
    const std::string head = std::string(key) + ": '" + std::string(typed) + "'; ";
    for (const auto& [other, name] : kOtherNames)
        if (typed == other)
            return head + config::expected_names(table(kTypeNames)) + " was expected (nccl-tests calls it " +
                   name + ")";
    return head + config::expected_choice(table(kTypeNames), typed);
}

std::string nccl_red_op_problem(std::string_view key, std::string_view typed) {
    return std::string(key) + ": '" + std::string(typed) + "'; " +
           config::expected_choice(table(kRedOpNames), typed);
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

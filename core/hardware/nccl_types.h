// nccl-tests' element types (-d) and reduction operations (-o), and what they change in NCCL: which
// kernels can run the reduction. The time of a collective otherwise depends on its bytes only (NCCL's
// kernels are bandwidth-bound whatever the type), so these set nccl-tests' count and type columns, the
// sizes it runs (a whole number of elements per rank) and whether NVLink SHARP may reduce.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace astrolabe::hardware {

enum class NcclType : uint8_t {
    Int8,
    Uint8,
    Int32,
    Uint32,
    Int64,
    Uint64,
    Half,
    Float,
    Double,
    Bfloat16,
    F8e4m3,
    F8e5m2
};
enum class NcclRedOp : uint8_t { Sum, Prod, Max, Min, Avg };

// nccl-tests' spellings, in NCCL's enum order: int8 ... f8e5m2; sum, prod, max, min, avg.
const std::vector<std::string>& nccl_type_names();
const std::vector<std::string>& nccl_red_op_names();
const char* nccl_type_name(NcclType t);
const char* nccl_red_op_name(NcclRedOp op);
bool parse_nccl_type(const std::string& s, NcclType& out);
bool parse_nccl_red_op(const std::string& s, NcclRedOp& out);

// The problem with a type or reduction spelt `typed` for the flag or key `key` (-d, type, ...): "key:
// 'typed'; int8, ... was expected" and nccl-tests' own name for another common name of a type (bf16, fp32,
// fp8, ...: "nccl-tests calls it bfloat16", which edit distance would not find), else the nearest spelling.
std::string nccl_type_problem(std::string_view key, std::string_view typed);
std::string nccl_red_op_problem(std::string_view key, std::string_view typed);

uint32_t nccl_type_bytes(NcclType t);

// Whether NCCL's NVLS kernels (NVLink SHARP's in-switch reduction: NVLS and NVLS-tree) can reduce this type
// with this operation (NCCL's ncclNvlsSupported): the switch adds, or takes the min or max of, 32- and
// 64-bit integers, half and bfloat16, and adds float and double; it cannot multiply or average (NCCL's avg
// is a scaled sum), nor reduce 8-bit types. Other reductions run without NVLS (ring or tree).
bool nvls_reduces(NcclType t, NcclRedOp op);
// That rule in words, for the messages that refuse or explain a reduction NVLS cannot do.
constexpr const char* kNvlsReductionsText = "NVLink SHARP adds, or takes the min or max of, half, bfloat16 "
                                            "and 32/64-bit integers, and adds float and "
                                            "double";

} // namespace astrolabe::hardware

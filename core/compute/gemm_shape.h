// The GEMM a matrix-multiply operator of a converted PyTorch trace performs, from its name and the text of
// its input shapes (Chakra's `inputs.shapes`, e.g. "[[512], [128, 256], [256, 512], [], []]").
//
// Operators and their GEMM (M, N, K) in the convention of systolic.h, C[MxN] = A[MxK] * B[KxN]:
//   aten::mm(a[n,m], b[m,p])              M=n, K=m, N=p
//   aten::addmm(bias, a[n,m], b[m,p])     as mm (the bias add is not counted)
//   aten::bmm(a[B,n,m], b[B,m,p])         batch B of (n, p, m)
//   aten::linear(x[..., in], w[out, in])  M = product of x's leading dims, K=in, N=out
//   aten::matmul(a, b)                    PyTorch's rules: a 1-D operand is a row (a) or column (b) vector;
//                                         with a 2-D b, a's leading dims fold into M (one GEMM, as PyTorch
//                                         runs it); otherwise the broadcast batch dims give the batch
// An overload suffix (aten::mm.out) is accepted. Anything else, or shapes that do not fit the operator
// (missing operands, mismatched inner dimensions, a zero dimension), gives no GEMM: the node then falls
// back to another model.
#pragma once

#include "core/compute/systolic.h"

#include <optional>
#include <string>
#include <string_view>

namespace astrolabe {

// Whether `name` is one of the operators above (so its shapes are worth keeping).
bool is_matmul_op(std::string_view name);
std::optional<Gemm> gemm_from_op(std::string_view name, std::string_view input_shapes);

} // namespace astrolabe

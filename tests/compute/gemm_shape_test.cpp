// GEMM shapes of PyTorch matrix-multiply operators from their `inputs.shapes` text, as the Chakra
// converter writes it (str() of a Python list: "[[128, 256], [256, 512]]", scalars as [], lists of
// tensors nested deeper). Expected (M, N, K, batch) follow torch's semantics for each operator.
#include "core/compute/gemm_shape.h"

#include <catch2/catch.hpp>

using namespace astrolabe;

namespace {
bool is(const std::optional<Gemm>& g, uint64_t m, uint64_t n, uint64_t k, uint64_t batch = 1) {
    return g && g->m == m && g->n == n && g->k == k && g->batch == batch;
}
} // namespace

TEST_CASE("gemm shapes: each matrix-multiply operator", "[compute][gemm]") {
    // mm: [128,256] x [256,512] -> C[128x512] with K = 256.
    CHECK(is(gemm_from_op("aten::mm", "[[128, 256], [256, 512]]"), 128, 512, 256));
    // addmm(bias, a, b, beta, alpha): the bias and the two scalars are skipped.
    CHECK(is(gemm_from_op("aten::addmm", "[[512], [128, 256], [256, 512], [], []]"), 128, 512, 256));
    // bmm: 8 GEMMs of [64,32] x [32,16].
    CHECK(is(gemm_from_op("aten::bmm", "[[8, 64, 32], [8, 32, 16]]"), 64, 16, 32, 8));
    // linear(x[4,128,1024], w[4096,1024], bias): y = x w^T, the leading dims fold into M = 512.
    CHECK(is(gemm_from_op("aten::linear", "[[4, 128, 1024], [4096, 1024], [4096]]"), 512, 4096, 1024));
    // An overload suffix names the same operator.
    CHECK(is(gemm_from_op("aten::mm.out", "[[2, 3], [3, 4], [2, 4]]"), 2, 4, 3));
}

TEST_CASE("gemm shapes: aten::matmul follows torch.matmul's broadcasting", "[compute][gemm]") {
    // 2-D x 2-D is mm.
    CHECK(is(gemm_from_op("aten::matmul", "[[10, 20], [20, 30]]"), 10, 30, 20));
    // N-D x 2-D: torch folds a's batch dims into the rows of one GEMM: 2*3*10 = 60 rows.
    CHECK(is(gemm_from_op("aten::matmul", "[[2, 3, 10, 20], [20, 30]]"), 60, 30, 20));
    // Batched x batched with broadcasting: [2,1,10,20] x [5,20,30] -> batch 2*5 = 10.
    CHECK(is(gemm_from_op("aten::matmul", "[[2, 1, 10, 20], [5, 20, 30]]"), 10, 30, 20, 10));
    // Vector operands: [20] x [20,30] is a 1x30 row; [10,20] x [20] a 10x1 column.
    CHECK(is(gemm_from_op("aten::matmul", "[[20], [20, 30]]"), 1, 30, 20));
    CHECK(is(gemm_from_op("aten::matmul", "[[10, 20], [20]]"), 10, 1, 20));
}

TEST_CASE("gemm shapes: anything that is not a readable GEMM gives none", "[compute][gemm]") {
    CHECK_FALSE(gemm_from_op("aten::add", "[[128, 256], [128, 256]]"));      // not a matmul
    CHECK_FALSE(gemm_from_op("aten::mm", "[[128, 256], [255, 512]]"));       // inner dims differ
    CHECK_FALSE(gemm_from_op("aten::mm", "[[128, 256]]"));                   // an operand missing
    CHECK_FALSE(gemm_from_op("aten::mm", ""));                               // no shapes kept
    CHECK_FALSE(gemm_from_op("aten::mm", "[[0, 256], [256, 512]]"));         // an empty GEMM
    CHECK_FALSE(gemm_from_op("aten::bmm", "[[8, 64, 32], [4, 32, 16]]"));    // batch differs
    CHECK_FALSE(gemm_from_op("aten::matmul", "[[2, 10, 20], [3, 20, 30]]")); // not broadcastable
    CHECK_FALSE(gemm_from_op("aten::mm", "[[[1], [2]], [2, 3]]"));           // a list of tensors
    CHECK_FALSE(gemm_from_op("aten::mm", "[[128, 256], [256, 512"));         // truncated text
    CHECK(is_matmul_op("aten::linear"));
    CHECK_FALSE(is_matmul_op("aten::mmx"));
}

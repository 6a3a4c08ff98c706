#include "core/compute/gemm_shape.h"

#include <algorithm>
#include <cstdint>
#include <vector>

namespace astrolabe {

namespace {

using Shape = std::vector<uint64_t>;

enum class Op { None, Mm, Addmm, Bmm, Linear, Matmul };

Op op_of(std::string_view name) {
    size_t dot = name.find('.');
    std::string_view base = dot == std::string_view::npos ? name : name.substr(0, dot);
    if (base == "aten::mm") return Op::Mm;
    if (base == "aten::addmm") return Op::Addmm;
    if (base == "aten::bmm") return Op::Bmm;
    if (base == "aten::linear") return Op::Linear;
    if (base == "aten::matmul") return Op::Matmul;
    return Op::None;
}

// Reads the top-level list of shapes. A tensor's shape is a list of integers; anything nested deeper
// (a list of tensors) or not numeric is kept as "not a tensor" (nullopt) so positions stay aligned.
class ShapeParser {
public:
    explicit ShapeParser(std::string_view s) : s_(s) {}

    bool parse(std::vector<std::optional<Shape>>& out) {
        skip();
        if (!eat('[')) return false;
        skip();
        if (eat(']')) return true;
        while (true) {
            std::optional<Shape> item;
            if (!element(item)) return false;
            out.push_back(std::move(item));
            skip();
            if (eat(']')) return true;
            if (!eat(',')) return false;
        }
    }

private:
    void skip() {
        while (i_ < s_.size() && (s_[i_] == ' ' || s_[i_] == '\n' || s_[i_] == '\t'))
            ++i_;
    }
    bool eat(char c) {
        if (i_ < s_.size() && s_[i_] == c) {
            ++i_;
            return true;
        }
        return false;
    }
    // One operand: "[d0, d1, ...]" (a tensor), or anything else up to the matching separator.
    bool element(std::optional<Shape>& out) {
        skip();
        if (!eat('[')) return skip_value();
        Shape shape;
        bool tensor = true;
        skip();
        if (eat(']')) {
            out = shape; // a scalar operand: an empty shape
            return true;
        }
        while (true) {
            skip();
            if (i_ < s_.size() && s_[i_] >= '0' && s_[i_] <= '9') {
                uint64_t v = 0;
                while (i_ < s_.size() && s_[i_] >= '0' && s_[i_] <= '9') {
                    if (v > (UINT64_MAX - 9) / 10) return false;
                    v = v * 10 + uint64_t(s_[i_++] - '0');
                }
                shape.push_back(v);
            } else {
                tensor = false; // a nested list or a token: this operand is not one tensor
                if (!skip_value()) return false;
            }
            skip();
            if (eat(']')) break;
            if (!eat(',')) return false;
        }
        if (tensor) out = shape;
        return true;
    }
    // Skips one value (a nested list, a quoted string or a bare token), balancing brackets.
    bool skip_value() {
        int depth = 0;
        while (i_ < s_.size()) {
            char c = s_[i_];
            if (c == '\'' || c == '"') {
                size_t close = s_.find(c, i_ + 1);
                if (close == std::string_view::npos) return false;
                i_ = close + 1;
                continue;
            }
            if (c == '[') ++depth;
            if (c == ']') {
                if (depth == 0) return true;
                --depth;
            }
            if (c == ',' && depth == 0) return true;
            ++i_;
        }
        return false;
    }

    std::string_view s_;
    size_t i_ = 0;
};

uint64_t product(const Shape& s, size_t begin, size_t end) {
    uint64_t p = 1;
    for (size_t i = begin; i < end; ++i)
        p = (s[i] != 0 && p > UINT64_MAX / s[i]) ? UINT64_MAX : p * s[i];
    return p;
}

std::optional<Gemm> matmul(Shape a, Shape b) {
    if (a.empty() || b.empty()) return std::nullopt;
    // PyTorch: a 1-D first operand is a row vector, a 1-D second operand a column vector.
    if (a.size() == 1) a.insert(a.begin(), 1);
    if (b.size() == 1) b.push_back(1);
    const uint64_t n = a[a.size() - 2], m = a.back(), m2 = b[b.size() - 2], p = b.back();
    if (m != m2) return std::nullopt;
    if (b.size() == 2) // a's batch dims fold into the rows of one GEMM
        return Gemm{product(a, 0, a.size() - 1), p, m, 1};
    // Broadcast batch dims, aligned from the right.
    size_t da = a.size() - 2, db = b.size() - 2, nb = std::max(da, db);
    uint64_t batch = 1;
    for (size_t i = 0; i < nb; ++i) {
        uint64_t x = i < da ? a[da - 1 - i] : 1, y = i < db ? b[db - 1 - i] : 1;
        if (x != y && x != 1 && y != 1) return std::nullopt;
        batch = product(Shape{batch, std::max(x, y)}, 0, 2);
    }
    return Gemm{n, p, m, batch};
}

} // namespace

bool is_matmul_op(std::string_view name) {
    return op_of(name) != Op::None;
}

std::optional<Gemm> gemm_from_op(std::string_view name, std::string_view input_shapes) {
    Op op = op_of(name);
    if (op == Op::None) return std::nullopt;
    std::vector<std::optional<Shape>> in;
    if (!ShapeParser(input_shapes).parse(in)) return std::nullopt;
    auto tensor = [&in](size_t i) -> const Shape* { return i < in.size() && in[i] ? &*in[i] : nullptr; };
    std::optional<Gemm> g;
    switch (op) {
    case Op::Mm:
    case Op::Addmm: {
        size_t first = op == Op::Addmm ? 1 : 0;
        const Shape *a = tensor(first), *b = tensor(first + 1);
        if (a && b && a->size() == 2 && b->size() == 2 && (*a)[1] == (*b)[0])
            g = Gemm{(*a)[0], (*b)[1], (*a)[1], 1};
        break;
    }
    case Op::Bmm: {
        const Shape *a = tensor(0), *b = tensor(1);
        if (a && b && a->size() == 3 && b->size() == 3 && (*a)[0] == (*b)[0] && (*a)[2] == (*b)[1])
            g = Gemm{(*a)[1], (*b)[2], (*a)[2], (*a)[0]};
        break;
    }
    case Op::Linear: {
        const Shape *x = tensor(0), *w = tensor(1);
        if (x && w && !x->empty() && w->size() == 2 && x->back() == (*w)[1])
            g = Gemm{product(*x, 0, x->size() - 1), (*w)[0], (*w)[1], 1};
        break;
    }
    case Op::Matmul: {
        const Shape *a = tensor(0), *b = tensor(1);
        if (a && b) g = matmul(*a, *b);
        break;
    }
    case Op::None:
        break;
    }
    if (!g || g->m == 0 || g->n == 0 || g->k == 0 || g->batch == 0) return std::nullopt;
    return g;
}

} // namespace astrolabe

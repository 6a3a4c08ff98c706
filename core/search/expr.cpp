// The constraint language (expr.h): a tokenizer, a precedence-climbing parser into a node array, and an
// evaluator over nlohmann::json scenarios.
//
// [SECTION] Tokens
// [SECTION] Parser
// [SECTION] Evaluation
#include "core/search/expr.h"

#include "core/config/hardware_types.h"

#include <cctype>
#include <cmath>
#include <cstdio>
#include <cstdlib>

namespace astrolabe::search {

using nlohmann::json;

// [SECTION] Tokens

namespace {

struct Token {
    enum class Kind { End, Number, String, Name, Op } kind = Kind::End;
    std::string text;
    double num = 0;
    size_t column = 0; // 1-based
};

bool name_start(char c) {
    return std::isalpha(static_cast<unsigned char>(c)) || c == '_';
}
bool name_char(char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '.';
}

Result<std::vector<Token>> tokenize(const std::string& s) {
    std::vector<Token> out;
    size_t i = 0;
    while (i < s.size()) {
        char c = s[i];
        if (std::isspace(static_cast<unsigned char>(c))) {
            ++i;
            continue;
        }
        Token t;
        t.column = i + 1;
        if (std::isdigit(static_cast<unsigned char>(c)) ||
            (c == '.' && i + 1 < s.size() && std::isdigit(static_cast<unsigned char>(s[i + 1])))) {
            const char* begin = s.c_str() + i;
            char* end = nullptr;
            t.num = std::strtod(begin, &end);
            t.kind = Token::Kind::Number;
            t.text = std::string(begin, static_cast<size_t>(end - begin));
            i += static_cast<size_t>(end - begin);
            if (i < s.size() && name_start(s[i]))
                return Status::error("column " + std::to_string(i + 1) + ": '" +
                                     s.substr(t.column - 1, 1 + i - t.column + 1) +
                                     "' is not a number (a name cannot start with a digit)");
        } else if (c == '"' || c == '\'') {
            size_t close = s.find(c, i + 1);
            if (close == std::string::npos)
                return Status::error("column " + std::to_string(i + 1) + ": a string that is never closed");
            t.kind = Token::Kind::String;
            t.text = s.substr(i + 1, close - i - 1);
            i = close + 1;
        } else if (name_start(c)) {
            size_t j = i;
            while (j < s.size()) {
                if (name_char(s[j])) {
                    ++j;
                } else if (s[j] == '[') {
                    // A list index belongs to the name: `network.bandwidth[0]`.
                    size_t k = j + 1;
                    while (k < s.size() && std::isdigit(static_cast<unsigned char>(s[k])))
                        ++k;
                    if (k == j + 1 || k >= s.size() || s[k] != ']') break;
                    j = k + 1;
                } else if (s[j] == '-' && j + 1 < s.size() &&
                           std::isalpha(static_cast<unsigned char>(s[j + 1])) && j > i &&
                           std::isalnum(static_cast<unsigned char>(s[j - 1]))) {
                    ++j; // `all-reduce-implementation`
                } else {
                    break;
                }
            }
            t.kind = Token::Kind::Name;
            t.text = s.substr(i, j - i);
            i = j;
        } else {
            static const char* kOps[] = {"==", "!=", "<=", ">=", "&&", "||", "+", "-", "*", "/",
                                         "%",  "<",  ">",  "!",  "(",  ")",  ",", "[", "]"};
            bool found = false;
            for (const char* op : kOps) {
                size_t n = std::char_traits<char>::length(op);
                if (s.compare(i, n, op) == 0) {
                    t.kind = Token::Kind::Op;
                    t.text = op;
                    i += n;
                    found = true;
                    break;
                }
            }
            if (!found) {
                std::string hint = c == '='   ? " (use == to compare)"
                                   : c == '&' ? " (use &&)"
                                   : c == '|' ? " (use ||)"
                                              : "";
                return Status::error("column " + std::to_string(i + 1) + ": unexpected character '" +
                                     std::string(1, c) + "'" + hint);
            }
        }
        out.push_back(std::move(t));
    }
    Token end;
    end.column = s.size() + 1;
    out.push_back(end);
    return out;
}

} // namespace

// [SECTION] Parser

class ExprParser {
public:
    ExprParser(Expr& e, std::vector<Token> toks, const json& doc) : e_(e), t_(std::move(toks)), doc_(doc) {}

    Status parse() {
        int root = binary(0);
        if (root < 0) return problem_;
        if (peek().kind != Token::Kind::End)
            return Status::error("column " + std::to_string(peek().column) + ": unexpected '" + peek().text +
                                 "' (an operator was expected)");
        e_.root_ = root;
        return Status::ok();
    }

private:
    using Node = Expr::Node;
    const Token& peek() const { return t_[pos_]; }
    bool is_op(const char* op) const { return peek().kind == Token::Kind::Op && peek().text == op; }
    int fail(size_t column, const std::string& what) {
        if (problem_.is_ok()) problem_ = Status::error("column " + std::to_string(column) + ": " + what);
        return -1;
    }
    int add(Node n) {
        e_.nodes_.push_back(std::move(n));
        return static_cast<int>(e_.nodes_.size()) - 1;
    }
    static int precedence(const std::string& op) {
        if (op == "||") return 1;
        if (op == "&&") return 2;
        if (op == "==" || op == "!=") return 3;
        if (op == "<" || op == "<=" || op == ">" || op == ">=") return 4;
        if (op == "+" || op == "-") return 5;
        if (op == "*" || op == "/" || op == "%") return 6;
        return 0;
    }

    // Precedence climbing: every binary operator is left-associative.
    int binary(int min_prec) {
        // Bounded nesting, so a pathological spec cannot exhaust the stack (each level is a few frames).
        struct Depth {
            int& d;
            explicit Depth(int& x) : d(++x) {}
            ~Depth() { --d; }
        } guard(depth_);
        if (depth_ > kMaxDepth)
            return fail(peek().column, "nested deeper than " + std::to_string(kMaxDepth) + " levels");
        int lhs = unary();
        if (lhs < 0) return -1;
        while (peek().kind == Token::Kind::Op) {
            int p = precedence(peek().text);
            if (p == 0 || p < min_prec) break;
            Token op = peek();
            ++pos_;
            if (peek().kind == Token::Kind::End)
                return fail(peek().column, "an operand was expected after '" + op.text + "'");
            int rhs = binary(p + 1);
            if (rhs < 0) return -1;
            Node n;
            n.op = Node::Op::Binary;
            n.name = op.text;
            n.column = op.column;
            n.kids = {lhs, rhs};
            lhs = add(std::move(n));
        }
        return lhs;
    }

    int unary() {
        if (is_op("!") || is_op("-")) {
            if (++unary_run_ > kMaxDepth) return fail(peek().column, "too many unary operators in a row");
            Token op = peek();
            ++pos_;
            int k = unary();
            if (k < 0) return -1;
            Node n;
            n.op = Node::Op::Unary;
            n.name = op.text;
            n.column = op.column;
            n.kids = {k};
            return add(std::move(n));
        }
        return primary();
    }

    int primary() {
        unary_run_ = 0;
        Token t = peek();
        Node n;
        n.column = t.column;
        switch (t.kind) {
        case Token::Kind::End:
            return fail(t.column, "an operand was expected at the end");
        case Token::Kind::Number:
            ++pos_;
            n.literal.kind = ExprValue::Kind::Number;
            n.literal.num = t.num;
            return add(std::move(n));
        case Token::Kind::String:
            ++pos_;
            n.literal.kind = ExprValue::Kind::String;
            n.literal.str = t.text;
            return add(std::move(n));
        case Token::Kind::Name: {
            ++pos_;
            if (t.text == "true" || t.text == "false") {
                n.literal.kind = ExprValue::Kind::Bool;
                n.literal.b = t.text == "true";
                return add(std::move(n));
            }
            if (is_op("(")) return call(t);
            if (t.text == "npus") {
                n.op = Node::Op::Npus;
                return add(std::move(n));
            }
            auto path = parse_json_path(t.text);
            if (!path.is_ok()) return fail(t.column, "bad path " + path.status().message());
            std::string why;
            if (!find_at(doc_, path.value(), &why))
                return fail(t.column, "unknown path '" + t.text + "': " + why);
            n.op = Node::Op::Path;
            n.path = std::move(path.value());
            return add(std::move(n));
        }
        case Token::Kind::Op:
            if (t.text == "(") {
                ++pos_;
                int inner = binary(0);
                if (inner < 0) return -1;
                if (!is_op(")"))
                    return fail(peek().column,
                                "')' was expected to close the '(' of column " + std::to_string(t.column));
                ++pos_;
                return inner;
            }
            if (t.text == "[") {
                ++pos_;
                n.op = Node::Op::List;
                if (!list_items(n, "]")) return -1;
                return add(std::move(n));
            }
            return fail(t.column, "an operand was expected, not '" + t.text + "'");
        }
        return fail(t.column, "an operand was expected");
    }

    int call(const Token& name) {
        static const char* kFunctions[] = {"product", "sum", "min", "max", "len"};
        bool known = false;
        for (const char* f : kFunctions)
            known = known || name.text == f;
        if (!known)
            return fail(name.column,
                        "unknown function '" + name.text + "' (product, sum, min, max, len are known)");
        ++pos_; // '('
        Node n;
        n.op = Node::Op::Call;
        n.name = name.text;
        n.column = name.column;
        if (!list_items(n, ")")) return -1;
        if (n.kids.empty()) return fail(name.column, name.text + "() needs an argument");
        if ((name.text == "product" || name.text == "sum" || name.text == "len") && n.kids.size() != 1)
            return fail(name.column, name.text + "() takes one argument (a list)");
        return add(std::move(n));
    }

    // Comma-separated expressions up to `close` (already past the opening bracket).
    bool list_items(Node& n, const char* close) {
        if (is_op(close)) {
            ++pos_;
            return true;
        }
        for (;;) {
            int k = binary(0);
            if (k < 0) return false;
            n.kids.push_back(k);
            if (is_op(close)) {
                ++pos_;
                return true;
            }
            if (!is_op(",")) {
                fail(peek().column, std::string("',' or '") + close + "' was expected");
                return false;
            }
            ++pos_;
        }
    }

    static constexpr int kMaxDepth = 100;
    Expr& e_;
    std::vector<Token> t_;
    const json& doc_;
    size_t pos_ = 0;
    int depth_ = 0;
    int unary_run_ = 0;
    Status problem_;
};

Result<Expr> Expr::compile(const std::string& text, const json& doc) {
    // Long chains (`1 + 1 + ...`) make deep trees, which evaluate recursively: bound the length too.
    if (text.size() > 4000)
        return Status::error("longer than 4000 characters; split it into several constraints");
    Expr e;
    e.text_ = text;
    auto toks = tokenize(text);
    if (!toks.is_ok()) return toks.status();
    ExprParser p(e, std::move(toks.value()), doc);
    Status st = p.parse();
    if (!st.is_ok()) return st;
    return e;
}

// [SECTION] Evaluation

ExprValue to_expr_value(const json& v) {
    ExprValue out;
    if (v.is_boolean()) {
        out.kind = ExprValue::Kind::Bool;
        out.b = v.get<bool>();
    } else if (v.is_number()) {
        out.kind = ExprValue::Kind::Number;
        out.num = v.get<double>();
    } else if (v.is_string()) {
        out.kind = ExprValue::Kind::String;
        out.str = v.get<std::string>();
    } else if (v.is_array()) {
        out.kind = ExprValue::Kind::List;
        for (const auto& x : v)
            out.list.push_back(to_expr_value(x));
    }
    return out;
}

std::string describe(const ExprValue& v) {
    switch (v.kind) {
    case ExprValue::Kind::Null:
        return "null";
    case ExprValue::Kind::Bool:
        return v.b ? "true" : "false";
    case ExprValue::Kind::Number: {
        char buf[32];
        std::snprintf(buf, sizeof buf, "%.10g", v.num);
        return buf;
    }
    case ExprValue::Kind::String:
        return "\"" + v.str + "\"";
    case ExprValue::Kind::List: {
        std::string s = "[";
        for (size_t i = 0; i < v.list.size(); ++i)
            s += (i ? ", " : "") + describe(v.list[i]);
        return s + "]";
    }
    }
    return "?";
}

namespace {

bool equal(const ExprValue& a, const ExprValue& b) {
    if (a.kind != b.kind) return false;
    switch (a.kind) {
    case ExprValue::Kind::Null:
        return true;
    case ExprValue::Kind::Bool:
        return a.b == b.b;
    case ExprValue::Kind::Number:
        return a.num == b.num;
    case ExprValue::Kind::String:
        return a.str == b.str;
    case ExprValue::Kind::List:
        if (a.list.size() != b.list.size()) return false;
        for (size_t i = 0; i < a.list.size(); ++i)
            if (!equal(a.list[i], b.list[i])) return false;
        return true;
    }
    return false;
}

ExprValue number(double x) {
    ExprValue v;
    v.kind = ExprValue::Kind::Number;
    v.num = x;
    return v;
}
ExprValue boolean(bool x) {
    ExprValue v;
    v.kind = ExprValue::Kind::Bool;
    v.b = x;
    return v;
}

} // namespace

bool Expr::eval(const json& doc, ExprValue& out, std::string& error) const {
    return eval_node(root_, doc, out, error);
}

bool Expr::holds(const json& doc, bool& ok, std::string& error) const {
    ExprValue v;
    ok = eval(doc, v, error);
    if (!ok) return false;
    if (v.kind != ExprValue::Kind::Bool) {
        ok = false;
        error = "the constraint gives " + describe(v) + ", not true or false";
        return false;
    }
    return v.b;
}

bool scenario_npus(const json& doc, double& out, std::string& why) {
    static const JsonPath kHardware{"hardware", {{"hardware", 0, false}}};
    if (const json* hw = find_at(doc, kHardware); hw && hw->is_object()) {
        // Absent keys take the description's defaults (hardware_types.h), as the parser gives them.
        const config::HardwareConfig defaults;
        double p = 1;
        for (auto [key, fallback] : {std::pair<const char*, double>{"nodes", defaults.nodes},
                                     {"gpus_per_node", defaults.gpus_per_node}}) {
            if (!hw->contains(key)) {
                p *= fallback;
                continue;
            }
            if (!(*hw)[key].is_number()) {
                why = std::string("hardware.") + key + " is not a number";
                return false;
            }
            p *= (*hw)[key].get<double>();
        }
        out = p;
        return true;
    }
    static const JsonPath kCounts{"network.npus_count", {{"network", 0, false}, {"npus_count", 0, false}}};
    const json* v = find_at(doc, kCounts);
    if (!v || !v->is_array()) {
        why = "the scenario has no network.npus_count list";
        return false;
    }
    double p = 1;
    for (const auto& x : *v) {
        if (!x.is_number()) {
            why = "network.npus_count holds a non-number";
            return false;
        }
        p *= x.get<double>();
    }
    out = p;
    return true;
}

bool Expr::eval_node(int i, const json& doc, ExprValue& out, std::string& error) const {
    const Node& n = nodes_[static_cast<size_t>(i)];
    auto at = [&](const std::string& what) {
        error = "column " + std::to_string(n.column) + ": " + what;
        return false;
    };
    switch (n.op) {
    case Node::Op::Literal:
        out = n.literal;
        return true;
    case Node::Op::Path: {
        std::string why;
        const json* v = find_at(doc, n.path, &why);
        if (!v) return at(n.path.text + ": " + why);
        out = to_expr_value(*v);
        return true;
    }
    case Node::Op::Npus: {
        double p = 0;
        std::string why;
        if (!scenario_npus(doc, p, why)) return at("npus: " + why);
        out = number(p);
        return true;
    }
    case Node::Op::List: {
        out = ExprValue();
        out.kind = ExprValue::Kind::List;
        for (int k : n.kids) {
            ExprValue v;
            if (!eval_node(k, doc, v, error)) return false;
            out.list.push_back(std::move(v));
        }
        return true;
    }
    case Node::Op::Unary: {
        ExprValue v;
        if (!eval_node(n.kids[0], doc, v, error)) return false;
        if (n.name == "!") {
            if (v.kind != ExprValue::Kind::Bool) return at("'!' needs true or false, not " + describe(v));
            out = boolean(!v.b);
        } else {
            if (v.kind != ExprValue::Kind::Number) return at("'-' needs a number, not " + describe(v));
            out = number(-v.num);
        }
        return true;
    }
    case Node::Op::Binary: {
        ExprValue a;
        if (!eval_node(n.kids[0], doc, a, error)) return false;
        const std::string& op = n.name;
        // && and || short-circuit, so `len(x) > 0 && x[0] == 1`-style guards work.
        if (op == "&&" || op == "||") {
            if (a.kind != ExprValue::Kind::Bool)
                return at("'" + op + "' needs true or false, not " + describe(a));
            if (op == "&&" && !a.b) return out = boolean(false), true;
            if (op == "||" && a.b) return out = boolean(true), true;
            ExprValue b;
            if (!eval_node(n.kids[1], doc, b, error)) return false;
            if (b.kind != ExprValue::Kind::Bool)
                return at("'" + op + "' needs true or false, not " + describe(b));
            out = boolean(b.b);
            return true;
        }
        ExprValue b;
        if (!eval_node(n.kids[1], doc, b, error)) return false;
        if (op == "==") return out = boolean(equal(a, b)), true;
        if (op == "!=") return out = boolean(!equal(a, b)), true;
        if (op == "<" || op == "<=" || op == ">" || op == ">=") {
            int c = 0;
            if (a.kind == ExprValue::Kind::Number && b.kind == ExprValue::Kind::Number)
                c = a.num < b.num ? -1 : a.num > b.num ? 1 : 0;
            else if (a.kind == ExprValue::Kind::String && b.kind == ExprValue::Kind::String)
                c = a.str.compare(b.str) < 0 ? -1 : a.str.compare(b.str) > 0 ? 1 : 0;
            else
                return at("'" + op + "' compares two numbers or two strings, not " + describe(a) + " and " +
                          describe(b));
            bool r = op == "<" ? c < 0 : op == "<=" ? c <= 0 : op == ">" ? c > 0 : c >= 0;
            out = boolean(r);
            return true;
        }
        if (a.kind != ExprValue::Kind::Number || b.kind != ExprValue::Kind::Number)
            return at("'" + op + "' needs two numbers, not " + describe(a) + " and " + describe(b));
        if (op == "+") out = number(a.num + b.num);
        if (op == "-") out = number(a.num - b.num);
        if (op == "*") out = number(a.num * b.num);
        if (op == "/" || op == "%") {
            if (b.num == 0) return at("'" + op + "' by zero");
            out = number(op == "/" ? a.num / b.num : std::fmod(a.num, b.num));
        }
        return true;
    }
    case Node::Op::Call: {
        std::vector<ExprValue> args;
        for (int k : n.kids) {
            ExprValue v;
            if (!eval_node(k, doc, v, error)) return false;
            args.push_back(std::move(v));
        }
        if (n.name == "len") {
            if (args[0].kind == ExprValue::Kind::List) return out = number(double(args[0].list.size())), true;
            if (args[0].kind == ExprValue::Kind::String)
                return out = number(double(args[0].str.size())), true;
            return at("len() needs a list or a string, not " + describe(args[0]));
        }
        // min/max of several arguments or of one list; product/sum of one list.
        const std::vector<ExprValue>& items =
            args.size() == 1 && args[0].kind == ExprValue::Kind::List ? args[0].list : args;
        if (n.name == "product" || n.name == "sum") {
            if (args[0].kind != ExprValue::Kind::List)
                return at(n.name + "() needs a list, not " + describe(args[0]));
        }
        if (items.empty()) {
            if (n.name == "product") return out = number(1), true;
            if (n.name == "sum") return out = number(0), true;
            return at(n.name + "() of an empty list");
        }
        double acc = n.name == "product" ? 1 : n.name == "sum" ? 0 : 0;
        for (size_t k = 0; k < items.size(); ++k) {
            if (items[k].kind != ExprValue::Kind::Number)
                return at(n.name + "() needs numbers, not " + describe(items[k]));
            double x = items[k].num;
            if (n.name == "product")
                acc *= x;
            else if (n.name == "sum")
                acc += x;
            else if (k == 0)
                acc = x;
            else
                acc = n.name == "min" ? std::min(acc, x) : std::max(acc, x);
        }
        out = number(acc);
        return true;
    }
    }
    return at("internal: unknown node");
}

} // namespace astrolabe::search

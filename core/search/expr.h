// The constraint language of search specs: expressions over scenario paths, knob paths and `npus`.
//
//   workload.generate.dp * workload.generate.tp == npus && network.bandwidth[0] >= 2 * network.bandwidth[1]
//
// Values are numbers (doubles), booleans, strings, lists and null. Operators, loosest first: `||`, `&&`,
// `== !=`, `< <= > >=`, `+ -`, `* / %`, unary `! -`. Functions: product(list), sum(list), len(list|string),
// min(list | a, b, ...), max(...). Literals: numbers, "strings" or 'strings', true, false, [lists]. A name
// is a path (json_path.h); a `-` between letters belongs to the name (`all-reduce-implementation`), so
// subtraction of two names needs spaces (`a - b`). `npus` is the scenario's NPU count (scenario_npus).
// Internal to core/search (nlohmann_json in the interface).
#pragma once

#include "core/base/status.h"
#include "core/search/json_path.h"

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace astrolabe::search {

struct ExprValue {
    enum class Kind { Null, Bool, Number, String, List };
    Kind kind = Kind::Null;
    bool b = false;
    double num = 0;
    std::string str;
    std::vector<ExprValue> list;
};

// The NPUs a scenario document describes, what `npus` evaluates to: a hardware description's GPUs, nodes x
// gpus_per_node (absent: the description's defaults, 1 and 8), or the product of `network.npus_count`.
// False plus `why` ("hardware.nodes is not a number") when the document cannot say.
bool scenario_npus(const nlohmann::json& doc, double& out, std::string& why);

class Expr {
public:
    // Compiles `text`; a syntax error names its 1-based column ("column 14: an operand was expected after
    // '*'"). Paths are checked against `doc` (they must exist there, or be `npus`): an unknown one names
    // its column and the nearest key.
    static Result<Expr> compile(const std::string& text, const nlohmann::json& doc);

    // Evaluates against a scenario; false plus `error` on a runtime problem (a type mismatch, / by zero).
    bool eval(const nlohmann::json& doc, ExprValue& out, std::string& error) const;

    // Evaluates as a constraint: true when satisfied. A non-boolean result counts as an error.
    bool holds(const nlohmann::json& doc, bool& ok, std::string& error) const;

    const std::string& text() const { return text_; }

private:
    struct Node {
        enum class Op { Literal, Path, Npus, Unary, Binary, Call, List } op = Op::Literal;
        std::string name; // operator or function name
        ExprValue literal;
        JsonPath path;
        std::vector<int> kids;
        size_t column = 0;
    };
    bool eval_node(int n, const nlohmann::json& doc, ExprValue& out, std::string& error) const;

    std::string text_;
    std::vector<Node> nodes_;
    int root_ = -1;
    friend class ExprParser;
};

// A JSON value as an expression value (objects become null).
ExprValue to_expr_value(const nlohmann::json& v);
std::string describe(const ExprValue& v);

} // namespace astrolabe::search

// A search spec (`astrolabe.search/1`): a base scenario, the knobs to turn, constraints, an objective and
// the prices of the network cost model. docs/search.md documents the format.
//
// Internal to core/search (nlohmann_json in the interface): front ends reach it through SearchRun.
#pragma once

#include "core/base/status.h"
#include "core/search/cost_model.h"
#include "core/search/expr.h"
#include "core/search/json_path.h"

#include <nlohmann/json.hpp>

#include <functional>
#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace astrolabe::search {

enum class Objective { StepTime, StepTimeXNetworkCost, StepTimeXBandwidth, Pareto };

struct Knob {
    JsonPath path;
    std::vector<nlohmann::json> values;
    std::vector<std::string> value_text; // each value as canonical JSON (one line, keys sorted)
    bool numeric = false;                // every value is a number (agents may treat the knob as ordered)
};

struct Constraint {
    std::string text;
    Expr expr;
};

struct SearchSpec {
    nlohmann::json base; // the scenario every point starts from
    std::vector<Knob> knobs;
    std::vector<Constraint> constraints;
    Objective objective = Objective::StepTime;
    std::string objective_name = "step_time";
    CostModel cost;
    // Agent parameters from the spec's `agents` section: agent name -> parameter -> value.
    std::map<std::string, std::map<std::string, double>> agent_params;
    std::string fingerprint; // canonical text of everything that decides a point's result (resume checks it)
};

// Reads `base_file` (a path as written in the spec; the front end resolves it against the spec's folder).
using ReadBaseFile = std::function<Result<std::string>(const std::string& path)>;

// Parses and checks a spec: every problem comes back at once, one line each, naming the knob (by path) or
// the constraint (by number and column).
Result<SearchSpec> parse_search_spec(std::string_view text, const std::string& source,
                                     const ReadBaseFile& read_base);

Objective objective_from_name(const std::string& name, bool& ok);

} // namespace astrolabe::search

// A search spec as a form a person fills in (the browser's Search tab): the fields of a scenario worth
// searching over with suggested values, the parallelism constraint, and the way back to spec text.
//
// Values are written as a comma-separated list of JSON values (`1, 2, 4` or `["ring","ring"], ["direct",
// "ring"]`), so any value a spec can hold can be typed. A spec loaded into a form and composed again gives
// the same knobs, values and order, so a search run from the form logs what `astrolabe search` logs for the
// original spec.
#pragma once

#include "core/base/status.h"

#include <string>
#include <string_view>
#include <vector>

namespace astrolabe::search {

struct KnobField {
    std::string path;   // a knob path (json_path.h), e.g. "network.bandwidth[0]"
    std::string values; // comma-separated JSON values
    bool ticked = false;
};

struct SpecForm {
    std::string base; // the scenario (JSON text)
    std::vector<KnobField> fields;
    std::string constraints; // one per line
    std::string objective = "step_time";
    std::string rest = "{}"; // the spec's other keys (cost, agents, description) as a JSON object
};

// The fields of a scenario worth searching over, each with its current value first: the generator's
// parallelism (dp, tp, pp, sp) and micro-batch, per-dimension topology and bandwidth, the collective
// implementations, chunks, dataset splits, scheduling policy and collective optimisation (the ones the
// scenario has). None is ticked.
std::vector<KnobField> candidate_knobs(const std::string& scenario_json);

// "workload.generate.dp * workload.generate.tp * ... == npus" over the parallelism keys a generated
// transformer workload has; "" for other workloads.
std::string parallelism_constraint(const std::string& scenario_json);

// The form of a spec: its knobs first (ticked, in the spec's order), then the base's other candidates.
// A `base_file` is refused: the form holds its base inline.
Result<SpecForm> spec_form(std::string_view spec_text, const std::string& source);

// A form for `scenario_json` with no knob ticked and the parallelism constraint filled in.
SpecForm form_for_scenario(const std::string& scenario_json);

// The spec text of a form (its ticked fields are the knobs, in order). A values list that is not JSON is
// named by its knob path with the column; everything else is checked by SearchRun::create.
Result<std::string> compose_spec(const SpecForm& form);

// A whole search for a share link: the spec, the agent, the seed and the budget, as one JSON object
// {"schema": "astrolabe.search-link/1", "spec": {...}, "agent", "seed", "budget"}.
struct SearchLink {
    std::string spec; // spec text
    std::string agent = "random";
    uint64_t seed = 1;
    uint64_t budget = 100;
};
std::string search_link_json(const SearchLink& link);
Result<SearchLink> parse_search_link(std::string_view text, const std::string& source);

} // namespace astrolabe::search

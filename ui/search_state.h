// The browser's Search tab without drawing: a search spec as a form over the current scenario (fields to
// tick, values, constraints, objective, agent, budget, seed), a search stepped a few points per frame
// through the evaluator `astrolabe search` uses (core/search/scenario_evaluator.h), its log and the data of
// its charts. Builds natively, so tests check its log against the CLI's.
#pragma once

#include "core/base/status.h"
#include "core/search/scenario_evaluator.h"
#include "core/search/search_run.h"
#include "core/search/spec_form.h"

#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace astrolabe::ui {

enum class SearchPhase : uint8_t { Idle, Running, Done, Cancelled, Failed };
const char* search_phase_name(SearchPhase p);

// One evaluated point as the charts draw it.
struct SearchPoint {
    bool ok = false;
    double step_time_ns = 0;
    double network_cost = 0; // NaN without a price
    double objective = 0;
};

class SearchState {
public:
    SearchState();
    ~SearchState();

    static const std::vector<const char*>& agents();     // grid, random, ga, aco, bo
    static const std::vector<const char*>& objectives(); // the spec's objective names

    // [SECTION] form
    search::SpecForm& form() { return form_; }
    const search::SpecForm& form() const { return form_; }
    // Follows the scenario being edited: fields it no longer has go (unless ticked), new ones are added
    // unticked, ticks and values stay; a constraint that was the pre-filled one follows the new scenario.
    void follow_scenario(const std::string& scenario_json);
    // Takes a spec's knobs, constraints, objective and other keys; its base is form().base, which the caller
    // loads into the scenario editor. On error the form is unchanged and message() says why.
    Status load_spec(const std::string& text, const std::string& source);
    // What the form was last loaded from, for the spec combo: `source` of the last load_spec ("quick.json"),
    // or for a search link the bundled spec (name, file text) whose form is the link's, else "shared link";
    // "" before any load. load_link loads with source "search link".
    std::string spec_label(const std::vector<std::pair<std::string, std::string>>& bundled) const;
    // Counts the loads, so that a front end notices a new one.
    uint32_t spec_loads() const { return spec_loads_; }
    // What the spec combo shows (the panel sets it as it draws), in summary_json() for the browser tests.
    std::string spec_combo;
    int agent = 1; // index into agents()
    int budget = 60;
    int seed = 1;
    // The spec text Run would search (or why the form is not a spec yet).
    Result<std::string> spec_text() const { return search::compose_spec(form_); }

    // [SECTION] run
    // Starts a search of the form; false (with message()) when the spec is refused. `host` supplies the
    // files a scenario names (bundled samples) and must outlive the search.
    bool start(SessionHost& host);
    // Works on points for about `budget_ms` of wall time, a piece of a point's set-up or a slice of its run
    // at a time (ScenarioEvaluator::advance), at least one piece per call.
    void step(double budget_ms);
    void cancel();
    SearchPhase phase() const { return phase_; }
    const std::string& message() const { return message_; }
    // evaluations.jsonl so far: the bytes `astrolabe search` writes for the same spec, agent, seed, budget.
    const std::string& evaluations_jsonl() const { return jsonl_; }
    const std::vector<SearchPoint>& points() const { return points_; }
    // Points of the batch in flight evaluated so far (logged when the batch is complete, or at Cancel).
    size_t batch_done() const { return results_.size(); }
    const std::vector<double>& best_so_far() const { return best_; } // objective after each evaluation
    const std::vector<size_t>& pareto() const { return pareto_; }    // indices into points(), cost ascending
    std::string point_knobs(size_t i) const;                         // "path = value" lines
    std::string point_scenario(size_t i) const;                      // runnable scenario JSON
    std::string best_scenario() const;
    // The other files `astrolabe search` writes, for the points logged so far (its same code, search_run.h).
    std::string evaluations_csv() const;
    std::string best_so_far_svg() const;
    std::string pareto_svg() const;
    double evaluations_per_s() const;
    uint64_t space_budget() const { return run_ ? run_->budget() : 0; }
    int selected = -1; // the point last clicked in a chart

    // [SECTION] sharing
    // The whole search (spec, agent, seed, budget) for a link: "search=..." (a URL fragment).
    Result<std::string> share_fragment() const;
    // Restores the form, agent, seed and budget from a link (a URL, a fragment or its value); the caller
    // loads form().base into the editor.
    Status load_link(const std::string& link);

    // {"phase", "evaluations", "budget", "best_step_time_ns", "pareto", "message", "ticked": [...],
    //  "longest_piece": the longest uncut piece of a point's set-up, "12.3 ms generate" (a measurement),
    //  "spec_combo": what the spec combo shows, ...}
    // for window.astrolabe.searchState() and the browser tests.
    std::string summary_json() const;

private:
    void finish(SearchPhase phase);
    void absorb();

    search::SpecForm form_;
    std::string auto_constraint_; // the pre-filled constraint of the current base
    std::string spec_source_;     // the last load_spec's source, and the form it gave as spec text
    std::string loaded_spec_;
    uint32_t spec_loads_ = 0;
    SearchPhase phase_ = SearchPhase::Idle;
    std::string message_;
    std::unique_ptr<search::SearchRun> run_;
    std::unique_ptr<search::ScenarioEvaluator> evaluator_;
    std::vector<std::string> batch_;
    std::vector<search::EvalResult> results_;
    bool in_point_ = false; // the evaluator holds a point begun in an earlier frame
    std::string jsonl_;
    std::vector<SearchPoint> points_;
    std::vector<double> best_;
    std::vector<size_t> pareto_;
    double wall_s_ = 0;
    double longest_piece_ms_ = 0; // the longest piece of a point's set-up so far, and its name
    std::string longest_piece_;
};

} // namespace astrolabe::ui

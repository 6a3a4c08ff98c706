// The Search tab's state (search_state.h).
#include "ui/search_state.h"

#include "core/base/json_writer.h"
#include "core/session/share_link.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <limits>
#include <map>
#include <set>

namespace astrolabe::ui {

namespace {

using Clock = std::chrono::steady_clock;

double ms_since(Clock::time_point t0) {
    return std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
}

constexpr const char* kLinkKey = "search=";
constexpr const char* kLinkSource = "search link"; // load_spec's source for a link's spec

} // namespace

const char* search_phase_name(SearchPhase p) {
    switch (p) {
    case SearchPhase::Idle:
        return "idle";
    case SearchPhase::Running:
        return "running";
    case SearchPhase::Done:
        return "done";
    case SearchPhase::Cancelled:
        return "cancelled";
    case SearchPhase::Failed:
        return "failed";
    }
    return "?";
}

SearchState::SearchState() = default;
SearchState::~SearchState() = default;

const std::vector<const char*>& SearchState::agents() {
    static const std::vector<const char*> kAgents = {"grid", "random", "ga", "aco", "bo"};
    return kAgents;
}

const std::vector<const char*>& SearchState::objectives() {
    static const std::vector<const char*> kObjectives = {"step_time", "step_time_x_network_cost",
                                                         "step_time_x_bandwidth", "pareto"};
    return kObjectives;
}

// [SECTION] form
void SearchState::follow_scenario(const std::string& scenario_json) {
    if (scenario_json == form_.base) return;
    std::vector<search::KnobField> fresh = search::candidate_knobs(scenario_json);
    std::set<std::string> offered;
    for (const auto& f : fresh)
        offered.insert(f.path);
    std::vector<search::KnobField> fields;
    std::set<std::string> kept;
    for (auto& f : form_.fields) // the fields as they were, in their order (the knobs' order is the spec's)
        if (f.ticked || offered.count(f.path)) {
            kept.insert(f.path);
            fields.push_back(std::move(f));
        }
    for (auto& f : fresh)
        if (!kept.count(f.path)) fields.push_back(std::move(f));
    form_.fields = std::move(fields);
    const std::string constraint = search::parallelism_constraint(scenario_json);
    if (form_.base.empty() || form_.constraints == auto_constraint_) form_.constraints = constraint;
    auto_constraint_ = constraint;
    form_.base = scenario_json;
}

Status SearchState::load_spec(const std::string& text, const std::string& source) {
    auto form = search::spec_form(text, source);
    if (!form.is_ok()) {
        message_ = form.status().message();
        return form.status();
    }
    form_ = std::move(form.value());
    auto_constraint_ = search::parallelism_constraint(form_.base);
    message_.clear();
    spec_source_ = source;
    auto composed = spec_text();
    loaded_spec_ = composed.is_ok() ? composed.value() : std::string();
    ++spec_loads_;
    return Status::ok();
}

std::string SearchState::spec_label(const std::vector<std::pair<std::string, std::string>>& bundled) const {
    if (spec_source_ != kLinkSource) return spec_source_;
    // A link carries the form as spec text: a bundled spec shared unchanged composes to the same text.
    for (const auto& [name, text] : bundled) {
        auto form = search::spec_form(text, name);
        if (!form.is_ok()) continue;
        auto composed = search::compose_spec(form.value());
        if (composed.is_ok() && !loaded_spec_.empty() && composed.value() == loaded_spec_) return name;
    }
    return "shared link";
}

// [SECTION] run
bool SearchState::start(SessionHost& host) {
    cancel();
    run_.reset();
    batch_.clear();
    results_.clear();
    jsonl_.clear();
    points_.clear();
    best_.clear();
    pareto_.clear();
    selected = -1;
    wall_s_ = 0;
    longest_piece_ms_ = 0;
    longest_piece_.clear();
    message_.clear();
    phase_ = SearchPhase::Failed;
    auto spec = spec_text();
    if (!spec.is_ok()) {
        message_ = spec.status().message();
        return false;
    }
    search::SearchOptions options;
    options.agent = agents()[size_t(agent)];
    options.budget = budget > 0 ? uint64_t(budget) : 0;
    options.seed = seed >= 0 ? uint64_t(seed) : 0;
    auto no_files = [](const std::string& path) -> Result<std::string> {
        return Status::error(path + ": the browser has no files; put the scenario inline as \"base\"");
    };
    auto run = search::SearchRun::create(spec.value(), "search", no_files, options);
    if (!run.is_ok()) {
        message_ = run.status().message();
        return false;
    }
    run_ = std::make_unique<search::SearchRun>(std::move(run.value()));
    evaluator_ = std::make_unique<search::ScenarioEvaluator>(host);
    in_point_ = false;
    phase_ = SearchPhase::Running;
    return true;
}

void SearchState::step(double budget_ms) {
    if (phase_ != SearchPhase::Running) return;
    const auto t0 = Clock::now();
    // As run_search (core/search/search_run.h): a batch is proposed, its points are simulated in order,
    // and the results go back together; here a batch may span several frames.
    do {
        if (results_.size() == batch_.size()) {
            if (!batch_.empty()) run_->complete_batch(results_);
            batch_.clear();
            results_.clear();
            batch_ = run_->next_batch();
            absorb();
            if (batch_.empty()) {
                wall_s_ += ms_since(t0) / 1000;
                finish(SearchPhase::Done);
                return;
            }
        }
        // A point may span frames too: a slow one (a large generated step) is simulated a slice at a time,
        // so the page keeps drawing and Cancel is seen within a frame.
        if (!in_point_) {
            evaluator_->begin(batch_[results_.size()]);
            in_point_ = true;
        }
        const bool more = evaluator_->advance(std::max(1.0, budget_ms - ms_since(t0)));
        if (evaluator_->longest_piece_ms() > longest_piece_ms_) {
            longest_piece_ms_ = evaluator_->longest_piece_ms();
            longest_piece_ = evaluator_->longest_piece();
        }
        if (!more) {
            results_.push_back(evaluator_->finish());
            in_point_ = false;
        }
    } while (ms_since(t0) < budget_ms);
    wall_s_ += ms_since(t0) / 1000;
}

void SearchState::cancel() {
    if (phase_ != SearchPhase::Running) return;
    // The batch's points finished so far are logged, up to the first one not finished (the point in flight
    // is dropped): results are taken in proposal order, so the log stays a prefix of the uncut search's.
    if (!batch_.empty()) {
        run_->complete_prefix(results_);
        absorb();
    }
    finish(SearchPhase::Cancelled);
}

void SearchState::finish(SearchPhase phase) {
    phase_ = phase;
    batch_.clear(); // points proposed but not logged: a cancelled search loses the one in flight
    results_.clear();
    evaluator_.reset();
    in_point_ = false;
    if (run_) message_ = phase == SearchPhase::Cancelled ? "search cancelled" : run_->stop_reason();
}

// The lines finished since the last call, and the charts' data for them.
void SearchState::absorb() {
    auto lines = run_->take_lines();
    if (lines.empty()) return;
    for (auto& l : lines)
        jsonl_ += l + "\n";
    while (points_.size() < run_->logged()) {
        const auto p = run_->logged_point(points_.size());
        SearchPoint sp;
        sp.ok = p.status == search::EvalResult::Status::Ok;
        sp.step_time_ns = double(p.step_time_ns);
        sp.network_cost = p.network_cost;
        sp.objective = p.objective;
        points_.push_back(sp);
        double best = best_.empty() ? std::numeric_limits<double>::quiet_NaN() : best_.back();
        if (sp.ok && !std::isnan(sp.objective) && (std::isnan(best) || sp.objective < best))
            best = sp.objective;
        best_.push_back(best);
    }
    pareto_ = run_->pareto_points();
}

std::string SearchState::point_knobs(size_t i) const {
    return run_ && i < run_->logged() ? run_->logged_point(i).knobs : std::string();
}

std::string SearchState::point_scenario(size_t i) const {
    return run_ && i < run_->logged() ? run_->point_scenario_json(i) : std::string();
}

std::string SearchState::best_scenario() const {
    return run_ ? run_->best_scenario_json() : std::string();
}

std::string SearchState::evaluations_csv() const {
    return run_ ? run_->csv() : std::string();
}

std::string SearchState::best_so_far_svg() const {
    return run_ ? run_->best_so_far_svg() : std::string();
}

std::string SearchState::pareto_svg() const {
    return run_ ? run_->pareto_svg() : std::string();
}

double SearchState::evaluations_per_s() const {
    return wall_s_ > 0 && run_ ? double(run_->counts().simulated) / wall_s_ : 0;
}

// [SECTION] sharing
Result<std::string> SearchState::share_fragment() const {
    auto spec = spec_text();
    if (!spec.is_ok()) return spec.status();
    search::SearchLink link;
    link.spec = spec.value();
    link.agent = agents()[size_t(agent)];
    link.seed = uint64_t(std::max(seed, 0));
    link.budget = uint64_t(std::max(budget, 0));
    std::string frag = encode_share_fragment(search::search_link_json(link)); // "s=..."
    frag = kLinkKey + frag.substr(2);
    if (frag.size() > kMaxShareFragment)
        return Status::error("the search is too large for a link (" + std::to_string(frag.size() / 1024) +
                             " KiB compressed, the limit is " + std::to_string(kMaxShareFragment / 1024) +
                             " KiB): download spec.json and share that");
    return frag;
}

Status SearchState::load_link(const std::string& link) {
    const auto value = share_link_param(link, kLinkKey);
    if (!value) {
        message_ = "search link: no search= part";
        return Status::error(message_);
    }
    auto text = decode_share_link("s=" + std::string(*value));
    Result<search::SearchLink> parsed = text.is_ok() ? search::parse_search_link(text.value(), "search link")
                                                     : Result<search::SearchLink>(text.status());
    Status loaded = parsed.is_ok() ? load_spec(parsed.value().spec, kLinkSource) : parsed.status();
    if (!loaded.is_ok()) {
        message_ = "search link: " + loaded.message();
        return Status::error(message_);
    }
    const auto& l = parsed.value();
    for (size_t i = 0; i < agents().size(); ++i)
        if (l.agent == agents()[i]) agent = int(i);
    seed = int(std::min<uint64_t>(l.seed, 1u << 30));
    budget = int(std::min<uint64_t>(l.budget, 1u << 30));
    return Status::ok();
}

std::string SearchState::summary_json() const {
    JsonWriter w(0);
    w.begin_object();
    w.field("phase", search_phase_name(phase_));
    w.field("evaluations", uint64_t(points_.size()));
    w.field("budget", int64_t(budget));
    w.field("agent", agents()[size_t(agent)]);
    w.field("seed", int64_t(seed));
    w.field("objective", form_.objective);
    if (run_ && run_->has_best())
        w.field("best_step_time_ns", run_->best_step_time_ns());
    else
        w.key("best_step_time_ns").null();
    w.field("pareto", uint64_t(pareto_.size()));
    w.field("message", message_);
    w.field("selected", int64_t(selected));
    char piece[64];
    std::snprintf(piece, sizeof piece, "%.1f ms ", longest_piece_ms_);
    w.field("longest_piece", longest_piece_.empty() ? std::string() : piece + longest_piece_);
    w.field("spec_combo", spec_combo);
    w.field("constraints", form_.constraints);
    w.key("ticked").begin_array();
    for (const auto& f : form_.fields)
        if (f.ticked) w.value(f.path + ": " + f.values);
    w.end_array();
    w.end_object();
    return w.str();
}

} // namespace astrolabe::ui

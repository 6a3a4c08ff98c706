// The search driver (search_run.h): proposals in, log lines out.
//
// [SECTION] Points and scenarios
// [SECTION] Creation and resume
// [SECTION] Batches
// [SECTION] External points (--agent stdio)
#include "core/search/search_run.h"

#include "core/config/config_parse.h"
#include "core/search/rng.h"
#include "core/search/search_state.h"

#include <cmath>

namespace astrolabe::search {

using nlohmann::json;

namespace {
// Proposals in a row that bring no new point before the search stops: the agent has converged.
constexpr int kMaxStalls = 50;
} // namespace

// [SECTION] Points and scenarios

std::string number_text(double v) {
    if (std::isnan(v) || std::isinf(v)) return "null";
    return json(v).dump();
}

std::string SearchRun::Impl::key(const Point& p) const {
    std::string k;
    for (size_t i = 0; i < p.size(); ++i)
        k += (i ? "\x1f" : "") + spec.knobs[i].value_text[p[i]];
    return k;
}

json SearchRun::Impl::scenario_of(const Point& p) const {
    json s = spec.base;
    for (size_t i = 0; i < p.size(); ++i)
        set_at(s, spec.knobs[i].path, spec.knobs[i].values[p[i]]);
    return s;
}

bool SearchRun::Impl::feasible(const json& scenario, std::string& reason) const {
    for (size_t i = 0; i < spec.constraints.size(); ++i) {
        bool ok = false;
        std::string error;
        bool holds = spec.constraints[i].expr.holds(scenario, ok, error);
        if (!ok) {
            reason =
                "constraint " + std::to_string(i + 1) + " \"" + spec.constraints[i].text + "\": " + error;
            return false;
        }
        if (!holds) {
            reason = "constraint " + std::to_string(i + 1) + " is false: " + spec.constraints[i].text;
            return false;
        }
    }
    return true;
}

void SearchRun::Impl::fill_metrics(Record& r, const json& scenario) const {
    // The point's network for the cost and bandwidth objectives: the hardware description's (NVLink and
    // NICs, cost_model.h) or the analytical network's dimensions. Unreadable: no cost, and those
    // objectives have no value (the point counts as not simulated for them, never as free).
    NetworkShape net;
    bool have_net = false;
    if (scenario.contains("hardware") && scenario["hardware"].is_object()) {
        auto hw = config::parse_hardware_json(scenario["hardware"].dump(), "hardware");
        if (hw.is_ok()) net = hardware_network(hw.value()), have_net = true;
    } else {
        const json& n = scenario.value("network", json::object());
        auto list = [&](const char* k, auto& out, auto get) {
            if (!n.contains(k) || !n[k].is_array()) return false;
            for (const auto& x : n[k]) {
                if (!get(x, out)) return false;
            }
            return true;
        };
        auto get_str = [](const json& x, std::vector<std::string>& out) {
            if (!x.is_string()) return false;
            out.push_back(x.get<std::string>());
            return true;
        };
        auto get_num = [](const json& x, std::vector<double>& out) {
            if (!x.is_number()) return false;
            out.push_back(x.get<double>());
            return true;
        };
        have_net = list("topology", net.topology, get_str) && list("npus_count", net.npus_count, get_num) &&
                   list("bandwidth", net.bandwidth, get_num);
    }
    if (have_net) {
        auto cost = network_cost(net, spec.cost);
        if (cost.is_ok()) r.network_cost = cost.value();
    }
    if (!r.ok()) return;
    const double t = static_cast<double>(r.step_time_ns);
    switch (spec.objective) {
    case Objective::StepTime:
        r.objective = t;
        break;
    case Objective::StepTimeXNetworkCost:
    case Objective::Pareto: // agents chase the knee of the front: the product of the two
        r.objective = t * r.network_cost;
        break;
    case Objective::StepTimeXBandwidth:
        if (have_net) r.objective = t * npu_bandwidth(net);
        break;
    }
}

double SearchRun::Impl::fitness(const Record& r) const {
    if (!r.ok() || std::isnan(r.objective)) return std::numeric_limits<double>::infinity();
    return r.objective;
}

std::string SearchRun::Impl::line(const Record& r) const {
    std::string s = "{\"index\":" + std::to_string(r.index) + ",\"knobs\":{";
    for (size_t i = 0; i < r.point.size(); ++i)
        s += (i ? "," : "") + json(spec.knobs[i].path.text).dump() + ":" +
             spec.knobs[i].value_text[r.point[i]];
    const char* status = r.status == EvalResult::Status::Ok           ? "ok"
                         : r.status == EvalResult::Status::Infeasible ? "infeasible"
                                                                      : "error";
    s +=
        "},\"status\":\"" + std::string(status) + "\",\"reason\":" + json(r.reason).dump() + ",\"metrics\":{";
    s += "\"step_time_ns\":" + (r.ok() ? std::to_string(r.step_time_ns) : std::string("null"));
    s += ",\"network_cost\":" + number_text(r.network_cost);
    s += ",\"objective\":" + number_text(r.objective) + "}}";
    return s;
}

const Record* SearchRun::Impl::best() const {
    const Record* b = nullptr;
    for (const auto& r : log)
        if (r.ok() && !std::isnan(r.objective) && (!b || r.objective < b->objective)) b = &r;
    return b;
}

// [SECTION] Creation and resume

namespace {

// Looks for one feasible point: every point of a space of up to 200000, else 20000 random draws.
bool any_feasible(const SearchSpace& space, uint64_t& tried) {
    const size_t n = space.sizes.size();
    if (space.size() <= 200000) {
        Point p(n, 0);
        for (;;) {
            ++tried;
            if (space.feasible(p)) return true;
            size_t k = n;
            while (k-- > 0) {
                if (++p[k] < space.sizes[k]) break;
                p[k] = 0;
            }
            if (k == size_t(-1)) return false;
        }
    }
    Rng rng(0);
    Point p(n);
    for (tried = 1; tried <= 20000; ++tried) {
        for (size_t k = 0; k < n; ++k)
            p[k] = static_cast<uint32_t>(rng.below(space.sizes[k]));
        if (space.feasible(p)) return true;
    }
    tried = 20000;
    return false;
}

} // namespace

SearchRun::SearchRun(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
SearchRun::~SearchRun() = default;
SearchRun::SearchRun(SearchRun&&) noexcept = default;
SearchRun& SearchRun::operator=(SearchRun&&) noexcept = default;

Result<SearchRun> SearchRun::create(std::string_view spec_text, const std::string& source,
                                    const std::function<Result<std::string>(const std::string&)>& read_base,
                                    const SearchOptions& options) {
    auto spec = parse_search_spec(spec_text, source, read_base);
    if (!spec.is_ok()) return spec.status();
    auto impl = std::make_unique<Impl>();
    impl->spec = std::move(spec.value());
    impl->options = options;
    Impl* self = impl.get();
    for (const auto& k : self->spec.knobs) {
        self->space.sizes.push_back(static_cast<uint32_t>(k.values.size()));
        std::vector<double> nums;
        if (k.numeric)
            for (const auto& v : k.values)
                nums.push_back(v.get<double>());
        self->space.numeric_values.push_back(std::move(nums));
    }
    // The agents' view of the constraints and of what is already logged; both point into the Impl, which
    // stays put when the SearchRun moves (it is held by pointer).
    self->space.feasible = [self](const Point& p) {
        std::string why;
        return self->feasible(self->scenario_of(p), why);
    };
    self->space.seen = [self](const Point& p) { return self->seen.count(p) != 0; };
    if (options.budget == 0) return Status::error("--budget: at least 1 evaluation was expected");
    if (!self->spec.constraints.empty()) {
        uint64_t tried = 0;
        if (!any_feasible(self->space, tried))
            return Status::error(source + ": constraints: the feasible space is empty: none of " +
                                 std::to_string(tried) + " points tried satisfies every constraint");
    }
    if (options.agent != "stdio") {
        auto params = self->spec.agent_params.count(options.agent) ? self->spec.agent_params.at(options.agent)
                                                                   : AgentParams{};
        auto agent = make_agent(options.agent, self->space, params, options.seed);
        if (!agent.is_ok()) return agent.status();
        self->agent = std::move(agent.value());
    }
    for (const auto& a : self->spec.agent_params) {
        bool known = a.first == "stdio";
        for (const auto& n : agent_names())
            known = known || n == a.first;
        if (!known) return Status::error(source + ": agents." + a.first + ": unknown agent");
    }
    return SearchRun(std::move(impl));
}

void SearchRun::resolve_prefix(const std::function<std::string(const std::string&)>& resolve) {
    json& b = impl_->spec.base;
    if (b.contains("workload") && b["workload"].is_object() && b["workload"].contains("prefix") &&
        b["workload"]["prefix"].is_string())
        b["workload"]["prefix"] = resolve(b["workload"]["prefix"].get<std::string>());
}

size_t SearchRun::load_previous(std::string_view jsonl) {
    size_t used = 0;
    size_t pos = 0;
    while (pos < jsonl.size()) {
        size_t end = jsonl.find('\n', pos);
        if (end == std::string_view::npos) break; // a last line without its newline was cut short
        std::string_view text = jsonl.substr(pos, end - pos);
        pos = end + 1;
        json line = json::parse(text.begin(), text.end(), nullptr, false);
        if (line.is_discarded() || !line.is_object() || !line.contains("knobs") || !line["knobs"].is_object())
            continue;
        const json& knobs = line["knobs"];
        std::string k;
        bool ok = knobs.size() == impl_->spec.knobs.size();
        for (size_t i = 0; ok && i < impl_->spec.knobs.size(); ++i) {
            const auto& knob = impl_->spec.knobs[i];
            auto it = knobs.find(knob.path.text);
            if (it == knobs.end()) {
                ok = false;
                break;
            }
            std::string vt = it->dump();
            bool found = false;
            for (const auto& t : knob.value_text)
                found = found || t == vt;
            ok = found;
            k += (i ? "\x1f" : "") + vt;
        }
        if (!ok) continue;
        EvalResult r;
        std::string status = line.value("status", "");
        r.reason = line.value("reason", "");
        if (status == "ok") {
            const json& m = line.value("metrics", json::object());
            if (!m.contains("step_time_ns") || !m["step_time_ns"].is_number_integer()) continue;
            r.step_time_ns = m["step_time_ns"].get<int64_t>();
        } else if (status == "infeasible") {
            r.status = EvalResult::Status::Infeasible;
        } else if (status == "error") {
            r.status = EvalResult::Status::Error;
        } else {
            continue;
        }
        impl_->previous[k] = r;
        ++used;
    }
    return used;
}

// [SECTION] Batches

namespace {

// Settles every slot that needs no simulation and returns the scenarios of the rest.
std::vector<std::string> prepare(SearchRun::Impl& s) {
    std::vector<std::string> out;
    for (auto& slot : s.slots) {
        if (slot.kind != Slot::Kind::New) continue;
        Record& r = slot.record;
        r.point = slot.point;
        std::string k = s.key(slot.point);
        auto prev = s.previous.find(k);
        if (prev != s.previous.end()) {
            r.status = prev->second.status;
            r.reason = prev->second.reason;
            r.step_time_ns = prev->second.step_time_ns;
            s.fill_metrics(r, slot.scenario);
            ++s.counts.cached;
            continue;
        }
        std::string why;
        if (!s.feasible(slot.scenario, why)) {
            r.status = EvalResult::Status::Infeasible;
            r.reason = why;
            s.fill_metrics(r, slot.scenario);
            continue;
        }
        slot.waiting = true;
        out.push_back(slot.scenario.dump());
    }
    return out;
}

// Logs the proposal's new points in order and tells the agent how they did (unless `observe` is false:
// a batch cut short by Cancel).
void finish(SearchRun::Impl& s, bool observe = true) {
    std::vector<Point> points;
    std::vector<double> fitness;
    for (auto& slot : s.slots) {
        if (slot.kind == Slot::Kind::Dropped) {
            s.answers.push_back("{\"status\":\"error\",\"reason\":\"the budget of " +
                                std::to_string(s.options.budget) + " evaluations is used up\"}");
            continue;
        }
        points.push_back(slot.point);
        if (slot.kind == Slot::Kind::Repeat) {
            const Record& earlier = s.log[s.seen.at(slot.point)];
            fitness.push_back(s.fitness(earlier));
            if (!s.agent) s.answers.push_back(s.line(earlier));
            continue;
        }
        Record& r = slot.record;
        r.index = s.log.size();
        if (r.status == EvalResult::Status::Infeasible) ++s.counts.infeasible;
        if (r.status == EvalResult::Status::Error) ++s.counts.errors;
        ++s.counts.evaluations;
        s.seen[r.point] = s.log.size();
        s.pending_lines.push_back(s.line(r));
        if (!s.agent) s.answers.push_back(s.pending_lines.back());
        fitness.push_back(s.fitness(r));
        s.log.push_back(std::move(r));
    }
    if (s.agent && observe && !points.empty()) s.agent->observe(points, fitness);
    s.slots.clear();
    s.in_flight = false;
}

// Turns a list of proposed points into slots: repeats are answered from the log, and no more new points are
// taken than the budget leaves.
void take_proposal(SearchRun::Impl& s, const std::vector<Point>& proposal) {
    s.slots.clear();
    uint64_t room = s.options.budget - s.counts.evaluations;
    std::set<Point> in_batch;
    for (const auto& p : proposal) {
        Slot slot;
        slot.point = p;
        if (s.seen.count(p)) {
            slot.kind = Slot::Kind::Repeat;
            s.slots.push_back(std::move(slot));
            continue;
        }
        if (in_batch.count(p)) {
            // Twice in one proposal: the agent hears once; an external agent gets the answer twice.
            if (!s.agent) {
                slot.kind = Slot::Kind::Repeat;
                s.slots.push_back(std::move(slot));
            }
            continue;
        }
        if (room == 0) {
            if (s.agent) break;
            slot.kind = Slot::Kind::Dropped;
            s.slots.push_back(std::move(slot));
            continue;
        }
        --room;
        in_batch.insert(p);
        slot.scenario = s.scenario_of(p);
        s.slots.push_back(std::move(slot));
    }
}

} // namespace

std::vector<std::string> SearchRun::next_batch() {
    Impl& s = *impl_;
    while (!s.stopped && !s.in_flight) {
        if (s.counts.evaluations >= s.options.budget) {
            s.stopped = true;
            s.stop_reason = "budget reached";
            break;
        }
        if (!s.agent) break; // stdio: points come through submit()
        std::vector<Point> proposal = s.agent->propose();
        if (proposal.empty()) {
            s.stopped = true;
            s.stop_reason = "the agent has no more points to propose (the feasible space is exhausted)";
            break;
        }
        uint64_t before = s.counts.evaluations;
        take_proposal(s, proposal);
        std::vector<std::string> batch = prepare(s);
        if (!batch.empty()) {
            s.in_flight = true;
            return batch;
        }
        finish(s);
        s.stalls = s.counts.evaluations == before ? s.stalls + 1 : 0;
        if (s.stalls >= kMaxStalls) {
            s.stopped = true;
            s.stop_reason = "the agent proposed no new point in " + std::to_string(kMaxStalls) + " batches";
        }
    }
    return {};
}

void SearchRun::complete_batch(const std::vector<EvalResult>& results) {
    Impl& s = *impl_;
    size_t i = 0;
    for (auto& slot : s.slots) {
        if (!slot.waiting) continue;
        Record& r = slot.record;
        const EvalResult& res =
            i < results.size() ? results[i] : EvalResult{EvalResult::Status::Error, 0, "no result"};
        ++i;
        r.status = res.status;
        r.reason = res.reason;
        r.step_time_ns = res.step_time_ns;
        s.fill_metrics(r, slot.scenario);
        ++s.counts.simulated;
    }
    s.stalls = 0;
    finish(s);
}

void SearchRun::complete_prefix(const std::vector<EvalResult>& results) {
    Impl& s = *impl_;
    if (s.in_flight) {
        // The slots up to the first point still waiting for a result, as finish() logs them.
        size_t i = 0, keep = 0;
        for (; keep < s.slots.size(); ++keep) {
            Slot& slot = s.slots[keep];
            if (!slot.waiting) continue;
            if (i == results.size()) break;
            const EvalResult& res = results[i++];
            slot.record.status = res.status;
            slot.record.reason = res.reason;
            slot.record.step_time_ns = res.step_time_ns;
            s.fill_metrics(slot.record, slot.scenario);
            ++s.counts.simulated;
        }
        s.slots.resize(keep);
        finish(s, false); // the search is over: the agent hears nothing of a cut batch
    }
    s.stopped = true;
    s.stop_reason = "cancelled";
}

std::vector<std::string> SearchRun::take_lines() {
    std::vector<std::string> out;
    out.swap(impl_->pending_lines);
    return out;
}

// [SECTION] External points (--agent stdio)

Status SearchRun::submit(std::string_view points_json) {
    Impl& s = *impl_;
    if (s.in_flight) return Status::error("a batch is still being evaluated");
    json doc = json::parse(points_json.begin(), points_json.end(), nullptr, false);
    if (doc.is_discarded())
        return Status::error("not JSON: a point {\"knob path\": value, ...} or a list of them was expected");
    if (!doc.is_array()) doc = json::array({doc});
    std::vector<Point> proposal;
    Status problems;
    for (const auto& pt : doc) {
        if (!pt.is_object()) {
            problems.add("a point is an object {\"knob path\": value, ...}, not " + pt.dump());
            continue;
        }
        Point p(s.spec.knobs.size());
        bool ok = true;
        for (auto it = pt.begin(); it != pt.end(); ++it) {
            bool known = false;
            for (const auto& k : s.spec.knobs)
                known = known || k.path.text == it.key();
            if (!known) {
                problems.add("'" + it.key() + "' is not a knob of the spec");
                ok = false;
            }
        }
        for (size_t i = 0; i < s.spec.knobs.size(); ++i) {
            const auto& knob = s.spec.knobs[i];
            auto it = pt.find(knob.path.text);
            if (it == pt.end()) {
                problems.add("knob '" + knob.path.text + "' is missing from the point");
                ok = false;
                continue;
            }
            std::string vt = it->dump();
            bool found = false;
            for (uint32_t v = 0; v < knob.value_text.size(); ++v)
                if (knob.value_text[v] == vt) {
                    p[i] = v;
                    found = true;
                }
            if (!found) {
                problems.add("knob '" + knob.path.text + "': " + vt + " is not one of its values");
                ok = false;
            }
        }
        if (ok) proposal.push_back(std::move(p));
    }
    if (!problems.is_ok()) return problems;
    take_proposal(s, proposal);
    std::vector<std::string> batch = prepare(s);
    if (batch.empty()) {
        finish(s);
        return Status::ok();
    }
    s.in_flight = true;
    s.stdio_queue = std::move(batch);
    return Status::ok();
}

std::vector<std::string> SearchRun::submitted_batch() {
    std::vector<std::string> out;
    out.swap(impl_->stdio_queue);
    return out;
}

std::vector<std::string> SearchRun::take_answers() {
    std::vector<std::string> out;
    out.swap(impl_->answers);
    return out;
}

// [SECTION] Accessors

bool SearchRun::done() const {
    return impl_->stopped;
}
std::string SearchRun::stop_reason() const {
    return impl_->stop_reason;
}
const SearchCounts& SearchRun::counts() const {
    return impl_->counts;
}
bool SearchRun::has_best() const {
    return impl_->best() != nullptr;
}
double SearchRun::best_objective() const {
    const Record* b = impl_->best();
    return b ? b->objective : std::numeric_limits<double>::quiet_NaN();
}
int64_t SearchRun::best_step_time_ns() const {
    const Record* b = impl_->best();
    return b ? b->step_time_ns : 0;
}
uint64_t SearchRun::budget() const {
    return impl_->options.budget;
}
double SearchRun::space_size() const {
    return impl_->space.size();
}
std::string SearchRun::fingerprint() const {
    return impl_->spec.fingerprint;
}

void run_search(SearchRun& run, Evaluator& evaluator) {
    for (;;) {
        std::vector<std::string> batch = run.next_batch();
        if (batch.empty()) break;
        std::vector<EvalResult> results;
        for (const auto& sc : batch)
            results.push_back(evaluator.evaluate(sc));
        run.complete_batch(results);
    }
}

} // namespace astrolabe::search

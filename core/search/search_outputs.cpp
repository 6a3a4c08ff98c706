// The text outputs of a search (search_run.h): evaluations.csv, best.scenario.json, pareto.jsonl and
// summary.json. The log lines themselves are written by the driver (SearchRun::Impl::line).
#include "core/search/search_state.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace astrolabe::search {

using nlohmann::json;

namespace {

std::string csv_field(const std::string& s) {
    if (s.find_first_of(",\"\n\r") == std::string::npos) return s;
    std::string out = "\"";
    for (char c : s)
        out += c == '"' ? std::string("\"\"") : std::string(1, c);
    return out + "\"";
}

const char* status_name(EvalResult::Status s) {
    return s == EvalResult::Status::Ok ? "ok" : s == EvalResult::Status::Infeasible ? "infeasible" : "error";
}

// Indices of the ok records on the Pareto front of (step time, network cost), by increasing cost.
std::vector<size_t> pareto_front(const std::vector<Record>& log) {
    std::vector<size_t> ok;
    for (size_t i = 0; i < log.size(); ++i)
        if (log[i].ok() && !std::isnan(log[i].network_cost)) ok.push_back(i);
    std::sort(ok.begin(), ok.end(), [&](size_t a, size_t b) {
        if (log[a].network_cost != log[b].network_cost) return log[a].network_cost < log[b].network_cost;
        if (log[a].step_time_ns != log[b].step_time_ns) return log[a].step_time_ns < log[b].step_time_ns;
        return a < b;
    });
    std::vector<size_t> front;
    int64_t best_time = 0;
    for (size_t i : ok)
        if (front.empty() || log[i].step_time_ns < best_time) {
            front.push_back(i);
            best_time = log[i].step_time_ns;
        }
    return front;
}

} // namespace

std::vector<size_t> pareto_indices(const std::vector<Record>& log) {
    return pareto_front(log);
}

std::string SearchRun::csv() const {
    const Impl& s = *impl_;
    std::string out = "index,status,reason";
    for (const auto& k : s.spec.knobs)
        out += "," + csv_field(k.path.text);
    out += ",step_time_ns,network_cost,objective\n";
    for (const auto& r : s.log) {
        out += std::to_string(r.index) + "," + status_name(r.status) + "," + csv_field(r.reason);
        for (size_t i = 0; i < r.point.size(); ++i) {
            const json& v = s.spec.knobs[i].values[r.point[i]];
            out += "," +
                   csv_field(v.is_string() ? v.get<std::string>() : s.spec.knobs[i].value_text[r.point[i]]);
        }
        auto num = [](double v) { return std::isnan(v) ? std::string() : number_text(v); };
        out += "," + (r.ok() ? std::to_string(r.step_time_ns) : std::string()) + "," + num(r.network_cost) +
               "," + num(r.objective) + "\n";
    }
    return out;
}

std::string SearchRun::best_scenario_json() const {
    const Record* b = impl_->best();
    if (!b) return "";
    return impl_->scenario_of(b->point).dump(2) + "\n";
}

std::string SearchRun::pareto_jsonl() const {
    std::string out;
    for (size_t i : pareto_front(impl_->log))
        out += impl_->line(impl_->log[i]) + "\n";
    return out;
}

std::string SearchRun::summary_json(double wall_s) const {
    const Impl& s = *impl_;
    json j = json::object();
    j["schema"] = "astrolabe.search-summary/1";
    j["agent"] = s.options.agent;
    j["seed"] = s.options.seed;
    j["budget"] = s.options.budget;
    j["objective"] = s.spec.objective_name;
    j["space_size"] = s.space.size();
    j["knobs"] = s.spec.knobs.size();
    j["evaluations"] = s.counts.evaluations;
    j["simulated"] = s.counts.simulated;
    j["cached"] = s.counts.cached;
    j["infeasible"] = s.counts.infeasible;
    j["errors"] = s.counts.errors;
    j["stopped"] = s.stop_reason;
    if (const Record* b = s.best()) {
        json best = json::parse(s.line(*b));
        j["best"] = best;
    } else {
        j["best"] = nullptr;
    }
    j["pareto_points"] = pareto_front(s.log).size();
    j["wall_s"] = std::round(wall_s * 1000) / 1000;
    j["evaluations_per_s"] = wall_s > 0 ? std::round(s.counts.simulated / wall_s * 100) / 100 : 0.0;
    return j.dump(2) + "\n";
}

} // namespace astrolabe::search

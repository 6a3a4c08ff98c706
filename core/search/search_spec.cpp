// Parsing and checking `astrolabe.search/1` specs (search_spec.h).
#include "core/search/search_spec.h"

#include "core/config/scenario.h"

namespace astrolabe::search {

using nlohmann::json;

namespace {

const char* kObjectives[] = {"step_time", "step_time_x_network_cost", "step_time_x_bandwidth", "pareto"};

Result<json> parse_json(std::string_view text, const std::string& source) {
    try {
        return json::parse(text.begin(), text.end());
    } catch (const json::parse_error& e) {
        return Status::error(source + ": invalid JSON at byte " + std::to_string(e.byte) + ": " + e.what());
    } catch (const json::exception& e) { // a number out of range, say
        return Status::error(source + ": invalid JSON: " + e.what());
    }
}

const char* type_name(const json& v) {
    if (v.is_number()) return "a number";
    if (v.is_string()) return "a string";
    if (v.is_boolean()) return "true/false";
    if (v.is_array()) return "a list";
    if (v.is_object()) return "an object";
    return "null";
}

bool same_type(const json& a, const json& b) {
    if (a.is_number() && b.is_number()) return true;
    return a.type() == b.type();
}

void read_prices(const json& cost, const char* key, std::vector<double>& out, const std::string& where,
                 Status& problems) {
    if (!cost.contains(key)) return;
    const json& v = cost.at(key);
    if (!v.is_array() || v.empty()) {
        problems.add(where + key + ": a non-empty list of prices per GB/s (one per dimension) was expected");
        return;
    }
    out.clear();
    for (const auto& x : v) {
        if (!x.is_number() || x.get<double>() < 0) {
            problems.add(where + key + ": prices must be numbers >= 0, not " + x.dump());
            return;
        }
        out.push_back(x.get<double>());
    }
}

} // namespace

Objective objective_from_name(const std::string& name, bool& ok) {
    ok = true;
    if (name == kObjectives[0]) return Objective::StepTime;
    if (name == kObjectives[1]) return Objective::StepTimeXNetworkCost;
    if (name == kObjectives[2]) return Objective::StepTimeXBandwidth;
    if (name == kObjectives[3]) return Objective::Pareto;
    ok = false;
    return Objective::StepTime;
}

Result<SearchSpec> parse_search_spec(std::string_view text, const std::string& source,
                                     const ReadBaseFile& read_base) {
    auto doc_r = parse_json(text, source);
    if (!doc_r.is_ok()) return doc_r.status();
    const json& doc = doc_r.value();
    if (!doc.is_object()) return Status::error(source + ": a JSON object was expected at the top");
    Status problems;
    const std::string at = source + ": ";
    SearchSpec spec;

    static const std::vector<std::string> kKeys = {
        "schema", "base", "base_file", "knobs", "constraints", "objective", "cost", "agents", "description"};
    for (auto it = doc.begin(); it != doc.end(); ++it) {
        bool known = false;
        for (const auto& k : kKeys)
            known = known || k == it.key();
        if (!known) {
            std::string near = nearest_word(it.key(), kKeys);
            problems.add(at + it.key() + ": unknown key" +
                         (near.empty() ? "" : " (did you mean '" + near + "'?)"));
        }
    }
    if (!doc.contains("schema") || doc["schema"] != "astrolabe.search/1")
        problems.add(at + "schema: \"astrolabe.search/1\" was expected");

    // [base] the scenario every point starts from, inline or in a file.
    if (doc.contains("base") == doc.contains("base_file")) {
        problems.add(at + "base: give either \"base\" (a scenario object) or \"base_file\" (its path)");
        return problems;
    }
    std::string base_source = source + ": base";
    if (doc.contains("base")) {
        spec.base = doc["base"];
    } else {
        if (!doc["base_file"].is_string()) {
            problems.add(at + "base_file: a path (string) was expected");
            return problems;
        }
        std::string path = doc["base_file"].get<std::string>();
        base_source = path;
        auto bytes = read_base(path);
        if (!bytes.is_ok()) {
            problems.add(at + "base_file: " + bytes.status().message());
            return problems;
        }
        auto parsed = parse_json(bytes.value(), path);
        if (!parsed.is_ok()) {
            problems.merge(parsed.status());
            return problems;
        }
        spec.base = std::move(parsed.value());
    }
    if (!spec.base.is_object()) {
        problems.add(at + "base: a scenario object was expected");
        return problems;
    }
    {
        auto sc = config::parse_scenario_json(spec.base.dump(), base_source);
        if (!sc.is_ok()) {
            problems.merge(sc.status());
            return problems; // knobs and constraints are checked against a valid base only
        }
    }

    // [knobs] every path must exist in the base; values must have the base's type there and, put in alone,
    // give a scenario that parses.
    if (!doc.contains("knobs") || !doc["knobs"].is_array() || doc["knobs"].empty()) {
        problems.add(at + "knobs: a non-empty list of {\"path\", \"values\"} was expected");
    } else {
        size_t i = 0;
        for (const auto& k : doc["knobs"]) {
            ++i;
            std::string name = "knob " + std::to_string(i);
            if (!k.is_object() || !k.contains("path") || !k["path"].is_string()) {
                problems.add(at + name + ": {\"path\": \"a.b[i]\", \"values\": [...]} was expected");
                continue;
            }
            Knob knob;
            std::string path_text = k["path"].get<std::string>();
            name = "knob '" + path_text + "'";
            for (auto it = k.begin(); it != k.end(); ++it)
                if (it.key() != "path" && it.key() != "values")
                    problems.add(at + name + ": unknown key '" + it.key() + "' (a knob has path and values)");
            auto path = parse_json_path(path_text);
            if (!path.is_ok()) {
                problems.add(at + name + ": bad path " + path.status().message());
                continue;
            }
            knob.path = path.value();
            std::string why;
            const json* current = find_at(spec.base, knob.path, &why);
            if (!current) {
                problems.add(at + name + ": unknown path: " + why);
                continue;
            }
            for (const auto& other : spec.knobs)
                if (other.path.text == path_text)
                    problems.add(at + name + ": the same path is already a knob");
            if (!k.contains("values") || !k["values"].is_array() || k["values"].empty()) {
                problems.add(at + name + ": values: a non-empty list was expected");
                continue;
            }
            knob.numeric = true;
            bool ok = true;
            for (const auto& v : k["values"]) {
                if (!current->is_null() && !same_type(*current, v)) {
                    problems.add(at + name + ": value " + v.dump() + " is " + type_name(v) +
                                 "; the base holds " + type_name(*current) + " there (" + current->dump() +
                                 ")");
                    ok = false;
                    continue;
                }
                std::string vt = v.dump();
                for (const auto& seen : knob.value_text)
                    if (seen == vt) {
                        problems.add(at + name + ": value " + vt + " is listed twice");
                        ok = false;
                    }
                json trial = spec.base;
                set_at(trial, knob.path, v);
                auto sc = config::parse_scenario_json(trial.dump(), "value " + vt);
                if (!sc.is_ok()) {
                    problems.add(at + name + ": " + sc.status().problems().front());
                    ok = false;
                }
                knob.numeric = knob.numeric && v.is_number();
                knob.values.push_back(v);
                knob.value_text.push_back(vt);
            }
            if (ok) spec.knobs.push_back(std::move(knob));
        }
    }

    // [constraints] compiled against the base, then tried on it so type errors show now, not per point.
    if (doc.contains("constraints")) {
        if (!doc["constraints"].is_array()) {
            problems.add(at + "constraints: a list of expressions (strings) was expected");
        } else {
            size_t i = 0;
            for (const auto& c : doc["constraints"]) {
                ++i;
                std::string name = "constraint " + std::to_string(i);
                if (!c.is_string()) {
                    problems.add(at + name + ": an expression (string) was expected");
                    continue;
                }
                std::string ctext = c.get<std::string>();
                auto e = Expr::compile(ctext, spec.base);
                if (!e.is_ok()) {
                    problems.add(at + name + " \"" + ctext + "\": " + e.status().message());
                    continue;
                }
                bool ok = false;
                std::string error;
                e.value().holds(spec.base, ok, error);
                if (!ok) {
                    problems.add(at + name + " \"" + ctext + "\": " + error);
                    continue;
                }
                spec.constraints.push_back({ctext, std::move(e.value())});
            }
        }
    }

    // [objective]
    if (doc.contains("objective")) {
        bool ok = doc["objective"].is_string();
        if (ok) {
            spec.objective_name = doc["objective"].get<std::string>();
            spec.objective = objective_from_name(spec.objective_name, ok);
        }
        if (!ok) {
            std::string got =
                doc["objective"].is_string() ? doc["objective"].get<std::string>() : doc["objective"].dump();
            std::string near = nearest_word(got, {std::begin(kObjectives), std::end(kObjectives)});
            problems.add(
                at + "objective: '" + got +
                "'; step_time, step_time_x_network_cost, step_time_x_bandwidth or pareto was expected" +
                (near.empty() ? "" : " (did you mean '" + near + "'?)"));
        }
    }

    // [cost] prices of the network cost model.
    if (doc.contains("cost")) {
        const json& cost = doc["cost"];
        if (!cost.is_object()) {
            problems.add(at + "cost: an object was expected");
        } else {
            for (auto it = cost.begin(); it != cost.end(); ++it)
                if (it.key() != "link_per_gbps" && it.key() != "switch_port_per_gbps" && it.key() != "npu")
                    problems.add(at + "cost." + it.key() +
                                 ": unknown key (link_per_gbps, switch_port_per_gbps, npu)");
            read_prices(cost, "link_per_gbps", spec.cost.link_per_gbps, at + "cost.", problems);
            read_prices(cost, "switch_port_per_gbps", spec.cost.switch_port_per_gbps, at + "cost.", problems);
            if (cost.contains("npu")) {
                if (!cost["npu"].is_number() || cost["npu"].get<double>() < 0)
                    problems.add(at + "cost.npu: a price >= 0 was expected");
                else
                    spec.cost.npu = cost["npu"].get<double>();
            }
        }
    }

    // [agents] parameters per agent; the agents check the names (agents.h).
    if (doc.contains("agents")) {
        const json& a = doc["agents"];
        if (!a.is_object())
            problems.add(at + "agents: an object {\"ga\": {\"population\": 24}, ...} was expected");
        else
            for (auto it = a.begin(); it != a.end(); ++it) {
                if (!it.value().is_object()) {
                    problems.add(at + "agents." + it.key() + ": an object of numbers was expected");
                    continue;
                }
                for (auto p = it.value().begin(); p != it.value().end(); ++p) {
                    if (!p.value().is_number())
                        problems.add(at + "agents." + it.key() + "." + p.key() + ": a number was expected");
                    else
                        spec.agent_params[it.key()][p.key()] = p.value().get<double>();
                }
            }
    }
    if (!problems.is_ok()) return problems;

    json fp = json::object();
    fp["base"] = spec.base;
    fp["knobs"] = json::array();
    for (const auto& k : spec.knobs)
        fp["knobs"].push_back({{"path", k.path.text}, {"values", k.values}});
    fp["constraints"] = json::array();
    for (const auto& c : spec.constraints)
        fp["constraints"].push_back(c.text);
    fp["objective"] = spec.objective_name;
    fp["cost"] = {{"link_per_gbps", spec.cost.link_per_gbps},
                  {"switch_port_per_gbps", spec.cost.switch_port_per_gbps},
                  {"npu", spec.cost.npu}};
    spec.fingerprint = fp.dump();
    return spec;
}

} // namespace astrolabe::search

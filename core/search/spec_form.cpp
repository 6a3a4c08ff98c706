// A search spec as a form (spec_form.h).
#include "core/search/spec_form.h"

#include "core/search/expr.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <set>

namespace astrolabe::search {

using nlohmann::json;

namespace {

json parse_or_null(std::string_view text) {
    json j = json::parse(text, nullptr, false);
    return j.is_discarded() ? json() : j;
}

// "a, b, c" from values, the first one first and repeats dropped.
std::string join_values(const std::vector<json>& values) {
    std::string out;
    std::set<std::string> seen;
    for (const auto& v : values) {
        std::string t = v.dump();
        if (!seen.insert(t).second) continue;
        out += (out.empty() ? "" : ", ") + t;
    }
    return out;
}

// A number's neighbours by factors of two: a bandwidth or a split count to try on either side.
std::vector<json> halve_double(const json& v) {
    std::vector<json> out{v};
    if (!v.is_number()) return out;
    if (v.is_number_integer()) {
        const int64_t i = v.get<int64_t>();
        if (i % 2 == 0 && i > 1) out.push_back(i / 2);
        out.push_back(i * 2);
    } else {
        out.push_back(v.get<double>() / 2);
        out.push_back(v.get<double>() * 2);
    }
    return out;
}

const char* const kParallelism[] = {"dp", "tp", "pp", "sp"};

const json* generate_params(const json& sc) {
    if (!sc.is_object() || !sc.contains("workload") || !sc["workload"].is_object()) return nullptr;
    const json& w = sc["workload"];
    if (!w.contains("generate") || !w["generate"].is_object()) return nullptr;
    return &w["generate"];
}

// The scenario's NPU count as a constraint's `npus` reads it (scenario_npus); 1 where it cannot say, so
// the form still offers the parallelism degree already there.
uint64_t npus_of(const json& sc) {
    double n = 1;
    std::string why;
    if (!scenario_npus(sc, n, why) || !(n >= 1)) return 1;
    return n < 1e18 ? static_cast<uint64_t>(n) : uint64_t(1e18);
}

} // namespace

std::vector<KnobField> candidate_knobs(const std::string& scenario_json) {
    const json sc = parse_or_null(scenario_json);
    std::vector<KnobField> out;
    if (!sc.is_object()) return out;
    // Whole numbers read as such ("50", not "50.0": the scenario parser takes either).
    auto add = [&](const std::string& path, std::vector<json> values) {
        for (auto& v : values)
            if (v.is_number_float() && std::fabs(v.get<double>()) < 1e15 &&
                v.get<double>() == std::floor(v.get<double>()))
                v = static_cast<int64_t>(v.get<double>());
        out.push_back(KnobField{path, join_values(values), false});
    };
    // The workload: parallelism degrees over the powers of two up to the NPU count.
    if (const json* g = generate_params(sc)) {
        const uint64_t npus = npus_of(sc);
        for (const char* k : kParallelism) {
            if (!g->contains(k)) continue;
            std::vector<json> values{(*g)[k]};
            for (uint64_t p = 1; p <= npus && p <= 1024; p *= 2)
                values.push_back(p);
            add(std::string("workload.generate.") + k, values);
        }
        if (g->contains("micro-batch"))
            add("workload.generate.micro-batch", halve_double((*g)["micro-batch"]));
    }
    // The network, per dimension.
    if (sc.contains("network") && sc["network"].is_object()) {
        const json& net = sc["network"];
        if (net.contains("topology") && net["topology"].is_array())
            for (size_t d = 0; d < net["topology"].size(); ++d)
                add("network.topology[" + std::to_string(d) + "]",
                    {net["topology"][d], "Ring", "FullyConnected", "Switch"});
        if (net.contains("bandwidth") && net["bandwidth"].is_array())
            for (size_t d = 0; d < net["bandwidth"].size(); ++d)
                add("network.bandwidth[" + std::to_string(d) + "]", halve_double(net["bandwidth"][d]));
    }
    // A real system's description (keys it names): nodes, NICs and their speed halved and doubled, the
    // algorithm NCCL is forced to (or not).
    if (sc.contains("hardware") && sc["hardware"].is_object()) {
        const json& hw = sc["hardware"];
        for (const char* k : {"nodes", "nics_per_node", "nic_gbps"})
            if (hw.contains(k) && hw[k].is_number()) add(std::string("hardware.") + k, halve_double(hw[k]));
        if (hw.contains("nccl_algo") && hw["nccl_algo"].is_string())
            add("hardware.nccl_algo", {hw["nccl_algo"], "auto", "ring", "tree"});
    }
    // The system: collective implementations (one entry per dimension), chunks, policies.
    if (sc.contains("system") && sc["system"].is_object()) {
        const json& sys = sc["system"];
        for (const char* op : {"all-reduce", "all-gather", "reduce-scatter", "all-to-all"}) {
            const std::string key = std::string(op) + "-implementation";
            if (!sys.contains(key) || !sys[key].is_array() || sys[key].empty()) continue;
            const size_t dims = sys[key].size();
            std::vector<json> values{sys[key]};
            for (const char* algo : {"ring", "direct", "halvingDoubling", "doubleBinaryTree"}) {
                if (std::string(op) == "all-to-all" && std::string(algo) != "ring" &&
                    std::string(algo) != "direct")
                    continue;
                values.push_back(json(std::vector<std::string>(dims, algo)));
            }
            add("system." + key, values);
        }
        if (sys.contains("active-chunks-per-dimension"))
            add("system.active-chunks-per-dimension", {sys["active-chunks-per-dimension"], 1, 2, 4});
        if (sys.contains("preferred-dataset-splits"))
            add("system.preferred-dataset-splits", {sys["preferred-dataset-splits"], 1, 4, 16});
        if (sys.contains("scheduling-policy"))
            add("system.scheduling-policy", {sys["scheduling-policy"], "LIFO", "FIFO"});
        if (sys.contains("collective-optimization"))
            add("system.collective-optimization",
                {sys["collective-optimization"], "baseline", "localBWAware"});
    }
    return out;
}

std::string parallelism_constraint(const std::string& scenario_json) {
    const json sc = parse_or_null(scenario_json);
    const json* g = generate_params(sc);
    if (!g || !g->contains("kind") || (*g)["kind"] != "transformer") return "";
    std::string product;
    for (const char* k : kParallelism)
        if (g->contains(k)) product += (product.empty() ? "" : " * ") + std::string("workload.generate.") + k;
    return product.empty() ? "" : product + " == npus";
}

SpecForm form_for_scenario(const std::string& scenario_json) {
    SpecForm form;
    form.base = scenario_json;
    form.fields = candidate_knobs(scenario_json);
    form.constraints = parallelism_constraint(scenario_json);
    return form;
}

Result<SpecForm> spec_form(std::string_view spec_text, const std::string& source) {
    json spec;
    try {
        spec = json::parse(spec_text);
    } catch (const json::parse_error& e) {
        return Status::error(source + ": not JSON (at byte " + std::to_string(e.byte) + ")");
    }
    if (!spec.is_object()) return Status::error(source + ": a JSON object was expected at the top");
    if (spec.contains("base_file"))
        return Status::error(source +
                             ": base_file: the browser has no files; put the scenario inline as \"base\"");
    if (!spec.contains("base") || !spec["base"].is_object())
        return Status::error(source + ": base: a scenario object was expected");
    Status problems;
    SpecForm form;
    form.base = spec["base"].dump(2);
    if (spec.contains("knobs") && !spec["knobs"].is_array())
        problems.add(source + ": knobs: a list was expected");
    std::set<std::string> taken;
    if (spec.contains("knobs") && spec["knobs"].is_array()) {
        for (size_t i = 0; i < spec["knobs"].size(); ++i) {
            const json& k = spec["knobs"][i];
            if (!k.is_object() || !k.contains("path") || !k["path"].is_string() || !k.contains("values") ||
                !k["values"].is_array()) {
                problems.add(source + ": knobs[" + std::to_string(i) +
                             "]: {\"path\": ..., \"values\": [...]} was expected");
                continue;
            }
            KnobField f;
            f.path = k["path"].get<std::string>();
            for (const auto& v : k["values"])
                f.values += (f.values.empty() ? "" : ", ") + v.dump(); // every value, repeats too
            f.ticked = true;
            taken.insert(f.path);
            form.fields.push_back(std::move(f));
        }
    }
    for (auto& c : candidate_knobs(form.base))
        if (!taken.count(c.path)) form.fields.push_back(std::move(c));
    if (spec.contains("constraints")) {
        if (!spec["constraints"].is_array()) {
            problems.add(source + ": constraints: a list of expressions (strings) was expected");
        } else {
            for (const auto& c : spec["constraints"]) {
                if (!c.is_string()) {
                    problems.add(source + ": constraints: " + c.dump() +
                                 ": an expression (string) was expected");
                    continue;
                }
                form.constraints += (form.constraints.empty() ? "" : "\n") + c.get<std::string>();
            }
        }
    }
    if (spec.contains("objective")) {
        if (spec["objective"].is_string())
            form.objective = spec["objective"].get<std::string>();
        else
            problems.add(source + ": objective: a name (string) was expected");
    }
    json rest = json::object();
    for (auto it = spec.begin(); it != spec.end(); ++it)
        if (it.key() == "cost" || it.key() == "agents" || it.key() == "description")
            rest[it.key()] = it.value();
    form.rest = rest.dump();
    if (!problems.is_ok()) return problems;
    return form;
}

Result<std::string> compose_spec(const SpecForm& form) {
    Status problems;
    json spec = json::object();
    spec["schema"] = "astrolabe.search/1";
    json rest = parse_or_null(form.rest);
    if (rest.is_object())
        for (auto it = rest.begin(); it != rest.end(); ++it)
            spec[it.key()] = it.value();
    try {
        spec["base"] = json::parse(form.base);
    } catch (const json::parse_error& e) {
        problems.add("base: the scenario is not JSON (at byte " + std::to_string(e.byte) + ")");
    }
    json knobs = json::array();
    for (const auto& f : form.fields) {
        if (!f.ticked) continue;
        // The list's text inside brackets: a column in the message counts from the field's first character.
        try {
            json values = json::parse("[" + f.values + "]");
            knobs.push_back({{"path", f.path}, {"values", values}});
        } catch (const json::parse_error& e) {
            problems.add("knob " + f.path + ": values: not a comma-separated list of JSON values (column " +
                         std::to_string(e.byte > 1 ? e.byte - 1 : 1) + " of \"" + f.values +
                         "\"; text needs quotes, e.g. \"Ring\")");
        }
    }
    if (knobs.empty() && problems.is_ok()) problems.add("knobs: tick at least one field to search over");
    spec["knobs"] = knobs;
    json constraints = json::array();
    size_t start = 0;
    while (start <= form.constraints.size()) {
        size_t end = form.constraints.find('\n', start);
        if (end == std::string::npos) end = form.constraints.size();
        std::string line = form.constraints.substr(start, end - start);
        if (line.find_first_not_of(" \t\r") != std::string::npos) constraints.push_back(line);
        start = end + 1;
    }
    spec["constraints"] = constraints;
    spec["objective"] = form.objective;
    if (!problems.is_ok()) return problems;
    return spec.dump(2) + "\n";
}

std::string search_link_json(const SearchLink& link) {
    json j = json::object();
    j["schema"] = "astrolabe.search-link/1";
    j["spec"] = parse_or_null(link.spec);
    j["agent"] = link.agent;
    j["seed"] = link.seed;
    j["budget"] = link.budget;
    return j.dump();
}

Result<SearchLink> parse_search_link(std::string_view text, const std::string& source) {
    json j = parse_or_null(text);
    if (!j.is_object() || j.value("schema", "") != "astrolabe.search-link/1")
        return Status::error(source + ": not a search (\"astrolabe.search-link/1\" was expected)");
    Status problems;
    SearchLink link;
    if (!j.contains("spec") || !j["spec"].is_object())
        problems.add(source + ": spec: a search spec object was expected");
    else
        link.spec = j["spec"].dump(2) + "\n";
    if (!j.contains("agent") || !j["agent"].is_string())
        problems.add(source + ": agent: a name was expected");
    else
        link.agent = j["agent"].get<std::string>();
    for (const char* k : {"seed", "budget"}) {
        if (!j.contains(k) || !j[k].is_number_unsigned()) {
            problems.add(source + ": " + k + ": a whole number was expected");
            continue;
        }
        (std::string(k) == "seed" ? link.seed : link.budget) = j[k].get<uint64_t>();
    }
    if (!problems.is_ok()) return problems;
    return link;
}

} // namespace astrolabe::search

#include "core/config/scenario.h"

#include "core/base/base64.h"
#include "core/config/config_parse.h"
#include "core/config/json_read.h"
#include "core/config/spellings.h"

namespace astrolabe::config {

using detail::json;

Result<Scenario> parse_scenario_json(std::string_view text, const std::string& source) {
    auto parsed = detail::parse_json_text(text, source);
    if (!parsed) return parsed.status();
    const json& j = parsed.value();
    if (Status st = detail::require_object(j, source, "scenario"); !st.is_ok()) return st;
    Scenario s;
    Status problems;
    static const char* kKnown[] = {"schema",      "workload",      "network",       "system",  "memory",
                                   "comm_groups", "network_model", "compute_model", "hardware"};
    for (auto it = j.begin(); it != j.end(); ++it) {
        bool known = false;
        for (const char* k : kKnown)
            known = known || it.key() == k;
        if (!known)
            problems.add(source + ": " + it.key() +
                         ": unknown key; expected one of schema, workload, network, "
                         "system, memory, comm_groups, network_model, compute_model, hardware");
    }
    if (j.contains("schema") && j["schema"] != "astrolabe.scenario/1")
        problems.add(source + ": schema: \"astrolabe.scenario/1\" was expected");

    if (!j.contains("workload") || !j["workload"].is_object()) {
        problems.add(source + ": workload: an object with \"prefix\", \"sample\" or \"traces\" was expected");
    } else {
        const json& w = j["workload"];
        if (w.contains("prefix") && w["prefix"].is_string()) {
            s.workload_kind = Scenario::WorkloadKind::Prefix;
            s.workload = w["prefix"].get<std::string>();
        } else if (w.contains("sample") && w["sample"].is_string()) {
            s.workload_kind = Scenario::WorkloadKind::Sample;
            s.workload = w["sample"].get<std::string>();
        } else if (w.contains("traces") && w["traces"].is_array()) {
            s.workload_kind = Scenario::WorkloadKind::Embedded;
            size_t i = 0;
            for (const auto& t : w["traces"]) {
                std::string where = source + ": workload.traces[" + std::to_string(i++) + "]";
                if (!t.is_object() || !t.contains("base64") || !t["base64"].is_string()) {
                    problems.add(where + ": an object with \"name\" and \"base64\" was expected");
                    continue;
                }
                auto bytes = base64_decode(t["base64"].get<std::string>());
                if (!bytes) {
                    problems.add(where + ".base64: not valid base64");
                    continue;
                }
                std::string name = t.contains("name") && t["name"].is_string()
                                       ? t["name"].get<std::string>()
                                       : "trace." + std::to_string(i - 1) + ".et";
                s.traces.emplace_back(name, std::move(*bytes));
            }
        } else if (w.contains("generate") && w["generate"].is_object()) {
            // Generator parameters by name; values are kept as text (numbers and booleans spelled as JSON
            // writes them) and checked by the generator, which knows their meaning.
            s.workload_kind = Scenario::WorkloadKind::Generate;
            const json& g = w["generate"];
            for (auto it = g.begin(); it != g.end(); ++it) {
                const json& v = it.value();
                if (it.key() == "kind") {
                    if (v.is_string())
                        s.workload = v.get<std::string>();
                    else
                        problems.add(source + ": workload.generate.kind: a string was expected");
                } else if (v.is_string()) {
                    s.generate_params.emplace_back(it.key(), v.get<std::string>());
                } else if (v.is_number_unsigned() || v.is_boolean()) {
                    s.generate_params.emplace_back(it.key(), v.dump());
                } else {
                    problems.add(source + ": workload.generate." + it.key() +
                                 ": a string, a whole number or a boolean was expected");
                }
            }
            if (s.workload.empty())
                problems.add(source + ": workload.generate.kind: missing; \"transformer\" or \"microbench\" "
                                      "was expected");
        } else {
            problems.add(source + ": workload: one of \"prefix\" (a string), \"sample\" (a string), "
                                  "\"traces\" (an array) or \"generate\" (an object) was expected");
        }
    }

    auto section = [&](const char* key, bool required, auto reader, auto& out) {
        if (!j.contains(key)) {
            if (required) problems.add(source + ": " + key + ": missing; an object was expected");
            return;
        }
        auto r = reader(j[key], source + ": " + key);
        if (r.is_ok())
            out = std::move(r.value());
        else
            problems.merge(r.status());
    };
    if (j.contains("hardware")) {
        // A real system (docs/hardware.md) instead of ASTRA-sim's network and system: the run maps it
        // (core/session) and times each collective by NCCL's choice for it.
        if (j.contains("network") || j.contains("system"))
            problems.add(source + ": hardware: replaces network and system; give one or the other");
        if (!j["hardware"].is_object()) {
            problems.add(source + ": hardware: an astrolabe.hardware/1 object was expected");
        } else {
            auto hw = parse_hardware_json(j["hardware"].dump(), source + ": hardware");
            if (hw.is_ok())
                s.hardware = std::move(hw.value());
            else
                problems.merge(hw.status());
        }
    } else {
        section("network", true, detail::network_from_json, s.network);
        section("system", true, detail::system_from_json, s.system);
    }
    section("memory", false, detail::memory_from_json, s.memory);
    uint64_t npus = s.hardware ? s.hardware->ranks() : s.network.npus();
    section(
        "comm_groups", false,
        [npus](const json& v, const std::string& src) { return detail::comm_groups_from_json(v, src, npus); },
        s.groups);
    if (j.contains("compute_model") && j["compute_model"].is_object()) {
        // The model with its parameters: {"model": "systolic", "array_rows": R, ...}.
        const json& c = j["compute_model"];
        const std::string where = source + ": compute_model";
        for (auto it = c.begin(); it != c.end(); ++it) {
            const std::string& k = it.key();
            const json& v = it.value();
            if (k == "model") {
                if (!v.is_string())
                    problems.add(where + ".model: a string was expected");
                else if (!parse_name(v.get<std::string>(), s.compute_model))
                    problems.add(where + ".model: '" + v.get<std::string>() + "'; " +
                                 expected_choice(spellings<ComputeModel>(), v.get<std::string>()));
            } else if (k == "array_rows" || k == "array_cols") {
                if (!v.is_number_unsigned() || v.get<uint64_t>() == 0 || v.get<uint64_t>() > 65536)
                    problems.add(where + "." + k + ": is " + v.dump() +
                                 "; a whole number 1..65536 was expected");
                else
                    (k == "array_rows" ? s.systolic.rows : s.systolic.cols) = v.get<uint32_t>();
            } else if (k == "dataflow") {
                if (!v.is_string() || !parse_name(v.get<std::string>(), s.systolic.dataflow))
                    problems.add(where + ".dataflow: is " + v.dump() + "; " +
                                 expected_choice(spellings<Dataflow>(),
                                                 v.is_string() ? v.get<std::string>() : "", "\""));
            } else if (k == "clock_ghz") {
                if (!v.is_number() || !(v.get<double>() > 0) || v.get<double>() > 1e6)
                    problems.add(where + ".clock_ghz: is " + v.dump() +
                                 "; a positive number of GHz was expected");
                else
                    s.systolic.clock_ghz = v.get<double>();
            } else {
                problems.add(where + "." + k +
                             ": unknown key; expected model, array_rows, array_cols, dataflow or clock_ghz");
            }
        }
        if (!c.contains("model")) problems.add(where + ".model: missing; e.g. \"systolic\"");
    }
    for (const char* key : {"network_model", "compute_model"}) {
        if (!j.contains(key)) continue;
        if (std::string(key) == "compute_model" && j[key].is_object()) continue;
        if (!j[key].is_string()) {
            problems.add(source + ": " + key +
                         (std::string(key) == "compute_model"
                              ? ": a string or a {\"model\": ...} object was expected"
                              : ": a string was expected"));
            continue;
        }
        const std::string name = j[key].get<std::string>();
        const bool ok = std::string(key) == "network_model" ? parse_name(name, s.network_model)
                                                            : parse_name(name, s.compute_model);
        if (!ok)
            problems.add(source + ": " + key + ": '" + name + "'; " +
                         (std::string(key) == "network_model"
                              ? expected_choice(spellings<NetworkModel>(), name)
                              : expected_choice(spellings<ComputeModel>(), name)));
    }
    if (!problems.is_ok()) return problems;
    return s;
}

} // namespace astrolabe::config

// ASTRA-sim's system JSON -> SystemConfig.
#include "core/config/config_parse.h"
#include "core/config/json_read.h"
#include "core/config/spellings.h"

#include <set>

namespace astrolabe::config {

namespace detail {
namespace {

// Keys ASTRA-sim reads that change nothing in the analytical models we reproduce, with the value that is
// their default there (a different value earns a warning, the default is silent).
struct InertKey {
    const char* key;
    const char* default_value; // JSON text; nullptr = warn whenever present
};
const InertKey kInertKeys[] = {
    {"boost-mode", "0"},
    {"local-reduction-delay", nullptr},
    {"L", nullptr},
    {"o", nullptr},
    {"g", nullptr},
    {"G", nullptr},
    {"model-shared-bus", "0"},
    {"trace-enabled", "0"},
    {"track-local-mem", "0"},
    {"local-mem-trace-filename", nullptr},
    {"intra-dimension-scheduling", "\"FIFO\""},
    {"inter-dimension-scheduling", "\"baseline\""},
    {"seprate-log", nullptr},
};

void read_implementations(Fields& f, SystemConfig& sys) {
    for (int k = 0; k < kCollectiveKinds; ++k) {
        const char* key = implementation_key(k);
        if (!f.has(key)) continue;
        const json& v = f.at(key);
        if (!v.is_array() || v.empty()) {
            f.problem(key, "is " + describe(v) +
                               "; a non-empty list of algorithm names (one per dimension) was expected");
            continue;
        }
        for (size_t i = 0; i < v.size(); ++i) {
            std::string where = std::string(key) + "[" + std::to_string(i) + "]";
            AlgorithmChoice a;
            if (!v[i].is_string()) {
                f.problem(where, "is " + describe(v[i]) + "; an algorithm name was expected");
            } else if (!parse_algorithm(v[i].get<std::string>(), a)) {
                f.problem(
                    where,
                    "unknown algorithm " + v[i].dump() +
                        "; expected ring, direct, directK (K > 0), halvingDoubling or doubleBinaryTree");
            } else {
                sys.implementation[k].push_back(a);
            }
        }
    }
    for (int k = 0; k < kCollectiveKinds; ++k) {
        const char* key = custom_implementation_key(k);
        if (!f.has(key)) continue;
        const json& v = f.at(key);
        if (v.is_array() && v.size() == 1 && v[0].is_string() && !v[0].get<std::string>().empty())
            sys.custom_implementation[k] = v[0].get<std::string>();
        else
            f.problem(key,
                      "is " + describe(v) + "; a list with exactly one Chakra trace prefix was expected");
    }
}

// "npu-overrides": [{"npus": [3] | "0-3", "peak-perf": T, "local-mem-bw": G, "compute-slowdown": F}, ...]
void read_overrides(Fields& f, SystemConfig& sys) {
    if (!f.has("npu-overrides")) return;
    const json& v = f.at("npu-overrides");
    if (!v.is_array()) {
        f.problem("npu-overrides",
                  "is " + describe(v) + "; a list of {\"npus\": ..., ...} objects was expected");
        return;
    }
    for (size_t i = 0; i < v.size(); ++i) {
        std::string where = "npu-overrides[" + std::to_string(i) + "]";
        const json& o = v[i];
        if (!o.is_object()) {
            f.problem(where, "is " + describe(o) + "; an object was expected");
            continue;
        }
        NpuOverride ov;
        bool ok = true;
        for (auto it = o.begin(); it != o.end(); ++it) {
            const std::string& k = it.key();
            const json& x = it.value();
            if (k == "npus") {
                if (x.is_array()) {
                    for (const auto& r : x) {
                        if (!r.is_number_unsigned() || r.get<uint64_t>() > UINT32_MAX) {
                            f.problem(where + ".npus", "holds " + describe(r) + "; NPU ranks were expected");
                            ok = false;
                            break;
                        }
                        ov.npus.push_back(r.get<uint32_t>());
                    }
                } else if (x.is_string()) {
                    // "a-b": the ranks a..b inclusive.
                    const std::string s = x.get<std::string>();
                    size_t dash = s.find('-');
                    uint64_t a = 0, b = 0;
                    bool good = dash != std::string::npos && dash > 0 && dash + 1 < s.size() && dash < 11 &&
                                s.size() - dash - 1 < 11;
                    for (size_t c = 0; good && c < s.size(); ++c) {
                        if (c == dash) continue;
                        if (s[c] < '0' || s[c] > '9')
                            good = false;
                        else if (c < dash)
                            a = a * 10 + uint64_t(s[c] - '0');
                        else
                            b = b * 10 + uint64_t(s[c] - '0');
                    }
                    if (!good || a > b || b > UINT32_MAX || b - a >= (1u << 24)) {
                        f.problem(where + ".npus",
                                  "is \"" + s + "\"; a range \"a-b\" with a <= b was expected");
                        ok = false;
                    } else {
                        for (uint64_t r = a; r <= b; ++r)
                            ov.npus.push_back(static_cast<uint32_t>(r));
                    }
                } else {
                    f.problem(where + ".npus",
                              "is " + describe(x) + "; a list of ranks or \"a-b\" was expected");
                    ok = false;
                }
            } else if (k == "peak-perf" || k == "local-mem-bw" || k == "compute-slowdown") {
                if (!x.is_number() || !(x.get<double>() > 0)) {
                    f.problem(where + "." + k, "is " + x.dump() + "; a positive number was expected");
                    ok = false;
                    continue;
                }
                double d = x.get<double>();
                (k == "peak-perf"      ? ov.peak_perf_tflops
                 : k == "local-mem-bw" ? ov.local_mem_bw_gbps
                                       : ov.compute_slowdown) = d;
            } else {
                f.problem(where + "." + k,
                          "unknown key; expected npus, peak-perf, local-mem-bw or compute-slowdown");
                ok = false;
            }
        }
        if (ov.npus.empty() && ok) {
            f.problem(where + ".npus", "is missing or empty; the NPUs the override applies to are required");
            ok = false;
        }
        if (ok) sys.npu_overrides.push_back(std::move(ov));
    }
}

} // namespace

Result<SystemConfig> system_from_json(const json& j, const std::string& source) {
    if (Status st = require_object(j, source, "system configuration"); !st.is_ok()) return st;
    SystemConfig sys;
    Status problems;
    Fields f(j, source, problems);

    std::string policy;
    f.read_string("scheduling-policy", policy);
    if (!policy.empty() && !parse_name(policy, sys.scheduling_policy))
        f.problem("scheduling-policy",
                  "is \"" + policy + "\"; " + expected_choice(spellings<SchedulingPolicy>(), policy));

    if (f.has("endpoint-delay") && f.at("endpoint-delay").is_number() &&
        f.at("endpoint-delay").get<double>() == 0)
        f.problem("endpoint-delay", "is 0 (ASTRA-sim aborts on it); at least 1 ns was expected");
    else
        f.read_uint32("endpoint-delay", sys.endpoint_delay_ns, 1, 1000000000);
    f.read_uint32("active-chunks-per-dimension", sys.active_chunks_per_dimension, 1, 1u << 20);
    f.read_uint32("preferred-dataset-splits", sys.preferred_dataset_splits, 1, 1u << 20);

    std::string opt;
    f.read_string("collective-optimization", opt);
    if (!opt.empty() && !parse_name(opt, sys.collective_optimization))
        f.problem("collective-optimization",
                  "is \"" + opt + "\"; " + expected_choice(spellings<CollectiveOptimization>(), opt));

    read_implementations(f, sys);
    f.read_double("local-mem-bw", sys.local_mem_bw_gbps, 0, true);
    f.read_flag("roofline-enabled", sys.roofline_enabled);
    f.read_double("peak-perf", sys.peak_perf_tflops, 0, true);
    f.read_flag("replay-only", sys.replay_only);
    read_overrides(f, sys);
    if (sys.roofline_enabled && !f.has("peak-perf"))
        f.problem("peak-perf", "is missing; roofline-enabled needs the peak compute rate in TFLOPS");
    if (sys.roofline_enabled && !f.has("local-mem-bw"))
        f.problem("local-mem-bw", "is missing; roofline-enabled needs the memory bandwidth in GB/s");

    static const std::set<std::string> kKnown = {
        "scheduling-policy",
        "endpoint-delay",
        "active-chunks-per-dimension",
        "preferred-dataset-splits",
        "collective-optimization",
        "local-mem-bw",
        "roofline-enabled",
        "peak-perf",
        "replay-only",
        "npu-overrides",
    };
    for (auto it = j.begin(); it != j.end(); ++it) {
        const std::string& key = it.key();
        bool known = kKnown.count(key) > 0;
        for (int k = 0; k < kCollectiveKinds; ++k)
            known = known || key == implementation_key(k) || key == custom_implementation_key(k);
        if (known) continue;
        bool inert = false;
        for (const InertKey& ik : kInertKeys) {
            if (key != ik.key) continue;
            inert = true;
            if (!ik.default_value || it.value() != json::parse(ik.default_value))
                sys.warnings.push_back(source + ": " + key + ": " + it.value().dump() +
                                       " has no effect in Astrolabe's models (ignored)");
        }
        if (!inert) sys.warnings.push_back(source + ": " + key + ": unknown key (ignored)");
    }
    if (!problems.is_ok()) return problems;
    return sys;
}

} // namespace detail

bool parse_algorithm(const std::string& name, AlgorithmChoice& out) {
    if (parse_name(name, out.algorithm))
        out.window = -1;
    else if (name.size() > 6 && name.size() <= 11 && name.compare(0, 6, "direct") == 0) {
        int32_t k = 0;
        for (size_t i = 6; i < name.size(); ++i) {
            if (name[i] < '0' || name[i] > '9') return false;
            k = k * 10 + (name[i] - '0');
        }
        if (k <= 0) return false;
        out = {CollectiveAlgorithm::Direct, k};
    } else {
        return false;
    }
    return true;
}

std::string algorithm_spelling(const AlgorithmChoice& a) {
    if (a.algorithm == CollectiveAlgorithm::Direct && a.window > 0)
        return "direct" + std::to_string(a.window);
    return name_of(a.algorithm);
}

Result<SystemConfig> parse_system_json(std::string_view text, const std::string& source) {
    auto j = detail::parse_json_text(text, source);
    if (!j) return j.status();
    return detail::system_from_json(j.value(), source);
}

} // namespace astrolabe::config

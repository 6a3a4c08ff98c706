#include "native/args.h"

#include "native/suggest.h"

#include <cstdlib>

namespace astrolabe::cli {

Result<Args> parse_args(const std::vector<std::string>& argv, const std::vector<OptionSpec>& specs) {
    Args out;
    Status problems;
    for (size_t i = 0; i < argv.size(); ++i) {
        const std::string& a = argv[i];
        if (a.size() < 3 || a.compare(0, 2, "--") != 0) {
            out.positionals.push_back(a);
            continue;
        }
        std::string key = a.substr(2), value;
        bool inline_value = false;
        if (auto eq = key.find('='); eq != std::string::npos) {
            value = key.substr(eq + 1);
            key = key.substr(0, eq);
            inline_value = true;
        }
        const OptionSpec* spec = nullptr;
        for (const auto& s : specs)
            if (key == s.name || (s.alias && key == s.alias)) spec = &s;
        if (!spec) {
            std::vector<std::string> names;
            for (const auto& s : specs) {
                names.push_back(s.name);
                if (s.alias) names.push_back(s.alias);
            }
            std::string near = nearest_spelling(key, names);
            problems.add("unknown option --" + key + (near.empty() ? "" : "; did you mean --" + near + "?") +
                         " (see --help)");
            continue;
        }
        if (spec->takes_value && !inline_value) {
            if (i + 1 >= argv.size()) {
                problems.add("option --" + key + " needs a value");
                continue;
            }
            value = argv[++i];
        } else if (!spec->takes_value && inline_value) {
            problems.add("option --" + key + " takes no value");
            continue;
        }
        if (out.values.count(spec->name))
            problems.add("option --" + std::string(spec->name) + " given twice");
        out.values[spec->name] = value;
    }
    if (!problems.is_ok()) return problems;
    return out;
}

std::string options_help(const std::vector<OptionSpec>& specs) {
    std::string out;
    for (const auto& s : specs) {
        std::string left = "  --" + std::string(s.name) + (s.takes_value && !s.is_switch ? " V" : "");
        if (left.size() < 30) left.resize(30, ' ');
        out += left + " " + s.help;
        if (s.alias) out += std::string(" (also --") + s.alias + ")";
        out += '\n';
    }
    return out;
}

bool parse_array_size(const std::string& s, uint32_t& rows, uint32_t& cols) {
    size_t x = s.find_first_of("xX");
    if (x == std::string::npos || x == 0 || x + 1 >= s.size() || x > 5 || s.size() - x - 1 > 5) return false;
    uint32_t v[2] = {0, 0};
    for (size_t i = 0; i < s.size(); ++i) {
        if (i == x) continue;
        if (s[i] < '0' || s[i] > '9') return false;
        uint32_t& d = v[i < x ? 0 : 1];
        d = d * 10 + uint32_t(s[i] - '0');
    }
    if (v[0] == 0 || v[1] == 0 || v[0] > 65536 || v[1] > 65536) return false;
    rows = v[0], cols = v[1];
    return true;
}

bool parse_clock_ghz(const std::string& s, double& ghz) {
    char* end = nullptr;
    double f = std::strtod(s.c_str(), &end);
    if (s.empty() || *end != '\0' || !(f > 0) || f > 1e6) return false;
    ghz = f;
    return true;
}

} // namespace astrolabe::cli

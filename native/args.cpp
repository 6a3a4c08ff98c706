#include "native/args.h"

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
            problems.add("unknown option --" + key + " (see --help)");
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
        std::string left = "  --" + std::string(s.name) + (s.takes_value ? " V" : "");
        if (left.size() < 30) left.resize(30, ' ');
        out += left + " " + s.help;
        if (s.alias) out += std::string(" (also --") + s.alias + ")";
        out += '\n';
    }
    return out;
}

} // namespace astrolabe::cli

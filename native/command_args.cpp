#include "native/command_args.h"

#include "native/commands.h"

#include <cstdio>

namespace astrolabe::cli {

int parse_command_line(const std::vector<std::string>& argv, const std::vector<OptionSpec>& specs,
                       const std::string& usage, Args& out) {
    auto parsed = parse_args(argv, specs);
    if (!parsed.is_ok()) return fail(parsed.status().message());
    if (parsed.value().has("help")) {
        std::printf("%s%s", usage.c_str(), options_help(specs).c_str());
        return 0;
    }
    out = std::move(parsed.value());
    return kParsed;
}

std::vector<std::string> expand_short_flags(std::vector<std::string> argv,
                                            const std::map<std::string, std::string>& shorts) {
    for (auto& a : argv) {
        auto it = shorts.find(a);
        if (it != shorts.end()) a = it->second;
    }
    return argv;
}

} // namespace astrolabe::cli

#include "native/command_args.h"

#include "native/commands.h"

#include <cstdio>

namespace astrolabe::cli {

std::optional<Args> parse_command_line(const std::vector<std::string>& argv,
                                       const std::vector<OptionSpec>& specs, const std::string& usage,
                                       int& exit_code) {
    auto parsed = parse_args(argv, specs);
    if (!parsed.is_ok()) {
        exit_code = fail(parsed.status().message());
        return std::nullopt;
    }
    if (parsed.value().has("help")) {
        std::printf("%s%s", usage.c_str(), options_help(specs).c_str());
        exit_code = 0;
        return std::nullopt;
    }
    return parsed.value();
}

} // namespace astrolabe::cli

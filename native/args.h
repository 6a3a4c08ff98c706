// Command-line arguments: `--key value` and `--key=value`, flags, positionals; every problem collected.
#pragma once

#include "core/base/status.h"

#include <map>
#include <string>
#include <vector>

namespace astrolabe::cli {

struct OptionSpec {
    const char* name; // canonical spelling without "--"
    bool takes_value;
    const char* alias; // another accepted spelling (ASTRA-sim's), or nullptr
    const char* help;
    // An on/off option that parses as taking a value only to accept STAGE's optional `True`/`False`
    // after it: the help shows it as a plain flag.
    bool is_switch = false;
};

struct Args {
    std::map<std::string, std::string> values; // canonical name -> value ("" for flags)
    std::vector<std::string> positionals;
    bool has(const std::string& k) const { return values.count(k) != 0; }
    std::string get(const std::string& k, const std::string& fallback = "") const {
        auto it = values.find(k);
        return it == values.end() ? fallback : it->second;
    }
};

Result<Args> parse_args(const std::vector<std::string>& argv, const std::vector<OptionSpec>& specs);
std::string options_help(const std::vector<OptionSpec>& specs);

// "RxC" (or "RXC") with R, C in 1..65536: a systolic array's rows and columns.
bool parse_array_size(const std::string& s, uint32_t& rows, uint32_t& cols);
// A positive number of GHz (at most 1e6).
bool parse_clock_ghz(const std::string& s, double& ghz);

} // namespace astrolabe::cli

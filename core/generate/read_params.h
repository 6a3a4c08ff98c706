// A generator's parameters read from (name, value) pairs and checked as a whole, for any generator with an
// apply_params and a check (transformer_params.h, microbench.h).
#pragma once

#include "core/base/status.h"

#include <string>
#include <utility>
#include <vector>

namespace astrolabe::generate {

// apply_params' problems, or when every name and value read, check's.
template <typename Params>
Status read_params(Params& p, const std::vector<std::pair<std::string, std::string>>& named) {
    Status st = apply_params(p, named);
    if (st.is_ok()) st = check(p);
    return st;
}

} // namespace astrolabe::generate

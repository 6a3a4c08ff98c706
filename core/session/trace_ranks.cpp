#include "core/session/trace_ranks.h"

#include <algorithm>

namespace astrolabe {

int64_t trace_rank_of(const std::string& file) {
    if (file.size() < 4 || file.compare(file.size() - 3, 3, ".et") != 0) return -1;
    std::string stem = file.substr(0, file.size() - 3);
    size_t dot = stem.rfind('.');
    std::string digits = dot == std::string::npos ? stem : stem.substr(dot + 1);
    // Nine digits at most: a rank beyond that is no trace set anyone has, and it keeps stoll in range.
    if (digits.empty() || digits.size() > 9 ||
        !std::all_of(digits.begin(), digits.end(), [](char c) { return c >= '0' && c <= '9'; }))
        return -1;
    return std::stoll(digits);
}

Result<std::vector<size_t>> order_traces_by_rank(const std::vector<std::string>& names,
                                                 const std::string& what) {
    std::vector<std::pair<int64_t, size_t>> found;
    found.reserve(names.size());
    for (size_t i = 0; i < names.size(); ++i) {
        int64_t r = trace_rank_of(names[i]);
        if (r < 0)
            return Status::error(
                what + ": " + names[i] +
                ": the name has no rank; <name>.<rank>.et was expected (NPU i reads <name>.i.et)");
        found.emplace_back(r, i);
    }
    std::sort(found.begin(), found.end());
    std::vector<size_t> order;
    order.reserve(found.size());
    for (size_t i = 0; i < found.size(); ++i) {
        if (found[i].first != static_cast<int64_t>(i))
            return Status::error(what + ": trace ranks must be 0.." + std::to_string(found.size() - 1) +
                                 " with none missing or repeated; found " + names[found[i].second]);
        order.push_back(found[i].second);
    }
    return order;
}

} // namespace astrolabe

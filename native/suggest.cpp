#include "native/suggest.h"

#include <algorithm>
#include <cctype>

namespace astrolabe::cli {

namespace {

std::string lower(std::string s) {
    std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return char(std::tolower(c)); });
    return s;
}

// Optimal string alignment distance: Levenshtein plus the swap of two neighbouring letters ("congestoin").
size_t edit_distance(const std::string& a, const std::string& b) {
    const size_t n = a.size(), m = b.size();
    std::vector<std::vector<size_t>> d(n + 1, std::vector<size_t>(m + 1, 0));
    for (size_t i = 0; i <= n; ++i)
        d[i][0] = i;
    for (size_t j = 0; j <= m; ++j)
        d[0][j] = j;
    for (size_t i = 1; i <= n; ++i)
        for (size_t j = 1; j <= m; ++j) {
            size_t cost = a[i - 1] == b[j - 1] ? 0 : 1;
            d[i][j] = std::min({d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost});
            if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1])
                d[i][j] = std::min(d[i][j], d[i - 2][j - 2] + 1);
        }
    return d[n][m];
}

} // namespace

std::string nearest_spelling(const std::string& typed, const std::vector<std::string>& candidates) {
    const std::string t = lower(typed);
    if (t.empty()) return "";
    const size_t limit = std::clamp<size_t>(t.size() / 3, 1, 3);
    std::string best;
    size_t best_d = limit + 1;
    for (const auto& c : candidates) {
        size_t d = edit_distance(t, lower(c));
        if (d < best_d) best_d = d, best = c; // first of equals wins: the candidates' order decides
    }
    return best_d <= limit ? best : "";
}

std::string join_choices(const std::vector<std::string>& choices) {
    std::string out;
    for (size_t i = 0; i < choices.size(); ++i) {
        if (i) out += i + 1 == choices.size() ? " or " : ", ";
        out += choices[i];
    }
    return out;
}

Status check_choice(const std::string& flag, const std::string& value,
                    const std::vector<std::string>& choices) {
    if (std::find(choices.begin(), choices.end(), value) != choices.end()) return Status::ok();
    std::string msg = flag + ": '" + value + "'; " + join_choices(choices) + " was expected";
    std::string near = nearest_spelling(value, choices);
    if (!near.empty()) msg += " (did you mean " + near + "?)";
    return Status::error(msg);
}

} // namespace astrolabe::cli

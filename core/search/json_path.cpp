// Knob paths over JSON documents (json_path.h).
#include "core/search/json_path.h"

#include <algorithm>

namespace astrolabe::search {

using nlohmann::json;

Result<JsonPath> parse_json_path(const std::string& text) {
    JsonPath path;
    path.text = text;
    if (text.empty()) return Status::error("an empty path");
    size_t i = 0;
    bool expect_key = true; // at the start and after '.'
    while (i < text.size()) {
        char c = text[i];
        if (c == '[') {
            if (path.steps.empty()) return Status::error("'" + text + "': a path starts with a key, not '['");
            size_t close = text.find(']', i);
            if (close == std::string::npos) return Status::error("'" + text + "': '[' without ']'");
            std::string digits = text.substr(i + 1, close - i - 1);
            if (digits.empty() || digits.size() > 9 ||
                digits.find_first_not_of("0123456789") != std::string::npos)
                return Status::error("'" + text + "': '[" + digits +
                                     "]' is not a list index (a whole number)");
            PathStep s;
            s.is_index = true;
            s.index = std::stoul(digits);
            path.steps.push_back(s);
            i = close + 1;
            expect_key = false;
            if (i < text.size() && text[i] != '.' && text[i] != '[')
                return Status::error("'" + text + "': '.' or '[' expected after ']'");
            if (i < text.size() && text[i] == '.') {
                ++i;
                expect_key = true;
                if (i == text.size()) return Status::error("'" + text + "': ends with '.'");
            }
            continue;
        }
        if (!expect_key) return Status::error("'" + text + "': '.' expected before '" + text.substr(i) + "'");
        size_t end = text.find_first_of(".[]", i);
        if (end == std::string::npos) end = text.size();
        if (end == i) return Status::error("'" + text + "': an empty key at column " + std::to_string(i + 1));
        if (end < text.size() && text[end] == ']') return Status::error("'" + text + "': ']' without '['");
        PathStep s;
        s.key = text.substr(i, end - i);
        path.steps.push_back(s);
        i = end;
        expect_key = false;
        if (i < text.size() && text[i] == '.') {
            ++i;
            expect_key = true;
            if (i == text.size()) return Status::error("'" + text + "': ends with '.'");
        }
    }
    return path;
}

const json* find_at(const json& doc, const JsonPath& path, std::string* why) {
    const json* at = &doc;
    std::string where;
    for (const auto& s : path.steps) {
        if (s.is_index) {
            if (!at->is_array()) {
                if (why) *why = "'" + where + "' is not a list";
                return nullptr;
            }
            if (s.index >= at->size()) {
                if (why)
                    *why = "'" + where + "' has " + std::to_string(at->size()) + " entries; [" +
                           std::to_string(s.index) + "] is past its end";
                return nullptr;
            }
            at = &(*at)[s.index];
            where += "[" + std::to_string(s.index) + "]";
        } else {
            if (!at->is_object()) {
                if (why) *why = "'" + (where.empty() ? std::string("(top)") : where) + "' is not an object";
                return nullptr;
            }
            auto it = at->find(s.key);
            if (it == at->end()) {
                if (why) {
                    std::vector<std::string> keys;
                    for (auto k = at->begin(); k != at->end(); ++k)
                        keys.push_back(k.key());
                    std::string near = nearest_word(s.key, keys);
                    *why = "'" + s.key + "' is not a key of " +
                           (where.empty() ? std::string("the scenario") : "'" + where + "'") +
                           (near.empty() ? std::string() : " (nearest: '" + near + "')");
                }
                return nullptr;
            }
            at = &*it;
            where += (where.empty() ? "" : ".") + s.key;
        }
    }
    return at;
}

bool set_at(json& doc, const JsonPath& path, const json& value) {
    json* at = &doc;
    for (const auto& s : path.steps) {
        if (s.is_index) {
            if (!at->is_array() || s.index >= at->size()) return false;
            at = &(*at)[s.index];
        } else {
            if (!at->is_object()) return false;
            auto it = at->find(s.key);
            if (it == at->end()) return false;
            at = &*it;
        }
    }
    *at = value;
    return true;
}

std::string nearest_word(const std::string& word, const std::vector<std::string>& candidates) {
    std::string best;
    size_t best_d = std::max<size_t>(2, word.size() / 3) + 1;
    for (const auto& c : candidates) {
        // Levenshtein distance, two rows.
        std::vector<size_t> prev(c.size() + 1), cur(c.size() + 1);
        for (size_t j = 0; j <= c.size(); ++j)
            prev[j] = j;
        for (size_t i = 1; i <= word.size(); ++i) {
            cur[0] = i;
            for (size_t j = 1; j <= c.size(); ++j)
                cur[j] =
                    std::min({prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (word[i - 1] == c[j - 1] ? 0 : 1)});
            std::swap(prev, cur);
        }
        if (prev[c.size()] < best_d) {
            best_d = prev[c.size()];
            best = c;
        }
    }
    return best;
}

} // namespace astrolabe::search

// ASTRA-sim's analytical network config -> NetworkConfig, from its YAML file or from a JSON object with the
// same keys (the scenario format). The YAML reader handles the subset these files use: top-level
// `key: value` lines whose value is a scalar, a flow list `[a, b]` or a block list of `- a` items, and
// comments. Anything else (nested maps, anchors, multi-documents) is refused with its line number.
#include "core/config/config_parse.h"
#include "core/config/json_read.h"
#include "core/config/spellings.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <map>

namespace astrolabe::config {

namespace {

struct Scalar {
    std::string text;
    int line = 0; // 0 when not from a YAML file
};
using RawNetwork = std::map<std::string, std::vector<Scalar>>;

std::string trim(const std::string& s) {
    size_t a = s.find_first_not_of(" \t\r");
    if (a == std::string::npos) return "";
    size_t b = s.find_last_not_of(" \t\r");
    return s.substr(a, b - a + 1);
}

std::string strip_comment(const std::string& line) {
    char quote = 0;
    for (size_t i = 0; i < line.size(); ++i) {
        char c = line[i];
        if (quote) {
            if (c == quote) quote = 0;
        } else if (c == '"' || c == '\'') {
            quote = c;
        } else if (c == '#' && (i == 0 || line[i - 1] == ' ' || line[i - 1] == '\t')) {
            return line.substr(0, i);
        }
    }
    return line;
}

std::string unquote(const std::string& s) {
    if (s.size() >= 2 && (s[0] == '"' || s[0] == '\'') && s.back() == s[0]) return s.substr(1, s.size() - 2);
    return s;
}

// Splits "a, b, 'c'" into scalars.
void split_flow(const std::string& body, int line, std::vector<Scalar>& out) {
    std::string cur;
    char quote = 0;
    auto flush = [&] {
        std::string t = trim(cur);
        if (!t.empty()) out.push_back({unquote(t), line});
        cur.clear();
    };
    for (char c : body) {
        if (quote) {
            if (c == quote) quote = 0;
            cur += c;
        } else if (c == '"' || c == '\'') {
            quote = c;
            cur += c;
        } else if (c == ',') {
            flush();
        } else {
            cur += c;
        }
    }
    flush();
}

Result<RawNetwork> read_yaml(std::string_view text, const std::string& source) {
    RawNetwork raw;
    Status problems;
    // A binary file (or a trace given as the network) would otherwise give messages quoting raw bytes.
    size_t line_no = 1;
    for (char c : text) {
        auto b = static_cast<unsigned char>(c);
        if (c == '\n') ++line_no;
        if (b < 0x20 && c != '\n' && c != '\r' && c != '\t') {
            char hex[8];
            std::snprintf(hex, sizeof hex, "0x%02x", b);
            return Status::error(source + ": line " + std::to_string(line_no) + ": control byte " + hex +
                                 "; a text YAML file was expected (is this a binary file?)");
        }
    }
    std::vector<std::string> lines;
    size_t start = 0;
    while (start <= text.size()) {
        size_t end = text.find('\n', start);
        if (end == std::string_view::npos) end = text.size();
        lines.emplace_back(text.substr(start, end - start));
        start = end + 1;
    }
    std::string current_key; // key awaiting block-list items
    auto at_line = [&source](size_t i) { return source + ": line " + std::to_string(i + 1) + ": "; };
    for (size_t i = 0; i < lines.size(); ++i) {
        std::string content = strip_comment(lines[i]);
        std::string t = trim(content);
        if (t.empty() || t == "---") continue;
        if (t == "...") break;
        bool indented = content[0] == ' ' || content[0] == '\t';
        if (t[0] == '-' && (t.size() == 1 || t[1] == ' ')) {
            if (current_key.empty()) {
                problems.add(at_line(i) + "a list item outside any key");
                continue;
            }
            std::string item = trim(t.substr(1));
            if (item.empty() || item[0] == '[' || item[0] == '{' || item.find(": ") != std::string::npos) {
                problems.add(at_line(i) + "nested structures are not supported; a plain value was expected");
                continue;
            }
            raw[current_key].push_back({unquote(item), static_cast<int>(i + 1)});
            continue;
        }
        if (indented) {
            problems.add(
                at_line(i) +
                "unexpected indentation; only top-level 'key: value' lines and '- item' lists are supported");
            continue;
        }
        size_t colon = t.find(':');
        if (colon == std::string::npos) {
            problems.add(at_line(i) + "'" + t + "' is not a 'key: value' line");
            continue;
        }
        std::string key = trim(t.substr(0, colon));
        std::string value = trim(t.substr(colon + 1));
        if (raw.count(key)) {
            problems.add(at_line(i) + key + ": appears twice");
            continue;
        }
        raw[key]; // present even if empty
        current_key.clear();
        if (value.empty()) {
            current_key = key;
        } else if (value[0] == '[') {
            // A flow list may continue over several lines until its closing bracket.
            std::string body = value.substr(1);
            size_t j = i;
            while (body.find(']') == std::string::npos && j + 1 < lines.size()) {
                // A new top-level `key:` line means the list was left open.
                std::string next = strip_comment(lines[j + 1]);
                if (!next.empty() && next[0] != ' ' && next[0] != '\t' && next.find(':') != std::string::npos)
                    break;
                body += " " + trim(next);
                ++j;
            }
            size_t close = body.find(']');
            if (close == std::string::npos) {
                problems.add(at_line(i) + key + ": the list '[' is never closed with ']'");
                break;
            }
            if (!trim(body.substr(close + 1)).empty())
                problems.add(at_line(i) + key + ": unexpected text after the closing ']'");
            split_flow(body.substr(0, close), static_cast<int>(i + 1), raw[key]);
            i = j;
        } else if (value[0] == '{' || value[0] == '&' || value[0] == '*' || value[0] == '|' ||
                   value[0] == '>') {
            problems.add(at_line(i) + key +
                         ": this YAML construct is not supported; a list of values was expected");
        } else {
            raw[key].push_back({unquote(value), static_cast<int>(i + 1)});
        }
    }
    if (!problems.is_ok()) return problems;
    return raw;
}

bool to_number(const std::string& s, double& out) {
    if (s.empty()) return false;
    char* end = nullptr;
    out = std::strtod(s.c_str(), &end);
    return end && *end == '\0' && std::isfinite(out);
}

Result<NetworkConfig> network_from_raw(const RawNetwork& raw, const std::string& source) {
    NetworkConfig net;
    Status problems;
    auto where = [&source](const char* key, const Scalar* s) {
        std::string w = source + ": ";
        if (s && s->line > 0) w += "line " + std::to_string(s->line) + ": ";
        return w + key + ": ";
    };
    static const char* const kKeys[] = {"topology", "npus_count", "bandwidth", "latency"};
    size_t dims = 0;
    for (const char* k : kKeys) {
        auto it = raw.find(k);
        if (it == raw.end() || it->second.empty()) {
            problems.add(where(k, nullptr) +
                         "is missing; a list with one entry per network dimension was expected");
            continue;
        }
        if (dims == 0)
            dims = it->second.size();
        else if (it->second.size() != dims)
            problems.add(where(k, &it->second[0]) + "has " + std::to_string(it->second.size()) +
                         " entries but topology has " + std::to_string(dims) +
                         "; one per dimension was expected");
    }
    if (!problems.is_ok()) return problems;
    if (dims > 8)
        return Status::error(where("topology", &raw.at("topology")[0]) + std::to_string(dims) +
                             " dimensions; at most 8 are supported");
    net.dims.resize(dims);
    double total = 1;
    for (size_t d = 0; d < dims; ++d) {
        NetworkDim& nd = net.dims[d];
        const Scalar& topo = raw.at("topology")[d];
        if (!parse_name(topo.text, nd.topology))
            problems.add(where("topology", &topo) + "\"" + topo.text + "\" is not a topology; " +
                         expected_choice(spellings<Topology>(), topo.text));

        const Scalar& n = raw.at("npus_count")[d];
        double v = 0;
        if (!to_number(n.text, v) || v != std::floor(v) || v < 1 || v > (1 << 24))
            problems.add(where("npus_count", &n) + "\"" + n.text +
                         "\" is not an NPU count; a whole number from 1 to 16777216 was expected");
        else {
            nd.npus = static_cast<uint32_t>(v);
            // In floating point: four dimensions of 65536 would wrap a 64-bit product around to 0.
            total *= nd.npus;
        }
        const Scalar& bw = raw.at("bandwidth")[d];
        if (!to_number(bw.text, v) || v <= 0)
            problems.add(where("bandwidth", &bw) + "\"" + bw.text +
                         "\" is not a bandwidth; a number of GB/s greater than 0 was expected");
        else
            nd.bandwidth_gbps = v;
        const Scalar& lat = raw.at("latency")[d];
        if (!to_number(lat.text, v) || v < 0)
            problems.add(where("latency", &lat) + "\"" + lat.text +
                         "\" is not a latency; a number of ns, at least 0, was expected");
        else
            nd.latency_ns = v;
    }
    if (problems.is_ok() && total > double(uint64_t(1) << 24)) {
        char product[32];
        std::snprintf(product, sizeof product, "%.0f", total);
        problems.add(source + ": npus_count: the dimensions multiply to " + product +
                     " NPUs, which exceeds the limit of 16777216 NPUs");
    }
    for (const auto& kv : raw) {
        bool known = false;
        for (const char* k : kKeys)
            known = known || kv.first == k;
        if (!known) net.warnings.push_back(source + ": " + kv.first + ": unknown key (ignored)");
    }
    if (!problems.is_ok()) return problems;
    return net;
}

} // namespace

namespace detail {

Result<NetworkConfig> network_from_json(const json& j, const std::string& source) {
    if (Status st = require_object(j, source, "network configuration"); !st.is_ok()) return st;
    RawNetwork raw;
    for (auto it = j.begin(); it != j.end(); ++it) {
        auto& list = raw[it.key()];
        auto add = [&list](const json& v) {
            list.push_back({v.is_string() ? v.get<std::string>() : v.dump(), 0});
        };
        if (it.value().is_array()) {
            for (const auto& v : it.value())
                add(v);
        } else {
            add(it.value());
        }
    }
    return network_from_raw(raw, source);
}

} // namespace detail

Result<NetworkConfig> parse_network_yaml(std::string_view text, const std::string& source) {
    auto raw = read_yaml(text, source);
    if (!raw) return raw.status();
    return network_from_raw(raw.value(), source);
}

} // namespace astrolabe::config

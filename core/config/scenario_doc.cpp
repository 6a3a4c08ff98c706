#include "core/config/scenario_doc.h"

#include "core/base/base64.h"
#include "core/config/json_read.h"

#include <cmath>
#include <vector>

namespace astrolabe::config {

using detail::json;

struct ScenarioDoc::Impl {
    json doc = json::object();

    // The value at `path`, or null when the pointer is malformed or leads nowhere.
    const json* find(const std::string& path) const {
        try {
            json::json_pointer p(path);
            return doc.contains(p) ? &doc.at(p) : nullptr;
        } catch (const json::exception&) {
            return nullptr;
        }
    }
    // Writes `v` at `path`; a path through a non-container, a malformed pointer or one that would pad an
    // array is ignored.
    void put(const std::string& path, json v) {
        try {
            json::json_pointer p(path);
            if (!grows_arrays_by_one(p)) return;
            doc[p] = std::move(v);
        } catch (const json::exception&) {
        }
    }

    // Whether writing at `p` adds at most one element to any array on its way. A pointer's number indexes
    // an array (an existing one, or the one a write creates where nothing is); a write past the end
    // would fill the gap with nulls, so "/a/4000000000" from a pasted link or a fuzzed path would
    // allocate billions of them and hang the page.
    bool grows_arrays_by_one(const json::json_pointer& p) const {
        std::vector<json::json_pointer> prefixes; // p, its parent, ..., the first token
        for (json::json_pointer q = p; !q.empty(); q = q.parent_pointer())
            prefixes.push_back(q);
        for (auto it = prefixes.rbegin(); it != prefixes.rend(); ++it) {
            const json::json_pointer up = it->parent_pointer();
            const json* parent = doc.contains(up) ? &doc.at(up) : nullptr; // none: this write creates it
            if (parent && !parent->is_array() && !parent->is_null()) continue;
            const std::string& token = it->back();
            const bool number = !token.empty() && token.find_first_not_of("0123456789") == std::string::npos;
            if (!number) continue; // a key ("-" appends one element; nlohmann refuses others on arrays)
            if (token.size() > 9) return false;
            const size_t size = parent && parent->is_array() ? parent->size() : 0;
            if (std::stoul(token) > size) return false;
        }
        return true;
    }
};

ScenarioDoc::ScenarioDoc() : impl_(std::make_unique<Impl>()) {}
ScenarioDoc::~ScenarioDoc() = default;
ScenarioDoc::ScenarioDoc(const ScenarioDoc& o) : impl_(std::make_unique<Impl>(*o.impl_)) {}
ScenarioDoc& ScenarioDoc::operator=(const ScenarioDoc& o) {
    *impl_ = *o.impl_;
    return *this;
}
ScenarioDoc::ScenarioDoc(ScenarioDoc&&) noexcept = default;
ScenarioDoc& ScenarioDoc::operator=(ScenarioDoc&&) noexcept = default;

Result<ScenarioDoc> ScenarioDoc::from_text(std::string_view text, const std::string& source) {
    auto parsed = detail::parse_json_text(text, source);
    if (!parsed) return parsed.status();
    if (Status st = detail::require_object(parsed.value(), source, "scenario"); !st.is_ok()) return st;
    ScenarioDoc d;
    d.impl_->doc = std::move(parsed.value());
    return d;
}

std::string ScenarioDoc::dump(int indent) const {
    // Keys come from edit paths as well as from parsed text; a path that is not UTF-8 (a fuzzed or pasted
    // one) must not make the document unprintable: its bad bytes print as U+FFFD and the parser then
    // names the key it does not know.
    return impl_->doc.dump(indent, ' ', false, json::error_handler_t::replace);
}

Result<Scenario> ScenarioDoc::parse(const std::string& source) const {
    return parse_scenario_json(dump(), source);
}

bool ScenarioDoc::has(const std::string& path) const {
    return impl_->find(path) != nullptr;
}

bool ScenarioDoc::is_number(const std::string& path) const {
    const json* v = impl_->find(path);
    return v && v->is_number();
}

std::string ScenarioDoc::get_string(const std::string& path, const std::string& fallback) const {
    const json* v = impl_->find(path);
    return v && v->is_string() ? v->get<std::string>() : fallback;
}

double ScenarioDoc::get_number(const std::string& path, double fallback) const {
    const json* v = impl_->find(path);
    if (v && v->is_number()) return v->get<double>();
    if (v && v->is_boolean()) return v->get<bool>() ? 1 : 0;
    return fallback;
}

size_t ScenarioDoc::array_size(const std::string& path) const {
    const json* v = impl_->find(path);
    return v && v->is_array() ? v->size() : 0;
}

std::string ScenarioDoc::get_json(const std::string& path) const {
    const json* v = impl_->find(path);
    return v ? v->dump(-1, ' ', false, json::error_handler_t::replace) : std::string();
}

std::vector<std::string> ScenarioDoc::keys(const std::string& path) const {
    std::vector<std::string> out;
    const json* v = impl_->find(path);
    if (v && v->is_object())
        for (auto it = v->begin(); it != v->end(); ++it)
            out.push_back(it.key());
    return out;
}

void ScenarioDoc::set_string(const std::string& path, const std::string& value) {
    impl_->put(path, value);
}

void ScenarioDoc::set_number(const std::string& path, double value) {
    // Integers stay integers, so "endpoint-delay": 10 is not rewritten as 10.0 (ASTRA-sim's readers and
    // ours accept both, but a user reading the shared file should see what they typed).
    if (std::isfinite(value) && value == std::floor(value) && std::fabs(value) < 9.0e15)
        impl_->put(path, static_cast<int64_t>(value));
    else
        impl_->put(path, value);
}

void ScenarioDoc::set_array_size(const std::string& path, size_t n) {
    const json* cur = impl_->find(path);
    json arr = cur && cur->is_array() ? *cur : json::array();
    while (arr.size() > n)
        arr.erase(arr.size() - 1);
    while (arr.size() < n)
        arr.push_back(arr.empty() ? json() : arr.back());
    impl_->put(path, std::move(arr));
}

void ScenarioDoc::set_string_array(const std::string& path, const std::vector<std::string>& values) {
    impl_->put(path, json(values));
}

void ScenarioDoc::set_bool(const std::string& path, bool value) {
    impl_->put(path, value);
}

Status ScenarioDoc::set_json(const std::string& path, std::string_view text, const std::string& source) {
    auto parsed = detail::parse_json_text(text, source);
    if (!parsed) return parsed.status();
    impl_->put(path, std::move(parsed.value()));
    return Status::ok();
}

void ScenarioDoc::erase(const std::string& path) {
    try {
        json::json_pointer p(path);
        if (!impl_->doc.contains(p) || p.empty()) return;
        json& parent = impl_->doc.at(p.parent_pointer());
        if (parent.is_object())
            parent.erase(p.back());
        else if (parent.is_array())
            parent.erase(static_cast<size_t>(std::stoul(p.back())));
    } catch (const std::exception&) {
    }
}

void ScenarioDoc::set_embedded_traces(const std::vector<std::pair<std::string, std::string>>& traces) {
    json list = json::array();
    for (const auto& t : traces)
        list.push_back(json{{"name", t.first}, {"base64", base64_encode(t.second)}});
    impl_->doc["workload"] = json{{"traces", std::move(list)}};
}

std::string ScenarioDoc::workload_summary() const {
    if (has("/workload/sample")) return "sample " + get_string("/workload/sample");
    if (has("/workload/prefix")) return "prefix " + get_string("/workload/prefix");
    if (size_t n = array_size("/workload/traces")) return std::to_string(n) + " embedded trace(s)";
    if (has("/workload/generate")) return "generated " + get_string("/workload/generate/kind", "(no kind)");
    return "no workload";
}

} // namespace astrolabe::config

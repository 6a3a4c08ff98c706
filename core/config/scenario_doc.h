// A scenario as an editable JSON document: what the browser's forms change and what a share link carries.
//
// The typed config::Scenario is what a run needs; this is what a user edits. Keeping the document (rather
// than writing the typed structs back out) means every key survives an edit, including ones a form does
// not show, and the text the browser shares is exactly the text `astrolabe run --scenario` reads.
// Paths are JSON pointers ("/system/endpoint-delay", "/network/bandwidth/0"). nlohmann_json stays inside
// core/config: this class is its only face outside.
#pragma once

#include "core/base/status.h"
#include "core/config/scenario.h"

#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace astrolabe::config {

class ScenarioDoc {
public:
    ScenarioDoc();
    ~ScenarioDoc();
    ScenarioDoc(const ScenarioDoc& other);
    ScenarioDoc& operator=(const ScenarioDoc& other);
    ScenarioDoc(ScenarioDoc&&) noexcept;
    ScenarioDoc& operator=(ScenarioDoc&&) noexcept;

    // Only the JSON syntax and the top-level object are checked here; parse() checks the rest.
    static Result<ScenarioDoc> from_text(std::string_view text, const std::string& source);

    // The document as text: keys sorted, numbers in their shortest round-trip form, so the same document
    // always gives the same bytes. indent < 0: one line.
    std::string dump(int indent = -1) const;
    // The typed scenario, with every problem at once (as parse_scenario_json).
    Result<Scenario> parse(const std::string& source) const;

    bool has(const std::string& path) const;
    bool is_number(const std::string& path) const;
    std::string get_string(const std::string& path, const std::string& fallback = "") const;
    double get_number(const std::string& path, double fallback = 0) const;
    size_t array_size(const std::string& path) const; // 0 when absent or not an array
    // The value at `path` as one-line JSON text ("" when absent): a whole section, to put back later.
    std::string get_json(const std::string& path) const;
    // Names of an object's keys, sorted; empty when absent or not an object.
    std::vector<std::string> keys(const std::string& path) const;

    // Setters create missing parents as objects. A path whose parent is not an object or array is ignored.
    void set_string(const std::string& path, const std::string& value);
    void set_number(const std::string& path, double value); // written as an integer when it is one
    void set_array_size(const std::string& path, size_t n); // new entries copy the last one (or null)
    void set_string_array(const std::string& path, const std::vector<std::string>& values);
    void set_bool(const std::string& path, bool value);
    // Puts JSON text (an object, a list, any value) at `path`; text that is not JSON is an error naming
    // `source`, and the document is left as it was.
    Status set_json(const std::string& path, std::string_view text, const std::string& source);
    void erase(const std::string& path);

    // Replaces the workload with embedded traces ({"traces": [{"name", "base64"}]}), in the order given.
    void set_embedded_traces(const std::vector<std::pair<std::string, std::string>>& name_and_bytes);
    // The workload form in a sentence ("sample allreduce_ring8", "8 embedded traces", "prefix P").
    std::string workload_summary() const;

private:
    struct Impl;
    std::unique_ptr<Impl> impl_;
};

} // namespace astrolabe::config

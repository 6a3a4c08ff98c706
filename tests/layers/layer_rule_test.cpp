// The dependency rule of docs/ARCHITECTURE.md, enforced: every #include under core/, host/, native/, ui/
// and wasm/ is checked against the `layers` table of that document (read from the file, so the document
// and the check cannot drift apart), plus the rules on third-party headers (nlohmann, protobuf, ImGui,
// Emscripten, file and console I/O). A new violation fails with the file, the line and the rule.
//
// Index:
// [SECTION] the rule: the table and the header rules
// [SECTION] reading the tree
// [SECTION] tests
#include <catch2/catch.hpp>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

namespace fs = std::filesystem;

namespace {

// [SECTION] the rule: the table and the header rules

// Arrows tolerated while a module moves, as (from module, to module); empty since issue 15 landed. An
// entry no longer needed is reported.
const std::set<std::pair<std::string, std::string>> kAllowed = {};

struct Rules {
    std::vector<std::string> core_modules;                // the rows of core/ modules, in table order
    std::map<std::string, std::set<std::string>> allowed; // module -> modules it may include
};

// Parses the ```layers block: "module: dep dep ..." per line, '#' comments; `core` = every core module.
Rules parse_rules(const std::string& markdown, std::vector<std::string>& errors) {
    Rules r;
    auto start = markdown.find("```layers\n");
    if (start == std::string::npos) {
        errors.push_back("docs/ARCHITECTURE.md: no ```layers block (the dependency table)");
        return r;
    }
    auto end = markdown.find("```", start + 10);
    std::istringstream in(markdown.substr(start + 10, end - start - 10));
    std::string line;
    std::map<std::string, std::vector<std::string>> raw;
    bool front_ends = false;
    while (std::getline(in, line)) {
        if (line.rfind("# front ends", 0) == 0) front_ends = true;
        if (line.empty() || line[0] == '#') continue;
        auto colon = line.find(':');
        if (colon == std::string::npos) {
            errors.push_back("docs/ARCHITECTURE.md layers: line without ':': " + line);
            continue;
        }
        std::string module = line.substr(0, colon);
        std::istringstream deps(line.substr(colon + 1));
        std::string d;
        while (deps >> d)
            raw[module].push_back(d);
        raw[module]; // a row without dependencies (base)
        if (!front_ends) r.core_modules.push_back(module);
    }
    for (const auto& [module, deps] : raw) {
        auto& set = r.allowed[module];
        for (const auto& d : deps) {
            if (d == "core")
                set.insert(r.core_modules.begin(), r.core_modules.end());
            else if (raw.count(d))
                set.insert(d);
            else
                errors.push_back("docs/ARCHITECTURE.md layers: " + module + " lists unknown module " + d);
        }
    }
    return r;
}

// "core/system/scheduling/x.h" -> "system/scheduling"; "core/base/x.h" -> "base"; "ui/x.h" -> "ui".
std::string module_of(const std::string& path) {
    auto first = path.find('/');
    if (first == std::string::npos) return "";
    std::string top = path.substr(0, first);
    if (top != "core") return top;
    auto second = path.find('/', first + 1);
    if (second == std::string::npos) return "";
    std::string m = path.substr(first + 1, second - first - 1);
    if (m == "system") {
        auto third = path.find('/', second + 1);
        if (third != std::string::npos) m += "/" + path.substr(second + 1, third - second - 1);
    }
    return m;
}

bool starts_with(const std::string& s, const std::string& p) {
    return s.compare(0, p.size(), p) == 0;
}

struct Include {
    std::string file; // repository-relative
    int line = 0;
    std::string target;
    bool angled = false;
};

// Violations of the table and of the header rules; `used` collects the allow-list entries that matched.
std::vector<std::string> check(const Rules& rules, const std::vector<Include>& includes,
                               std::set<std::pair<std::string, std::string>>& used) {
    std::vector<std::string> out;
    auto fail = [&out](const Include& inc, const std::string& why) {
        out.push_back(inc.file + ":" + std::to_string(inc.line) + ": includes " + inc.target + ": " + why);
    };
    const std::set<std::string> core_set(rules.core_modules.begin(), rules.core_modules.end());
    for (const auto& inc : includes) {
        const std::string from = module_of(inc.file);
        const bool in_core = starts_with(inc.file, "core/");
        if (in_core && !core_set.count(from)) {
            fail(inc, "module core/" + from + " has no row in the layers table of docs/ARCHITECTURE.md");
            continue;
        }
        if (inc.angled) {
            const std::string& t = inc.target;
            // core/search edits scenario JSON trees by knob path (a.b[i]); every other module reads JSON
            // through config's wrapper.
            if (starts_with(t, "nlohmann/") && !starts_with(inc.file, "core/config/") &&
                !starts_with(inc.file, "core/search/"))
                fail(inc, "nlohmann_json is used by core/config (config/json_read.h) and core/search alone");
            if (starts_with(t, "google/protobuf") && !starts_with(inc.file, "core/trace/"))
                fail(inc, "protobuf is core/trace's alone");
            if (in_core && (t == "fstream" || t == "iostream" || t == "filesystem"))
                fail(inc, "core/ does no file or console I/O (bytes in, results out; files are host/'s)");
            bool imgui = starts_with(t, "imgui") || starts_with(t, "backends/imgui");
            if (imgui && !starts_with(inc.file, "ui/") && !starts_with(inc.file, "wasm/"))
                fail(inc, "ImGui belongs to ui/ and wasm/");
            if ((starts_with(t, "emscripten") || starts_with(t, "GLFW/")) && !starts_with(inc.file, "wasm/"))
                fail(inc, "Emscripten and GLFW belong to wasm/");
            continue;
        }
        if (inc.target == "chakra.pb.h" && !starts_with(inc.file, "core/trace/"))
            fail(inc, "the generated protobuf header is core/trace's alone");
        if (inc.target == "core/config/json_read.h" && !starts_with(inc.file, "core/config/") &&
            inc.file != "core/trace/trace_json.cpp")
            fail(inc, "the parsed JSON tree stays in core/config (and core/trace/trace_json.cpp)");
        const std::string to = module_of(inc.target);
        if (to.empty() || to == from) continue;
        bool ours = false;
        for (const char* top : {"core/", "host/", "native/", "ui/", "wasm/"})
            ours = ours || starts_with(inc.target, top);
        if (!ours) continue; // a generated or third-party header spelled with quotes
        auto row = rules.allowed.find(from);
        if (row != rules.allowed.end() && row->second.count(to)) continue;
        if (kAllowed.count({from, to})) {
            used.insert({from, to});
            continue;
        }
        fail(inc, from + " may not depend on " + to + " (docs/ARCHITECTURE.md, the dependency rule)");
    }
    return out;
}

// [SECTION] reading the tree

std::string read_text(const fs::path& p) {
    std::ifstream in(p, std::ios::binary);
    std::ostringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

std::vector<Include> includes_of(const std::string& file, const std::string& text) {
    static const std::regex kInclude(R"(^\s*#\s*include\s*([<"])([^">]+)[">])");
    std::vector<Include> out;
    std::istringstream in(text);
    std::string line;
    int n = 0;
    while (std::getline(in, line)) {
        ++n;
        std::smatch m;
        if (std::regex_search(line, m, kInclude)) out.push_back({file, n, m[2].str(), m[1].str() == "<"});
    }
    return out;
}

std::vector<Include> tree_includes(const fs::path& root) {
    std::vector<Include> out;
    for (const char* top : {"core", "host", "native", "ui", "wasm"}) {
        if (!fs::exists(root / top)) continue;
        std::vector<fs::path> files;
        for (const auto& e : fs::recursive_directory_iterator(root / top)) {
            auto ext = e.path().extension().string();
            if (e.is_regular_file() && (ext == ".h" || ext == ".cpp" || ext == ".hpp"))
                files.push_back(e.path());
        }
        std::sort(files.begin(), files.end());
        for (const auto& p : files) {
            auto rel = fs::relative(p, root).generic_string();
            auto incs = includes_of(rel, read_text(p));
            out.insert(out.end(), incs.begin(), incs.end());
        }
    }
    return out;
}

std::string joined(const std::vector<std::string>& v) {
    std::string s;
    for (const auto& x : v)
        s += x + "\n";
    return s;
}

const char* kTable = "```layers\n"
                     "base:\n"
                     "engine: base\n"
                     "network: base engine\n"
                     "system/collectives: base\n"
                     "# front ends\n"
                     "host: core\n"
                     "ui: host base\n"
                     "```\n";

} // namespace

// [SECTION] tests

TEST_CASE("layer rule: the checker itself, on a small table", "[layers]") {
    std::vector<std::string> errors;
    Rules r = parse_rules(kTable, errors);
    REQUIRE(errors.empty());
    std::set<std::pair<std::string, std::string>> used;
    SECTION("downward arrows pass; the module names come from the path") {
        // network -> engine and ui -> host are rows of the table; a file may always include its module.
        CHECK(module_of("core/system/collectives/ring.h") == "system/collectives");
        CHECK(module_of("core/base/slab.h") == "base");
        CHECK(module_of("ui/app_state.cpp") == "ui");
        std::vector<Include> ok = {{"core/network/flow_network.h", 3, "core/engine/engine.h", false},
                                   {"ui/app_state.cpp", 4, "host/files.h", false},
                                   {"host/files.cpp", 2, "core/network/topology.h", false},
                                   {"core/base/slab.h", 1, "vector", true}};
        CHECK(check(r, ok, used).empty());
    }
    SECTION("an upward arrow, a sideways one and a front end into native/ each fail, naming file and line") {
        std::vector<Include> bad = {{"core/engine/engine.h", 7, "core/network/topology.h", false},
                                    {"core/base/x.h", 2, "core/engine/engine.h", false},
                                    {"ui/app_state.cpp", 6, "native/files.h", false}};
        auto v = check(r, bad, used);
        REQUIRE(v.size() == 3);
        CHECK(v[0] == "core/engine/engine.h:7: includes core/network/topology.h: engine may not depend on "
                      "network (docs/ARCHITECTURE.md, the dependency rule)");
        CHECK(v[2].find("ui may not depend on native") != std::string::npos);
    }
    SECTION("header rules: nlohmann outside config, file I/O in core, a core module without a row") {
        std::vector<Include> bad = {{"core/network/x.cpp", 1, "nlohmann/json.hpp", true},
                                    {"core/network/x.cpp", 2, "fstream", true},
                                    {"core/widgets/w.h", 1, "core/base/slab.h", false}};
        CHECK(check(r, bad, used).size() == 3);
    }
    SECTION("an arrow issue 15 removed (collectives -> network) is a violation again, the allow-list being "
            "empty") {
        std::vector<Include> removed = {
            {"core/system/collectives/ring.h", 5, "core/network/topology.h", false}};
        CHECK(check(r, removed, used).size() == 1);
        CHECK(used.empty());
    }
}

TEST_CASE("layer rule: every #include of the tree follows docs/ARCHITECTURE.md", "[layers]") {
    const fs::path root = ASTROLABE_SOURCE_DIR;
    std::vector<std::string> errors;
    Rules rules = parse_rules(read_text(root / "docs" / "ARCHITECTURE.md"), errors);
    INFO(joined(errors));
    REQUIRE(errors.empty());
    auto includes = tree_includes(root);
    // The tree is real: hundreds of includes, so an empty walk (a wrong root) cannot pass silently.
    REQUIRE(includes.size() > 300);
    std::set<std::pair<std::string, std::string>> used;
    auto violations = check(rules, includes, used);
    INFO(joined(violations));
    CHECK(violations.empty());
    for (const auto& entry : kAllowed)
        if (!used.count(entry))
            WARN("allow-list entry " + entry.first + " -> " + entry.second +
                 " is no longer needed: remove it from tests/layers/layer_rule_test.cpp");
}

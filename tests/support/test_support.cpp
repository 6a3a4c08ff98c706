#include "support/test_support.h"

#include <filesystem>

#include "core/config/config_parse.h"
#include "core/config/spellings.h"
#include "core/report/report.h"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <fstream>
#include <sstream>

#ifndef ASTROLABE_TEST_DATA
#error "ASTROLABE_TEST_DATA must name the tests/data directory (set by tests/CMakeLists.txt)"
#endif

namespace astrolabe::test {

std::string data_path(const std::string& rel) {
    return std::string(ASTROLABE_TEST_DATA) + "/" + rel;
}

bool read_file(const std::string& path, std::string& out) {
    std::ifstream in(path, std::ios::binary);
    if (!in) return false;
    std::ostringstream ss;
    ss << in.rdbuf();
    out = ss.str();
    return true;
}

std::string read_data(const std::string& rel) {
    std::string bytes;
    INFO("test input " << data_path(rel));
    REQUIRE(read_file(data_path(rel), bytes));
    return bytes;
}

Status PrefixTraceSource::read(uint32_t rank, std::string& bytes, std::string& name) {
    name = prefix_ + "." + std::to_string(rank) + ".et";
    if (!read_file(dir_ + name, bytes)) return Status::error(name + ": cannot be read");
    return Status::ok();
}

config::NetworkConfig network_yaml(const std::string& text) {
    auto r = config::parse_network_yaml(text, "test.yml");
    INFO(r.status().message());
    REQUIRE(r.is_ok());
    return r.value();
}

config::HardwareConfig hardware_json(const std::string& text) {
    auto r = config::parse_hardware_json(text, "test.json");
    INFO(r.status().message());
    REQUIRE(r.is_ok());
    return r.value();
}

config::SystemConfig system_json(const std::string& text) {
    auto r = config::parse_system_json(text, "test.json");
    INFO(r.status().message());
    REQUIRE(r.is_ok());
    return r.value();
}

config::MemoryConfig memory_json(const std::string& text) {
    auto r = config::parse_memory_json(text, "test-mem.json");
    INFO(r.status().message());
    REQUIRE(r.is_ok());
    return r.value();
}

Status DataHost::read_file(const std::string& path, std::string& bytes) {
    if (!test::read_file(data_path(path), bytes)) return Status::error(path + ": cannot be read");
    return Status::ok();
}

Result<std::unique_ptr<TraceSource>> DataHost::open_workload(config::Scenario::WorkloadKind kind,
                                                             const std::string& name) {
    if (kind == config::Scenario::WorkloadKind::Sample) {
        // A bundled sample's folder holds its traces as `<stem>.<rank>.et`; the stem is the .0.et's.
        const std::string dir = std::string(ASTROLABE_SAMPLES_DIR) + "/" + name;
        std::error_code ec;
        for (const auto& f : std::filesystem::directory_iterator(dir, ec)) {
            const std::string file = f.path().filename().string();
            if (file.size() > 5 && file.compare(file.size() - 5, 5, ".0.et") == 0)
                return std::unique_ptr<TraceSource>(
                    std::make_unique<PrefixTraceSource>(dir, file.substr(0, file.size() - 5)));
        }
        return Status::error("sample '" + name + "': no <name>.0.et in " + dir);
    }
    return std::unique_ptr<TraceSource>(std::make_unique<PrefixTraceSource>(name));
}

DataHost& data_host() {
    // Stateless, so one instance serves every test (and every thread).
    static DataHost host;
    return host;
}

Result<std::unique_ptr<Simulation>> build(config::Scenario cfg, const std::vector<std::string>& traces,
                                          std::vector<std::string>* warnings, const RunOptions& options) {
    MemoryTraceSource src;
    for (size_t i = 0; i < traces.size(); ++i)
        src.add("npu" + std::to_string(i) + ".et", traces[i]);
    std::vector<std::string> local;
    return build_simulation(std::move(cfg), src, warnings ? *warnings : local, options, &data_host());
}

namespace {

// REQUIREs that the build succeeded (the refusal is the failure message), then runs to the end.
RunResult run_built(Result<std::unique_ptr<Simulation>> sim) {
    INFO(sim.status().message());
    REQUIRE(sim.is_ok());
    sim.value()->run_to_end();
    return sim.value()->result();
}

} // namespace

RunResult run(config::Scenario cfg, const std::vector<std::string>& traces, const RunOptions& options) {
    return run_built(build(std::move(cfg), traces, nullptr, options));
}

RunResult run(config::Scenario cfg, TraceSource& traces, const RunOptions& options) {
    std::vector<std::string> warnings;
    return run_built(build_simulation(std::move(cfg), traces, warnings, options, &data_host()));
}

std::string strip_host_fields(const std::string& report) {
    std::string out;
    size_t pos = 0;
    while (pos < report.size()) {
        size_t eol = report.find('\n', pos);
        if (eol == std::string::npos) eol = report.size();
        std::string line = report.substr(pos, eol - pos);
        if (line.find("\"wall_s\"") == std::string::npos &&
            line.find("\"events_per_s\"") == std::string::npos)
            out += line + "\n";
        pos = eol + 1;
    }
    return out;
}

std::string without_engine(const std::string& report_json) {
    nlohmann::json j = nlohmann::json::parse(report_json);
    j.erase("engine");
    return j.dump(1);
}

std::string report_without_event_counts(const RunResult& r, const char* network_model) {
    ReportContext ctx;
    ctx.workload = "case";
    ctx.network_model = network_model;
    ctx.compute_model = "trace";
    nlohmann::json j = nlohmann::json::parse(report_json(r, ctx));
    for (const char* key : {"events", "peak_queue", "fast_ring", "wall_s", "events_per_s"})
        j.at("engine").erase(key);
    return j.dump(1);
}

std::string report_without_engine(const Simulation& sim, const RunResult& r,
                                  const std::vector<std::string>& load_warnings) {
    ReportContext ctx;
    ctx.workload = "case";
    ctx.network_model = config::name_of(sim.input().network_model);
    ctx.compute_model = sim.compute_model_label();
    ctx.load_warnings = load_warnings;
    return without_engine(report_json(r, ctx));
}

std::unique_ptr<Session> run_session(config::Scenario sc, const RunOptions& options) {
    auto session = Session::open(std::move(sc), options, data_host());
    INFO(session.status().message());
    REQUIRE(session.is_ok());
    std::unique_ptr<Session> s = std::move(session.value());
    s->run();
    REQUIRE(s->phase() == SessionPhase::Done);
    return s;
}

} // namespace astrolabe::test

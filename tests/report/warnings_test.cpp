// The report's `warnings` (docs/report.md): load warnings and what the run noticed, merged into distinct
// messages with counts, in text order, bounded.
#include "core/report/report.h"
#include "core/report/warnings.h"
#include "support/test_support.h"
#include "support/trace_builder.h"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

using namespace astrolabe;
using nlohmann::json;
using trace::CollectiveType;

namespace {

// The count of the one warning whose text contains `part` (0 if none; fails if several match).
uint64_t count_of(const json& warnings, const std::string& part) {
    uint64_t found = 0, matches = 0;
    for (const auto& w : warnings)
        if (w.at("message").get<std::string>().find(part) != std::string::npos) {
            found = w.at("count").get<uint64_t>();
            ++matches;
        }
    CHECK(matches <= 1);
    return found;
}

} // namespace

TEST_CASE("warnings: load warnings, modelling notes and unreceived messages, counted", "[report][warnings]") {
    // 4 NPUs on a ring. The system config has one unknown key (one load warning). Every trace has a compute
    // node with neither duration nor num_ops (one load warning per trace file: 4 distinct texts), and a
    // BROADCAST (replayed, not modelled: a note counted per node issue, so 4). NPU 0 also sends 64 bytes to
    // NPU 1 with tag 7 that nobody receives (1 unreceived message).
    config::Scenario cfg;
    cfg.network = test::network_yaml("topology: [Ring]\nnpus_count: [4]\nbandwidth: [100]\nlatency: [200]\n");
    cfg.system = test::system_json(R"({"preferred-dataset-splits": 1, "no-such-key": 3})");
    std::vector<std::string> traces;
    for (uint32_t i = 0; i < 4; ++i) {
        test::TraceBuilder t;
        t.comp(1, 0);
        t.coll(2, CollectiveType::Broadcast, 1024, {1});
        if (i == 0) t.send(3, 1, 64, 7, {2});
        traces.push_back(t.bytes());
    }
    std::vector<std::string> load;
    auto sim = test::build(cfg, traces, &load);
    REQUIRE(sim.is_ok());
    sim.value()->run_to_end();
    RunResult r = sim.value()->result();
    REQUIRE(r.complete);
    ReportContext ctx;
    ctx.load_warnings = load;
    json w = json::parse(report_json(r, ctx)).at("warnings");
    CHECK(count_of(w, "no-such-key: unknown key") == 1);
    for (int i = 0; i < 4; ++i)
        CHECK(count_of(w, "npu" + std::to_string(i) + ".et: 1 compute node(s) have neither") == 1);
    CHECK(count_of(w, "BROADCAST replayed") == 4);
    CHECK(count_of(w, "never received") == 1);
    // The CLI prints the summary on stdout and this warning on stderr: the summary does not repeat it.
    CHECK(report_summary(r, ctx).find("never received") == std::string::npos);
    CHECK(run_warnings_text(r).rfind(
              "warning: 1 message(s) were sent but never received, e.g. NPU 0 -> NPU 1", 0) == 0);
    // Sorted by text, so the list does not depend on the order the sources reported in.
    for (size_t i = 1; i < w.size(); ++i)
        CHECK(w[i - 1].at("message").get<std::string>() < w[i].at("message").get<std::string>());
}

TEST_CASE("warnings: a clean run has none, and the key is still there", "[report][warnings]") {
    config::Scenario cfg;
    cfg.network = test::network_yaml("topology: [Ring]\nnpus_count: [2]\nbandwidth: [100]\nlatency: [200]\n");
    cfg.system = test::system_json(R"({"preferred-dataset-splits": 1})");
    test::TraceBuilder t;
    t.comp(1, 5);
    RunResult r = test::run(cfg, test::same_on_all(t, 2));
    json j = json::parse(report_json(r, ReportContext{}));
    REQUIRE(j.contains("warnings"));
    CHECK(j.at("warnings").empty());
}

TEST_CASE("warnings: distinct texts are counted, sorted and bounded", "[report][warnings]") {
    // 250 distinct texts, each twice, given in reverse order: the first kMaxListedWarnings (200) in text
    // order are listed with count 2; one last entry folds the other 50 (100 occurrences).
    std::vector<std::string> load;
    for (int k = 249; k >= 0; --k) {
        char text[32];
        std::snprintf(text, sizeof text, "w%03d", k);
        load.push_back(text);
        load.push_back(text);
    }
    auto list = count_warnings(load);
    REQUIRE(list.size() == kMaxListedWarnings + 1);
    CHECK(list.front().message == "w000");
    CHECK(list.front().count == 2);
    CHECK(list[199].message == "w199");
    CHECK(list.back().message == "(50 more distinct warnings not listed)");
    CHECK(list.back().count == 100);
}

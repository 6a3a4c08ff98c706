#include "support/anchor_cases.h"

#include "core/config/config_parse.h"
#include "support/test_support.h"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

namespace astrolabe::test {

std::vector<AnchorCase> load_anchors(const char* file) {
    nlohmann::json j = nlohmann::json::parse(read_data(file));
    std::vector<AnchorCase> out;
    for (const auto& c : j.at("cases")) {
        AnchorCase a;
        a.name = c.at("name").get<std::string>();
        a.tag = c.value("tag", "");
        a.workload = c.at("workload").get<std::string>();
        a.system = c.at("system").get<std::string>();
        a.network = c.at("network").get<std::string>();
        if (c.at("memory").is_string()) a.memory = c.at("memory").get<std::string>();
        if (c.at("comm_group").is_string()) a.comm_group = c.at("comm_group").get<std::string>();
        a.finish_ns = c.at("finish_ns").get<std::vector<TimeNs>>();
        a.exposed_comm_ns = c.at("exposed_comm_ns").get<std::vector<TimeNs>>();
        out.push_back(std::move(a));
    }
    return out;
}

config::Scenario load_configs(const AnchorCase& c, config::NetworkModel model) {
    config::Scenario cfg;
    auto net = config::parse_network_yaml(read_data(c.network), c.network);
    INFO(net.status().message());
    REQUIRE(net.is_ok());
    cfg.network = net.value();
    auto sys = config::parse_system_json(read_data(c.system), c.system);
    INFO(sys.status().message());
    REQUIRE(sys.is_ok());
    cfg.system = sys.value();
    if (!c.memory.empty()) {
        auto mem = config::parse_memory_json(read_data(c.memory), c.memory);
        INFO(mem.status().message());
        REQUIRE(mem.is_ok());
        cfg.memory = mem.value();
    }
    if (!c.comm_group.empty()) {
        auto groups =
            config::parse_comm_groups_json(read_data(c.comm_group), c.comm_group, cfg.network.npus());
        INFO(groups.status().message());
        REQUIRE(groups.is_ok());
        cfg.groups = groups.value();
    }
    cfg.network_model = model;
    return cfg;
}

RunResult run_anchor(const AnchorCase& c, config::NetworkModel model, const RunOptions& options) {
    config::Scenario cfg = load_configs(c, model);
    PrefixTraceSource traces(c.workload);
    RunResult r = run(std::move(cfg), traces, options);
    REQUIRE(r.complete);
    std::vector<TimeNs> finish, exposed;
    for (const auto& n : r.stats.npus) {
        finish.push_back(n.finish_ns);
        exposed.push_back(n.exposed_comm_ns());
    }
    CHECK(finish == c.finish_ns);
    CHECK(exposed == c.exposed_comm_ns);
    return r;
}

} // namespace astrolabe::test

// core/search without simulations: knob paths, the constraint language, the cost model, spec checks, and
// the driver over a fake evaluator whose step time is a closed form of the point.
#include "core/search/cost_model.h"
#include "core/search/expr.h"
#include "core/search/json_path.h"
#include "core/search/search_run.h"
#include "core/search/search_spec.h"

#include "support/search_support.h"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <set>
#include <tuple>

using namespace astrolabe;
using namespace astrolabe::search;
using nlohmann::json;

namespace {

// A scenario the config parser accepts, with a small network to turn knobs on.
json base_scenario() {
    return json::parse(R"({"schema": "astrolabe.scenario/1",
      "workload": {"generate": {"kind": "microbench", "collective": "all_reduce", "size": "1MiB", "npus": 8}},
      "network": {"topology": ["Ring", "Switch"], "npus_count": [2, 4], "bandwidth": [100, 50], "latency": [100, 500]},
      "system": {"all-reduce-implementation": ["ring", "ring"], "all-gather-implementation": ["ring", "ring"],
                 "reduce-scatter-implementation": ["ring", "ring"], "all-to-all-implementation": ["direct", "direct"]}})");
}

std::string spec_text(const json& knobs, const json& constraints = json::array(),
                      const std::string& objective = "step_time") {
    json s = {{"schema", "astrolabe.search/1"},
              {"base", base_scenario()},
              {"knobs", knobs},
              {"constraints", constraints},
              {"objective", objective}};
    return s.dump();
}

Result<std::string> no_file(const std::string& p) {
    return Status::error("no file " + p);
}

// A search over `spec` (no files to read) with `agent` and at most `budget` evaluations; REQUIREs that the
// spec is accepted.
SearchRun start_search(const std::string& spec, const std::string& agent, uint64_t budget) {
    SearchOptions opt;
    opt.agent = agent;
    opt.budget = budget;
    auto run = SearchRun::create(spec, "spec", no_file, opt);
    REQUIRE(run.is_ok());
    return std::move(run.value());
}

// Step time = 1e6 / bandwidth[0] + 1e6 / bandwidth[1] + 1000 * |npus_count[0] - 4| (ns): the optimum is the
// largest bandwidths with npus_count[0] = 4. Counts the calls.
struct FakeEvaluator : Evaluator {
    int calls = 0;
    EvalResult evaluate(const std::string& text) override {
        ++calls;
        json s = json::parse(text);
        double b0 = s["network"]["bandwidth"][0], b1 = s["network"]["bandwidth"][1];
        double n0 = s["network"]["npus_count"][0];
        EvalResult r;
        r.step_time_ns = static_cast<int64_t>(1e6 / b0 + 1e6 / b1 + 1000 * std::abs(n0 - 4));
        return r;
    }
};

json fake_knobs() {
    return json::parse(R"([{"path": "network.bandwidth[0]", "values": [50, 100, 200, 400]},
                            {"path": "network.bandwidth[1]", "values": [25, 50, 100]},
                            {"path": "network.npus_count[0]", "values": [1, 2, 4, 8]},
                            {"path": "network.npus_count[1]", "values": [1, 2, 4, 8]}])");
}
const json kEight = json::array({"npus == 8"});

} // namespace

TEST_CASE("knob paths address keys and list entries", "[search]") {
    // "network.bandwidth[1]" in the base scenario is 50; setting it to 75 changes only that entry.
    json doc = base_scenario();
    auto p = parse_json_path("network.bandwidth[1]");
    REQUIRE(p.is_ok());
    REQUIRE(find_at(doc, p.value()) != nullptr);
    CHECK(*find_at(doc, p.value()) == 50);
    REQUIRE(set_at(doc, p.value(), 75));
    CHECK(doc["network"]["bandwidth"] == json::array({100, 75}));
    // Keys with dashes are one key; a misspelt key names the nearest one.
    auto dash = parse_json_path("system.all-reduce-implementation[0]");
    REQUIRE(dash.is_ok());
    CHECK(*find_at(doc, dash.value()) == "ring");
    std::string why;
    CHECK(find_at(doc, parse_json_path("network.bandwith").value(), &why) == nullptr);
    CHECK(why == "'bandwith' is not a key of 'network' (nearest: 'bandwidth')");
    CHECK_FALSE(parse_json_path("a..b").is_ok());
    CHECK_FALSE(parse_json_path("a[x]").is_ok());
    CHECK_FALSE(parse_json_path("a[1").is_ok());
}

TEST_CASE("constraint expressions evaluate over the scenario", "[search]") {
    json doc = base_scenario();
    auto value = [&](const std::string& text) {
        auto e = Expr::compile(text, doc);
        REQUIRE(e.is_ok());
        ExprValue v;
        std::string err;
        REQUIRE(e.value().eval(doc, v, err));
        return v;
    };
    // npus = 2 * 4 = 8; product/sum/len/min/max of the lists; precedence: * before +, && before ||.
    CHECK(value("npus").num == 8);
    CHECK(value("product(network.npus_count) == npus").b);
    CHECK(value("sum(network.bandwidth)").num == 150);
    CHECK(value("len(network.topology)").num == 2);
    CHECK(value("max(network.bandwidth) - min(network.bandwidth)").num == 50);
    CHECK(value("1 + 2 * 3").num == 7);
    CHECK(value("10 % 4 == 2 && !(1 > 2) || false").b);
    CHECK(value("network.topology[1] == 'Switch'").b);
    CHECK(value("system.all-reduce-implementation == [\"ring\", \"ring\"]").b);
    CHECK(value("-network.bandwidth[0] + 100").num == 0);
}

TEST_CASE("npus counts a real system's GPUs", "[search]") {
    // With a hardware description there is no network: npus is nodes x gpus_per_node (4 x 8 = 32; a key
    // left out takes the description's default, nodes 1 and gpus_per_node 8), so the parallelism
    // constraint the Search tab writes (dp * tp * ... == npus) holds on a real system too.
    auto npus = [](const json& doc, std::string& err) {
        auto e = Expr::compile("npus", doc);
        REQUIRE(e.is_ok());
        ExprValue v;
        const bool ok = e.value().eval(doc, v, err);
        return ok ? v.num : -1.0;
    };
    std::string err;
    CHECK(npus(json::parse(R"({"hardware": {"nodes": 4, "gpus_per_node": 8}})"), err) == 32);
    CHECK(npus(json::parse(R"({"hardware": {"nodes": 3}})"), err) == 24);
    CHECK(npus(json::parse(R"({"hardware": {"nodes": "four"}})"), err) == -1);
    CHECK(err.find("npus: hardware.nodes is not a number") != std::string::npos);
}

TEST_CASE("constraint syntax errors name their column", "[search]") {
    json doc = base_scenario();
    auto error = [&](const std::string& text) {
        auto e = Expr::compile(text, doc);
        REQUIRE_FALSE(e.is_ok());
        return e.status().message();
    };
    CHECK(error("npus * == 8") == "column 8: an operand was expected, not '=='");
    CHECK(error("npus = 8") == "column 6: unexpected character '=' (use == to compare)");
    CHECK(error("(npus == 8") == "column 11: ')' was expected to close the '(' of column 1");
    CHECK(error("network.bandwidht[0] > 1") == "column 1: unknown path 'network.bandwidht[0]': 'bandwidht' "
                                               "is not a key of 'network' (nearest: 'bandwidth')");
    CHECK(error("avg(network.bandwidth)") ==
          "column 1: unknown function 'avg' (product, sum, min, max, len are known)");
    CHECK(error("npus 8") == "column 6: unexpected '8' (an operator was expected)");
    // Pathological input is refused, not a stack overflow: 150 nested parentheses, 300 '!' in a row, and a
    // 5000-character chain.
    CHECK(error(std::string(150, '(') + "1" + std::string(150, ')')) ==
          "column 101: nested deeper than 100 levels");
    CHECK(error(std::string(300, '!') + "true") == "column 101: too many unary operators in a row");
    std::string chain = "1";
    while (chain.size() < 5000)
        chain += " + 1";
    CHECK(error(chain) == "longer than 4000 characters; split it into several constraints");
    // 100 levels are fine: (((...(npus)...))) == 8.
    auto deep = Expr::compile(std::string(99, '(') + "npus" + std::string(99, ')') + " == 8", doc);
    REQUIRE(deep.is_ok());
}

TEST_CASE("the network cost model follows its derivation", "[search]") {
    // 2 x 4 NPUs, Ring of 2 (1 link per NPU) at 100 GB/s, Switch of 4 (2 links + 1 port per NPU) at 50 GB/s,
    // default prices (dimension 0: 1 per GB/s, dimension 1: 2): per NPU 100 * 1 + 50 * (2 * 2 + 1 * 2) = 400;
    // 8 NPUs -> 3200.
    NetworkShape net{{"Ring", "Switch"}, {2, 4}, {100, 50}};
    auto c = network_cost(net, CostModel{});
    REQUIRE(c.is_ok());
    CHECK(c.value() == 3200);
    // FullyConnected of 4: 3 links per NPU; a 5th dimension's price doubles the last listed one (8 -> 16).
    NetworkShape fc{{"FullyConnected"}, {4}, {10}};
    CHECK(network_cost(fc, CostModel{}).value() == 4 * 3 * 10 * 1);
    CostModel m;
    m.link_per_gbps = {3};
    m.npu = 5;
    // Ring of 4 (2 links per NPU) at 10 GB/s, price 3: 4 * (2 * 10 * 3 + 5) = 260.
    CHECK(network_cost(NetworkShape{{"Ring"}, {4}, {10}}, m).value() == 260);
    CHECK(npu_bandwidth(net) == 150);
}

TEST_CASE("grid finds the optimum of a closed-form space with a fixed log", "[search]") {
    // 4 x 3 x 4 x 4 = 192 points; npus == 8 keeps (1,8), (2,4), (4,2), (8,1): 4 x 3 x 4 = 48 feasible.
    // The optimum: bandwidths 400 and 100, npus_count[0] = 4 -> 1e6/400 + 1e6/100 = 2500 + 10000 = 12500 ns.
    SearchRun run = start_search(spec_text(fake_knobs(), kEight), "grid", 1000);
    FakeEvaluator ev;
    auto lines = test::run_search(run, ev);
    CHECK(lines.size() == 48);
    CHECK(ev.calls == 48);
    CHECK(run.counts().infeasible == 0);
    CHECK(run.best_step_time_ns() == 12500);
    CHECK(run.space_size() == 192);
    // The first feasible point in grid order: bandwidths 50 and 25, npus_count [1, 8]. Step time 1e6/50 +
    // 1e6/25 + 1000 * 3 = 63000 ns; cost: the ring of 1 has no links, the switch of 8 has per NPU 2 links
    // and 1 port at price 2: 8 * 25 * (2 * 2 + 1 * 2) = 1200.
    CHECK(
        lines[0] ==
        "{\"index\":0,\"knobs\":{\"network.bandwidth[0]\":50,\"network.bandwidth[1]\":25,\"network.npus_"
        "count[0]\":1,"
        "\"network.npus_count[1]\":8},\"status\":\"ok\",\"reason\":\"\",\"metrics\":{\"step_time_ns\":63000,"
        "\"network_cost\":1200.0,\"objective\":63000.0}}");
}

TEST_CASE("random search resumes from its own log without simulating", "[search]") {
    // The same seed twice: identical logs. A second run fed the first log simulates nothing; one fed only
    // the first 5 lines simulates the other 15.
    SearchOptions opt;
    opt.agent = "random";
    opt.budget = 20;
    opt.seed = 7;
    auto a = SearchRun::create(spec_text(fake_knobs(), kEight), "spec", no_file, opt);
    auto b = SearchRun::create(spec_text(fake_knobs(), kEight), "spec", no_file, opt);
    REQUIRE(a.is_ok());
    REQUIRE(b.is_ok());
    FakeEvaluator ea, eb;
    auto la = test::run_search(a.value(), ea);
    auto lb = test::run_search(b.value(), eb);
    CHECK(la == lb);
    CHECK(la.size() == 20);
    std::set<std::string> distinct(la.begin(), la.end());
    CHECK(distinct.size() == 20);

    std::string log;
    for (const auto& l : la)
        log += l + "\n";
    auto c = SearchRun::create(spec_text(fake_knobs(), kEight), "spec", no_file, opt);
    REQUIRE(c.value().load_previous(log) == 20);
    FakeEvaluator ec;
    CHECK(test::run_search(c.value(), ec) == la);
    CHECK(ec.calls == 0);
    CHECK(c.value().counts().cached == 20);

    std::string part;
    for (size_t i = 0; i < 5; ++i)
        part += la[i] + "\n";
    part += la[5].substr(0, 30); // a line cut short by a kill is ignored
    auto d = SearchRun::create(spec_text(fake_knobs(), kEight), "spec", no_file, opt);
    REQUIRE(d.value().load_previous(part) == 5);
    FakeEvaluator ed;
    CHECK(test::run_search(d.value(), ed) == la);
    CHECK(ed.calls == 15);
}

TEST_CASE("pareto objective: the front holds exactly the non-dominated points", "[search]") {
    // Every feasible point simulated; a point is on the front when no other has both lower cost and lower
    // (or equal) step time. Checked against a brute-force scan of the log.
    SearchRun run = start_search(spec_text(fake_knobs(), kEight, "pareto"), "grid", 1000);
    FakeEvaluator ev;
    auto lines = test::run_search(run, ev);
    std::vector<std::pair<double, double>> pts;
    for (const auto& l : lines) {
        json j = json::parse(l);
        pts.push_back(
            {j["metrics"]["network_cost"].get<double>(), j["metrics"]["step_time_ns"].get<double>()});
    }
    size_t expected = 0;
    for (const auto& p : pts) {
        bool dominated = false;
        for (const auto& q : pts)
            if (q != p && q.first <= p.first && q.second <= p.second) dominated = true;
        if (!dominated) ++expected;
    }
    std::string front = run.pareto_jsonl();
    CHECK(static_cast<size_t>(std::count(front.begin(), front.end(), '\n')) == expected);
    CHECK(expected >= 2);
    CHECK(run.pareto_svg().find("Pareto front: " + std::to_string(expected)) != std::string::npos);
}

TEST_CASE("stdio points: answered in order, repeats and bad points too", "[search]") {
    SearchRun run = start_search(spec_text(fake_knobs(), kEight), "stdio", 2);
    FakeEvaluator ev;
    const std::string p1 =
        R"({"network.bandwidth[0]": 400, "network.bandwidth[1]": 100, "network.npus_count[0]": 4, "network.npus_count[1]": 2})";
    const std::string p2 =
        R"({"network.bandwidth[0]": 50, "network.bandwidth[1]": 100, "network.npus_count[0]": 4, "network.npus_count[1]": 4})";
    const std::string p3 =
        R"({"network.bandwidth[0]": 50, "network.bandwidth[1]": 25, "network.npus_count[0]": 4, "network.npus_count[1]": 2})";
    REQUIRE(run.submit("[" + p1 + "," + p1 + "," + p2 + "]").is_ok());
    auto batch = run.submitted_batch();
    REQUIRE(batch.size() == 1); // p1 once; p2 (16 NPUs) fails the constraint without a simulation
    run.complete_batch({ev.evaluate(batch[0])});
    auto answers = run.take_answers();
    REQUIRE(answers.size() == 3);
    CHECK(answers[0] == answers[1]);
    CHECK(answers[0].find("\"step_time_ns\":12500") != std::string::npos);
    CHECK(answers[2].find("\"status\":\"infeasible\",\"reason\":\"constraint 1 is false: npus == 8\"") !=
          std::string::npos);
    // The budget (2) is used up: a new point gets an error line, a bad one a message naming the knob.
    REQUIRE(run.submit(p3).is_ok());
    CHECK(run.take_answers().at(0).find("budget of 2 evaluations is used up") != std::string::npos);
    auto bad = run.submit(R"({"network.bandwidth[0]": 60})");
    REQUIRE_FALSE(bad.is_ok());
    CHECK(bad.message().find("knob 'network.bandwidth[0]': 60 is not one of its values") !=
          std::string::npos);
}

TEST_CASE("spec problems come back together, one line each", "[search]") {
    // Two bad knobs and a bad constraint: three lines, each naming its knob or constraint.
    json knobs = json::parse(R"([{"path": "network.bandwith[0]", "values": [1]},
                                 {"path": "network.topology[0]", "values": ["Ring", 3]}])");
    auto r = SearchRun::create(spec_text(knobs, json::array({"npus >"})), "s.json", no_file, SearchOptions{});
    REQUIRE_FALSE(r.is_ok());
    const auto& p = r.status().problems();
    REQUIRE(p.size() == 3);
    CHECK(p[0] == "s.json: knob 'network.bandwith[0]': unknown path: 'bandwith' is not a key of 'network' "
                  "(nearest: 'bandwidth')");
    CHECK(
        p[1] ==
        "s.json: knob 'network.topology[0]': value 3 is a number; the base holds a string there (\"Ring\")");
    CHECK(p[2] == "s.json: constraint 1 \"npus >\": column 7: an operand was expected after '>'");
}

namespace {

// A space with an interaction: step time = 1e6/b0 + 1e6/b1 + 1000 |n0 - 4| + 20 |b0 - 4 b1| + (Ring in
// dimension 1: +3000). 8 x 8 x 4 x 4 x 3 = 3072 points, 4 x 8 x 8 x 3 = 768 feasible (npus == 8).
struct InteractionEvaluator : Evaluator {
    EvalResult evaluate(const std::string& text) override {
        json s = json::parse(text);
        double b0 = s["network"]["bandwidth"][0], b1 = s["network"]["bandwidth"][1];
        double n0 = s["network"]["npus_count"][0];
        bool ring = s["network"]["topology"][1] == "Ring";
        EvalResult r;
        r.step_time_ns = static_cast<int64_t>(1e6 / b0 + 1e6 / b1 + 1000 * std::abs(n0 - 4) +
                                              20 * std::abs(b0 - 4 * b1) + (ring ? 3000 : 0));
        return r;
    }
};

json interaction_knobs() {
    return json::parse(R"([{"path": "network.bandwidth[0]", "values": [25, 50, 100, 150, 200, 300, 400, 800]},
                            {"path": "network.bandwidth[1]", "values": [10, 25, 50, 75, 100, 150, 200, 400]},
                            {"path": "network.npus_count[0]", "values": [1, 2, 4, 8]},
                            {"path": "network.npus_count[1]", "values": [1, 2, 4, 8]},
                            {"path": "network.topology[1]", "values": ["Ring", "Switch", "FullyConnected"]}])");
}

int64_t best_of(const std::string& agent, uint64_t budget, uint64_t seed) {
    SearchOptions opt;
    opt.agent = agent;
    opt.budget = budget;
    opt.seed = seed;
    auto run = SearchRun::create(spec_text(interaction_knobs(), kEight), "spec", no_file, opt);
    REQUIRE(run.is_ok());
    InteractionEvaluator ev;
    search::run_search(run.value(), ev);
    return run.value().best_step_time_ns();
}

} // namespace

TEST_CASE("ga, aco and bo find the optimum within 2% on a tenth of the feasible space", "[search]") {
    // grid over all 768 feasible points gives the optimum; each learning agent with a budget of 77 (10%)
    // must reach within 2% of it in the median of 5 seeds.
    const int64_t optimum = best_of("grid", 10000, 1);
    for (const char* agent : {"random", "ga", "aco", "bo"}) {
        std::vector<int64_t> bests;
        for (uint64_t seed = 1; seed <= 5; ++seed)
            bests.push_back(best_of(agent, 77, seed));
        std::sort(bests.begin(), bests.end());
        INFO(agent << ": median " << bests[2] << " ns, optimum " << optimum << " ns");
        CHECK(bests[2] >= optimum);
        if (std::string(agent) != "random") CHECK(double(bests[2]) <= 1.02 * double(optimum));
    }
}

TEST_CASE("objectives scale the step time by cost or bandwidth", "[search]") {
    // The point bandwidths 400/100, npus_count [4, 2]: step time 12500 ns (FakeEvaluator). Ring of 4 at 400
    // (2 links, price 1) and Switch of 2 at 100 (2 links + 1 port, price 2): per NPU 800 + 600 = 1400, 8
    // NPUs: cost 11200. step_time_x_network_cost = 12500 * 11200 = 1.4e8; step_time_x_bandwidth = 12500 *
    // 500.
    const std::string p =
        R"({"network.bandwidth[0]": 400, "network.bandwidth[1]": 100, "network.npus_count[0]": 4, "network.npus_count[1]": 2})";
    for (auto [objective, expected] :
         {std::pair<std::string, std::string>{"step_time_x_network_cost", "140000000.0"},
          {"step_time_x_bandwidth", "6250000.0"}}) {
        SearchOptions opt;
        opt.agent = "stdio";
        auto run = SearchRun::create(spec_text(fake_knobs(), kEight, objective), "spec", no_file, opt);
        REQUIRE(run.is_ok());
        REQUIRE(run.value().submit(p).is_ok());
        FakeEvaluator ev;
        run.value().complete_batch({ev.evaluate(run.value().submitted_batch().at(0))});
        std::string line = run.value().take_answers().at(0);
        CHECK(line.find("\"network_cost\":11200.0,\"objective\":" + expected + "}") != std::string::npos);
    }
}

TEST_CASE("a hardware description's network is priced by what it installs", "[search]") {
    // 2 nodes x 8 H100-SXM, 8 NICs per node. Dimension 0: NVLink, a Switch of 8 at 450 GB/s (2 links + 1
    // port per GPU at price 1); dimension 1: the NICs, a Switch of 2 at each GPU's share, 8 x G Gb/s / 8 / 8
    // GPUs = G / 8 GB/s (2 links + 1 port at price 2). Per GPU 450 x 3 + G / 8 x 6, 16 GPUs:
    //   G = 400: (1350 + 300) x 16 = 26400, bandwidth 450 + 50 = 500 GB/s;
    //   G = 100: (1350 + 75) x 16 = 22800, bandwidth 462.5.
    // Before, a hardware base had no network to price: no cost, and step_time_x_bandwidth was 0 for every
    // point (the slowest could win).
    const json base = json::parse(R"({"schema": "astrolabe.scenario/1",
      "workload": {"generate": {"kind": "microbench", "collective": "all_reduce", "size": "1MiB", "npus": 16}},
      "hardware": {"gpu": "H100-SXM", "nodes": 2, "gpus_per_node": 8, "nics_per_node": 8, "nic_gbps": 400,
                   "fabric": "infiniband"}})");
    for (auto [objective, g, cost, value] : {std::tuple<std::string, int, const char*, const char*>{
                                                 "step_time_x_network_cost", 400, "26400.0", "26400000.0"},
                                             {"step_time_x_network_cost", 100, "22800.0", "22800000.0"},
                                             {"step_time_x_bandwidth", 400, "26400.0", "500000.0"},
                                             {"step_time_x_bandwidth", 100, "22800.0", "462500.0"}}) {
        json spec = {{"schema", "astrolabe.search/1"},
                     {"base", base},
                     {"knobs", json::parse(R"([{"path": "hardware.nic_gbps", "values": [100, 400]}])")},
                     {"objective", objective}};
        SearchOptions opt;
        opt.agent = "stdio";
        auto run = SearchRun::create(spec.dump(), "spec", no_file, opt);
        INFO(run.status().message());
        REQUIRE(run.is_ok());
        REQUIRE(run.value().submit("{\"hardware.nic_gbps\": " + std::to_string(g) + "}").is_ok());
        EvalResult r;
        r.step_time_ns = 1000;
        run.value().complete_batch({r});
        const std::string line = run.value().take_answers().at(0);
        INFO(line);
        CHECK(line.find(std::string("\"network_cost\":") + cost + ",\"objective\":" + value + "}") !=
              std::string::npos);
    }
}

TEST_CASE("base_file: the base scenario read through the front end's reader", "[search]") {
    // The reader gets the path as written; a missing file is a problem naming base_file.
    json s = {{"schema", "astrolabe.search/1"},
              {"base_file", "bases/b.json"},
              {"knobs", fake_knobs()},
              {"constraints", kEight}};
    std::string asked;
    auto reader = [&](const std::string& p) -> Result<std::string> {
        asked = p;
        return base_scenario().dump();
    };
    SearchOptions opt;
    opt.agent = "grid";
    opt.budget = 1000;
    auto run = SearchRun::create(s.dump(), "spec.json", reader, opt);
    REQUIRE(run.is_ok());
    CHECK(asked == "bases/b.json");
    FakeEvaluator ev;
    search::run_search(run.value(), ev);
    CHECK(run.value().best_step_time_ns() == 12500); // the same space as the inline base
    auto missing = SearchRun::create(s.dump(), "spec.json", no_file, opt);
    REQUIRE_FALSE(missing.is_ok());
    CHECK(missing.status().message() == "spec.json: base_file: no file bases/b.json");
}

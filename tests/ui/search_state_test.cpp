// The browser's Search tab, run natively: a spec loaded into the form and searched a few points per "frame"
// logs exactly what the CLI's driver logs for the spec file (run_search over the same evaluator); Cancel
// keeps a prefix of that log; bad forms are refused with the knob named; a share link restores the search.
#include "core/search/scenario_evaluator.h"
#include "support/test_support.h"
#include "ui/search_state.h"

#include <catch2/catch.hpp>

using namespace astrolabe;
using namespace astrolabe::ui;
using Catch::Matchers::Contains;

namespace {

std::string tiny_spec() {
    std::string text;
    REQUIRE(test::read_file(test::data_path("search/tiny.json"), text));
    return text;
}

// What `astrolabe search tiny.json --agent A --seed S --budget N` writes to evaluations.jsonl, .csv and the
// two pictures: the driver over the shared evaluator, lines in proposal order (tests/search/search_cli.sh
// checks the CLI's --jobs give these same bytes).
struct Outputs {
    std::string jsonl, csv, best_svg, pareto_svg;
};
Outputs reference_outputs(const std::string& agent, uint64_t seed, uint64_t budget) {
    search::SearchOptions opt;
    opt.agent = agent;
    opt.seed = seed;
    opt.budget = budget;
    auto run = search::SearchRun::create(
        tiny_spec(), "tiny.json",
        [](const std::string& p) -> Result<std::string> { return Status::error(p); }, opt);
    REQUIRE(run.is_ok());
    SessionHost host;
    search::ScenarioEvaluator ev(host);
    search::run_search(run.value(), ev);
    Outputs out;
    for (const auto& l : run.value().take_lines())
        out.jsonl += l + "\n";
    out.csv = run.value().csv();
    out.best_svg = run.value().best_so_far_svg();
    out.pareto_svg = run.value().pareto_svg();
    return out;
}

std::string reference_log(const std::string& agent, uint64_t seed, uint64_t budget) {
    return reference_outputs(agent, seed, budget).jsonl;
}

} // namespace

TEST_CASE("search tab: a spec searched in frames logs the CLI's evaluations.jsonl", "[ui][search]") {
    for (const char* agent : {"random", "ga"}) {
        INFO(agent);
        SearchState st;
        REQUIRE(st.load_spec(tiny_spec(), "tiny.json").is_ok());
        st.agent = std::string(agent) == "ga" ? 2 : 1;
        st.seed = 7;
        st.budget = 25;
        SessionHost host;
        REQUIRE(st.start(host));
        int frames = 0;
        while (st.phase() == SearchPhase::Running && frames++ < 100000)
            st.step(0); // one point per frame: the most slicing there is
        REQUIRE(st.phase() == SearchPhase::Done);
        // The downloads are the CLI's files, byte for byte.
        const Outputs want = reference_outputs(agent, 7, 25);
        CHECK(st.evaluations_jsonl() == want.jsonl);
        CHECK(st.evaluations_csv() == want.csv);
        CHECK(st.best_so_far_svg() == want.best_svg);
        CHECK(st.pareto_svg() == want.pareto_svg);
        CHECK(st.points().size() == 25);
        CHECK(frames >= 20); // 25 points (a few settled without simulating) took one frame each
        // The best-so-far curve never rises, and the Pareto front holds ok points only.
        for (size_t i = 1; i < st.best_so_far().size(); ++i)
            if (!std::isnan(st.best_so_far()[i - 1])) CHECK(st.best_so_far()[i] <= st.best_so_far()[i - 1]);
        for (size_t i : st.pareto())
            CHECK(st.points()[i].ok);
        // A point's scenario is runnable: it names the point's knob values.
        CHECK_THAT(st.point_scenario(0), Contains("\"generate\""));
    }
}

TEST_CASE("search tab: Cancel keeps a prefix of the log and the state runs again", "[ui][search]") {
    SearchState st;
    REQUIRE(st.load_spec(tiny_spec(), "tiny.json").is_ok());
    st.budget = 25;
    st.seed = 7;
    SessionHost host;
    REQUIRE(st.start(host));
    // The random agent proposes batches of 32, so the budget of 25 is one batch: Cancel comes mid-batch,
    // once 3 of its points are done, and those are logged.
    while (st.phase() == SearchPhase::Running && st.batch_done() < 3)
        st.step(0);
    REQUIRE(st.batch_done() == 3);
    st.cancel();
    CHECK(st.points().size() == 3);
    CHECK(st.phase() == SearchPhase::Cancelled);
    const std::string full = reference_log("random", 7, 25);
    CHECK(full.compare(0, st.evaluations_jsonl().size(), st.evaluations_jsonl()) == 0);
    REQUIRE(st.start(host));
    while (st.phase() == SearchPhase::Running)
        st.step(50);
    CHECK(st.evaluations_jsonl() == full);
}

TEST_CASE("search tab: the form follows the scenario and pre-fills the parallelism constraint",
          "[ui][search]") {
    auto form = search::spec_form(tiny_spec(), "tiny.json");
    REQUIRE(form.is_ok());
    // tiny.json's five knobs come first, ticked, in the spec's order; then the base's other fields.
    REQUIRE(form.value().fields.size() > 5);
    CHECK(form.value().fields[0].path == "workload.generate.dp");
    CHECK(form.value().fields[0].values == "1, 2, 4");
    CHECK(form.value().fields[3].values == "\"Ring\", \"Switch\"");
    CHECK(form.value().fields[4].ticked);
    CHECK(!form.value().fields[5].ticked);
    // A form of the base alone: nothing ticked, dp * tp * pp == npus (tiny's generator has no sp).
    SearchState st;
    st.follow_scenario(form.value().base);
    CHECK(st.form().constraints ==
          "workload.generate.dp * workload.generate.tp * workload.generate.pp == npus");
    REQUIRE(!st.form().fields.empty());
    for (const auto& f : st.form().fields)
        CHECK(!f.ticked);
    st.form().fields[1].ticked = true;
    const std::string path = st.form().fields[1].path;
    st.follow_scenario("{\"schema\": \"astrolabe.scenario/1\"}"); // a scenario without those fields
    REQUIRE(st.form().fields.size() == 1);                        // the ticked one stays
    CHECK(st.form().fields[0].path == path);
    CHECK(st.form().constraints.empty()); // the pre-filled constraint followed
}

TEST_CASE("search tab: bad forms are refused with the knob or constraint named", "[ui][search]") {
    SessionHost host;
    SearchState st;
    REQUIRE(st.load_spec(tiny_spec(), "tiny.json").is_ok());
    st.form().fields[1].values = "1, 2,";
    CHECK(!st.start(host));
    CHECK(st.phase() == SearchPhase::Failed);
    CHECK_THAT(st.message(), Contains("knob workload.generate.tp: values"));
    st.form().fields[1].values = "\"Ring\"";
    CHECK(!st.start(host));
    CHECK_THAT(st.message(), Contains("workload.generate.tp"));
    st.form().fields[1].values = "1, 2";
    st.form().constraints = "workload.generate.dp * == npus";
    CHECK(!st.start(host));
    CHECK_THAT(st.message(), Contains("column"));
    CHECK(!st.load_spec("{\"base_file\": \"x.json\"}", "spec").is_ok());
    CHECK_THAT(st.message(), Contains("base_file"));
}

TEST_CASE("search tab: a share link carries the spec, agent, seed and budget", "[ui][search]") {
    SearchState a;
    REQUIRE(a.load_spec(tiny_spec(), "tiny.json").is_ok());
    a.agent = 3;
    a.seed = 42;
    a.budget = 17;
    auto frag = a.share_fragment();
    REQUIRE(frag.is_ok());
    CHECK(frag.value().rfind("search=", 0) == 0);
    SearchState b;
    REQUIRE(b.load_link("https://example.org/app/#" + frag.value()).is_ok());
    CHECK(b.agent == 3);
    CHECK(b.seed == 42);
    CHECK(b.budget == 17);
    CHECK(b.spec_text().value() == a.spec_text().value());
    CHECK(!b.load_link("#search=AAAA").is_ok());
    CHECK_THAT(b.message(), Contains("search link"));
}

TEST_CASE("search tab: the spec combo names what was loaded, a link's spec too", "[ui][search]") {
    // The combo showed quick.json (the default pick) whatever a shared link had loaded. It now shows the
    // last load's source; for a link, the bundled spec whose form the link carries, else "shared link".
    // Bundled here: tiny.json and "edited.json", tiny.json with one more value for its first knob.
    SearchState a;
    REQUIRE(a.load_spec(tiny_spec(), "tiny.json").is_ok());
    a.form().fields[0].values += ", 1";
    const std::string edited = a.spec_text().value();
    const std::vector<std::pair<std::string, std::string>> bundled = {{"edited.json", edited},
                                                                      {"tiny.json", tiny_spec()}};
    SearchState fresh;
    CHECK(fresh.spec_label(bundled).empty()); // nothing loaded yet
    REQUIRE(a.load_spec(tiny_spec(), "tiny.json").is_ok());
    CHECK(a.spec_label(bundled) == "tiny.json");
    CHECK(a.spec_loads() == 2);
    SearchState b;
    REQUIRE(b.load_link("#" + a.share_fragment().value()).is_ok());
    CHECK(b.spec_loads() == 1);
    CHECK(b.spec_label(bundled) == "tiny.json");                     // shared unchanged
    CHECK(b.spec_label({{"edited.json", edited}}) == "shared link"); // not bundled there
    a.form().fields[0].values += ", 1";                              // edited as edited.json was
    SearchState c;
    REQUIRE(c.load_link("#" + a.share_fragment().value()).is_ok());
    CHECK(c.spec_label(bundled) == "edited.json");
    a.form().fields[0].values += ", 2"; // edited otherwise: no bundled spec
    SearchState d;
    REQUIRE(d.load_link("#" + a.share_fragment().value()).is_ok());
    CHECK(d.spec_label(bundled) == "shared link");
}

TEST_CASE("search tab: candidate values of a one-dimensional sample", "[ui][search]") {
    // allreduce_ring8's network as the scenario editor holds it (bandwidth a float): Ring(8) at 50 GB/s.
    auto fields = search::candidate_knobs(R"({"schema": "astrolabe.scenario/1", "workload": {"sample": "x"},
        "network": {"topology": ["Ring"], "npus_count": [8], "bandwidth": [50.0], "latency": [500.0]},
        "system": {"all-reduce-implementation": ["ring"], "active-chunks-per-dimension": 1}})");
    REQUIRE(fields.size() == 4);
    CHECK(fields[0].path == "network.topology[0]");
    CHECK(fields[0].values == "\"Ring\", \"FullyConnected\", \"Switch\""); // the current one first, no repeat
    CHECK(fields[1].values == "50, 25, 100");                              // half and double, whole numbers
    CHECK(fields[2].values == "[\"ring\"], [\"direct\"], [\"halvingDoubling\"], [\"doubleBinaryTree\"]");
    CHECK(fields[3].values == "1, 2, 4");
    CHECK(search::parallelism_constraint("{\"workload\": {\"sample\": \"x\"}}").empty());
}

TEST_CASE("search tab: candidate values of a scenario on a real system", "[ui][search]") {
    // A generated dp 2 x tp 8 step on 2 x 8 H100: the parallelism degrees run over the powers of two up to
    // the system's 16 GPUs (nodes x gpus_per_node; there is no network), the description's nodes, NICs and
    // their speed are halved and doubled, its forced algorithm offered as auto, ring and tree.
    const char* sc = R"({"workload": {"generate": {"kind": "transformer", "dp": 2, "tp": 8}},
        "hardware": {"gpu": "H100-SXM", "nodes": 2, "gpus_per_node": 8, "nics_per_node": 8, "nic_gbps": 400,
                     "nccl_algo": "auto"}})";
    auto fields = search::candidate_knobs(sc);
    REQUIRE(fields.size() == 6);
    CHECK(fields[0].path == "workload.generate.dp");
    CHECK(fields[0].values == "2, 1, 4, 8, 16");
    CHECK(fields[1].values == "8, 1, 2, 4, 16");
    CHECK(fields[2].path == "hardware.nodes");
    CHECK(fields[2].values == "2, 1, 4");
    CHECK(fields[3].values == "8, 4, 16");
    CHECK(fields[4].values == "400, 200, 800");
    CHECK(fields[5].values == "\"auto\", \"ring\", \"tree\"");
    CHECK(search::parallelism_constraint(sc) == "workload.generate.dp * workload.generate.tp == npus");
}

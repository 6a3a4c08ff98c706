// core/search/scenario_evaluator: the evaluator the CLI and the browser share gives the step time of the run
// pipeline (Session, as `astrolabe run --scenario`), keeps a generated workload between points without
// changing any result, and logs refusals as infeasible.
#include "core/config/scenario.h"
#include "core/search/scenario_evaluator.h"

#include "support/search_support.h"

#include <catch2/catch.hpp>

#include <string>

using namespace astrolabe;
using namespace astrolabe::search;

namespace {

// A 2-layer GPT on 8 NPUs (2 x 4), as tests/data/search/tiny.json's base; `pp`, `bw1` vary per point.
std::string gpt_point(int pp, int bw1) {
    const int dp = 8 / (2 * pp);
    return R"({"schema": "astrolabe.scenario/1",
      "workload": {"generate": {"kind": "transformer", "model": "gpt", "layers": 2, "hidden": 256, "heads": 8,
                                "seq": 256, "batch": 8, "micro-batch": 2, "dp": )" +
           std::to_string(dp) + R"(, "tp": 2, "pp": )" + std::to_string(pp) + R"(, "dtype-bytes": 2}},
      "network": {"topology": ["Ring", "Switch"], "npus_count": [2, 4], "bandwidth": [200, )" +
           std::to_string(bw1) + R"(], "latency": [100, 1000]},
      "system": {"all-reduce-implementation": ["ring", "ring"], "all-gather-implementation": ["ring", "ring"],
                 "reduce-scatter-implementation": ["ring", "ring"], "all-to-all-implementation": ["direct", "direct"],
                 "roofline-enabled": 1, "peak-perf": 400, "local-mem-bw": 2000},
      "compute_model": "roofline"})";
}

} // namespace

TEST_CASE("the shared evaluator gives the run pipeline's step time, with or without a kept workload",
          "[search]") {
    SessionHost host;
    ScenarioEvaluator kept(host);
    // Same workload twice (only bandwidth[1] differs: the second point reuses the traces), then another.
    const std::string a = gpt_point(2, 50), b = gpt_point(2, 25), c = gpt_point(1, 50);
    for (const std::string* p : {&a, &b, &c}) {
        EvalResult r = kept.evaluate(*p);
        REQUIRE(r.status == EvalResult::Status::Ok);
        CHECK(r.step_time_ns == test::session_step_time(*p));
        ScenarioEvaluator fresh(host);
        CHECK(fresh.evaluate(*p).step_time_ns == r.step_time_ns);
    }
    // Halving the slower dimension's bandwidth cannot make the step faster.
    CHECK(kept.evaluate(b).step_time_ns >= kept.evaluate(a).step_time_ns);
}

TEST_CASE("the shared evaluator logs refusals as infeasible, with the reason", "[search]") {
    SessionHost host;
    ScenarioEvaluator ev(host);
    // pp = 4 over 2 layers: the generator refuses (as tiny.json's infeasible points).
    EvalResult r = ev.evaluate(gpt_point(4, 50));
    CHECK(r.status == EvalResult::Status::Infeasible);
    CHECK(!r.reason.empty());
    // Not a scenario at all.
    EvalResult bad = ev.evaluate("{\"schema\": \"astrolabe.scenario/1\", \"network\": 3}");
    CHECK(bad.status == EvalResult::Status::Infeasible);
    CHECK(bad.reason.find("network") != std::string::npos);
}

// The browser evaluates a point a slice at a time between frames (ui/search_state.cpp). advance(0) runs
// exactly one slice, here of 64 events so that every point is cut many times; slicing cannot change a run,
// so each point gives the step time of the whole evaluate() and of the Session. The slice count is checked,
// not assumed.
TEST_CASE("the shared evaluator gives the same step time a slice at a time", "[search]") {
    SessionHost host;
    ScenarioEvaluator pieces(host);
    pieces.slice_events = 8; // the ring fast path runs these points in a few hundred events
    const std::string deep = [] {
        std::string text = gpt_point(2, 50);
        const std::string two_layers = "\"layers\": 2,";
        return text.replace(text.find(two_layers), two_layers.size(), "\"layers\": 48,");
    }();
    const std::string a = gpt_point(2, 50), b = gpt_point(2, 25);
    for (const std::string* p : {&a, &b, &deep}) {
        pieces.begin(*p);
        int slices = 1;
        while (pieces.advance(0))
            ++slices;
        EvalResult r = pieces.finish();
        REQUIRE(r.status == EvalResult::Status::Ok);
        CHECK(r.step_time_ns == test::session_step_time(*p));
        CHECK(slices > 5); // about 550 events for the 2-layer points
    }
    // A point abandoned half-way (Cancel) leaves the evaluator ready for the next one.
    pieces.begin(deep);
    CHECK(pieces.advance(0));
    pieces.begin(a);
    while (pieces.advance(0)) {
    }
    CHECK(pieces.finish().step_time_ns == test::session_step_time(a));
}

// The browser also sets a point up in pieces (ScenarioEvaluator::advance, core/session/staged_build.h), so
// that a new workload shape does not hold a frame: advance(0) does exactly one piece. A generated point's
// set-up is at least 11 pieces: parse, generate, prepare, one per distinct (pipeline stage) graph (2 here:
// pp = 2, one graph per piece), custom collectives, the simulation's checks, the candidate symmetry, the
// symmetry, the remaining graphs (at least one piece, even when none is left), the executor. Cutting the
// set-up (and the run, into 8-event slices) cannot change a step time or a refusal's reason.
TEST_CASE("the shared evaluator sets a generated point up in pieces, with the same results", "[search]") {
    SessionHost host;
    ScenarioEvaluator pieces(host), whole(host);
    pieces.slice_events = 8; // the ring fast path runs these points in a few hundred events
    pieces.graphs_per_piece = 1;
    const std::string a = gpt_point(2, 50), b = gpt_point(2, 25), c = gpt_point(1, 50),
                      refused = gpt_point(4, 50);
    for (const std::string* p : {&a, &b, &c, &a, &refused}) {
        INFO(*p);
        pieces.begin(*p);
        uint32_t calls = 0, setup_calls = 0, last = 0;
        while (pieces.advance(0)) {
            ++calls;
            if (pieces.setup_pieces() > last) ++setup_calls; // this call did a piece of the set-up
            CHECK(pieces.setup_pieces() - last <= 1);        // never more than one piece per call
            last = pieces.setup_pieces();
        }
        EvalResult r = pieces.finish();
        EvalResult w = whole.evaluate(*p);
        CHECK(int(r.status) == int(w.status));
        CHECK(r.step_time_ns == w.step_time_ns);
        CHECK(r.reason == w.reason);
        if (p == &refused) {
            CHECK(r.status == EvalResult::Status::Infeasible);
            CHECK(setup_calls <= 2); // parse, then the generator's refusal
            continue;
        }
        REQUIRE(r.status == EvalResult::Status::Ok);
        CHECK(r.step_time_ns == test::session_step_time(*p));
        CHECK(setup_calls == pieces.setup_pieces()); // one call per piece
        CHECK(setup_calls >= 11);
        CHECK(calls > setup_calls + 5); // then the run's slices
    }
}

// A new workload shape is generated in pieces too (GeneratedSourceBuild): the parameters and groups, then
// per pipeline stage its trace, 8 layer passes a piece (TransformerTranslations::step), its encoding and
// its freeing. With pp = 4 (4 layers, dp 1 x tp 2, 4 micro-batches) a stage is 8 layer passes and the
// optimizer, 2 trace pieces, so 1 + (2 + 1 + 1) x 4 = 17 generator pieces; the same point again keeps the
// workload, so
// its only generator piece is the look-up. A point abandoned half-way through generation keeps nothing, and
// the next one generates again. None of this changes a status or a step time: evaluate() (every piece in one
// call) and the Session give the same.
TEST_CASE("the shared evaluator generates a new workload shape a pipeline stage a piece", "[search]") {
    SessionHost host;
    ScenarioEvaluator pieces(host);
    const std::string deep = [] {
        std::string text = gpt_point(4, 50);
        const std::string two_layers = "\"layers\": 2,";
        return text.replace(text.find(two_layers), two_layers.size(), "\"layers\": 4,");
    }();
    auto by_pieces = [&](const std::string& text) {
        pieces.begin(text);
        uint32_t last = 0;
        while (pieces.advance(0)) {
            CHECK(pieces.setup_pieces() - last <= 1); // one piece per call
            last = pieces.setup_pieces();
        }
        return pieces.finish();
    };
    const int64_t reference = test::session_step_time(deep);
    EvalResult first = by_pieces(deep);
    CHECK(pieces.generate_pieces() == 17);
    EvalResult again = by_pieces(deep); // kept
    CHECK(pieces.generate_pieces() == 1);
    ScenarioEvaluator whole(host);
    EvalResult w = whole.evaluate(deep);
    for (const EvalResult* r : {&first, &again, &w}) {
        REQUIRE(r->status == EvalResult::Status::Ok);
        CHECK(r->step_time_ns == reference);
    }
    // Cancelled after parse, the first generator piece and a piece of a stage's trace: the next point
    // generates anew.
    ScenarioEvaluator cancelled(host);
    cancelled.begin(deep);
    for (int i = 0; i < 3; ++i)
        REQUIRE(cancelled.advance(0));
    CHECK(cancelled.generate_pieces() == 2);
    cancelled.begin(deep);
    while (cancelled.advance(0)) {
    }
    CHECK(cancelled.generate_pieces() == 17);
    EvalResult after = cancelled.finish();
    CHECK(int(after.status) == int(EvalResult::Status::Ok));
    CHECK(after.step_time_ns == reference);
}

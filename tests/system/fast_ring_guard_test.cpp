// The ring fast path on general workloads (core/system/scheduling/fast_ring_watch.h) against the event
// path: compute overlapping collectives, collectives of two kinds of groups (tensor-parallel blocks and
// data-parallel strides) on every NPU, a send/receive pipeline, CPU nodes, LIFO and FIFO, 1 to 3 active
// chunks, endpoint delays 1 to 20 ns, with and without symmetry, and compute times drawn from a few whole
// microseconds (the same on every NPU in half the cases) so that events of one NPU meet in one ns on
// purpose. Reference: the same run with every packet an event (--fast-ring off). Expected: the same
// report apart from the engine's event count, peak queue and fast-ring note, every time. Then ties built
// to matter (a compute ending in the ns its NPU's collective ends): with the guard blinded
// (RunOptions::fast_ring_tie_guard) the fast path's reports differ, which is what the guard is for.
#include "core/config/scenario.h"
#include "core/report/report.h"
#include "support/test_support.h"
#include "support/trace_builder.h"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <random>

using namespace astrolabe;
using trace::CollectiveType;

namespace {

struct GuardCase {
    config::Scenario cfg;
    std::vector<std::string> traces;
    bool symmetry = false;
};

GuardCase guard_case(std::mt19937& rng) {
    auto pick = [&](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); };
    GuardCase c;
    const char* kinds[] = {"Ring", "FullyConnected", "Switch"};
    const bool two_d = pick(0, 1) == 1;
    const auto a = static_cast<uint32_t>(two_d ? pick(2, 4) : pick(3, 8)), b = two_d ? 2u : 1u;
    const uint32_t npus = a * b;
    std::string yaml = std::string("topology: [") + kinds[pick(0, 2)] +
                       (two_d ? std::string(", ") + kinds[pick(0, 2)] : "") + "]\nnpus_count: [" +
                       std::to_string(a) + (two_d ? ", 2" : "") + "]\nbandwidth: [" +
                       std::to_string(pick(5, 400)) + (two_d ? ", " + std::to_string(pick(5, 400)) : "") +
                       "]\nlatency: [" + std::to_string(pick(0, 900)) +
                       (two_d ? ", " + std::to_string(pick(0, 900)) : "") + "]\n";
    c.cfg.network = test::network_yaml(yaml);
    const char* mem_bw[] = {"", ", \"local-mem-bw\": 50", ", \"local-mem-bw\": 1600"};
    c.cfg.system = test::system_json(
        std::string("{\"scheduling-policy\": \"") + (pick(0, 1) ? "FIFO" : "LIFO") +
        "\", \"endpoint-delay\": " + std::to_string(pick(1, 20)) +
        ", \"active-chunks-per-dimension\": " + std::to_string(pick(1, 3)) +
        ", \"preferred-dataset-splits\": " + std::to_string(pick(1, 4)) + mem_bw[pick(0, 2)] + "}");
    // Groups 1..b: blocks of `a` consecutive ranks (tensor parallel); b+1..b+a: ranks a apart (data
    // parallel, 2-D only). Every NPU is in one group of each kind. 1-D: the whole system is the other kind.
    for (uint32_t g = 0; g < b; ++g) {
        std::vector<uint32_t> ranks;
        for (uint32_t i = 0; i < a; ++i)
            ranks.push_back(g * a + i);
        c.cfg.groups.groups.push_back({g + 1, ranks});
    }
    if (two_d)
        for (uint32_t i = 0; i < a; ++i)
            c.cfg.groups.groups.push_back({b + 1 + i, {i, i + a}});
    auto group_of = [&](uint32_t r, bool block) { return block ? 1 + r / a : (two_d ? b + 1 + r % a : 0); };
    const uint32_t next_hop = two_d ? a : 1; // the pipeline: r sends to r + next_hop
    const bool uniform = pick(0, 1) == 1;    // every NPU computes as long: symmetric, and ties galore
    const bool pipeline = pick(0, 2) > 0;
    const CollectiveType types[] = {CollectiveType::AllReduce, CollectiveType::AllGather,
                                    CollectiveType::ReduceScatter, CollectiveType::AllToAll};
    struct Step {
        CollectiveType type, second_type;
        uint64_t bytes, second_bytes, message;
        bool block, second;
        int overlap; // 0: the collective follows this step's compute; 1: the previous one's (overlaps)
        uint64_t compute_us;
        bool cpu;
    };
    std::vector<Step> steps(static_cast<size_t>(pick(2, 5)));
    for (Step& s : steps) {
        s.type = types[pick(0, 3)];
        s.second_type = types[pick(0, 3)];
        s.bytes = pick(0, 3) == 0 ? uint64_t(pick(1, 64)) : uint64_t(pick(1, 1 << 18));
        s.second_bytes = uint64_t(pick(1, 1 << 16));
        s.message = uint64_t(pick(1, 1 << 16));
        s.block = pick(0, 1) == 1;
        s.second = pick(0, 2) == 0;
        s.overlap = pick(0, 1);
        s.compute_us = uint64_t(pick(1, 3));
        s.cpu = pick(0, 4) == 0;
    }
    c.symmetry = pick(0, 1) == 1;
    for (uint32_t r = 0; r < npus; ++r) {
        test::TraceBuilder t;
        uint64_t id = 0;
        int64_t prev_comp = -1, prev_coll = -1, prev_recv = -1;
        for (size_t k = 0; k < steps.size(); ++k) {
            const Step& s = steps[k];
            test::Deps deps;
            if (prev_comp >= 0) deps.push_back(uint64_t(prev_comp));
            if (prev_recv >= 0 && pick(0, 1)) deps.push_back(uint64_t(prev_recv));
            const uint64_t comp = id++;
            t.comp(comp, uniform ? s.compute_us : uint64_t(pick(1, 3)), deps);
            // The collective waits for this step's compute, or only for the previous one (then both run
            // at once); and for the NPU's previous collective, so every NPU issues them in plan order.
            test::Deps coll_deps;
            if (s.overlap == 0)
                coll_deps.push_back(comp);
            else if (prev_comp >= 0)
                coll_deps.push_back(uint64_t(prev_comp));
            if (prev_coll >= 0) coll_deps.push_back(uint64_t(prev_coll));
            const uint64_t coll = id++;
            auto& n = t.coll(coll, s.type, s.bytes, coll_deps);
            if (uint32_t g = group_of(r, s.block)) n.pg_name = std::to_string(g);
            prev_coll = int64_t(coll);
            if (s.second) { // a collective of the other kind of group, right after
                const uint64_t second = id++;
                auto& m = t.coll(second, s.second_type, s.second_bytes, {coll});
                if (uint32_t g = group_of(r, !s.block)) m.pg_name = std::to_string(g);
                prev_coll = int64_t(second);
            }
            if (s.cpu) t.cpu(id++, 1, {comp});
            if (pipeline) {
                t.send(id++, (r + next_hop) % npus, s.message, uint32_t(k), {comp});
                const uint64_t recv = id++;
                t.recv(recv, (r + npus - next_hop) % npus, s.message, uint32_t(k),
                       prev_comp >= 0 && pick(0, 1) ? test::Deps{uint64_t(prev_comp)} : test::Deps{});
                prev_recv = int64_t(recv);
            }
            prev_comp = int64_t(comp);
        }
        c.traces.push_back(t.bytes());
    }
    return c;
}

std::string report_of(const RunResult& r) {
    return test::report_without_event_counts(r, "analytical");
}

} // namespace

TEST_CASE("ring fast path on general workloads: every report is the event path's, and the guard matters",
          "[system][fast_ring]") {
    std::mt19937 rng(20261126);
    int runs = 0, fast = 0, redone = 0, refused = 0, symmetric_fast = 0, blind_differs = 0;
    for (int i = 0; i < 300; ++i) {
        GuardCase c = guard_case(rng);
        RunOptions off, on, blind;
        off.symmetry = on.symmetry = blind.symmetry = c.symmetry;
        off.fast_ring = false;
        blind.fast_ring_tie_guard = false;
        RunResult event = test::run(c.cfg, c.traces, off);
        RunResult quick = test::run(c.cfg, c.traces, on);
        INFO("case " << i << ": fast path " << quick.fast_ring << "; symmetry " << quick.symmetry);
        REQUIRE(event.complete);
        CHECK(quick.complete);
        CHECK(report_of(quick) == report_of(event));
        ++runs;
        if (quick.fast_ring == "on") {
            ++fast;
            if (quick.simulated_npus < quick.stats.npus.size()) ++symmetric_fast;
            CHECK(quick.events < event.events);
        } else if (quick.fast_ring.find("redone") != std::string::npos) {
            ++redone;
            // Blinded, the same run stays on the fast path; where the tie changed the order, it differs.
            RunResult unguarded = test::run(c.cfg, c.traces, blind);
            if (report_of(unguarded) != report_of(event)) ++blind_differs;
        } else {
            ++refused;
        }
    }
    WARN(runs << " runs: " << fast << " on the fast path (" << symmetric_fast << " of them symmetric), "
              << redone << " redone on the event path after a tie, " << refused
              << " refused up front; blinded, " << blind_differs << " of the redone runs differ");
    CHECK(fast >= runs / 3);
    CHECK(symmetric_fast >= 10);
    CHECK(redone >= 10);
    // The ties of these runs fall between whole-microsecond computes, sends and receives, whose order
    // rarely changes a result (the guard does not tell them apart); the next two cases build ties that do.
}

TEST_CASE("ring fast path: a compute and a collective ending in one ns are caught by the guard",
          "[system][fast_ring]") {
    // Every NPU of a 4-ring starts an all-reduce (node 0) and a compute A (node 2) at 0 ns; A is timed by
    // the roofline (1 TFLOPS, so 1000 operations per ns) to end in the very ns T the all-reduce ends. The
    // all-reduce's child (node 1) and A's child (node 3) both want the GPU.
    // Event path: A's bucket for T was made at 0 ns and takes the all-reduce's last packet, so A completes
    // first and node 3 takes the GPU; node 1 waits for it. Fast path: NPU 3, the last to start, has its
    // all-reduce completion scheduled before its A's bucket, so the all-reduce completes first, and when A
    // completes node 1 (the lower id) takes the GPU. Expected: the guard sees the tie (collective
    // completion [0, T] against A [0, 0]) and redoes the run, giving the event path's report; blinded, the
    // fast path's report differs (NPU 3 runs node 1 before node 3, so its second all-reduce, node 4,
    // starts 5000 ns late, and everyone waits for it).
    config::Scenario cfg;
    cfg.network = test::network_yaml("topology: [Ring]\nnpus_count: [4]\nbandwidth: [50]\nlatency: [500]\n");
    cfg.system = test::system_json(R"({"endpoint-delay": 10, "preferred-dataset-splits": 2,
        "local-mem-bw": 1600, "peak-perf": 1, "roofline-enabled": 1})");
    RunOptions off, on, blind;
    off.symmetry = on.symmetry = blind.symmetry = false;
    off.fast_ring = false;
    blind.fast_ring_tie_guard = false;
    test::TraceBuilder alone;
    alone.coll(0, CollectiveType::AllReduce, 1 << 16);
    const TimeNs t = test::run(cfg, test::same_on_all(alone, 4), off).stats.npus[0].finish_ns;
    REQUIRE(t > 1000);

    test::TraceBuilder both;
    both.coll(0, CollectiveType::AllReduce, 1 << 16);
    both.roofline_comp(1, 5000000, 1, {0});                // 5000 ns after the all-reduce
    both.roofline_comp(2, t * 1000 + 1, 1);                // ends at T (the roofline truncates to whole ns)
    both.roofline_comp(3, 7000000, 1, {2});                // 7000 ns after A
    both.coll(4, CollectiveType::AllReduce, 1 << 16, {3}); // starts when node 3 ends
    const auto traces = test::same_on_all(both, 4);
    RunResult event = test::run(cfg, traces, off);
    RunResult quick = test::run(cfg, traces, on);
    RunResult unguarded = test::run(cfg, traces, blind);
    INFO("fast path: " << quick.fast_ring);
    // Event path on every NPU: node 3 from T to T + 7000, then the second all-reduce (T ns again, all
    // members start together) beside node 1.
    CHECK(event.stats.npus[3].finish_ns == 2 * t + 7000);
    CHECK(quick.fast_ring.find("redone on the event path") != std::string::npos);
    CHECK(report_of(quick) == report_of(event));
    CHECK(unguarded.fast_ring == "on");
    CHECK(report_of(unguarded) != report_of(event));
}

TEST_CASE("ring fast path: the tie above on random rings, policies and chunkings is always caught",
          "[system][fast_ring]") {
    // The previous case's construction over 100 random configurations (3 to 8 NPUs, any dimension kind,
    // bandwidth, latency, endpoint delay, 1 to 4 chunks, 1 to 3 active, LIFO or FIFO, all-reduce or
    // all-gather, group ring or whole system). Expected: every report is the event path's, the guard
    // redoes every run, and blinded, the fast path's report differs in most of them.
    std::mt19937 rng(17);
    auto pick = [&](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); };
    const char* kinds[] = {"Ring", "FullyConnected", "Switch"};
    int redone = 0, blind_differs = 0;
    for (int i = 0; i < 100; ++i) {
        const int n = pick(3, 8);
        config::Scenario cfg;
        cfg.network =
            test::network_yaml(std::string("topology: [") + kinds[pick(0, 2)] + "]\nnpus_count: [" +
                               std::to_string(n) + "]\nbandwidth: [" + std::to_string(pick(5, 400)) +
                               "]\nlatency: [" + std::to_string(pick(0, 900)) + "]\n");
        cfg.system =
            test::system_json(std::string("{\"scheduling-policy\": \"") + (pick(0, 1) ? "FIFO" : "LIFO") +
                              "\", \"endpoint-delay\": " + std::to_string(pick(1, 20)) +
                              ", \"active-chunks-per-dimension\": " + std::to_string(pick(1, 3)) +
                              ", \"preferred-dataset-splits\": " + std::to_string(pick(1, 4)) +
                              ", \"local-mem-bw\": 1600, \"peak-perf\": 1, \"roofline-enabled\": 1}");
        const bool group = pick(0, 1) == 1;
        if (group) {
            std::vector<uint32_t> ranks;
            for (int r = n - 1; r >= 0; --r)
                ranks.push_back(static_cast<uint32_t>(r)); // the ring backwards
            cfg.groups.groups.push_back({1, ranks});
        }
        const CollectiveType type = pick(0, 1) ? CollectiveType::AllReduce : CollectiveType::AllGather;
        const uint64_t bytes = uint64_t(pick(1 << 10, 1 << 18));
        auto collective = [&](test::TraceBuilder& t, uint64_t id, test::Deps deps) {
            auto& c = t.coll(id, type, bytes, deps);
            if (group) c.pg_name = "1";
        };
        RunOptions off, on, blind;
        off.symmetry = on.symmetry = blind.symmetry = false;
        off.fast_ring = false;
        blind.fast_ring_tie_guard = false;
        test::TraceBuilder alone;
        collective(alone, 0, {});
        const TimeNs t = test::run(cfg, test::same_on_all(alone, uint32_t(n)), off).stats.npus[0].finish_ns;
        test::TraceBuilder both;
        collective(both, 0, {});
        both.roofline_comp(1, 5000000, 1, {0});
        both.roofline_comp(2, t * 1000 + 1, 1); // ends with the collective
        both.roofline_comp(3, 7000000, 1, {2});
        collective(both, 4, {3});
        const auto traces = test::same_on_all(both, uint32_t(n));
        RunResult event = test::run(cfg, traces, off);
        RunResult quick = test::run(cfg, traces, on);
        RunResult unguarded = test::run(cfg, traces, blind);
        INFO("case " << i << ": T " << t << " ns; fast path " << quick.fast_ring);
        CHECK(report_of(quick) == report_of(event));
        if (quick.fast_ring.find("redone") != std::string::npos) ++redone;
        if (report_of(unguarded) != report_of(event)) ++blind_differs;
    }
    WARN("the guard redid " << redone << " of 100 runs; blinded, " << blind_differs << " differ");
    CHECK(redone == 100);
    CHECK(blind_differs >= 50);
}

TEST_CASE("ring fast path: generated transformer workloads (dp, tp, pp) equal the event path",
          "[system][fast_ring][generate]") {
    // STAGE-like workloads from the generator (tensor-parallel all-gathers and reduce-scatters on groups,
    // data-parallel all-reduces, pipeline sends and receives, compute overlapping them), run full and
    // symmetric, with and without the fast path. Expected: the same report each way (apart from the
    // engine's counts and notes), and the fast path taken by at least one of the runs.
    const char* points[] = {
        R"({"schema": "astrolabe.scenario/1",
            "workload": {"generate": {"kind": "transformer", "model": "gpt", "layers": 2, "hidden": 512,
                         "heads": 8, "seq": 256, "batch": 8, "micro-batch": 2, "dp": 4, "tp": 2, "pp": 2}},
            "network": {"topology": ["Ring", "Switch", "Ring"], "npus_count": [4, 2, 2],
                        "bandwidth": [50, 300, 50], "latency": [500, 100, 500]},
            "system": {"scheduling-policy": "LIFO", "endpoint-delay": 10, "active-chunks-per-dimension": 1,
                       "preferred-dataset-splits": 4, "local-mem-bw": 1600, "peak-perf": 400,
                       "roofline-enabled": 1},
            "compute_model": "roofline"})",
        R"({"schema": "astrolabe.scenario/1",
            "workload": {"generate": {"kind": "transformer", "model": "gpt", "layers": 2, "hidden": 256,
                         "heads": 8, "seq": 256, "batch": 8, "micro-batch": 2, "dp": 2, "tp": 2, "pp": 2}},
            "network": {"topology": ["FullyConnected", "Switch"], "npus_count": [4, 2],
                        "bandwidth": [200, 25], "latency": [100, 1000]},
            "system": {"scheduling-policy": "FIFO", "endpoint-delay": 5, "active-chunks-per-dimension": 2,
                       "preferred-dataset-splits": 3, "local-mem-bw": 2000, "peak-perf": 400,
                       "roofline-enabled": 1},
            "compute_model": "roofline"})"};
    int fast = 0;
    for (const char* text : points) {
        for (bool symmetry : {false, true}) {
            std::string reports[2];
            for (bool fast_ring : {false, true}) {
                auto sc = config::parse_scenario_json(text, "scenario.json");
                REQUIRE(sc.is_ok());
                RunOptions o;
                o.symmetry = symmetry;
                o.fast_ring = fast_ring;
                auto session = test::run_session(std::move(sc.value()), o);
                REQUIRE(session->result().complete);
                if (fast_ring && session->result().fast_ring == "on") ++fast;
                INFO("symmetry " << symmetry << ", fast ring " << session->result().fast_ring);
                nlohmann::json j = nlohmann::json::parse(session->report_json());
                for (const char* key : {"events", "peak_queue", "fast_ring", "wall_s", "events_per_s"})
                    j.at("engine").erase(key);
                reports[fast_ring] = j.dump(1);
            }
            INFO("symmetry " << symmetry);
            CHECK(reports[1] == reports[0]);
        }
    }
    WARN(fast << " of 4 generated runs took the fast path to the end");
    CHECK(fast >= 1);
}

// The critical path (core/report/critical_path.h): which chain of nodes set the step time. Small graphs
// with hand-written timelines, where the chain is known by construction, and one whole run whose slowest
// NPU is known in closed form.
#include "core/report/critical_path.h"
#include "support/test_support.h"
#include "support/trace_builder.h"

#include <catch2/catch.hpp>

using namespace astrolabe;

namespace {

struct NodeSpec {
    NodeKind kind;
    std::vector<uint32_t> parents; // indices in the same graph
    uint32_t peer = 0;             // Send: dst, Recv: src, Collective: group index
    uint32_t tag = 0;
};

WorkloadGraph graph(uint32_t rank, const std::vector<NodeSpec>& spec) {
    WorkloadGraph g;
    g.rank = rank;
    for (size_t i = 0; i < spec.size(); ++i) {
        GraphNode n;
        n.id = i;
        n.kind = spec[i].kind;
        n.peer = spec[i].peer;
        n.tag = spec[i].tag;
        n.child_begin = static_cast<uint32_t>(g.children.size());
        for (size_t c = 0; c < spec.size(); ++c)
            for (uint32_t p : spec[c].parents)
                if (p == i) g.children.push_back(static_cast<uint32_t>(c));
        g.nodes.push_back(n);
    }
    return g;
}

std::vector<std::pair<uint32_t, uint32_t>> chain(const CriticalPath& p) {
    std::vector<std::pair<uint32_t, uint32_t>> out;
    for (const auto& s : p.steps)
        out.emplace_back(s.npu, s.node);
    return out;
}

using Chain = std::vector<std::pair<uint32_t, uint32_t>>;

} // namespace

TEST_CASE("critical path: a dependency chain, not the node that merely overlaps it", "[report]") {
    // One NPU: A (0-10) -> B (10-30) -> C (30-35); D (0-5) runs beside A and leads nowhere. The step ends
    // with C at 35, which waited for B, which waited for A: the path is A, B, C, all compute.
    std::vector<WorkloadGraph> g = {graph(0, {{NodeKind::Compute, {}},
                                              {NodeKind::Compute, {0}},
                                              {NodeKind::Compute, {1}},
                                              {NodeKind::MemLoad, {}}})};
    std::vector<TimelineRecord> t = {{0, 0, 0, 10}, {0, 1, 10, 30}, {0, 2, 30, 35}, {0, 3, 0, 5}};
    CriticalPath p = critical_path(g, t);
    CHECK(chain(p) == Chain{{0, 0}, {0, 1}, {0, 2}});
    CHECK(p.end_ns == 35);
    CHECK(p.compute_ns == 35);
    CHECK(p.wait_ns == 0);
    CHECK(p.steps[1].link == CriticalLink::Dependency);
    CHECK(p.on_path(0, 1));
    CHECK_FALSE(p.on_path(0, 3));
}

TEST_CASE("critical path: a node that queued for its NPU's compute slot follows the node it queued behind",
          "[report]") {
    // A (0-10) and B (10-20) are independent computes: B waited for the one compute slot, not for a parent.
    // C depends on B and ends the step at 25. Path A, B (resource), C.
    std::vector<WorkloadGraph> g = {
        graph(0, {{NodeKind::Compute, {}}, {NodeKind::Compute, {}}, {NodeKind::Compute, {1}}})};
    std::vector<TimelineRecord> t = {{0, 0, 0, 10}, {0, 1, 10, 20}, {0, 2, 20, 25}};
    CriticalPath p = critical_path(g, t);
    CHECK(chain(p) == Chain{{0, 0}, {0, 1}, {0, 2}});
    CHECK(p.steps[1].link == CriticalLink::Resource);
    CHECK(p.steps[2].link == CriticalLink::Dependency);
}

TEST_CASE("critical path: a receive posted early waits for a late send on the other NPU", "[report]") {
    // NPU 0 computes 0-30 then sends to NPU 1 (30-40, tag 7). NPU 1 posted its receive at 0; it completes
    // at 40, then NPU 1 computes 40-45, the last node. The receive was held back by the send, which was
    // held back by NPU 0's compute: path comp0, send0, recv1, comp1 (45 ns: 35 compute, 10 communication
    // counted once where send and receive overlap).
    std::vector<WorkloadGraph> g = {
        graph(0, {{NodeKind::Compute, {}}, {NodeKind::Send, {0}, 1, 7}}),
        graph(1, {{NodeKind::Recv, {}, 0, 7}, {NodeKind::Compute, {0}}}),
    };
    std::vector<TimelineRecord> t = {{0, 0, 0, 30}, {0, 1, 30, 40}, {1, 0, 0, 40}, {1, 1, 40, 45}};
    CriticalPath p = critical_path(g, t);
    CHECK(chain(p) == Chain{{0, 0}, {0, 1}, {1, 0}, {1, 1}});
    CHECK(p.steps[2].link == CriticalLink::Peer);
    CHECK(p.compute_ns == 35);
    CHECK(p.communication_ns == 10);
}

TEST_CASE("critical path of a whole run: the slowest NPU's compute before a shared all-reduce", "[report]") {
    // NPU i computes (i + 1) us, then all four all-reduce 256 KiB on a 4-ring. The all-reduce cannot
    // finish before its last member joins, NPU 3 at 4 us: the path is NPU 3's compute, NPU 3's copy of the
    // all-reduce, then the copy that ends last (the run's total time). Its compute part is exactly 4000 ns
    // and the rest, counted once where the copies overlap, is communication.
    config::Scenario cfg;
    cfg.network = test::network_yaml("topology: [Ring]\nnpus_count: [4]\nbandwidth: [100]\nlatency: [200]\n");
    cfg.system = test::system_json(R"({"preferred-dataset-splits": 1})");
    RunOptions options;
    options.keep_timeline = true;
    options.symmetry = false;
    std::vector<std::string> traces;
    for (uint64_t i = 0; i < 4; ++i) {
        test::TraceBuilder b;
        b.comp(1, i + 1);
        b.coll(2, trace::CollectiveType::AllReduce, 262144, {1});
        traces.push_back(b.bytes());
    }
    auto sim = test::build(cfg, traces, nullptr, options);
    REQUIRE(sim.is_ok());
    sim.value()->run_to_end();
    RunResult r = sim.value()->result();
    REQUIRE(r.complete);
    CriticalPath p = critical_path(sim.value()->input().graphs, r.stats.timeline);
    REQUIRE(p.steps.size() == 3);
    CHECK(p.steps[0].npu == 3);
    CHECK(p.steps[0].end_ns == 4000);
    CHECK(p.steps[1].npu == 3);
    CHECK(p.steps[1].start_ns == 4000);
    CHECK(p.steps[2].link == CriticalLink::Peer);
    CHECK(p.steps[2].end_ns == r.total_ns);
    CHECK(p.wait_ns == 0);
    CHECK(p.end_ns == r.total_ns);
    CHECK(p.compute_ns == 4000);
    CHECK(p.communication_ns == r.total_ns - 4000);
}

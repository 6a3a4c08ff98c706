// Building the executor's compact graph from decoded nodes: order, dependencies, validation.
#include "core/system/scheduling/workload_graph.h"
#include "support/check_error.h"
#include "support/trace_builder.h"

#include <catch2/catch.hpp>

using namespace astrolabe;
using Catch::Matchers::Contains;
using trace::CollectiveType;

namespace {

// Builds the graph of `t` as rank opt.rank of a 4-NPU network, from source "x.et".
Result<WorkloadGraph> build_graph(const test::TraceBuilder& t, GraphBuildOptions opt = {}) {
    opt.npus = 4;
    GraphBuilder b("x.et", opt);
    for (const auto& n : t.trace().nodes)
        b.add(n);
    std::vector<std::string> warnings;
    return b.finish(warnings);
}

std::vector<uint64_t> child_ids(const WorkloadGraph& g, size_t i) {
    std::vector<uint64_t> out;
    for (uint32_t c = g.nodes[i].child_begin; c < g.child_end(i); ++c)
        out.push_back(g.nodes[g.children[c]].id);
    return out;
}

} // namespace

TEST_CASE("workload graph: nodes sorted by id and dependencies as child lists", "[graph]") {
    // File order 5, 3, 9 with 5 <- 3 and 9 <- {3, 5} (9 names 3 both as data and control dependency: one
    // edge). Sorted: [3, 5, 9]; children of 3 = {5, 9}, of 5 = {9}; parent counts 0, 1, 2.
    test::TraceBuilder t;
    t.comp(5, 1, {3});
    t.comp(3, 1);
    t.comp(9, 1, {3, 5}).ctrl_deps = {3};
    auto g = build_graph(t);
    INFO(g.status().message());
    REQUIRE(g.is_ok());
    const WorkloadGraph& w = g.value();
    REQUIRE(w.size() == 3);
    CHECK(w.nodes[0].id == 3);
    CHECK(w.nodes[1].id == 5);
    CHECK(w.nodes[2].id == 9);
    CHECK(child_ids(w, 0) == std::vector<uint64_t>{5, 9});
    CHECK(child_ids(w, 1) == std::vector<uint64_t>{9});
    CHECK(child_ids(w, 2).empty());
    CHECK(w.nodes[0].parents == 0);
    CHECK(w.nodes[1].parents == 1);
    CHECK(w.nodes[2].parents == 2);
    CHECK(w.nodes[2].duration_ns == 1000);
    CHECK(w.nodes[2].kind == NodeKind::Compute);
}

TEST_CASE("workload graph: ignore_ctrl_deps drops control edges only", "[graph]") {
    // Converter traces use ctrl_deps for CPU call nesting: with the option, 2's control edge on 1 is gone.
    test::TraceBuilder t;
    t.comp(1, 1);
    t.comp(2, 1).ctrl_deps = {1};
    GraphBuildOptions opt;
    opt.ignore_ctrl_deps = true;
    auto g = build_graph(t, opt);
    REQUIRE(g.is_ok());
    CHECK(g.value().nodes[1].parents == 0);
    CHECK(build_graph(t).value().nodes[1].parents == 1);
}

TEST_CASE("workload graph: a dependency cycle is an error naming the nodes on it", "[graph]") {
    // 1 <- 3, 2 <- 1, 3 <- 2 is a cycle; 4 <- 3 hangs off it and 0 is free: 4 nodes can never start.
    // The message walks the cycle from the lowest stuck node: 1 waits on 3, which waits on 2.
    test::TraceBuilder t;
    t.comp(0, 1);
    t.comp(1, 1, {3});
    t.comp(2, 1, {1});
    t.comp(3, 1, {2});
    t.comp(4, 1, {3});
    auto g = build_graph(t);
    REQUIRE_FALSE(g.is_ok());
    CHECK(g.status().message() == "x.et: the dependencies form a cycle (4 nodes can never start); one cycle, "
                                  "each node waiting on the next: 1 <- 3 <- 2");
}

TEST_CASE("workload graph: structural problems are reported with file and node", "[graph]") {
    SECTION("a dependency on a node that is not in the file") {
        test::TraceBuilder t;
        t.comp(2, 1, {99});
        auto g = build_graph(t);
        test::check_error(g, {"x.et: node 2 depends on node 99, which is not in the file"});
    }
    SECTION("a duplicate id") {
        test::TraceBuilder t;
        t.comp(4, 1);
        t.comp(4, 2);
        auto g = build_graph(t);
        test::check_error(g, {"node id 4 appears more than once"});
    }
    SECTION("a duration past the simulated clock's end") {
        // The clock ends at 2^62 ns = 4611686018427387 us (engine.h kTimeLimit): one us more is refused
        // here, at load, rather than when the run reaches it; the limit itself is a valid duration.
        test::TraceBuilder t;
        t.comp(1, 4611686018427387);
        t.comp(2, 4611686018427388);
        auto g = build_graph(t);
        test::check_error(
            g, {"duration_micros 4611686018427388 is too large; the simulated clock ends at 2^62 ns"});
        CHECK(g.status().problems().size() == 1);
    }
    SECTION("send/recv peers outside the network, missing attributes") {
        // 4 NPUs: rank 9 does not exist. A receive without comm_tag cannot be matched.
        test::TraceBuilder t;
        t.send(1, 9, 100, 0);
        t.recv(2, 1, 100, 0).comm_tag.reset();
        t.coll(3, CollectiveType::AllReduce, 100).comm_type.reset();
        auto g = build_graph(t);
        REQUIRE_FALSE(g.is_ok());
        const std::string m = g.status().message();
        CHECK_THAT(
            m,
            Contains(
                "node 1 ('COMM_SEND_NODE_1'): attribute 'comm_dst' is 9, but the network has only 4 NPUs"));
        CHECK_THAT(m, Contains("node 2 ('COMM_RECV_NODE_2'): attribute 'comm_tag' is missing"));
        CHECK_THAT(m, Contains("node 3 ('COMM_COLL_NODE_3'): attribute 'comm_type' is missing"));
        CHECK(g.status().problems().size() == 3);
    }
}

TEST_CASE("workload graph: communicator groups named by pg_name", "[graph]") {
    // Groups: index 0 = whole system, then group 5 = [0, 2]. Rank 0 may use it (peer = its index, 1);
    // rank 1 is not a member; group 6 is not defined; "tp0" is not a group id.
    GroupTable groups;
    groups.groups.push_back({5, {0, 2}});
    GraphBuildOptions opt;
    opt.groups = &groups;
    test::TraceBuilder t;
    t.coll(1, CollectiveType::AllGather, 64).pg_name = "5";
    opt.rank = 0;
    auto ok = build_graph(t, opt);
    REQUIRE(ok.is_ok());
    CHECK(ok.value().nodes[0].peer == 1);
    opt.rank = 1;
    auto not_member = build_graph(t, opt);
    test::check_error(not_member, {"communicator group 5 does not include this NPU (rank 1)"});

    test::TraceBuilder u;
    u.coll(1, CollectiveType::AllGather, 64).pg_name = "6";
    u.coll(2, CollectiveType::AllGather, 64).pg_name = "tp0";
    opt.rank = 0;
    auto bad = build_graph(u, opt);
    test::check_error(bad,
                      {"communicator group 6 is not defined; pass the communicator-group file",
                       "attribute 'pg_name' is \"tp0\"; a communicator group id (a number) was expected"});
}

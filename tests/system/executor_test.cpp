// The per-NPU DAG executor: dependencies, the three resource slots, send/recv matching, and what happens
// when a workload cannot finish (deadlock, cycles, missing groups): an answer or an error, never a hang.
#include "core/session/session.h"
#include "support/check_error.h"
#include "support/test_support.h"
#include "support/trace_builder.h"

#include <catch2/catch.hpp>

using namespace astrolabe;
using Catch::Matchers::Contains;
using trace::CollectiveType;

namespace {

constexpr uint64_t kMiB = 1048576;

// `npus` NPUs on a Ring (50 GB/s, 500 ns): a 1 MiB message to a neighbour takes floor(500 + 19531.25) =
// 20031 ns.
config::Scenario ring(uint32_t npus) {
    config::Scenario cfg;
    cfg.network = test::network_yaml("topology: [Ring]\nnpus_count: [" + std::to_string(npus) +
                                     "]\nbandwidth: [50]\nlatency: [500]\n");
    return cfg;
}

// Most cases need only a sender and a receiver.
config::Scenario two_npus() {
    return ring(2);
}

// End time of node `id` on `npu` from the timeline (needs keep_timeline).
TimeNs end_of(const RunResult& r, const Simulation& sim, uint32_t npu, uint64_t id) {
    const WorkloadGraph& g = sim.input().graphs[npu];
    for (const auto& rec : r.stats.timeline)
        if (rec.npu == npu && g.nodes[rec.node].id == id) return rec.end_ns;
    FAIL("node " << id << " of NPU " << npu << " never ran");
    return 0;
}

struct Run {
    std::unique_ptr<Simulation> sim;
    RunResult result;
};

Run run_with_timeline(config::Scenario cfg, const std::vector<std::string>& traces) {
    RunOptions options;
    options.keep_timeline = true;
    auto sim = test::build(std::move(cfg), traces, nullptr, options);
    INFO(sim.status().message());
    REQUIRE(sim.is_ok());
    Run out{std::move(sim.value()), {}};
    out.sim->run_to_end();
    out.result = out.sim->result();
    return out;
}

// NPU 0 sends one 1 MiB message tagged `sent` to NPU 1, which posts one receive from NPU 0 tagged `posted`;
// both at t = 0.
RunResult one_message(uint32_t sent, uint32_t posted) {
    test::TraceBuilder sender, receiver;
    sender.send(1, 1, kMiB, sent);
    receiver.recv(1, 0, kMiB, posted);
    return test::run(two_npus(), {sender.bytes(), receiver.bytes()});
}

// NPU 0 sends two 1 MiB messages to NPU 1, the second after the first, tagged `sent`; NPU 1 posts two
// receives from NPU 0 at t = 0, node 1 and node 2, tagged `posted`.
Run two_messages(const uint32_t (&sent)[2], const uint32_t (&posted)[2]) {
    test::TraceBuilder sender, receiver;
    sender.send(1, 1, kMiB, sent[0]);
    sender.send(2, 1, kMiB, sent[1], {1});
    receiver.recv(1, 0, kMiB, posted[0]);
    receiver.recv(2, 0, kMiB, posted[1]);
    return run_with_timeline(two_npus(), {sender.bytes(), receiver.bytes()});
}

} // namespace

TEST_CASE("executor: a DAG with dependencies and slots", "[executor]") {
    SECTION("diamond: A(2us) -> B(3us GPU), C(4us CPU) -> D(1us)") {
        // A 0..2000; B (GPU) 2000..5000 and C (CPU slot) 2000..6000 in parallel; D waits for both:
        // 6000..7000. Finish 7000; GPU compute 2000 + 3000 + 1000 = 6000, so exposed = 1000.
        test::TraceBuilder t;
        t.comp(1, 2);
        t.comp(2, 3, {1});
        t.cpu(3, 4, {1});
        t.comp(4, 1, {2, 3});
        Run run = run_with_timeline(two_npus(), test::same_on_all(t, 2));
        const RunResult& r = run.result;
        REQUIRE(r.complete);
        CHECK(r.stats.npus[0].finish_ns == 7000);
        CHECK(r.stats.npus[0].compute_ns == 6000);
        CHECK(r.stats.npus[0].cpu_ns == 4000);
        CHECK(r.stats.npus[0].exposed_comm_ns() == 1000);
        CHECK(r.stats.npus[0].nodes_done == 4);
        CHECK(end_of(r, *run.sim, 0, 2) == 5000);
        CHECK(end_of(r, *run.sim, 0, 3) == 6000);
        CHECK(end_of(r, *run.sim, 1, 4) == 7000);
    }
    SECTION("two independent GPU nodes share the one GPU compute slot") {
        // 5 us + 5 us run one after the other: 10000, not 5000 (ASTRA-sim: gen8_two_comp_nodes_independent).
        test::TraceBuilder t;
        t.comp(1, 5);
        t.comp(2, 5);
        RunResult r = test::run(two_npus(), test::same_on_all(t, 2));
        CHECK(r.stats.npus[0].finish_ns == 10000);
    }
    SECTION("a zero-time node's children still run") {
        // METADATA (0 ns) -> COMP 5 us. The metadata node finishes inside the issue pass with nothing else
        // in flight; ASTRA-sim would never look at its child again. We do: finish at 5000.
        test::TraceBuilder t;
        t.metadata(1);
        t.comp(2, 5, {1});
        RunResult r = test::run(two_npus(), test::same_on_all(t, 2));
        REQUIRE(r.complete);
        CHECK(r.stats.npus[0].finish_ns == 5000);
    }
}

TEST_CASE("executor: children of a zero-time node wait for the next completion", "[executor]") {
    // ASTRA-sim re-examines ready nodes only when a node completes. Nodes: A = GPU compute 5 us, M = a
    // METADATA node (0 ns), C = CPU op 1 us after M. At t = 0, A and M issue and M finishes inside the pass;
    // C becomes ready but, with A in flight, is first looked at when A completes at 5000: C runs
    // 5000..6000. (Only when nothing is in flight do we look again at once, see the test case above.)
    test::TraceBuilder t;
    t.comp(1, 5);
    t.metadata(2);
    t.cpu(3, 1, {2});
    Run run = run_with_timeline(two_npus(), test::same_on_all(t, 2));
    REQUIRE(run.result.complete);
    CHECK(end_of(run.result, *run.sim, 0, 3) == 6000);
    CHECK(run.result.stats.npus[0].finish_ns == 6000);
}

TEST_CASE("executor: communication nodes flagged is_cpu_op are host work", "[executor]") {
    // PyTorch-converted traces wrap NCCL kernels in CPU-side nodes flagged is_cpu_op. They are replayed
    // from their duration on the CPU slot (2 us here) and send nothing over the network.
    test::TraceBuilder t;
    t.send(1, 1, kMiB, 0).is_cpu_op = true;
    t.trace().nodes.back().duration_micros = 2;
    std::vector<std::string> warnings;
    auto sim = test::build(two_npus(), test::same_on_all(t, 2), &warnings);
    REQUIRE(sim.is_ok());
    sim.value()->run_to_end();
    RunResult r = sim.value()->result();
    REQUIRE(r.complete);
    CHECK(r.stats.npus[0].finish_ns == 2000);
    CHECK(r.stats.npus[0].cpu_ns == 2000);
    CHECK(r.messages == 0);
    REQUIRE_FALSE(warnings.empty());
    CHECK_THAT(warnings[0], Contains("flagged is_cpu_op; they are replayed as host CPU work"));
}

TEST_CASE("executor: send/recv matching", "[executor][p2p]") {
    SECTION("receive posted first: both complete at delivery, 20031") {
        RunResult r = one_message(5, 5);
        REQUIRE(r.complete);
        CHECK(r.stats.npus[0].finish_ns == 20031);
        CHECK(r.stats.npus[1].finish_ns == 20031);
        CHECK(r.stats.npus[1].comm_ns == 20031);
        CHECK(r.messages == 1);
    }
    SECTION("receive posted after the message arrived: it completes when posted") {
        // The receive waits for a 30 us compute; the message has been there since 20031, so the receive
        // takes no time: NPU 1 finishes at 30000, NPU 0 (the send) at delivery, 20031.
        test::TraceBuilder sender, receiver;
        sender.send(1, 1, kMiB, 5);
        receiver.comp(1, 30);
        receiver.recv(2, 0, kMiB, 5, {1});
        RunResult r = test::run(two_npus(), {sender.bytes(), receiver.bytes()});
        REQUIRE(r.complete);
        CHECK(r.stats.npus[0].finish_ns == 20031);
        CHECK(r.stats.npus[1].finish_ns == 30000);
        CHECK(r.stats.npus[1].comm_ns == 0);
    }
    SECTION("messages match by tag, not by order") {
        // NPU 0 sends tag 2 then (after it) tag 1: sends share the communication slot, so they arrive at
        // 20031 and 40062. NPU 1 posts receive(tag 1) as node 1 and receive(tag 2) as node 2 at t = 0:
        // node 2 completes at 20031, node 1 at 40062.
        Run run = two_messages({2, 1}, {1, 2});
        REQUIRE(run.result.complete);
        CHECK(end_of(run.result, *run.sim, 1, 2) == 20031);
        CHECK(end_of(run.result, *run.sim, 1, 1) == 40062);
        CHECK(run.result.stats.npus[1].finish_ns == 40062);
    }
    SECTION("equal keys match first to first") {
        // Two sends with the same (tag, src, dst, size), arriving at 20031 and 40062; two receives posted
        // at t = 0: the first posted completes at 20031, the second at 40062.
        Run run = two_messages({7, 7}, {7, 7});
        REQUIRE(run.result.complete);
        CHECK(end_of(run.result, *run.sim, 1, 1) == 20031);
        CHECK(end_of(run.result, *run.sim, 1, 2) == 40062);
    }
}

TEST_CASE("executor: a deadlock ends the run incomplete with a stuck-node report and does not hang",
          "[executor][p2p]") {
    SECTION("a receive whose send never comes (tags differ)") {
        // NPU 0 sends tag 5 (done at delivery, 20031); NPU 1 waits for tag 6 forever. The engine runs dry,
        // the result says incomplete, and the stuck node names the missing message.
        RunResult r = one_message(5, 6);
        CHECK_FALSE(r.complete);
        CHECK(r.stats.npus[0].finished);
        CHECK(r.stats.npus[0].finish_ns == 20031);
        CHECK_FALSE(r.stats.npus[1].finished);
        CHECK(r.total_ns == 20031);
        REQUIRE(r.stuck.size() == 1);
        CHECK(r.stuck[0].npu == 1);
        CHECK(r.stuck[0].node_id == 1);
        CHECK_THAT(
            r.stuck[0].what,
            Contains("waits for a message from NPU 0 to NPU 1 (tag 6, 1048576 bytes) that was never sent"));
        // The send that was made is listed with its source, destination and tag.
        REQUIRE(r.unreceived.size() == 1);
        CHECK(r.unreceived[0].key.src == 0);
        CHECK(r.unreceived[0].key.dst == 1);
        CHECK(r.unreceived[0].key.tag == 5);
    }
    SECTION("a collective that one member never issues") {
        // NPUs 0..2 all-reduce; NPU 3 only computes. The all-reduce can never complete: NPUs 0..2 are
        // reported stuck on it; NPU 3 finishes at 1000.
        test::TraceBuilder member, absent;
        member.coll(1, CollectiveType::AllReduce, kMiB);
        absent.comp(1, 1);
        RunResult r = test::run(ring(4), {member.bytes(), member.bytes(), member.bytes(), absent.bytes()});
        CHECK_FALSE(r.complete);
        CHECK(r.stats.npus[3].finish_ns == 1000);
        REQUIRE(r.stuck.size() == 3);
        for (const auto& s : r.stuck)
            CHECK_THAT(s.what, Contains("waits for members that never issued a matching collective"));
    }
}

TEST_CASE("executor: inputs that cannot run are refused when the simulation is built", "[executor]") {
    SECTION("a dependency cycle names the nodes on it") {
        test::TraceBuilder ok, cyclic;
        ok.comp(1, 1);
        cyclic.comp(1, 1, {2});
        cyclic.comp(2, 1, {1});
        auto sim = test::build(two_npus(), {ok.bytes(), cyclic.bytes()});
        test::check_error(sim,
                          {"npu1.et: the dependencies form a cycle (2 nodes can never start)", "1 <- 2"});
    }
    SECTION("a collective in a communicator group that was not given") {
        test::TraceBuilder t;
        t.coll(1, CollectiveType::AllReduce, 1024).pg_name = "3";
        auto sim = test::build(two_npus(), test::same_on_all(t, 2));
        test::check_error(
            sim, {"npu0.et: node 1 ('COMM_COLL_NODE_1'): communicator group 3 is not defined", "npu1.et"});
    }
    SECTION("one trace per NPU") {
        test::TraceBuilder t;
        t.comp(1, 1);
        auto sim = test::build(two_npus(), test::same_on_all(t, 3));
        test::check_error(sim, {"3 trace file(s) for a network of 2 NPUs"});
    }
    SECTION("an algorithm that needs a power-of-two dimension") {
        // halvingDoubling on a 6-NPU ring: refused naming key, algorithm and dimension.
        config::Scenario cfg = ring(6);
        cfg.system = test::system_json(R"({"all-reduce-implementation": ["halvingDoubling"]})");
        test::TraceBuilder t;
        t.coll(1, CollectiveType::AllReduce, 1024);
        auto sim = test::build(cfg, test::same_on_all(t, 6));
        test::check_error(sim,
                          {"all-reduce-implementation[0]: halvingDoubling needs a power-of-two number of "
                           "NPUs in dimension 0, which has 6"});
    }
}

TEST_CASE("executor: two simulations coexist without shared state", "[executor]") {
    // No globals: building a second simulation and running it first must not change the first one's result
    // (the 8-ring 1 MiB all-reduce of ASTRA-sim's ar8_ring_Ring_unaware: 64440 ns).
    config::Scenario cfg;
    cfg.network = test::network_yaml(test::read_data("configs/net_Ring_8npus.yml"));
    cfg.system =
        test::system_json(test::read_data("configs/sys_ring_d1_s4_a1_LIFO_ep10_mem1600_localBWAware.json"));
    test::TraceBuilder t;
    t.coll(1, CollectiveType::AllReduce, kMiB);
    auto a = test::build(cfg, test::same_on_all(t, 8));
    auto b = test::build(cfg, test::same_on_all(t, 8));
    REQUIRE(a.is_ok());
    REQUIRE(b.is_ok());
    b.value()->run_to_end();
    while (a.value()->run_slice(7)) {
    }
    CHECK(a.value()->result().total_ns == 64440);
    CHECK(b.value()->result().total_ns == 64440);
    CHECK(a.value()->result().events == b.value()->result().events);
}

TEST_CASE("executor: degenerate inputs finish instead of crashing or hanging", "[executor]") {
    SECTION("a trace with no nodes finishes at 0") {
        test::TraceBuilder empty, one;
        one.comp(1, 2);
        RunResult r = test::run(two_npus(), {empty.bytes(), one.bytes()});
        REQUIRE(r.complete);
        CHECK(r.stats.npus[0].finish_ns == 0);
        CHECK(r.stats.npus[1].finish_ns == 2000);
    }
    SECTION("a message to oneself takes no network time") {
        // Same NPU: no dimension differs, so the analytical delay is 0; send and receive finish at 0.
        test::TraceBuilder self, other;
        self.send(1, 0, kMiB, 3);
        self.recv(2, 0, kMiB, 3);
        other.comp(1, 1);
        RunResult r = test::run(two_npus(), {self.bytes(), other.bytes()});
        REQUIRE(r.complete);
        CHECK(r.stats.npus[0].finish_ns == 0);
    }
    SECTION("collectives with nothing to move complete") {
        // An all-gather of 0 bytes has nothing to send; an all-reduce of 0 bytes is grown to ASTRA-sim's
        // minimum (one byte per NPU per chunk) and still runs. Both complete on every NPU.
        test::TraceBuilder t;
        t.coll(1, CollectiveType::AllGather, 0);
        t.coll(2, CollectiveType::AllReduce, 0, {1});
        RunResult r = test::run(two_npus(), test::same_on_all(t, 2));
        REQUIRE(r.complete);
        CHECK(r.stats.npus[0].nodes_done == 2);
    }
}

TEST_CASE("executor: chunk streams are bounded before the run makes them", "[executor][resources]") {
    // Every chunk of a collective is a stream of about 2 KB, alive at once on each NPU: NPUs x
    // preferred-dataset-splits may be at most 2^18 = 262144. On a 4-ring that is 65536 splits; one more is
    // refused with the largest allowed value. A trace without collectives needs no streams at all. Only
    // simulated NPUs hold streams: with symmetry (one NPU simulated) 65537 splits fit, 262145 do not.
    auto ring4 = [](uint32_t splits) {
        config::Scenario cfg = ring(4);
        cfg.system =
            test::system_json(R"({"all-reduce-implementation": ["ring"], "preferred-dataset-splits": )" +
                              std::to_string(splits) + "}");
        return cfg;
    };
    test::TraceBuilder coll, comp;
    coll.coll(1, CollectiveType::AllReduce, kMiB);
    comp.comp(1, 5);
    RunOptions full, symmetric;
    full.symmetry = false;
    CHECK(test::build(ring4(65536), test::same_on_all(coll, 4), nullptr, full).is_ok());
    auto refused = test::build(ring4(65537), test::same_on_all(coll, 4), nullptr, full);
    test::check_error(refused,
                      {"system: preferred-dataset-splits: 65537 chunks on each of 4 NPUs make 262148 chunk "
                       "streams at once; at most 262144 fit (at most 65536 splits on this network)"});
    CHECK(test::build(ring4(65537), test::same_on_all(comp, 4), nullptr, full).is_ok());
    CHECK(test::build(ring4(65537), test::same_on_all(coll, 4), nullptr, symmetric).is_ok());
    auto one = test::build(ring4(262145), test::same_on_all(coll, 4), nullptr, symmetric);
    test::check_error(one,
                      {"262145 chunks on each of 4 NPUs (1 of them simulated, one per class) make 262145"});
}

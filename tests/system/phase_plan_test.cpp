// Collective planning as pure data: which phases (dimension, type, algorithm, members) a chunk runs.
#include "core/network/topology.h"
#include "core/system/collectives/phase_plan.h"
#include "support/test_support.h"

#include <catch2/catch.hpp>

using namespace astrolabe;
using config::CollectiveAlgorithm;

namespace {

// net_Ring-Switch_2x4.yml: dim 0 of 2 NPUs (stride 1), dim 1 of 4 NPUs (stride 2).
LogicalTopology topo_2x4() {
    // The strides must be the physical network's (NetworkTopology's), which the planner no longer sees.
    auto cfg = test::network_yaml(test::read_data("configs/net_Ring-Switch_2x4.yml"));
    LogicalTopology t = make_logical_topology(cfg);
    NetworkTopology net(cfg);
    REQUIRE(t.strides == std::vector<uint32_t>{net.stride(0), net.stride(1)});
    REQUIRE(t.npus == net.npus());
    return t;
}

std::vector<uint32_t> members(const PhaseSpec& p) {
    std::vector<uint32_t> out;
    for (uint32_t i = 0; i < p.members.size; ++i)
        out.push_back(p.members.npu(i));
    return out;
}

} // namespace

TEST_CASE("phase plan: one phase per dimension whose members are the NPU's neighbours in it",
          "[collectives][plan]") {
    // NPU 5 = (1, 2) in the 2x4 network. Baseline ALL_REDUCE: AR on dim 0 among {4, 5} (NPU 5 is index
    // 1), then AR on dim 1 among {1, 3, 5, 7} (index 2). Default algorithm: ring on every dimension.
    LogicalTopology topo = topo_2x4();
    CHECK(topo.npus == 8);
    config::SystemConfig sys; // baseline, no implementation lists
    auto phases = plan_collective(PlanRequest{PhaseType::AllReduce, 5}, sys, topo);
    REQUIRE(phases.size() == 2);
    CHECK(phases[0].type == PhaseType::AllReduce);
    CHECK(phases[0].queue == 0);
    CHECK(phases[0].algorithm.algorithm == CollectiveAlgorithm::Ring);
    CHECK(members(phases[0]) == std::vector<uint32_t>{4, 5});
    CHECK(phases[0].my_index == 1);
    CHECK(phases[1].queue == 1);
    CHECK(members(phases[1]) == std::vector<uint32_t>{1, 3, 5, 7});
    CHECK(phases[1].my_index == 2);
    CHECK_FALSE(phases[1].local);
}

TEST_CASE("phase plan: localBWAware all-reduce is RS up then AR on the last dimension then AG back down",
          "[collectives][plan]") {
    // ASTRA-sim's localBWAware on 2 dims: REDUCE_SCATTER dim 0, ALL_REDUCE dim 1, ALL_GATHER dim 0 run
    // anticlockwise. The algorithms come from the system's list, one per dimension.
    LogicalTopology topo = topo_2x4();
    config::SystemConfig sys = test::system_json(
        R"({"collective-optimization": "localBWAware", "all-reduce-implementation": ["direct", "halvingDoubling"]})");
    auto phases = plan_collective(PlanRequest{PhaseType::AllReduce, 0}, sys, topo);
    REQUIRE(phases.size() == 3);
    CHECK(phases[0].type == PhaseType::ReduceScatter);
    CHECK(phases[0].queue == 0);
    CHECK(phases[0].algorithm.algorithm == CollectiveAlgorithm::Direct);
    CHECK(phases[1].type == PhaseType::AllReduce);
    CHECK(phases[1].queue == 1);
    CHECK(phases[1].algorithm.algorithm == CollectiveAlgorithm::HalvingDoubling);
    CHECK(phases[2].type == PhaseType::AllGather);
    CHECK(phases[2].queue == 0);
    CHECK(phases[2].clockwise == false);
    CHECK(phases[0].clockwise == true);
}

TEST_CASE("phase plan: all-gather walks the dimensions in reverse and the others forward",
          "[collectives][plan]") {
    LogicalTopology topo = topo_2x4();
    config::SystemConfig sys;
    auto ag = plan_collective(PlanRequest{PhaseType::AllGather, 3}, sys, topo);
    REQUIRE(ag.size() == 2);
    CHECK(ag[0].queue == 1);
    CHECK(ag[1].queue == 0);
    auto rs = plan_collective(PlanRequest{PhaseType::ReduceScatter, 3}, sys, topo);
    REQUIRE(rs.size() == 2);
    CHECK(rs[0].queue == 0);
    CHECK(rs[1].queue == 1);
}

TEST_CASE("phase plan: skipped dimensions", "[collectives][plan]") {
    LogicalTopology topo = topo_2x4();
    config::SystemConfig sys;
    SECTION("involved_dim excludes dim 0: only the dim-1 phase") {
        auto p = plan_collective(PlanRequest{PhaseType::AllReduce, 0, nullptr, 0x2}, sys, topo);
        REQUIRE(p.size() == 1);
        CHECK(p[0].queue == 1);
    }
    SECTION("an implementation list of one entry covers dim 0 only (ASTRA-sim's logical dimensions)") {
        config::SystemConfig one = test::system_json(R"({"all-reduce-implementation": ["ring"]})");
        auto p = plan_collective(PlanRequest{PhaseType::AllReduce, 0}, one, topo);
        REQUIRE(p.size() == 1);
        CHECK(p[0].queue == 0);
    }
    SECTION("a dimension of size 1 has nobody to talk to") {
        auto net = test::network_yaml(
            "topology: [Ring, Ring]\nnpus_count: [1, 4]\nbandwidth: [1, 1]\nlatency: [1, 1]\n");
        auto p = plan_collective(PlanRequest{PhaseType::AllReduce, 2}, sys, make_logical_topology(net));
        REQUIRE(p.size() == 1);
        CHECK(p[0].queue == 1);
        CHECK(members(p[0]) == std::vector<uint32_t>{0, 1, 2, 3});
    }
}

TEST_CASE("phase plan: a communicator group smaller than the system is one local ring in file order",
          "[collectives][plan]") {
    // Group [6, 1, 3] on 8 NPUs: one ring phase over 6 -> 1 -> 3 whatever the system lists say, using
    // the fixed 10 ns local path (local = true); NPU 1 is position 1.
    LogicalTopology topo = topo_2x4();
    config::SystemConfig sys = test::system_json(R"({"all-reduce-implementation": ["direct", "direct"]})");
    std::vector<uint32_t> group{6, 1, 3};
    auto p = plan_collective(PlanRequest{PhaseType::AllReduce, 1, &group}, sys, topo);
    REQUIRE(p.size() == 1);
    CHECK(p[0].algorithm.algorithm == CollectiveAlgorithm::Ring);
    CHECK(p[0].local);
    CHECK(p[0].my_index == 1);
    CHECK(members(p[0]) == group);
    // A group of one has nobody to talk to; a group of all 8 is planned like the whole system (2 phases).
    std::vector<uint32_t> alone{4};
    CHECK(plan_collective(PlanRequest{PhaseType::AllReduce, 4, &alone}, sys, topo).empty());
    std::vector<uint32_t> all{0, 1, 2, 3, 4, 5, 6, 7};
    CHECK(plan_collective(PlanRequest{PhaseType::AllReduce, 4, &all}, sys, topo).size() == 2);
}

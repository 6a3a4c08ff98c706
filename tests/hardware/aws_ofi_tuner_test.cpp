// AWS's p5/p5e tuning map (aws-ofi-nccl src/tuner/nccl_ofi_regions.cpp): the picks at points read off the
// map's corners by hand, its silence where NCCL decides, and how choose() follows it.
#include "core/hardware/aws_ofi_tuner.h"
#include "core/hardware/nccl_model.h"
#include "tests/hardware/p5_system.h"

#include <catch2/catch.hpp>

#include <fstream>
#include <sstream>
#include <string>

using namespace astrolabe;
using namespace astrolabe::hardware;
using config::NcclAlgo;
using config::NcclProto;

namespace {
constexpr uint64_t MiB = 1ull << 20, GiB = 1ull << 30;

bool first_is(const AwsOfiPicks& p, NcclAlgo a, NcclProto q) {
    return p.count > 0 && p.pick[0].algo == a && p.pick[0].proto == q;
}

// n x p5.48xlarge with AWS's tuner (p5_system.h).
config::HardwareConfig p5(uint32_t nodes) {
    return testing::p5_nodes(nodes, config::NcclTuner::AwsOfiNccl);
}
} // namespace

TEST_CASE("aws-ofi-nccl map: eight GPUs per node, the all-reduce picks at its corners", "[hardware]") {
    // 4 nodes (32 ranks): tree/LL128 up to the corner (36 MiB, 32), ring/LL128 up to the edge from
    // (1 GiB, 17) to (2 GiB, 64) (1.4 GiB at 32 ranks), ring/Simple from the corner (1.5 GiB, 32).
    CHECK(first_is(aws_ofi_picks(CollOp::AllReduce, 4, 8, 32 * MiB), NcclAlgo::Tree, NcclProto::LL128));
    CHECK(first_is(aws_ofi_picks(CollOp::AllReduce, 4, 8, 64 * MiB), NcclAlgo::Ring, NcclProto::LL128));
    CHECK(first_is(aws_ofi_picks(CollOp::AllReduce, 4, 8, 1 * GiB), NcclAlgo::Ring, NcclProto::LL128));
    CHECK(first_is(aws_ofi_picks(CollOp::AllReduce, 4, 8, 2 * GiB), NcclAlgo::Ring, NcclProto::Simple));
    // 16 nodes (128 ranks): tree/LL128 to the corner (288 MiB, 128); ring/LL128 to (2 GiB, 128), a
    // corner it shares with NVLS-tree, whose lower edge runs on to (6 GiB, 128); ring/Simple beyond.
    CHECK(first_is(aws_ofi_picks(CollOp::AllReduce, 16, 8, 256 * MiB), NcclAlgo::Tree, NcclProto::LL128));
    CHECK(first_is(aws_ofi_picks(CollOp::AllReduce, 16, 8, 512 * MiB), NcclAlgo::Ring, NcclProto::LL128));
    AwsOfiPicks corner = aws_ofi_picks(CollOp::AllReduce, 16, 8, 2 * GiB);
    REQUIRE(corner.count == 2); // on the corner of both: the map's order decides
    CHECK((corner.pick[0].algo == NcclAlgo::Ring && corner.pick[0].proto == NcclProto::LL128));
    CHECK(corner.pick[1].algo == NcclAlgo::NvlsTree);
    CHECK(first_is(aws_ofi_picks(CollOp::AllReduce, 16, 8, 4 * GiB), NcclAlgo::NvlsTree, NcclProto::Simple));
    CHECK(first_is(aws_ofi_picks(CollOp::AllReduce, 16, 8, 8 * GiB), NcclAlgo::Ring, NcclProto::Simple));
    // 32 nodes (256 ranks): NVLS-tree's pocket between (288 MiB, 256) and (1.0001 GiB, 256) takes 512 MiB
    // and 1 GiB; ring/LL128's top edge (1.0001-2 GiB at 256) takes 2 GiB; NVLS-tree again above.
    CHECK(
        first_is(aws_ofi_picks(CollOp::AllReduce, 32, 8, 512 * MiB), NcclAlgo::NvlsTree, NcclProto::Simple));
    CHECK(first_is(aws_ofi_picks(CollOp::AllReduce, 32, 8, 1 * GiB), NcclAlgo::NvlsTree, NcclProto::Simple));
    CHECK(first_is(aws_ofi_picks(CollOp::AllReduce, 32, 8, 2 * GiB), NcclAlgo::Ring, NcclProto::LL128));
    CHECK(first_is(aws_ofi_picks(CollOp::AllReduce, 32, 8, 8 * GiB), NcclAlgo::NvlsTree, NcclProto::Simple));
}

TEST_CASE("aws-ofi-nccl map: two and one GPU per node", "[hardware]") {
    // 4 x 2 (8 ranks): tree/LL128 left of the corner (1051648 B, 8), ring/LL128 to (39.9 MiB, 8),
    // NVLS-tree to (263 MiB, 8), ring/Simple beyond.
    CHECK(first_is(aws_ofi_picks(CollOp::AllReduce, 4, 2, 1 * MiB), NcclAlgo::Tree, NcclProto::LL128));
    CHECK(first_is(aws_ofi_picks(CollOp::AllReduce, 4, 2, 16 * MiB), NcclAlgo::Ring, NcclProto::LL128));
    CHECK(first_is(aws_ofi_picks(CollOp::AllReduce, 4, 2, 64 * MiB), NcclAlgo::NvlsTree, NcclProto::Simple));
    CHECK(first_is(aws_ofi_picks(CollOp::AllReduce, 4, 2, 1 * GiB), NcclAlgo::Ring, NcclProto::Simple));
    // 16 x 1 (16 ranks): all-reduce tree/LL128 below the corner (2.26 MiB, 16), ring/LL128 above;
    // all-gather ring/Simple from 4 MiB (corner (4 MiB, 2), edge to (8 GiB, 2048)), NCCL's choice below.
    // Reduce-scatter ring/Simple right of the edge from (8 MiB, 2) to (4 GiB, 1024): 64 MiB at 16 ranks.
    CHECK(first_is(aws_ofi_picks(CollOp::AllReduce, 16, 1, 1 * MiB), NcclAlgo::Tree, NcclProto::LL128));
    CHECK(first_is(aws_ofi_picks(CollOp::AllReduce, 16, 1, 8 * MiB), NcclAlgo::Ring, NcclProto::LL128));
    CHECK(first_is(aws_ofi_picks(CollOp::AllGather, 16, 1, 64 * MiB), NcclAlgo::Ring, NcclProto::Simple));
    CHECK(aws_ofi_picks(CollOp::AllGather, 16, 1, 1 * MiB).count == 0);
    CHECK(
        first_is(aws_ofi_picks(CollOp::ReduceScatter, 16, 1, 256 * MiB), NcclAlgo::Ring, NcclProto::Simple));
}

TEST_CASE("aws-ofi-nccl map: silent where NCCL's own tuner decides", "[hardware]") {
    // Two nodes or fewer ("the regions are not well defined"), 4 GPUs per node (no map), all-to-all
    // (point-to-point, never tuned), all-gather with 8 GPUs per node (the map has all-reduce only).
    CHECK(aws_ofi_picks(CollOp::AllReduce, 2, 8, 1 * GiB).count == 0);
    CHECK(aws_ofi_picks(CollOp::AllReduce, 1, 8, 1 * GiB).count == 0);
    CHECK(aws_ofi_picks(CollOp::AllReduce, 8, 4, 1 * GiB).count == 0);
    CHECK(aws_ofi_picks(CollOp::AllToAll, 8, 8, 1 * GiB).count == 0);
    CHECK(aws_ofi_picks(CollOp::AllGather, 8, 8, 1 * GiB).count == 0);
}

TEST_CASE("aws-ofi-nccl map: choose() follows it, skips what cannot run, yields to forcing", "[hardware]") {
    config::HardwareConfig hw = p5(4);
    // 4 x 8 p5, 1 GiB all-reduce: AWS's ring/LL128. Closed form: 10 us kernel base + 56 NVLink steps x
    // 1.7 (LL128) + 6 network steps x 20 (EFA RDMA, LL128) = 225.2 us; bandwidth: each GPU's 4 x 100 Gb/s
    // at EFA's 0.87 = 43.5 GB/s, x 120/128 for LL128's flags, x the per-message factor of LL128's 512 KiB
    // messages against EFA's 1 MiB Simple step, f = 512K (1M + x) / (1M (512K + x)) with x = 2.5 us x
    // 10.875 GB/s = 27187.5 B (0.97535), x 8 GPUs = 318.21 GB/s bus bandwidth (below NVLink's 358 x
    // 120/128); bus bytes 2 x 31/32 x 1 GiB = 2080374784.
    NcclChoice c = choose(hw, CollOp::AllReduce, 1 * GiB);
    CHECK(c.algo == NcclAlgo::Ring);
    CHECK(c.proto == NcclProto::LL128);
    CHECK(c.by_aws_map);
    const double x = 2.5 * 12.5 * 0.87e3, f = 524288 * (1048576 + x) / (1048576 * (524288 + x));
    const double busbw = 8 * 43.5 * 120 / 128 * f;
    CHECK(busbw == Approx(318.21).epsilon(1e-4));
    CHECK(c.busbw_gbs == Approx(busbw));
    CHECK(c.predicted_us == Approx(225.2 + 2080374784.0 / (busbw * 1e3)));
    // NCCL's own tuner (nccl_tuner nccl, or two nodes) never runs LL128 across EFA.
    hw.tuner = config::NcclTuner::Nccl;
    CHECK(choose(hw, CollOp::AllReduce, 1 * GiB).proto != NcclProto::LL128);
    CHECK_FALSE(choose(hw, CollOp::AllReduce, 1 * GiB).by_aws_map);
    CHECK(choose(p5(2), CollOp::AllReduce, 64 * MiB).proto != NcclProto::LL128);
    // A forced algorithm bypasses the tuner (NCCL_ALGO set): ring, with Simple as NCCL's own choice.
    hw = p5(4);
    CHECK(choose(hw, CollOp::AllReduce, 1 * GiB, NcclAlgo::Ring).proto == NcclProto::Simple);
    // 16 x 8 at 4 GiB: the map says NVLS-tree; without NVLink SHARP NCCL cannot run it and, the map
    // having nothing else there, its own tuner decides.
    hw = p5(16);
    CHECK(choose(hw, CollOp::AllReduce, 4 * GiB).algo == NcclAlgo::NvlsTree);
    hw.nvls = false;
    NcclChoice own = choose(hw, CollOp::AllReduce, 4 * GiB);
    CHECK(own.algo != NcclAlgo::NvlsTree);
    CHECK(own.predicted_us > 0);
}

TEST_CASE("aws-ofi-nccl map: AWS's own decision table at 4-32 nodes", "[hardware]") {
    // tests/data/aws_ofi_tuner/current_tuner_decisions.csv: what aws-ofi-nccl's code picks for an all-reduce
    // with 8 ranks per node, 1 MiB-32 GiB (its unit-test fixture, SOURCES.md there). At 4-32 nodes every
    // version of it we read agrees, and our corners and geometry must give the same first pick at all 64
    // points; beyond 32 nodes AWS's versions differ from each other (SOURCES.md), so they are not compared.
    std::ifstream in(std::string(ASTROLABE_TEST_DATA) + "/aws_ofi_tuner/current_tuner_decisions.csv");
    REQUIRE(in.good());
    std::string line;
    std::getline(in, line); // header
    int compared = 0;
    while (std::getline(in, line)) {
        std::stringstream row(line);
        std::string nodes, ranks, size, channels, algo, proto;
        std::getline(row, nodes, ',');
        std::getline(row, ranks, ',');
        std::getline(row, size, ',');
        std::getline(row, channels, ',');
        std::getline(row, algo, ',');
        std::getline(row, proto, ',');
        const uint32_t n = static_cast<uint32_t>(std::stoul(nodes));
        if (n <= 2 || n > 32) continue;
        const uint64_t bytes = std::stoull(size) * MiB; // "1024MiB"
        const NcclAlgo want_algo = algo == "tree"   ? NcclAlgo::Tree
                                   : algo == "ring" ? NcclAlgo::Ring
                                                    : NcclAlgo::NvlsTree;
        const NcclProto want_proto = proto == "ll128" ? NcclProto::LL128 : NcclProto::Simple;
        INFO(line);
        CHECK(first_is(aws_ofi_picks(CollOp::AllReduce, n, 8, bytes), want_algo, want_proto));
        ++compared;
    }
    CHECK(compared == 64);
}

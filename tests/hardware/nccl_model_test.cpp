// The NCCL-like tuner and its mapping onto engine configs: choices per size and closed-form checks.
#include "core/hardware/collective_links.h"
#include "core/hardware/hardware_mapping.h"
#include "core/hardware/nccl_model.h"
#include "core/session/collective_perf.h"
#include "tests/hardware/p5_system.h"

#include <catch2/catch.hpp>

using namespace astrolabe;
using namespace astrolabe::hardware;
using config::NcclAlgo;
using config::NcclProto;

namespace {
config::HardwareConfig hgx_h100() {
    config::HardwareConfig hw; // defaults: one node of 8 H100-SXM with NVLS
    return hw;
}

// 10 nodes x 1 H100, one 400 Gb/s InfiniBand NIC each: the network-only system of the open set's
// 10-node table.
config::HardwareConfig ten_by_one() {
    config::HardwareConfig hw;
    hw.nodes = 10;
    hw.gpus_per_node = 1;
    hw.nics_per_node = 1;
    hw.nvls = false;
    hw.fabric = config::Fabric::Infiniband;
    return hw;
}

// Two AWS p5.48xlarge (p5_system.h).
config::HardwareConfig p5_pair() {
    return testing::p5_nodes(2);
}
} // namespace

TEST_CASE("nccl model: busbw factors are nccl-tests'", "[hardware]") {
    // nccl-tests (doc/PERFORMANCE.md): all_reduce 2(n-1)/n, all_gather/reduce_scatter/alltoall (n-1)/n.
    CHECK(busbw_factor(CollOp::AllReduce, 8) == Approx(1.75));
    CHECK(busbw_factor(CollOp::AllGather, 8) == Approx(0.875));
    CHECK(busbw_factor(CollOp::AllToAll, 16) == Approx(15.0 / 16));
}

TEST_CASE("nccl model: the tuner's choice per size on one HGX H100 node", "[hardware]") {
    auto hw = hgx_h100();
    SECTION("8 B: LL ring, the lowest latency") {
        NcclChoice c = choose(hw, CollOp::AllReduce, 8);
        CHECK(c.algo == NcclAlgo::Ring);
        CHECK(c.proto == NcclProto::LL);
    }
    SECTION("8 MiB: LL128 ring (LL's bandwidth too low, Simple's latency not yet paid back)") {
        NcclChoice c = choose(hw, CollOp::AllReduce, 8 << 20);
        CHECK(c.algo == NcclAlgo::Ring);
        CHECK(c.proto == NcclProto::LL128);
    }
    SECTION("1 GiB: NVLS with Simple, the highest bus bandwidth") {
        NcclChoice c = choose(hw, CollOp::AllReduce, 1ull << 30);
        CHECK(c.algo == NcclAlgo::Nvls);
        CHECK(c.proto == NcclProto::Simple);
    }
    SECTION(
        "forced ring at 1 GiB: Simple ring; NVLS does not apply to all-gather, which falls back to ring") {
        CHECK(choose(hw, CollOp::AllReduce, 1ull << 30, NcclAlgo::Ring).algo == NcclAlgo::Ring);
        CHECK(choose(hw, CollOp::AllGather, 1ull << 30, NcclAlgo::Nvls).algo == NcclAlgo::Ring);
    }
    SECTION("two nodes: a hierarchical algorithm (NVLS-tree) for 1 GiB all-reduce") {
        hw.nodes = 2;
        hw.fabric = config::Fabric::Infiniband;
        CHECK(choose(hw, CollOp::AllReduce, 1ull << 30).algo == NcclAlgo::NvlsTree);
    }
}

TEST_CASE("nccl model: network-only ring bandwidth is the NIC's achievable rate", "[hardware]") {
    // 10 nodes x 1 GPU, one 400 Gb/s NIC each, InfiniBand at 97.8 % of line rate: 50 GB/s * 0.978 = 48.9
    // GB/s, the bus bandwidth of the measured 10-node table (48.9 at 16 GiB).
    config::HardwareConfig hw = ten_by_one();
    NcclChoice c = choose(hw, CollOp::AllReduce, 16ull << 30);
    CHECK(c.busbw_gbs == Approx(48.9));
}

TEST_CASE("nccl model: net_efficiency replaces the fabric's fraction for collectives, not all-to-all",
          "[hardware]") {
    // The same 10 x 1 ring on a cluster measured at 81 % of line rate (net_efficiency 0.81): 50 GB/s x
    // 0.81 = 40.5 GB/s bus bandwidth. An all-to-all (point-to-point, no collective's lockstep) keeps
    // InfiniBand's 0.978: the 46.35 GB/s of the point-to-point chunk case below.
    config::HardwareConfig hw = ten_by_one();
    const NcclChoice a2a_before = choose(hw, CollOp::AllToAll, 16ull << 30);
    hw.net_efficiency = 0.81;
    CHECK(nic_gbs_per_gpu(hw) == Approx(40.5));
    CHECK(nic_gbs_per_gpu(hw, true) == Approx(48.9));
    CHECK(choose(hw, CollOp::AllReduce, 16ull << 30).busbw_gbs == Approx(40.5));
    CHECK(choose(hw, CollOp::AllGather, 16ull << 30).busbw_gbs == Approx(40.5));
    CHECK(choose(hw, CollOp::AllToAll, 16ull << 30).busbw_gbs == Approx(a2a_before.busbw_gbs));
    CHECK(fabric_efficiency(config::Fabric::Infiniband) == 0.978);
    // NCCL's tuner rates the network by its nominal speed: a cluster's shortfall changes the time of its
    // pick, not the pick. Four 8-GPU nodes at 1 MiB-4 GiB: the same algorithm and protocol at 0.3 as at
    // InfiniBand's 0.978, never faster.
    config::HardwareConfig four;
    four.nodes = 4;
    four.fabric = config::Fabric::Infiniband;
    for (uint64_t s = 1ull << 20; s <= (4ull << 30); s *= 4) {
        config::HardwareConfig slow = four;
        slow.net_efficiency = 0.3;
        const NcclChoice a = choose(four, CollOp::AllReduce, s), b = choose(slow, CollOp::AllReduce, s);
        CHECK(a.algo == b.algo);
        CHECK(a.proto == b.proto);
        CHECK(b.predicted_us >= a.predicted_us);
    }
}

TEST_CASE("collective-perf: the engine's time equals the tuner's closed form for a ring", "[hardware]") {
    // A forced Simple ring on 8 GPUs, one process per GPU: the engine sends 2(n-1) messages of S/8 in
    // sequence at the ring's bus bandwidth, so per iteration time = latency + S * 1.75 / busbw (within
    // the engine's whole-ns rounding per message), and the host launch (4 us) hides behind it.
    CollectivePerfRequest req;
    req.hardware = hgx_h100();
    req.hardware.algo = NcclAlgo::Ring;
    req.hardware.proto = NcclProto::Simple;
    const uint64_t s = 256ull << 20;
    auto row = run_collective_perf_row(req, s);
    REQUIRE(row.is_ok());
    NcclChoice c = row.value().choice;
    double expect_us = c.latency_us + s * 1.75 / (c.busbw_gbs * 1e3);
    CHECK(row.value().time_us == Approx(expect_us).epsilon(1e-4));
    CHECK(row.value().busbw_gbs == Approx(row.value().algbw_gbs * 1.75));
}

TEST_CASE("collective-perf: the engine's all-to-all equals the closed form, at 4096 GPUs too", "[hardware]") {
    // The all-to-all runs direct: one message of S/n to each of the n-1 peers at once on a link of
    // busbw / (n-1), so time = latency + S (n-1)/n / busbw within one whole-ns rounding. 16 GPUs at 1 GiB,
    // and 512 x 8 H100 at 64 MiB, where the ring all-to-all's n(n-1)/2 = 8.4 million messages in sequence
    // took 2 s and 150 MB per size (quadratic: out of memory at 131072 GPUs).
    CollectivePerfRequest req;
    req.op = CollOp::AllToAll;
    req.hardware = hgx_h100();
    for (uint32_t nodes : {2u, 512u}) {
        req.hardware.nodes = nodes;
        const uint32_t n = req.hardware.ranks();
        const uint64_t s = nodes == 2 ? 1ull << 30 : 64ull << 20;
        auto row = run_collective_perf_row(req, s);
        REQUIRE(row.is_ok());
        const NcclChoice c = row.value().choice;
        INFO(n << " GPUs, " << s << " B: " << config::nccl_algo_name(c.algo) << "/"
               << config::nccl_proto_name(c.proto));
        const double expect_us = c.latency_us + double(s) * (n - 1) / n / (c.busbw_gbs * 1e3);
        CHECK(row.value().time_us == Approx(expect_us).margin(0.002));
    }
}

TEST_CASE("collective-perf: an all-to-all below one byte per peer is timed as one byte each", "[hardware]") {
    // 8 x 8 H100 on InfiniBand: 8, 16 and 32 bytes over 64 ranks are rows of count 0 (an old nccl-tests
    // table's own sizes, given to --measured);
    // NCCL still exchanges with every peer, so each takes the time of 64 bytes (one byte per peer), not
    // more: the engine's empty messages used to cost ~16 % over the 64-byte row.
    CollectivePerfRequest req;
    req.hardware = hgx_h100();
    req.hardware.nodes = 8;
    req.hardware.fabric = config::Fabric::Infiniband;
    req.op = CollOp::AllToAll;
    auto one_byte_each = run_collective_perf_row(req, 64);
    REQUIRE(one_byte_each.is_ok());
    for (uint64_t s : {8ull, 16ull, 32ull}) {
        auto row = run_collective_perf_row(req, s);
        REQUIRE(row.is_ok());
        CHECK(row.value().size_bytes == s);
        CHECK(row.value().time_us == Approx(one_byte_each.value().time_us));
    }
}

TEST_CASE("nccl model: an H200 board runs H100's collectives", "[hardware]") {
    // HGX H200 keeps H100's SMs, NVLink4 links and NVSwitch gen3: every algorithm, protocol and size picks
    // and times as on H100, on one node (NVLS) and on two p5e-like EFA nodes (AWS's tuner, RDMA writes).
    for (config::HardwareConfig h100 : {hgx_h100(), p5_pair()}) {
        config::HardwareConfig h200 = h100;
        h200.gpu = config::GpuModel::H200Sxm;
        for (CollOp op : {CollOp::AllReduce, CollOp::AllGather, CollOp::AllToAll})
            for (uint64_t bytes = 1024; bytes <= (4ull << 30); bytes *= 32) {
                const NcclChoice a = choose(h100, op, bytes), b = choose(h200, op, bytes);
                INFO(coll_op_name(op) << " " << bytes << " B on " << h100.nodes << " node(s)");
                CHECK(a.algo == b.algo);
                CHECK(a.proto == b.proto);
                CHECK(a.predicted_us == b.predicted_us);
            }
    }
}

TEST_CASE("collective-perf: one process per node is bounded by its eight launches", "[hardware]") {
    // 8 B all-reduce: the device needs ~16 us, but a single process launches 8 kernels at 4.4 us each
    // (rounded to 35 us per iteration of the loop): nccl-tests' -g 8 floor.
    CollectivePerfRequest req;
    req.hardware = hgx_h100();
    req.hardware.processes = config::ProcessLayout::OnePerNode;
    auto row = run_collective_perf_row(req, 8);
    REQUIRE(row.is_ok());
    CHECK(row.value().time_us == Approx(35.0));
    req.hardware.processes = config::ProcessLayout::OnePerGpu;
    auto fast = run_collective_perf_row(req, 8);
    REQUIRE(fast.is_ok());
    CHECK(fast.value().time_us < 20.0);
}

TEST_CASE("collective-perf: sizes and nccl-tests' size spellings", "[hardware]") {
    CollectivePerfRequest req;
    req.min_bytes = 8;
    req.max_bytes = 1024;
    CHECK(collective_perf_sizes(req).size() == 8); // 8, 16, ..., 1024
    uint64_t b = 0;
    CHECK(parse_nccl_size("16G", b));
    CHECK(b == 16ull << 30);
    CHECK(parse_nccl_size("64K", b));
    CHECK(b == 65536);
    CHECK(parse_nccl_size("1MiB", b));
    CHECK(b == 1 << 20);
    CHECK_FALSE(parse_nccl_size("G", b));
    CHECK_FALSE(parse_nccl_size("-1", b));
}

TEST_CASE("collective-perf: nccl-tests' cut of each size to whole elements per rank", "[hardware]") {
    // nccl-tests runs count = size / type size elements; all-gather, reduce-scatter and all-to-all move
    // count / ranks per rank, rounded down to a multiple of 16 bytes (getCollByteCount's
    // `& -(16 / eltSize)`), so their size is a multiple of ranks x 16 bytes whatever the type. The tables
    // say so: 32 MiB on 10 x 8 GPUs is 52428 doubles x 80 x 8 = 33553920 bytes (xxrjun's 10 x 8
    // all-gather, first row), and on 10 x 2 GPUs 209715 doubles per rank round down to 209714: 33554240
    // bytes (xxrjun's 10 x 2 all-gather, reduce-scatter and all-to-all, first row; without the rounding
    // it would be 33554400).
    CollectivePerfRequest req;
    req.hardware = hgx_h100();
    req.hardware.nodes = 10;
    req.op = CollOp::AllGather;
    req.type = NcclType::Double;
    req.min_bytes = req.max_bytes = 32ull << 20;
    REQUIRE(collective_perf_sizes(req) == std::vector<uint64_t>{33553920});
    req.type = NcclType::Float; // 104857 floats per rank round down to 104856: the same bytes
    CHECK(collective_perf_sizes(req) == std::vector<uint64_t>{33553920});
    req.hardware.gpus_per_node = 2;
    for (NcclType t : {NcclType::Double, NcclType::Float, NcclType::Bfloat16, NcclType::Int8}) {
        req.type = t;
        CHECK(collective_perf_sizes(req) == std::vector<uint64_t>{33554240});
    }
    for (CollOp op : {CollOp::ReduceScatter, CollOp::AllToAll}) {
        req.op = op;
        CHECK(collective_perf_sizes(req) == std::vector<uint64_t>{33554240});
    }
    // A measured table's own sizes are run as printed (already cut by the nccl-tests that ran them).
    req.cut_sizes = false;
    CHECK(collective_perf_sizes(req) == std::vector<uint64_t>{32ull << 20});
    req.cut_sizes = true;
    // Below 16 bytes per rank nccl-tests moves nothing (a row of size 0): skipped. 16 ranks need 256
    // bytes; 8..128 go.
    req.op = CollOp::AllGather;
    req.hardware.nodes = 2;
    req.hardware.gpus_per_node = 8;
    req.min_bytes = 8;
    req.max_bytes = 512;
    CHECK(collective_perf_sizes(req) == std::vector<uint64_t>{256, 512});
    // All-reduce's size is count x type size: 8..32 B of doubles unchanged, 4 B skipped; -i steps by adding.
    req.op = CollOp::AllReduce;
    req.type = NcclType::Double;
    req.min_bytes = 4;
    req.max_bytes = 32;
    CHECK(collective_perf_sizes(req) == std::vector<uint64_t>{8, 16, 32});
    req.min_bytes = 1 << 20;
    req.max_bytes = 4 << 20;
    req.step_bytes = 1 << 20;
    CHECK(collective_perf_size_count(req) == 4);
    CHECK(collective_perf_sizes(req) == std::vector<uint64_t>{1 << 20, 2 << 20, 3 << 20, 4 << 20});
    // The count column is elements of the type (per rank for all-gather).
    auto row = run_collective_perf_row(req, 1 << 20);
    REQUIRE(row.is_ok());
    CHECK(row.value().count == (1u << 20) / 8);
    // The table closes as nccl-tests' does, with the mean bus bandwidth of its rows: 2 and 4 GB/s give 3.
    std::vector<CollectivePerfRow> rows(2);
    rows[0].busbw_gbs = 2;
    rows[1].busbw_gbs = 4;
    const std::string table = collective_perf_table(req, rows);
    CHECK(table.find("\n# Avg bus bandwidth    : 3\n#\n") != std::string::npos);
    CHECK(table.find("    double     sum") != std::string::npos); // -d double, -o sum in their columns
}

TEST_CASE("collective-perf: NVLink SHARP reduces only what NCCL's NVLS kernels support", "[hardware]") {
    // NCCL's ncclNvlsSupported: sum, min and max of half, bfloat16 and 32/64-bit integers; sum of float
    // and double; nothing else (no product, no average, no 8-bit type). One HGX H100 node, 1 GiB
    // all-reduce: NVLS where the switch can reduce (455 GB/s busbw), else NCCL's next choice, the ring
    // at the time a forced ring takes.
    CollectivePerfRequest req;
    req.hardware = hgx_h100();
    const uint64_t s = 1ull << 30;
    auto run = [&](NcclType t, NcclRedOp op) {
        req.type = t;
        req.red_op = op;
        auto row = run_collective_perf_row(req, s);
        REQUIRE(row.is_ok());
        return row.value();
    };
    const auto nvls = run(NcclType::Float, NcclRedOp::Sum);
    CHECK(nvls.choice.algo == NcclAlgo::Nvls);
    for (auto [t, op] : {std::pair{NcclType::Bfloat16, NcclRedOp::Max},
                         {NcclType::Half, NcclRedOp::Min},
                         {NcclType::Int32, NcclRedOp::Sum},
                         {NcclType::Uint64, NcclRedOp::Max},
                         {NcclType::Double, NcclRedOp::Sum}}) {
        INFO(nccl_type_name(t) << " " << nccl_red_op_name(op));
        const auto r = run(t, op);
        CHECK(r.choice.algo == NcclAlgo::Nvls);
        CHECK(r.time_us == nvls.time_us); // the bytes decide, not the type
    }
    req.type = NcclType::Float;
    req.red_op = NcclRedOp::Sum;
    req.algo = NcclAlgo::Ring;
    auto ring = run_collective_perf_row(req, s);
    REQUIRE(ring.is_ok());
    req.algo = NcclAlgo::Auto;
    for (auto [t, op] : {std::pair{NcclType::Float, NcclRedOp::Max},
                         {NcclType::Double, NcclRedOp::Min},
                         {NcclType::Bfloat16, NcclRedOp::Prod},
                         {NcclType::Float, NcclRedOp::Avg},
                         {NcclType::Int8, NcclRedOp::Sum},
                         {NcclType::F8e4m3, NcclRedOp::Sum}}) {
        INFO(nccl_type_name(t) << " " << nccl_red_op_name(op));
        const auto r = run(t, op);
        CHECK(r.choice.algo != NcclAlgo::Nvls);
        CHECK(r.time_us == ring.value().time_us);
        CHECK(r.time_us > nvls.time_us * 1.2);
    }
    // All-gather and all-to-all reduce nothing: their system keeps NVLink SHARP whatever -o says.
    req.red_op = NcclRedOp::Prod;
    req.op = CollOp::AllGather;
    CHECK(collective_perf_system(req).nvls);
    req.op = CollOp::ReduceScatter;
    CHECK_FALSE(collective_perf_system(req).nvls);
}

TEST_CASE("nccl model: channels follow NCCL's per-thread thresholds", "[hardware]") {
    // One HGX node builds 16 channels. A ring LL kernel keeps 8 B x 8 ranks per thread of its 512 threads,
    // i.e. 32 KiB per channel: 8 B uses one channel, 256 KiB eight, 512 KiB and more all sixteen. Simple
    // keeps 64 B per thread (32 KiB per channel) without the rank factor.
    auto hw = hgx_h100();
    CHECK(max_channels(hw) == 16);
    CHECK(channels_used(hw, NcclAlgo::Ring, NcclProto::LL, 8) == 1);
    CHECK(channels_used(hw, NcclAlgo::Ring, NcclProto::LL, 256 << 10) == 8);
    CHECK(channels_used(hw, NcclAlgo::Ring, NcclProto::LL, 512 << 10) == 16);
    CHECK(channels_used(hw, NcclAlgo::Ring, NcclProto::Simple, 64 << 10) == 2);
    // A node of one GPU and one NIC: two channels.
    hw.gpus_per_node = 1;
    hw.nics_per_node = 1;
    CHECK(max_channels(hw) == 2);
}

TEST_CASE("nccl model: a -g 8 process pays per channel on each of its launches", "[hardware]") {
    // 4.32 us + 0.054 us per channel, eight launches: 35.0 us with one channel, 41.5 us with sixteen
    // (the together_* tables' floors below and above 512 KiB).
    auto hw = hgx_h100();
    hw.processes = config::ProcessLayout::OnePerNode;
    CHECK(host_launch_us(hw, 1) == Approx(8 * 4.374));
    CHECK(host_launch_us(hw, 16) == Approx(8 * (4.32 + 16 * 0.054)));
    hw.processes = config::ProcessLayout::OnePerGpu;
    CHECK(host_launch_us(hw, 16) == Approx(4.32 + 16 * 0.054));
}

TEST_CASE("nccl model: a -g 8 all-to-all pays for every send and receive it queues", "[hardware]") {
    // nccl-tests' all-to-all queues an ncclSend and an ncclRecv per rank for each GPU its process drives:
    // 2 x 8 x 8 = 128 calls at 0.41 us besides 8 launches of one channel (4.374 us): 87.5 us, the flat
    // 86-89 us of the one such table (msft-superbench, 8 x A100, 32 B-2 MiB), where its all-reduce sits at
    // 35. One process per GPU queues 16 (10.9 us), behind its kernel.
    auto hw = hgx_h100();
    hw.gpu = config::GpuModel::A100Sxm80;
    hw.nvls = false;
    hw.processes = config::ProcessLayout::OnePerNode;
    CHECK(host_launch_us(hw, 1, CollOp::AllToAll) == Approx(8 * (4.374 + 0.41 * 16)));
    CHECK(host_launch_us(hw, 1, CollOp::AllReduce) == Approx(8 * 4.374));
    CollectivePerfRequest req;
    req.hardware = hw;
    req.op = CollOp::AllToAll;
    auto row = run_collective_perf_row(req, 1024);
    REQUIRE(row.is_ok());
    CHECK(row.value().time_us == Approx(87.0)); // the launch slot is whole microseconds
    hw.processes = config::ProcessLayout::OnePerGpu;
    CHECK(host_launch_us(hw, 1, CollOp::AllToAll) == Approx(4.374 + 0.41 * 16));
}

TEST_CASE("nccl model: the network's per-message cost", "[hardware]") {
    // f(m) = m (C + x) / (C (m + x)) with C the Simple buffer step (NCCL_BUFFSIZE / 8) and x = cost x
    // per-NIC rate. EFA runs 8 MiB buffers (aws-ofi-nccl's setting), so C = 1 MiB; x = 2.5 us at
    // 12.5 GB/s x 0.87 = 27.2 kB: a 32 KiB message reaches 0.56 of a full step's rate, 1 MiB 1.
    // InfiniBand (NCCL's 4 MiB: C = 512 KiB; 0.2 us at 50 GB/s x 0.978 = 9.8 kB): 32 KiB reaches 0.78;
    // with nccl_buffsize 8 MiB the full step is 1 MiB and a 512 KiB message reaches 0.991 of it.
    config::HardwareConfig hw;
    hw.fabric = config::Fabric::Efa;
    hw.nic_gbps = 100;
    double c = 1024.0 * 1024;
    double x = 2.5 * 12.5 * 0.87 * 1e3;
    CHECK(config::nccl_buffsize(hw) == 8u << 20);
    CHECK(net_msg_factor(hw, c) == Approx(1.0));
    CHECK(net_msg_factor(hw, 32 * 1024) == Approx(32768 * (c + x) / (c * (32768 + x))));
    CHECK(net_msg_factor(hw, 32 * 1024) == Approx(0.5607).epsilon(0.001));
    hw.fabric = config::Fabric::Infiniband;
    hw.nic_gbps = 400;
    c = 512.0 * 1024;
    x = 0.2 * 50 * 0.978 * 1e3;
    CHECK(config::nccl_buffsize(hw) == 4u << 20);
    CHECK(net_msg_factor(hw, 32 * 1024) == Approx(32768 * (c + x) / (c * (32768 + x))));
    CHECK(net_msg_factor(hw, c) == Approx(1.0));
    hw.nccl_buffsize = 8u << 20;
    c = 1024.0 * 1024;
    CHECK(net_msg_factor(hw, 512 * 1024) == Approx(524288 * (c + x) / (c * (524288 + x))));
    CHECK(net_msg_factor(hw, 512 * 1024) == Approx(0.9909).epsilon(0.0005));
}

TEST_CASE("nccl model: a Simple tree's network chunk shrinks for medium sizes", "[hardware]") {
    // 2 x 8 A100 over EFA, tree depth 7 + 1 = 8, 16 channels: 4 MiB leaves 256 KiB per channel, so the
    // chunk halves to 32 KiB (fewer than 8 chunks of 64 KiB); 1 GiB (64 MiB per channel, 64 chunks of
    // 1 MiB = 8 x depth) keeps full 1 MiB steps (EFA's 8 MiB buffers).
    config::HardwareConfig hw;
    hw.gpu = config::GpuModel::A100Sxm80;
    hw.nodes = 2;
    hw.nvls = false;
    hw.nics_per_node = 4;
    hw.nic_gbps = 100;
    hw.fabric = config::Fabric::Efa;
    NcclChoice mid = estimate(hw, CollOp::AllReduce, 4 << 20, NcclAlgo::Tree, NcclProto::Simple);
    CHECK(mid.net_msg_factor == Approx(net_msg_factor(hw, 32 * 1024)));
    NcclChoice big = estimate(hw, CollOp::AllReduce, 1ull << 30, NcclAlgo::Tree, NcclProto::Simple);
    CHECK(big.net_msg_factor == Approx(1.0));
    NcclChoice half = estimate(hw, CollOp::AllReduce, 512ull << 20, NcclAlgo::Tree, NcclProto::Simple);
    CHECK(half.net_msg_factor == Approx(net_msg_factor(hw, 512 * 1024))); // 32 MiB per channel: 512 KiB
}

TEST_CASE("nccl model: all-to-all runs point-to-point protocols", "[hardware]") {
    // NCCL's send/receive uses LL up to 16 KiB per peer (NCCL_P2P_LL_THRESHOLD) and Simple above, never
    // LL128: 8 ranks x 16 KiB = 128 KiB is LL, 32 MiB is Simple even where LL128's estimate is lower.
    auto hw = hgx_h100();
    CHECK(choose(hw, CollOp::AllToAll, 128 << 10).proto == NcclProto::LL);
    CHECK(choose(hw, CollOp::AllToAll, 32 << 20).proto == NcclProto::Simple);
}

TEST_CASE("nccl model: all-to-all across TCPXO runs Simple at every size", "[hardware]") {
    // TCPXO carries Simple only (LL needs lines a kernel can poll), so point-to-point's LL sizes (up to
    // 16 KiB per peer) run Simple there too; before, no protocol was left for them and the engine was
    // handed a zero rate. 2 x 8 H100 (A3 Mega: 8 x 200 Gb/s): 1 KiB, 128 KiB and 32 MiB all run ring/Simple,
    // and the time does not fall as the size grows.
    config::HardwareConfig hw = hgx_h100();
    hw.nodes = 2;
    hw.nic_gbps = 200;
    hw.fabric = config::Fabric::Tcpxo;
    double previous = 0;
    for (uint64_t bytes : {1ull << 10, 128ull << 10, 32ull << 20}) {
        const NcclChoice c = choose(hw, CollOp::AllToAll, bytes);
        CHECK(c.algo == NcclAlgo::Ring);
        CHECK(c.proto == NcclProto::Simple);
        CHECK(c.predicted_us > previous);
        previous = c.predicted_us;
    }
    // On InfiniBand the same 1 KiB is LL.
    hw.fabric = config::Fabric::Infiniband;
    CHECK(choose(hw, CollOp::AllToAll, 1ull << 10).proto == NcclProto::LL);
}

TEST_CASE("nccl model: an LL all-to-all crosses the network as one message per peer", "[hardware]") {
    // An LL send of at most 16 KiB per peer fits one LL step, so each peer's data crosses as one message
    // of 16-byte lines, twice its bytes: 8 x 8 H100 on EFA (p5), 1 MiB over 64 ranks is 16 KiB per peer,
    // a 32 KiB message (a ring's slice over the LL channels would be 8 KiB, and EFA's 2.5 us per message
    // then made the 1 MiB LL row slower than the 2 MiB Simple one).
    config::HardwareConfig hw = hgx_h100();
    hw.nodes = 8;
    hw.nics_per_node = 32;
    hw.nic_gbps = 100;
    hw.fabric = config::Fabric::Efa;
    const NcclChoice ll = choose(hw, CollOp::AllToAll, 1ull << 20);
    CHECK(ll.proto == NcclProto::LL);
    CHECK(ll.net_msg_factor == Approx(net_msg_factor(hw, 32.0 * 1024)));
    const NcclChoice simple = choose(hw, CollOp::AllToAll, 2ull << 20);
    CHECK(simple.proto == NcclProto::Simple);
    CHECK(ll.predicted_us < simple.predicted_us);
}

TEST_CASE("nccl model: a forced protocol that cannot run falls back to the tuner's choice", "[hardware]") {
    // LL128 needs in-order 128-byte writes, which EFA gives only with RDMA writes: with nccl_proto LL128
    // on two EFA nodes using send/receive (p4d) the collective still runs (with a valid protocol and a
    // positive bandwidth); with RDMA writes (p5) it runs LL128 as asked.
    config::HardwareConfig hw;
    hw.nodes = 2;
    hw.fabric = config::Fabric::Efa;
    hw.efa_transport = config::EfaTransport::SendRecv;
    hw.proto = NcclProto::LL128;
    NcclChoice c = choose(hw, CollOp::AllReduce, 4 << 20);
    CHECK(c.predicted_us > 0);
    CHECK(c.busbw_gbs > 0);
    CHECK(c.proto != NcclProto::LL128);
    hw.efa_transport = config::EfaTransport::Rdma;
    CHECK(choose(hw, CollOp::AllReduce, 4 << 20).proto == NcclProto::LL128);
}

TEST_CASE("nccl model: NVLS keeps its algorithm bandwidth on fewer GPUs", "[hardware]") {
    // In-switch reduction moves each GPU's buffer once in and once out whatever the GPU count, so the
    // algorithm bandwidth stays the same; nccl-tests' bus bandwidth is 2(g-1)/g of it. 1 GiB runs NVLS's
    // full 128 KiB chunks on 8 GPUs (it holds 64 per operation of 16 channels x 8 heads) and on 4: the
    // peak 490 x 128 / (128 + 4.5) = 473.4 on 8, 473.4 / 1.75 x 1.5 = 405.7 on 4. A ring's bus bandwidth
    // (358) does not depend on g.
    auto hw = hgx_h100();
    const double full = 490.0 * 131072 / (131072 + 4608);
    CHECK(choose(hw, CollOp::AllReduce, 1ull << 30).busbw_gbs == Approx(full));
    CHECK(full == Approx(473.4).epsilon(0.001));
    hw.gpus_per_node = 4;
    hw.nics_per_node = 4;
    NcclChoice c = choose(hw, CollOp::AllReduce, 1ull << 30);
    CHECK(c.algo == NcclAlgo::Nvls);
    CHECK(c.busbw_gbs == Approx(full / 1.75 * 1.5));
    CHECK(choose(hw, CollOp::AllReduce, 1ull << 30, NcclAlgo::Ring).busbw_gbs == Approx(358.0));
}

TEST_CASE("nccl model: NVLS's rate and fill follow NCCL's chunk", "[hardware]") {
    // One node of 8 H100: NVLS runs 16 channels x 8 heads = 128 concurrent operations. NCCL's chunk is
    // NCCL_NVLS_CHUNKSIZE (128 KiB, 512 KiB under AWS's set-up) unless the collective gives each
    // operation fewer than 64 chunks, then 64 KiB. Each chunk costs the group's handshake (4.5 KiB at the
    // peak rate), and the pipeline fills with one chunk at an operation's share: latency = kernel 10 +
    // start-up 24 + chunk x 128 / algbw. The single-node tables change pace exactly there (xxrjun between
    // 512 MiB and 1 GiB, aws_p5 between 2 and 4 GiB).
    auto hw = hgx_h100();
    auto rate = [](double chunk) { return 490.0 * chunk / (chunk + 4608); }; // busbw on 8 GPUs
    auto latency = [&](double chunk) { return 10 + 24 + chunk * 128 / (rate(chunk) / 1.75 * 1e3); };
    NcclChoice c = estimate(hw, CollOp::AllReduce, 512ull << 20, NcclAlgo::Nvls, NcclProto::Simple);
    CHECK(c.busbw_gbs == Approx(rate(65536))); // 457.8: 512 MiB holds 32 x 128 KiB per operation
    CHECK(c.latency_us == Approx(latency(65536)));
    CHECK(c.latency_us == Approx(66.1).epsilon(0.001));
    c = estimate(hw, CollOp::AllReduce, 1ull << 30, NcclAlgo::Nvls, NcclProto::Simple);
    CHECK(c.busbw_gbs == Approx(rate(131072)));
    CHECK(c.latency_us == Approx(latency(131072))); // 96.0
    hw.fabric = config::Fabric::Efa;                // AWS's 512 KiB from 4 GiB (64 x 128 x 512 KiB) up
    c = estimate(hw, CollOp::AllReduce, 4ull << 30, NcclAlgo::Nvls, NcclProto::Simple);
    CHECK(c.busbw_gbs == Approx(rate(524288))); // 485.7
    CHECK(c.latency_us == Approx(latency(524288)));
    c = estimate(hw, CollOp::AllReduce, 2ull << 30, NcclAlgo::Nvls, NcclProto::Simple);
    CHECK(c.busbw_gbs == Approx(rate(65536)));
}

TEST_CASE("nccl model: a tree's in-node chain moves every byte up and down", "[hardware]") {
    // 2 x 8 A100 on 8 x 200 Gb/s InfiniBand. Across nodes each GPU all-reduces its 1/8 share through
    // 25 x 0.978 GB/s; in the node the chain forwards 2 bytes per byte over NVLink at 232 GB/s, so the
    // tree's bus bandwidth is 1.875 / (2 / 232) = 217.5 (NVLink-bound), where a ring is bound by the
    // node's NICs at 8 x 24.45 = 195.6.
    config::HardwareConfig hw;
    hw.gpu = config::GpuModel::A100Sxm80;
    hw.nodes = 2;
    hw.nvls = false;
    hw.nic_gbps = 200;
    hw.fabric = config::Fabric::Infiniband;
    NcclChoice tree = estimate(hw, CollOp::AllReduce, 8ull << 30, NcclAlgo::Tree, NcclProto::Simple);
    CHECK(tree.busbw_gbs == Approx(1.875 / (2.0 / 232.0)));
    NcclChoice ring = estimate(hw, CollOp::AllReduce, 8ull << 30, NcclAlgo::Ring, NcclProto::Simple);
    CHECK(ring.busbw_gbs == Approx(8 * 25 * 0.978));
}

TEST_CASE("nccl model: a GPU reaches only the NICs near it on its board", "[hardware]") {
    // An HGX board shares its NICs out among its 8 GPUs. 10 nodes x 4 GPUs on 8 x 400 Gb/s IB NICs
    // per node: the 4 GPUs drive their own 4 NICs, 50 x 0.978 = 48.9 GB/s each (a measured 10 x 4
    // all-gather peaks at 196.7 GB/s busbw = 4 x 49.2), exactly as if the node had 4 NICs.
    config::HardwareConfig hw;
    hw.nodes = 10;
    hw.gpus_per_node = 4;
    hw.nics_per_node = 8;
    hw.fabric = config::Fabric::Infiniband;
    CHECK(nics_per_gpu(hw) == 1.0);
    CHECK(nic_gbs_per_gpu(hw) == Approx(48.9));
    config::HardwareConfig four = hw;
    four.nics_per_node = 4;
    for (uint64_t bytes : {32ull << 20, 1ull << 30})
        for (CollOp op : {CollOp::AllReduce, CollOp::AllGather, CollOp::AllToAll})
            CHECK(choose(hw, op, bytes).predicted_us == Approx(choose(four, op, bytes).predicted_us));
    // p5: 32 EFA NICs for 8 GPUs, four each; p4de: 4 for 8, half each; one GPU of a p5 keeps its four.
    hw.gpus_per_node = 8;
    hw.nics_per_node = 32;
    CHECK(nics_per_gpu(hw) == 4.0);
    hw.nics_per_node = 4;
    CHECK(nics_per_gpu(hw) == 0.5);
    hw.gpus_per_node = 1;
    hw.nics_per_node = 32;
    CHECK(nics_per_gpu(hw) == 4.0);
}

TEST_CASE("nccl model: beyond two nodes a tree's inner nodes carry twice their share", "[hardware]") {
    // NVLS-tree on m x 8 H100, 8 x 400 Gb/s IB per node (48.9 GB/s per GPU after efficiency). Each GPU
    // all-reduces 1/8 of the buffer across nodes. Two nodes: each node is the root of one of the two
    // binary trees and a leaf of the other, so a NIC carries the share once each way: network-bound
    // busbw would be 2(n-1)/n x 8 x 48.9 (above NVLS's in-node bound). Four nodes: an inner node with
    // two children receives two halves and sends two halves down (plus its leaf half in the other
    // tree): the share twice each way, so busbw = 2(n-1)/n x 8 x 48.9 / 2 = 1.9375 x 195.6 = 379.0.
    config::HardwareConfig hw;
    hw.nodes = 4;
    hw.fabric = config::Fabric::Infiniband;
    const uint64_t big = 8ull << 30; // full 512 KiB chunks: per-message factor ~1
    NcclChoice four = estimate(hw, CollOp::AllReduce, big, NcclAlgo::NvlsTree, NcclProto::Simple);
    CHECK(four.busbw_gbs == Approx(1.9375 * 8 * 48.9 / 2 * four.net_msg_factor).epsilon(1e-9));
    hw.nodes = 2;
    NcclChoice two = estimate(hw, CollOp::AllReduce, big, NcclAlgo::NvlsTree, NcclProto::Simple);
    CHECK(two.busbw_gbs > four.busbw_gbs * 1.1); // NVLS-bound, not network-bound
}

TEST_CASE("nccl model: all-to-all crosses the network in point-to-point chunks", "[hardware]") {
    // 10 nodes x 1 H100, one 400 Gb/s IB NIC each (48.9 GB/s achievable). An all-to-all sends (n-1)/n
    // of the buffer through the NIC, in NCCL_P2P_NET_CHUNKSIZE = 128 KiB messages that each pay the
    // 0.2 us RDMA post cost, x = 0.2 x 48.9e3 = 9780 bytes: f = 128K (512K + x) / (512K (128K + x))
    // = 0.9479 of a ring's full-chunk rate, so busbw = 48.9 x 0.9479 = 46.35 GB/s (the measured
    // 10 x 1 all-to-all: 44.7 at 16 GiB, where all-reduce on the same nodes reaches 48.9).
    config::HardwareConfig hw = ten_by_one();
    const double x = 0.2 * 48.9e3, k = 128.0 * 1024, c = 512.0 * 1024;
    NcclChoice a2a = choose(hw, CollOp::AllToAll, 16ull << 30);
    CHECK(a2a.net_msg_factor == Approx(k * (c + x) / (c * (k + x))));
    CHECK(a2a.busbw_gbs == Approx(48.9 * k * (c + x) / (c * (k + x))));
    // Each peer's data goes over NCCL_NCHANNELS_PER_NET_PEER = 2 channels, not all 16: on 10 x 8 GPUs a
    // 32 MiB all-to-all gives each peer 32 MiB / 80 = 410 KiB, 205 KiB per channel, so full 128 KiB
    // chunks (a ring's slice over 16 channels would be 26 KiB); 4 MiB gives 26 KiB messages.
    hw.gpus_per_node = 8;
    hw.nics_per_node = 8;
    hw.nvls = true;
    CHECK(choose(hw, CollOp::AllToAll, 32ull << 20).net_msg_factor == Approx(k * (c + x) / (c * (k + x))));
    const double m = 4.0 * 1024 * 1024 / 80 / 2;
    CHECK(choose(hw, CollOp::AllToAll, 4ull << 20).net_msg_factor == Approx(m * (c + x) / (c * (m + x))));
}

TEST_CASE("nccl model: NVLS-tree's network chunk follows NCCL's NVLS chunk rule", "[hardware]") {
    // NCCL enqueue.cc: NVLS-tree chunks are NCCL_NVLS_CHUNKSIZE (128 KiB), at most 64 KiB from four
    // nodes up, smaller while the buffer holds fewer than 4 (1) chunks per concurrent operation
    // (16 channels x 8 heads = 128): 64 KiB below 4 x 128 x 128 KiB = 64 MiB. AWS's EFA set-up uses
    // 512 KiB. Each message pays the fabric's cost: f(c) = c (S + x) / (S (c + x)) with S the Simple
    // step: 512 KiB with NCCL's 4 MiB buffers; on EFA 1 MiB (8 MiB buffers), so its 512 KiB NVLS chunks
    // reach f = 512K (1M + x) / (1M (512K + x)), x = 2.5 us x 12.5 x 0.87 GB/s.
    config::HardwareConfig hw;
    hw.fabric = config::Fabric::Infiniband;
    const double x = 0.2 * 48.9e3, k = 512.0 * 1024;
    auto f = [&](double c) { return c * (k + x) / (k * (c + x)); };
    auto factor = [&](uint32_t nodes, uint64_t bytes) {
        hw.nodes = nodes;
        return estimate(hw, CollOp::AllReduce, bytes, NcclAlgo::NvlsTree, NcclProto::Simple).net_msg_factor;
    };
    CHECK(factor(2, 8ull << 30) == Approx(f(128 * 1024)));
    CHECK(factor(2, 32ull << 20) == Approx(f(64 * 1024)));
    CHECK(factor(4, 8ull << 30) == Approx(f(64 * 1024)));
    CHECK(factor(10, 8ull << 30) == Approx(f(64 * 1024)));
    hw.fabric = config::Fabric::Efa;
    hw.nics_per_node = 32;
    hw.nic_gbps = 100;
    hw.nodes = 4;
    NcclChoice efa = estimate(hw, CollOp::AllReduce, 8ull << 30, NcclAlgo::NvlsTree, NcclProto::Simple);
    const double xe = 2.5 * 12.5 * 0.87e3, m = 1024.0 * 1024, c = 512.0 * 1024;
    CHECK(efa.net_msg_factor == Approx(c * (m + xe) / (m * (c + xe))));
}

TEST_CASE("nccl model: across TCPXO only Simple runs", "[hardware]") {
    // Google's GPUDirect-TCPXO profile sets NCCL_PROTO=Simple: 2 x 8 H100 on TCPXO picks a Simple tree
    // even for 8 bytes. Its latency: kernel 10 + the chain's 2 x 7 NVLink Simple steps (3 us) + 2
    // network steps (40 us) = 132 us (a measured a3-mega 2-node table sits at 123-136 us), plus the
    // pipeline fill of an 8-byte chunk: nothing on NVLink, and on each of the 2 network hops the
    // message's fixed 2 us (TCPXO) expressed at one NIC's 25 x 0.85 GB/s, carried by the node's 8: 0.23 us
    // (its per-message factor against the 1 MiB step of Google's 8 MiB buffers).
    config::HardwareConfig hw;
    hw.nodes = 2;
    hw.nvls = false;
    hw.nic_gbps = 200;
    hw.fabric = config::Fabric::Tcpxo;
    NcclChoice c = choose(hw, CollOp::AllReduce, 8);
    CHECK(c.proto == NcclProto::Simple);
    const double nic = 200 / 8.0 * 0.85, fixed = 2.0 * nic * 1e3; // GB/s; bytes the NIC could move
    const double step = 1024.0 * 1024;                            // NCCL_BUFFSIZE 8 MiB / 8
    const double factor = 8 * (step + fixed) / (step * (8 + fixed));
    CHECK(c.latency_us ==
          Approx(10 + 14 * 3.0 + 2 * 40.0 + 2 * 8 / (8 * nic * factor * 1e3) + 14 * 8 / (358.0 * 1e3)));
    hw.nodes = 1; // inside one node NVLink still runs LL
    CHECK(choose(hw, CollOp::AllReduce, 8).proto == NcclProto::LL);
}

TEST_CASE("nccl model: NVLS-tree pays the NVLS fill twice and a chunk per network hop", "[hardware]") {
    // 2 x 8 H100, 8 x 400 Gb/s IB: 1 GiB uses 16 channels and 128 KiB chunks. The in-node stages run at
    // 0.93 of NVLS at that chunk: 473.4 x 0.93 = 440.2, an algorithm bandwidth of 440.2 / 1.75 = 251.6
    // (the NICs, 8 x 48.9 per node, are not the bound). Latency = kernel 10 + two NVLS stages (in and
    // out), each NVLS's start-up 24 plus one chunk at an operation's share (128 KiB x 128 / 251.6 GB/s =
    // 66.7 us) + 2 network hops, each NCCL's 14 us step plus one chunk at a channel's share of the node's
    // NICs (8 x 48.9 / 16 = 24.45 GB/s, times the per-message factor of 128 KiB chunks):
    // 10 + 2 x 90.7 + 2 x (14 + 5.6) = 230.6 us.
    config::HardwareConfig hw;
    hw.nodes = 2;
    hw.fabric = config::Fabric::Infiniband;
    NcclChoice c = estimate(hw, CollOp::AllReduce, 1ull << 30, NcclAlgo::NvlsTree, NcclProto::Simple);
    REQUIRE(c.channels == 16);
    const double algbw = 490.0 * 131072 / (131072 + 4608) * 0.93 / 1.75;
    CHECK(c.busbw_gbs == Approx(algbw * 1.875));
    const double stage_us = 24 + 131072.0 * 128 / (algbw * 1e3);
    const double chunk_us = 128.0 * 1024 / (8 * 48.9 / 16 * c.net_msg_factor * 1e3);
    CHECK(c.latency_us == Approx(10 + 2 * stage_us + 2 * (14 + chunk_us)));
    CHECK(c.latency_us == Approx(230.6).epsilon(0.001));
}

TEST_CASE("nccl model: filling a tree costs one chunk per hop", "[hardware]") {
    // 4 x 8 H100, 8 x 400 Gb/s IB, a 64 MiB Simple tree: 16 channels of 4 MiB; depth 7 + log2(4) = 9,
    // so NCCL's rule halves the 512 KiB chunk to 128 KiB (4 MiB holds fewer than 8 x 9 of them) and to
    // 64 KiB (fewer than 4 x 9). Latency = kernel 10 + the chain's 2 x 7 NVLink Simple steps (3 us) +
    // 2 x log2(4) = 4 network steps (14 us), plus the fill: each of the 4 network hops one 64 KiB
    // message at a channel's share of the node's NICs (8 x 48.9 / 16 = 24.45 GB/s, times the per-message
    // factor), each of the 14 chain hops one 64 KiB chunk at a channel's NVLink rate (358 / 16 GB/s):
    // 10 + 42 + 56 + 4 x 2.8 + 14 x 2.93 = 160 us.
    config::HardwareConfig hw;
    hw.nodes = 4;
    hw.fabric = config::Fabric::Infiniband;
    const double chunk = 64.0 * 1024;
    NcclChoice c = estimate(hw, CollOp::AllReduce, 64ull << 20, NcclAlgo::Tree, NcclProto::Simple);
    REQUIRE(c.channels == 16);
    const double x = 0.2 * 50 * 0.978 * 1e3; // a message's fixed cost in bytes of one NIC's rate
    CHECK(c.net_msg_factor == Approx(chunk * (512 * 1024 + x) / (512 * 1024 * (chunk + x))));
    const double net_hop = chunk / (8 * 50 * 0.978 / 16 * c.net_msg_factor * 1e3);
    const double nvl_hop = chunk / (358.0 / 16 * 1e3);
    CHECK(c.latency_us == Approx(10 + 14 * 3.0 + 4 * 14.0 + 4 * net_hop + 14 * nvl_hop));
    CHECK(c.latency_us == Approx(160).epsilon(0.01));
    // LL128 forwards each 128-byte line on NVLink as soon as its flag is seen: only the network hops
    // fill, each with a whole buffer step (the 4 MiB per channel caps it at 512 KiB).
    NcclChoice l = estimate(hw, CollOp::AllReduce, 64ull << 20, NcclAlgo::Tree, NcclProto::LL128);
    REQUIRE(l.channels == 16);
    const double step_hop = 512 * 1024 / (8 * 50 * 0.978 / 16 * l.net_msg_factor * 1e3);
    CHECK(l.latency_us == Approx(10 + 14 * 1.7 + 4 * 10.5 + 4 * step_hop));
    // On EFA with send/receive the per-crossing step was calibrated on a table's tree rows with the
    // transfer in it: a plain tree adds only the chain's fill there.
    hw.fabric = config::Fabric::Efa;
    hw.efa_transport = config::EfaTransport::SendRecv;
    NcclChoice e = estimate(hw, CollOp::AllReduce, 64ull << 20, NcclAlgo::Tree, NcclProto::Simple);
    CHECK(e.latency_us == Approx(10 + 14 * 3.0 + 4 * 140.0 + 14 * nvl_hop));
    // With RDMA writes the step is AWS's 8-byte figure (23 us for Simple), so the network hops fill too
    // (the same 64 KiB chunk, at EFA's 0.87 of line rate and its own per-message factor).
    hw.efa_transport = config::EfaTransport::Rdma;
    NcclChoice r = estimate(hw, CollOp::AllReduce, 64ull << 20, NcclAlgo::Tree, NcclProto::Simple);
    const double efa_hop = chunk / (8 * 50 * 0.87 / 16 * r.net_msg_factor * 1e3);
    CHECK(r.latency_us == Approx(10 + 14 * 3.0 + 4 * 23.0 + 4 * efa_hop + 14 * nvl_hop));
}

TEST_CASE("nccl model: EFA's two transports take their own step latencies", "[hardware]") {
    // 2 x 8 H100 on p5 (32 x 100 Gb/s EFA, AMD hosts), 1 KiB all-reduce: an LL tree, 14 NVLink hops of
    // 0.4 us and 2 network crossings. With RDMA writes (aws-ofi-nccl on p5) a crossing is AWS's own
    // tuner figure, 20 us: 10 + 14 x 0.4 + 2 x 20 = 55.6 us. With tagged send/receive (p4d, p4de) it
    // is half of the 140 us Simple step: 10 + 5.6 + 2 x 70 = 155.6 us. Measured p5 tables sit at
    // 65-75 us, p4de's at 161 us.
    config::HardwareConfig p5 = p5_pair();
    NcclChoice rdma = choose(p5, CollOp::AllReduce, 1024);
    CHECK(rdma.algo == NcclAlgo::Tree);
    CHECK(rdma.proto == NcclProto::LL);
    // Filling the tree's two network hops: one 2 KiB LL message each (1 KiB of data, as many flags) at
    // the one channel's share of the node's NICs, 8 GPUs x 4 x 12.5 GB/s x 0.87 (0.01 us each).
    const double fill = 2 * 2048 / (8 * 4 * 12.5 * 0.87 * rdma.net_msg_factor * 1e3);
    CHECK(rdma.latency_us == Approx(10 + 14 * 0.4 + 2 * 20.0 + fill));
    // The bytes add a tenth of a microsecond (1920 bus bytes at the LL rate of a 2 KiB message).
    CHECK(rdma.predicted_us == Approx(55.8).margin(0.1));
    p5.efa_transport = config::EfaTransport::SendRecv;
    NcclChoice sr = choose(p5, CollOp::AllReduce, 1024);
    CHECK(sr.latency_us == Approx(10 + 14 * 0.4 + 2 * 70.0));
    // Simple steps: 23 us with RDMA writes (AWS's 20 + 3 us completion), 140 with send/receive (the 14
    // NVLink steps of this ring across AMD hosts take 6 us each, the next test's floor).
    p5.efa_transport = config::EfaTransport::Rdma;
    NcclChoice ring = estimate(p5, CollOp::AllGather, 1ull << 30, NcclAlgo::Ring, NcclProto::Simple);
    CHECK(ring.latency_us == Approx(10 + 14 * 6.0 + 1 * 23.0));
    p5.efa_transport = config::EfaTransport::SendRecv;
    ring = estimate(p5, CollOp::AllGather, 1ull << 30, NcclAlgo::Ring, NcclProto::Simple);
    CHECK(ring.latency_us == Approx(10 + 14 * 6.0 + 1 * 140.0));
}

TEST_CASE("nccl model: a Simple ring across nodes steps no faster than its hosts post", "[hardware]") {
    // NCCL's tuner: an inter-node ring's every step costs at least the network post overhead, 1 us on
    // Intel hosts and 2 on AMD, three posts for a Simple step. 2 x 8 H100 all-gather ring (15 steps, 1
    // across the network): on AMD hosts 10 + 14 x max(3.0, 6) + 23 = 117 us; on Intel 14 x max(3.0, 3)
    // leaves the NVLink step, 10 + 42 + 23 = 75. LL keeps its 0.4 us NVLink step (10 + 5.6 + 20), one
    // node has no network to post to, and all-to-all is point-to-point, not a ring.
    config::HardwareConfig p5 = p5_pair();
    CHECK(estimate(p5, CollOp::AllGather, 1ull << 30, NcclAlgo::Ring, NcclProto::Simple).latency_us ==
          Approx(117.0));
    CHECK(estimate(p5, CollOp::AllGather, 4096, NcclAlgo::Ring, NcclProto::LL).latency_us ==
          Approx(10 + 14 * 0.4 + 20.0));
    config::HardwareConfig intel = p5;
    intel.cpu = config::CpuVendor::Intel;
    CHECK(estimate(intel, CollOp::AllGather, 1ull << 30, NcclAlgo::Ring, NcclProto::Simple).latency_us ==
          Approx(75.0));
    config::HardwareConfig one = p5;
    one.nodes = 1;
    CHECK(estimate(one, CollOp::AllGather, 1ull << 30, NcclAlgo::Ring, NcclProto::Simple).latency_us ==
          Approx(10 + 7 * 3.0));
    const double a2a =
        estimate(p5, CollOp::AllToAll, 1ull << 30, NcclAlgo::Ring, NcclProto::Simple).latency_us;
    CHECK(a2a == Approx(10 + 14 * 3.0 + 1 * 23.0));
}

TEST_CASE("nccl model: LL across nodes runs at the host's rate", "[hardware]") {
    // NCCL's network connections keep their LL buffers in host memory, so multi-node LL is capped at
    // NCCL's llMaxBws bus bandwidth: Intel hosts 39.0 GB/s on 2 nodes, 20.4 beyond; AMD 22.5 and 19.0.
    // A 2 x 8 H100 LL tree on 8 x 400 Gb/s IB would otherwise reach the NICs' share (hundreds of GB/s).
    config::HardwareConfig hw;
    hw.nodes = 2;
    hw.fabric = config::Fabric::Infiniband;
    const uint64_t bytes = 4ull << 20;
    CHECK(estimate(hw, CollOp::AllReduce, bytes, NcclAlgo::Tree, NcclProto::LL).busbw_gbs == Approx(39.0));
    CHECK(estimate(hw, CollOp::AllGather, bytes, NcclAlgo::Ring, NcclProto::LL).busbw_gbs == Approx(39.0));
    hw.cpu = config::CpuVendor::Amd;
    CHECK(estimate(hw, CollOp::AllReduce, bytes, NcclAlgo::Tree, NcclProto::LL).busbw_gbs == Approx(22.5));
    hw.nodes = 4;
    CHECK(estimate(hw, CollOp::AllReduce, bytes, NcclAlgo::Tree, NcclProto::LL).busbw_gbs == Approx(19.0));
    hw.cpu = config::CpuVendor::Intel;
    CHECK(estimate(hw, CollOp::AllReduce, bytes, NcclAlgo::Tree, NcclProto::LL).busbw_gbs == Approx(20.4));
    // Not capped: LL128 (its buffers are in GPU memory), all-to-all (point-to-point connections keep every
    // protocol in GPU memory) and one node (no network connection).
    CHECK(estimate(hw, CollOp::AllReduce, bytes, NcclAlgo::Tree, NcclProto::LL128).busbw_gbs > 100);
    config::HardwareConfig ll = hw; // all-to-all runs LL above 16 KiB per peer only when it is forced
    ll.proto = NcclProto::LL;
    ll.nodes = 2, ll.nic_gbps = 800, ll.cpu = config::CpuVendor::Amd; // LL's own rate above AMD's 22.5
    CHECK(estimate(ll, CollOp::AllToAll, 256ull << 20, NcclAlgo::Ring, NcclProto::LL).busbw_gbs > 22.5);
    hw.nodes = 1;
    CHECK(estimate(hw, CollOp::AllReduce, bytes, NcclAlgo::Ring, NcclProto::LL).busbw_gbs > 100);
}

TEST_CASE("nccl model: a run's group keeps the NICs its GPUs have in the whole system", "[hardware]") {
    // In a run every GPU of a node is busy, so a group of g' GPUs per node gets g' GPUs' share of the
    // NICs, whatever the board rule would give a node with that many GPUs. p5 (32 x 100 Gb/s EFA for 8
    // GPUs): a data-parallel group of one GPU per node keeps its 4 NICs (8 channels); p4de (4 NICs for
    // 8 GPUs): half a NIC per GPU.
    config::HardwareConfig p5 = p5_pair();
    GroupShape one{2, 2, 1, true};
    config::HardwareConfig sub = group_system(p5, one);
    CHECK(nics_per_gpu(sub) * sub.nic_gbps == Approx(400));
    CHECK(nic_gbs_per_gpu(sub) == Approx(nic_gbs_per_gpu(p5)));
    CHECK(max_channels(sub) == 8);
    config::HardwareConfig p4de = p5;
    p4de.gpu = config::GpuModel::A100Sxm80;
    p4de.nvls = false;
    p4de.nics_per_node = 4;
    sub = group_system(p4de, one);
    CHECK(nics_per_gpu(sub) * sub.nic_gbps == Approx(50));
    // A group of 4 GPUs per node on an 8-NIC IB node: one NIC each.
    config::HardwareConfig ib;
    ib.nodes = 2;
    sub = group_system(ib, GroupShape{8, 2, 4, true});
    CHECK(nic_gbs_per_gpu(sub) == Approx(nic_gbs_per_gpu(ib)));
}

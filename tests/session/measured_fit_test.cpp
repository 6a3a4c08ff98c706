// Fitting a description's net_efficiency to a measured table (core/session/measured_fit.h).
#include "core/hardware/nccl_model.h"
#include "core/session/measured_fit.h"

#include <catch2/catch.hpp>

#include <cmath>

using namespace astrolabe;

namespace {

// Four HGX H100 nodes on 8 x 400 Gb/s InfiniBand, one process per GPU, all-gather from 1 KiB to 8 GiB.
CollectivePerfRequest four_nodes(hardware::CollOp op) {
    CollectivePerfRequest req;
    req.hardware.nodes = 4;
    req.hardware.gpus_per_node = 8;
    req.hardware.nics_per_node = 8;
    req.hardware.fabric = config::Fabric::Infiniband;
    req.op = op;
    for (uint64_t s = 1024; s <= (8ull << 30); s *= 4)
        req.sizes.push_back(s);
    return req;
}

// The table the model itself gives with `fraction` as the cluster's: what a cluster running at that
// fraction would have measured, if the model is right about everything else.
hardware::MeasuredTable table_at(CollectivePerfRequest req, double fraction) {
    req.hardware.net_efficiency = fraction;
    auto rows = run_collective_perf(req);
    REQUIRE(rows.is_ok());
    hardware::MeasuredTable t;
    for (const auto& r : rows.value()) {
        hardware::MeasuredRow m;
        m.size_bytes = r.size_bytes;
        m.time_us = r.time_us;
        m.algbw_gbs = r.algbw_gbs;
        m.busbw_gbs = r.busbw_gbs;
        t.rows.push_back(m);
    }
    return t;
}

} // namespace

TEST_CASE("measured fit: recovers the fraction a table was made with", "[session]") {
    // A table made at 0.80 of line rate (a congested fabric: 8 x 50 GB/s x 0.80 = 320 GB/s ring busbw,
    // below NVLink's 358) fitted from InfiniBand's default 0.978: the search lands on 0.800 and the rows it
    // read then agree exactly. It reads the rows whose bytes take most of their time (>= 64 MiB here, not
    // the latency-bound KiB rows), and the description it returns carries the fraction.
    const CollectivePerfRequest req = four_nodes(hardware::CollOp::AllGather);
    const hardware::MeasuredTable t = table_at(req, 0.80);
    auto fit = fit_net_efficiency(req, t, "made.csv");
    REQUIRE(fit.is_ok());
    CHECK(fit->previous == 0.978);
    CHECK(fit->fitted == Approx(0.80).margin(0.0015));
    CHECK(fit->hardware.net_efficiency == fit->fitted);
    CHECK(fit->before.rows == fit->sizes.size());
    CHECK(fit->before.strict > 0.05); // 358 vs 320 GB/s at the largest rows
    CHECK(fit->after.strict < 0.003);
    REQUIRE(fit->sizes.size() >= 3);
    CHECK(fit->sizes.front() >= (16ull << 20));
    CHECK(fit->sizes.back() == (4ull << 30)); // 1 KiB x 4^k: the largest size up to 8 GiB
    // A table above the fabric's figure (a description that undersells the cluster) is fitted upwards: on
    // four GPUs of each node the ring stays the NICs' at any fraction (4 x 50 GB/s < NVLink's 358).
    CollectivePerfRequest g4 = req;
    g4.hardware.gpus_per_node = 4;
    auto up = fit_net_efficiency(g4, table_at(g4, 0.99), "made.csv");
    REQUIRE(up.is_ok());
    CHECK(up->fitted == Approx(0.99).margin(0.0015));
    // On eight GPUs, any fraction from 358 / 400 = 0.895 up leaves the rings NVLink's: a table made at 0.99
    // cannot tell them apart, so the description keeps its own 0.978 (it fits as well as any).
    auto flat = fit_net_efficiency(req, table_at(req, 0.99), "made.csv");
    REQUIRE(flat.is_ok());
    CHECK(flat->fitted == 0.978);
    CHECK(flat->after.strict == Approx(flat->before.strict));
    // A reduce-scatter ring reads its fraction the same way.
    const CollectivePerfRequest rs = four_nodes(hardware::CollOp::ReduceScatter);
    auto rs_fit = fit_net_efficiency(rs, table_at(rs, 0.70), "made.csv");
    REQUIRE(rs_fit.is_ok());
    CHECK(rs_fit->fitted == Approx(0.70).margin(0.0015));
}

TEST_CASE("measured fit: refused where the fraction cannot be read", "[session]") {
    // All-to-all keeps the fabric's figure (point-to-point); one node never crosses the network; a table of
    // small sizes only is latency, which says nothing of the line rate; trees are refused below.
    const CollectivePerfRequest a2a = four_nodes(hardware::CollOp::AllToAll);
    auto r1 = fit_net_efficiency(a2a, table_at(a2a, 0.8), "a2a.log");
    REQUIRE_FALSE(r1.is_ok());
    CHECK(r1.status().message().find("a2a.log: all_to_all runs point-to-point") != std::string::npos);
    CollectivePerfRequest one = four_nodes(hardware::CollOp::AllGather);
    one.hardware.nodes = 1;
    auto r2 = fit_net_efficiency(one, table_at(one, 0.8), "one.log");
    REQUIRE_FALSE(r2.is_ok());
    CHECK(r2.status().message().find("one.log: the system is one node") != std::string::npos);
    CollectivePerfRequest small = four_nodes(hardware::CollOp::AllGather);
    small.sizes = {1024, 4096, 16384, 65536};
    auto r3 = fit_net_efficiency(small, table_at(small, 0.8), "small.log");
    REQUIRE_FALSE(r3.is_ok());
    CHECK(r3.status().message().find(
              "small.log: 0 of its rows run as rings spending most of their time moving bytes") !=
          std::string::npos);
    // Two nodes' all-reduce runs NVLS-tree from 128 MiB up: a 2-node tree can carry up to twice the NICs'
    // rate, so its rows do not tell the NICs from NVLink SHARP, and the fit asks for rings.
    CollectivePerfRequest pair = four_nodes(hardware::CollOp::AllReduce);
    pair.hardware.nodes = 2;
    pair.sizes = {256ull << 20, 1ull << 30, 4ull << 30};
    auto r4 = fit_net_efficiency(pair, table_at(pair, 0.8), "pair.log");
    REQUIRE_FALSE(r4.is_ok());
    CHECK(r4.status().message().find("pair.log: 0 of its rows run as rings") != std::string::npos);
    CHECK(r4.status().message().find("NCCL_ALGO=Ring") != std::string::npos);
    pair.hardware.algo = config::NcclAlgo::Ring; // measured and described with rings, it fits
    auto r5 = fit_net_efficiency(pair, table_at(pair, 0.8), "pair.log");
    REQUIRE(r5.is_ok());
    CHECK(r5->fitted == Approx(0.80).margin(0.0015));
}

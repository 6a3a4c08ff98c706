// The NCCL-like model against measured nccl-tests tables (tests/data/nccl/, sources in SOURCES.md there).
//
// Each table runs through collective-perf (the engine) with its system from systems.json, separately for
// sizes >= 1 MiB and < 1 MiB. Two conventions for a table's error (docs/validation.md):
// - issue 20's: the geometric mean of |p - m| / m. It is the convention behind the issue's own figures
//   (ASTRA-sim's validated config misses the forced-ring table by 36 % geomean, 35 % at >= 1 MiB: this
//   metric gives 36.9 / 34.2 % on our run of that config, the log-ratio one 53 / 61 %). Targets <= 5 % and
//   <= 15 %, asserted for every table.
// - a stricter one: exp(mean |ln(p/m)|) - 1, the geometric mean of max(p/m, m/p) minus one (one bad row
//   weighs as much as it misses; a near-exact row cannot hide it). Asserted against the targets where met
//   and against the documented miss elsewhere, so a regression fails either way.
#include "core/config/config_parse.h"
#include "core/session/collective_perf.h"
#include "core/session/measured_compare.h"
#include "core/session/measured_fit.h"
#include "support/test_support.h"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <set>
#include <string>

using namespace astrolabe;

namespace {

struct Bound {
    const char* table;
    double big;   // geomean bound, sizes >= 1 MiB
    double small; // geomean bound, sizes < 1 MiB
};

// The stricter metric's bounds: 0.05 / 0.15 where met; documented misses otherwise (docs/validation.md):
// - aws_p4de (A100, 2 nodes, EFA): 6.4 %; the table is not monotonic at 16-64 MiB (busbw 26, 41, 48, 64)
//   and its 2-4 MiB rows are 15-20 % faster than the model's LL/Simple crossover.
// - galvatron (A100, one node, -g 8): 6.2 %, mostly the 1 MiB row (23 % fast) and the 128-512 MiB rows
//   (7-10 % fast; the source calls the 512 MiB dip noise).
// - xxrjun all_to_all: 5.3 % (10 % fast at 256-512 MiB).
const Bound kBounds[] = {
    {"aws_p4de_a100_2node_efa_allreduce", 0.07, 0.07},
    {"aws_p5_h100_1node_allreduce", 0.05, 0.12},
    {"bitdeer_h100_2node_ib_allreduce", 0.05, 0.15},
    {"galvatron_a100_40gb_1node_allreduce", 0.07, 0.15},
    {"together_h100_1node_allgather_ring", 0.05, 0.03},
    {"together_h100_1node_allreduce_ring", 0.04, 0.06},
    {"together_h100_1node_reducescatter_ring", 0.05, 0.05},
    {"xxrjun_h100_10node_1gpn_all_reduce", 0.05, 0.15},
    {"xxrjun_h100_1node_all_gather", 0.05, 0.15},
    {"xxrjun_h100_1node_all_reduce", 0.05, 0.15},
    {"xxrjun_h100_1node_alltoall", 0.06, 0.15}, // 5.3 %
    {"xxrjun_h100_1node_reduce_scatter", 0.05, 0.15},
};

// issue 20's convention and the stricter one, as collective-perf --measured and scripts/nccl_validation.py
// compute them (core/session/measured_compare.h).
double geomean_rel(const std::vector<double>& log_ratios) {
    return measured_error(log_ratios).geomean;
}

double geomean_error(const std::vector<double>& log_ratios) {
    return measured_error(log_ratios).strict;
}

// ln(p/m) of every row of one table, split at 1 MiB: its system from systems.json through
// collective-perf at the table's own sizes.
// net_efficiency > 0 replaces the description's (a fit's, below).
void log_ratios(const std::string& dir, const nlohmann::json& systems, const char* table,
                std::vector<double>& big, std::vector<double>& small, double net_efficiency = 0) {
    const auto& entry = systems.at(table);
    auto hw = config::parse_hardware_json(entry.at("hardware").dump(), table);
    REQUIRE(hw.is_ok());
    CollectivePerfRequest req;
    req.hardware = hw.value();
    if (net_efficiency > 0) req.hardware.net_efficiency = net_efficiency;
    REQUIRE(hardware::parse_coll_op(entry.at("collective").get<std::string>(), req.op));
    const std::string path = dir + table + ".csv";
    auto measured = hardware::parse_nccl_tests_output(test::read_data(path), path);
    REQUIRE(measured.is_ok());
    for (const hardware::MeasuredRow& m : measured->rows) {
        auto row = run_collective_perf_row(req, m.size_bytes);
        REQUIRE(row.is_ok());
        (m.size_bytes >= kLargeRowBytes ? big : small).push_back(std::log(row.value().time_us / m.time_us));
    }
}

} // namespace

TEST_CASE("nccl validation: per-table geomean errors against measured nccl-tests tables", "[hardware]") {
    const std::string dir = "nccl/";
    auto systems = nlohmann::json::parse(test::read_data(dir + "systems.json"));
    REQUIRE(systems.size() == std::size(kBounds));
    for (const Bound& b : kBounds) {
        DYNAMIC_SECTION(b.table) {
            std::vector<double> big, small;
            log_ratios(dir, systems, b.table, big, small);
            INFO(b.table << ": >= 1 MiB " << geomean_rel(big) << " (strict " << geomean_error(big)
                         << "), < 1 MiB " << geomean_rel(small) << " (strict " << geomean_error(small)
                         << ")");
            CHECK(geomean_rel(big) <= 0.05); // issue 20's targets, its convention
            CHECK(geomean_rel(small) <= 0.15);
            CHECK(geomean_error(big) <= b.big); // the stricter metric: targets or documented misses
            CHECK(geomean_error(small) <= b.small);
        }
    }
}

// Public tables beyond the open set (tests/data/nccl_beyond/, sources in SOURCES.md there): other node
// counts (2-32), GPUs per node (1-8), fabrics (IB, EFA on p4d and p5, TCPXO, RoCE) and collectives. Nothing
// was calibrated on them; docs/validation.md lists where they land and why. Each bound is the error this
// model has today in issue 20's convention, rounded up to the next half percent (0 = no rows there), so
// a change that makes any of them worse fails; the tables under 5 % / 15 % are the targets met.
const Bound kBeyond[] = {
    {"a3bootcamp-a3mega_h100_2node_all_gather", 0.135, 0},           // 13.0 % / - %
    {"awsdlami-p4d_a100_2node_all_reduce", 0.050, 0.120},            // 4.7 % / 11.9 %
    {"awsome-pcluster-obs-p5_h100_2node_all_reduce", 0.040, 0.265},  // 3.8 % / 26.2 %
    {"crazyguitar_h100_16node_all_gather", 0.050, 0},                // 4.6 % / - %
    {"crazyguitar_h100_16node_all_reduce", 0.130, 0},                // 12.9 % / - %
    {"crazyguitar_h100_16node_all_to_all", 0.045, 0},                // 4.4 % / - %
    {"crazyguitar_h100_2node_all_gather", 0.060, 0},                 // 5.9 % / - %
    {"crazyguitar_h100_2node_all_reduce", 0.025, 0},                 // 2.1 % / - %
    {"crazyguitar_h100_2node_all_to_all", 0.040, 0},                 // 3.8 % / - %
    {"crazyguitar_h100_32node_all_gather", 0.050, 0},                // 4.5 % / - %
    {"crazyguitar_h100_32node_all_reduce", 0.170, 0},                // 16.5 % / - %
    {"crazyguitar_h100_32node_all_to_all", 0.105, 0},                // 10.4 % / - %
    {"crazyguitar_h100_4node_all_gather", 0.030, 0},                 // 2.8 % / - %
    {"crazyguitar_h100_4node_all_reduce", 0.070, 0},                 // 6.6 % / - %
    {"crazyguitar_h100_4node_all_to_all", 0.020, 0},                 // 1.9 % / - %
    {"crazyguitar_h100_8node_all_gather", 0.050, 0},                 // 4.9 % / - %
    {"crazyguitar_h100_8node_all_reduce", 0.085, 0},                 // 8.1 % / - %
    {"crazyguitar_h100_8node_all_to_all", 0.040, 0},                 // 3.7 % / - %
    {"deepops-netop-ring_a100_2node_all_reduce", 0.085, 0.195},      // 8.2 % / 19.0 %
    {"deepops-slurmperf_a100_4node_all_reduce", 0.070, 0},           // 6.9 % / - %
    {"dstack-a3mega_h100_2node_all_gather", 0.100, 0},               // 9.6 % / - %
    {"dstack-nebius_h100_2node_all_reduce", 0.020, 0.090},           // 1.9 % / 8.5 %
    {"gcp-a3mega-ztan_h100_2node_all_reduce", 0.160, 0.060},         // 15.7 % / 5.5 %
    {"keitaw-p5-run1_h100_2node_all_reduce", 0.045, 0.225},          // 4.1 % / 22.3 %
    {"keitaw-tuner_h100_2node_all_reduce", 0.040, 0.260},            // 3.8 % / 25.5 %
    {"keitaw-v2203log_h100_2node_all_reduce", 0.045, 0.215},         // 4.0 % / 21.2 %
    {"nccltests309-dellxe9680_h100_2node_all_reduce", 0.010, 0.075}, // 0.8 % / 7.0 %
    {"nccltests309-gjaion_h100_2node_all_reduce", 0.015, 0},         // 1.2 % / - %
    {"nccltests309-gjaion_h100_4node_all_reduce", 0.165, 0},         // 16.0 % / - %
    {"nccltests309-gjaion_h100_8node_all_reduce", 0.095, 0},         // 9.0 % / - %
    {"msft-superbench_a100_1node_all_gather", 0.125, 0.020},         // 12.0 % / 1.8 %
    {"msft-superbench_a100_1node_all_reduce", 0.040, 0.020},         // 3.8 % / 1.8 %
    {"msft-superbench_a100_1node_all_to_all", 0.030, 0.010},         // 2.7 % / 0.9 % (fit)
    {"msft-superbench_a100_1node_reduce_scatter", 0.045, 0.015},     // 4.3 % / 1.2 %
    {"nccltests309-vmware_h100_4node_all_reduce", 0.045, 0.125},     // 4.4 % / 12.4 %
    {"ocijp-bmh100_h100_2node_all_reduce", 0.010, 0},                // 0.6 % / - %
    {"ocioke_a100_2node_all_reduce", 0.185, 0.085},                  // 18.0 % / 8.4 % (AMD hosts)
    {"vpbench_h100_4node_all_gather", 0.170, 0.195},                 // 16.6 % / 19.0 %
    {"vpbench_h100_4node_all_reduce", 0.065, 0.105},                 // 6.1 % / 10.1 %
    {"xxrjun_c00_N2_G2_cnode4-005_cnode4-007_all_to_all", 0.235, 0}, // 23.2 % / - %
    {"xxrjun_c00_N2_G4_cnode4-006_cnode4-008_all_to_all", 0.125, 0}, // 12.4 % / - %
    {"xxrjun_c00_N2_G8_cnode4-006_cnode4-007_all_to_all", 0.145, 0}, // 14.1 % / - %
    {"xxrjun_ex01_N10_G1_all_gather", 0.020, 0},                     // 1.8 % / - %
    {"xxrjun_ex01_N10_G1_all_reduce", 0.005, 0},                     // 0.4 % / - %
    {"xxrjun_ex01_N10_G1_all_to_all", 0.020, 0},                     // 1.9 % / - %
    {"xxrjun_ex01_N10_G1_reduce_scatter", 0.015, 0},                 // 1.2 % / - %
    {"xxrjun_ex01_N10_G2_all_gather", 0.020, 0},                     // 1.8 % / - %
    {"xxrjun_ex01_N10_G2_all_reduce", 0.025, 0},                     // 2.1 % / - %
    {"xxrjun_ex01_N10_G2_all_to_all", 0.020, 0},                     // 1.9 % / - %
    {"xxrjun_ex01_N10_G2_reduce_scatter", 0.020, 0},                 // 1.7 % / - %
    {"xxrjun_ex01_N10_G4_all_gather", 0.020, 0},                     // 1.9 % / - %
    {"xxrjun_ex01_N10_G4_all_reduce", 0.025, 0},                     // 2.2 % / - %
    {"xxrjun_ex01_N10_G4_all_to_all", 0.020, 0},                     // 1.9 % / - %
    {"xxrjun_ex01_N10_G4_reduce_scatter", 0.025, 0},                 // 2.1 % / - %
    {"xxrjun_ex01_N10_G8_all_gather", 0.210, 0},                     // 20.5 % / - %
    {"xxrjun_ex01_N10_G8_all_reduce", 0.100, 0},                     // 9.7 % / - %
    {"xxrjun_ex01_N10_G8_all_to_all", 0.015, 0},                     // 1.2 % / - %
    {"xxrjun_ex01_N10_G8_reduce_scatter", 0.205, 0},                 // 20.0 % / - %
};

TEST_CASE("nccl validation: tables beyond the open set stay within their documented errors", "[hardware]") {
    const std::string dir = "nccl_beyond/";
    auto systems = nlohmann::json::parse(test::read_data(dir + "systems.json"));
    REQUIRE(systems.size() == std::size(kBeyond));
    for (const Bound& b : kBeyond) {
        DYNAMIC_SECTION(b.table) {
            std::vector<double> big, small;
            log_ratios(dir, systems, b.table, big, small);
            INFO(b.table << ": >= 1 MiB " << geomean_rel(big) << ", < 1 MiB " << geomean_rel(small));
            CHECK(geomean_rel(big) <= b.big);
            CHECK(geomean_rel(small) <= b.small);
        }
    }
}

TEST_CASE("nccl validation: tables beyond the open set are described with issue 20's keys only",
          "[hardware]") {
    // The held-out check describes its systems "in the form above": issue 20's keys, nothing of ours. So
    // the stand-in does too, and whatever else the model needs (the hosts' CPU, EFA's transport, the
    // tuner, NCCL_BUFFSIZE) comes from the defaults the GPU and fabric imply, as it would there.
    const std::set<std::string> kIssueKeys = {"schema",    "gpu",           "nodes",    "gpus_per_node",
                                              "nvls",      "nics_per_node", "nic_gbps", "fabric",
                                              "processes", "nccl_algo"};
    auto systems = nlohmann::json::parse(test::read_data("nccl_beyond/systems.json"));
    for (auto it = systems.begin(); it != systems.end(); ++it)
        for (auto key = it.value().at("hardware").begin(); key != it.value().at("hardware").end(); ++key) {
            INFO(it.key() << " names " << key.key());
            CHECK(kIssueKeys.count(key.key()) == 1);
        }
}

TEST_CASE(
    "nccl validation: net_efficiency fitted on one table of an InfiniBand cluster carries to its others",
    "[hardware]") {
    // A user's calibration (collective-perf --measured --fit), on beyond tables whose rings run at ~81 % of
    // line rate where InfiniBand's figure is 0.978 (docs/validation.md, "Calibrated on a sibling table"):
    // fitted on the 10 x 8 all-reduce's ring rows (0.812), its all-gather and reduce-scatter go from 20.5 /
    // 20.0 % to 7.0 / 4.9 % and its all-to-all keeps 1.2 % (point-to-point keeps the fabric's figure);
    // fitted on one cluster's 4-node all-reduce (0.821), its 8-node one goes from 9.0 to 4.5 %. Bounds:
    // today's, rounded up to the next half percent. (The EFA and TCPXO groups there do not carry, and are
    // not asserted.)
    struct Carry {
        const char* fitted_on;
        double fraction; // what the fit gives, to 0.001
        const char* target;
        double bound; // >= 1 MiB, issue 20's convention, with the fitted fraction
    };
    const Carry kCarry[] = {
        {"xxrjun_ex01_N10_G8_all_reduce", 0.812, "xxrjun_ex01_N10_G8_all_gather", 0.075},
        {"xxrjun_ex01_N10_G8_all_reduce", 0.812, "xxrjun_ex01_N10_G8_reduce_scatter", 0.050},
        {"xxrjun_ex01_N10_G8_all_reduce", 0.812, "xxrjun_ex01_N10_G8_all_to_all", 0.015},
        {"nccltests309-gjaion_h100_4node_all_reduce", 0.821, "nccltests309-gjaion_h100_8node_all_reduce",
         0.050},
        {"nccltests309-gjaion_h100_4node_all_reduce", 0.821, "nccltests309-gjaion_h100_2node_all_reduce",
         0.015},
    };
    const std::string dir = "nccl_beyond/";
    auto systems = nlohmann::json::parse(test::read_data(dir + "systems.json"));
    for (const Carry& c : kCarry) {
        DYNAMIC_SECTION(c.fitted_on << " -> " << c.target) {
            const auto& entry = systems.at(c.fitted_on);
            auto hw = config::parse_hardware_json(entry.at("hardware").dump(), c.fitted_on);
            REQUIRE(hw.is_ok());
            CollectivePerfRequest base;
            base.hardware = hw.value();
            REQUIRE(hardware::parse_coll_op(entry.at("collective").get<std::string>(), base.op));
            const std::string path = dir + c.fitted_on + ".csv";
            auto table = hardware::parse_nccl_tests_output(test::read_data(path), path);
            REQUIRE(table.is_ok());
            auto run = measured_request(base, table.value(), path);
            REQUIRE(run.is_ok());
            auto fit = fit_net_efficiency(run.value(), table.value(), path);
            REQUIRE(fit.is_ok());
            CHECK(fit->fitted == Approx(c.fraction).margin(1e-9));
            std::vector<double> big, small;
            log_ratios(dir, systems, c.target, big, small, fit->fitted);
            INFO(c.target << " with net_efficiency " << fit->fitted << ": >= 1 MiB " << geomean_rel(big));
            CHECK(geomean_rel(big) <= c.bound);
        }
    }
}

TEST_CASE("nccl validation: ASTRA-sim's HGX-H100-validated config, for contrast", "[hardware]") {
    // Its 8 GiB all-reduce on 8 NPUs: 20.9 ms (shared/anchors/nccl/README.md), where the measured systems
    // take 31-41 ms; run through the same engine path with --reference astra-sim.
    CollectivePerfRequest req;
    req.astra_reference = true;
    auto row = run_collective_perf_row(req, 8ull << 30);
    REQUIRE(row.is_ok());
    CHECK(std::fabs(row.value().time_us - 20918.134) < 0.01);
}

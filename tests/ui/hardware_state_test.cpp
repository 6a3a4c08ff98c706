// The browser's Hardware tab logic (ui/hardware_state.h), natively: presets, edits, problems, and the same
// rows as collective-perf.
#include "core/config/config_parse.h"
#include "support/test_support.h"
#include "ui/hardware_state.h"

#include <catch2/catch.hpp>

using namespace astrolabe;

TEST_CASE("hardware tab: presets parse and give collective-perf's rows", "[hardware][ui]") {
    // Every preset is a valid description; the first one's curve is collective-perf's for the same
    // hardware, 8 B to 16 GiB (32 sizes).
    for (const auto& p : ui::hardware_presets())
        CHECK(config::parse_hardware_json(p.json, p.name).is_ok());
    ui::HardwareState hs;
    REQUIRE(hs.problems().is_ok());
    REQUIRE(hs.rows().size() == 32);
    CollectivePerfRequest req;
    req.hardware = hs.hardware();
    auto rows = run_collective_perf(req);
    REQUIRE(rows.is_ok());
    CHECK(rows.value().back().time_us == hs.rows().back().time_us);
}

TEST_CASE("hardware tab: an edit the hardware cannot have shows the parser's message", "[hardware][ui]") {
    // A100 with NVLS on: the same message `collective-perf --hardware` prints, and no curve.
    ui::HardwareState hs;
    hs.hardware().gpu = config::GpuModel::A100Sxm40;
    hs.changed();
    REQUIRE_FALSE(hs.problems().is_ok());
    CHECK(hs.problems().message().find("nvls: is true but A100-SXM4-40GB has no NVLink SHARP") !=
          std::string::npos);
    CHECK(hs.rows().empty());
    hs.hardware().nvls = false;
    hs.changed();
    CHECK(hs.problems().is_ok());
    CHECK_FALSE(hs.rows().empty());
}

TEST_CASE("hardware tab: an edited preset is named as edited, and is the preset again once undone",
          "[hardware][ui]") {
    // The two-node IB preset taken to 4 nodes is no longer that system: the tab (and its summary, which the
    // browser's API reads) says "(edited)"; back to 2 nodes it is the preset again, as the same keys once
    // parsed. A description from elsewhere keeps its origin.
    ui::HardwareState hs;
    hs.load_preset(1);
    const std::string name = ui::hardware_presets()[1].name;
    CHECK_FALSE(hs.edited());
    CHECK(hs.description_name() == name);
    hs.hardware().nodes = 4;
    hs.changed();
    CHECK(hs.edited());
    CHECK(hs.description_name() == name + " (edited)");
    CHECK(hs.summary_json().find("\"preset\": \"" + name + " (edited)\"") != std::string::npos);
    hs.hardware().nodes = 2;
    hs.changed();
    CHECK_FALSE(hs.edited());
    CHECK(hs.description_name() == name);
    hs.load(hs.hardware());
    CHECK_FALSE(hs.edited());
    CHECK(hs.description_name() == "(the scenario's)");
}

TEST_CASE("hardware tab: the description round-trips through its JSON", "[hardware][ui]") {
    ui::HardwareState hs;
    hs.load_preset(4); // two p4de nodes on EFA
    auto back = config::parse_hardware_json(hs.json(), "round trip");
    REQUIRE(back.is_ok());
    CHECK(back.value().nodes == 2);
    CHECK(back.value().fabric == config::Fabric::Efa);
    CHECK(back.value().nics_per_node == 4);
    CHECK(config::hardware_json(back.value()) == hs.json());
}

TEST_CASE("collectivePerf from text: rows, and every problem named", "[hardware][ui]") {
    CollectivePerfArgs args;
    args.hardware_json = R"({"gpu": "H100-SXM"})";
    args.op = "all_gather";
    args.algo = "ring";
    args.min_bytes = "1M";
    args.max_bytes = "4M";
    auto ok = ui::collective_perf_from_text(args);
    REQUIRE(ok.is_ok());
    CHECK(ok.value().find("\"size_bytes\": 4194304") != std::string::npos);
    CHECK(ok.value().find("\"type\": \"float\"") != std::string::npos);
    CollectivePerfArgs bad{R"({"gpu": "H100-SMX"})", "all_redcue", "rign", "x", "", "bf16", "prd", false};
    auto wrong = ui::collective_perf_from_text(bad);
    REQUIRE_FALSE(wrong.is_ok());
    const std::string m = wrong.status().message();
    CHECK(m.find("did you mean 'H100-SXM'") != std::string::npos);
    CHECK(m.find("op: 'all_redcue'; all_reduce, all_gather, reduce_scatter or all_to_all was expected (did "
                 "you mean 'all_reduce'?)") != std::string::npos);
    CHECK(m.find("algo: 'rign'") != std::string::npos);
    CHECK(m.find("minBytes: 'x'") != std::string::npos);
    // The CLI's own messages for -d and -o (nccl_types.h), under the API's key names.
    CHECK(m.find("type: 'bf16'; int8, uint8") != std::string::npos);
    CHECK(m.find("(nccl-tests calls it bfloat16)") != std::string::npos);
    CHECK(m.find("redop: 'prd'; sum, prod, max, min or avg was expected (did you mean 'prod'?)") !=
          std::string::npos);
}

TEST_CASE("collectivePerf from text: sizes cut as nccl-tests cuts them, with or without a type",
          "[hardware][ui]") {
    // All-gather on 8 GPUs from 8 B: nccl-tests moves whole elements per rank, at least 16 bytes each
    // (its getCollByteCount), so 8-64 B (less than 16 each) are skipped and 128 B comes first, with its
    // default float as with double; the type is what the JSON names.
    CollectivePerfArgs args;
    args.hardware_json = R"({"gpu": "H100-SXM", "nvls": true})";
    args.op = "all_gather";
    args.max_bytes = "1K";
    for (const char* type : {"", "double"}) {
        args.type = type;
        auto out = ui::collective_perf_from_text(args);
        REQUIRE(out.is_ok());
        CHECK(out.value().find("\"size_bytes\": 64,") == std::string::npos);
        CHECK(out.value().find("\"size_bytes\": 128,") != std::string::npos);
        CHECK(out.value().find(std::string("\"type\": \"") + (*type ? type : "float") + "\"") !=
              std::string::npos);
    }
}

TEST_CASE("hardware tab: type and reduction as nccl-tests' -d and -o", "[hardware][ui]") {
    // HGX H100 x8 with NVLS, all-reduce of 1 GiB: float sum runs NVLS; float prod cannot (NCCL's
    // ncclNvlsSupported: the switch only adds floats), so the same size runs without it and takes
    // longer; the tab says so and its rows are collective-perf's with -d float -o prod.
    ui::HardwareState hs;
    REQUIRE(hs.hardware().nvls);
    const auto sum_1g = hs.rows().back();
    CHECK(sum_1g.size_bytes == 16ull << 30);
    CHECK(sum_1g.choice.algo == config::NcclAlgo::Nvls);
    CHECK_FALSE(hs.nvls_unusable());
    hs.red_op() = hardware::NcclRedOp::Prod;
    hs.changed();
    REQUIRE(hs.problems().is_ok());
    CHECK(hs.nvls_unusable());
    CHECK(hs.rows().back().choice.algo != config::NcclAlgo::Nvls);
    CHECK(hs.rows().back().time_us > sum_1g.time_us);
    CollectivePerfRequest req;
    req.hardware = hs.hardware();
    req.red_op = hardware::NcclRedOp::Prod;
    req.cut_sizes = true;
    auto rows = run_collective_perf(req);
    REQUIRE(rows.is_ok());
    REQUIRE(rows.value().size() == hs.rows().size());
    CHECK(rows.value().back().time_us == hs.rows().back().time_us);
    CHECK(hs.summary_json().find("\"redop\": \"prod\"") != std::string::npos);
    // All-gather does not reduce: NVLS stays usable whatever the reduction; bfloat16 cuts its sizes to
    // 16 bytes per rank, as every type does (8 ranks: 128 B first).
    hs.op() = hardware::CollOp::AllGather;
    hs.type() = hardware::NcclType::Bfloat16;
    hs.changed();
    CHECK_FALSE(hs.nvls_unusable());
    REQUIRE_FALSE(hs.rows().empty());
    CHECK(hs.rows().front().size_bytes == 128);
}

TEST_CASE("hardware tab: a scenario's description loaded for editing", "[hardware][ui]") {
    // "Edit in the Hardware tab": 2 nodes x 8 H100 at 100 Gb/s is no preset, so the tab names it the
    // scenario's, keeps its keys, and draws collective-perf's curve for it (8 B to 16 GiB, 32 sizes).
    auto hw = config::parse_hardware_json(
        R"({"gpu": "H100-SXM", "nodes": 2, "gpus_per_node": 8, "nic_gbps": 100, "fabric": "infiniband"})",
        "sc");
    REQUIRE(hw.is_ok());
    ui::HardwareState hs;
    hs.load(hw.value());
    CHECK(hs.preset() == -1);
    REQUIRE(hs.problems().is_ok());
    REQUIRE(hs.rows().size() == 32);
    CollectivePerfRequest req;
    req.hardware = hw.value();
    auto rows = run_collective_perf(req);
    REQUIRE(rows.is_ok());
    CHECK(rows.value().back().time_us == hs.rows().back().time_us);
    const std::string summary = hs.summary_json();
    CHECK(summary.find("\"preset\": \"(the scenario's)\"") != std::string::npos);
    CHECK(summary.find("\"nic_gbps\": 100") != std::string::npos);
    CHECK(summary.find("\"fabric\": \"infiniband\"") != std::string::npos);
}

TEST_CASE("hardware tab: the sizes typed as nccl-tests' -b and -e", "[hardware][ui]") {
    // 1M to 1G doubling: 11 sizes (2^20 ... 2^30), the CLI's rows for -b 1M -e 1G -d float.
    ui::HardwareState hs;
    hs.min_size() = "1M";
    hs.max_size() = "1G";
    hs.changed();
    REQUIRE(hs.problems().is_ok());
    REQUIRE(hs.rows().size() == 11);
    CHECK(hs.rows().front().size_bytes == 1ull << 20);
    CHECK(hs.rows().back().size_bytes == 1ull << 30);
    CollectivePerfRequest req;
    req.hardware = hs.hardware();
    req.min_bytes = 1ull << 20;
    req.max_bytes = 1ull << 30;
    req.cut_sizes = true;
    auto rows = run_collective_perf(req);
    REQUIRE(rows.is_ok());
    CHECK(rows.value().back().time_us == hs.rows().back().time_us);
    // A size that is not one, then sizes the wrong way round: a message each, no curve.
    // All-gather from 8 to 64 B on 8 GPUs: nccl-tests moves nothing below 16 bytes per rank (128 B here),
    // so there is no curve and the message says where one starts.
    hs.op() = hardware::CollOp::AllGather;
    hs.min_size() = "8";
    hs.max_size() = "64";
    hs.changed();
    CHECK(hs.rows().empty());
    CHECK(
        hs.problems().message().find("from: 8 and to: 64 leave nothing to run; all_gather on 8 GPUs moves at "
                                     "least 128 bytes") != std::string::npos);
    hs.op() = hardware::CollOp::AllReduce;
    hs.max_size() = "1G";
    hs.min_size() = "1X";
    hs.changed();
    CHECK(hs.rows().empty());
    CHECK(hs.problems().message().find("from: '1X'; a positive size such as 8, 64K, 16G was expected") !=
          std::string::npos);
    hs.min_size() = "2G";
    hs.changed();
    CHECK(hs.rows().empty());
    CHECK(hs.problems().message().find("from: 2G is larger than to: 1G; nothing to run") !=
          std::string::npos);
}

TEST_CASE("hardware tab: a shared curve restores the tab", "[hardware][ui][share]") {
    // The two-node preset, all-gather of doubles from 1M to 1G: its link opens in a fresh tab with the same
    // preset, choices and rows.
    ui::HardwareState hs;
    hs.load_preset(1);
    hs.op() = hardware::CollOp::AllGather;
    hs.type() = hardware::NcclType::Double;
    hs.min_size() = "1M";
    hs.max_size() = "1G";
    hs.changed();
    REQUIRE(hs.problems().is_ok());
    auto frag = hs.share_fragment();
    REQUIRE(frag.is_ok());
    ui::HardwareState fresh;
    REQUIRE(fresh.load_link("https://example.org/#" + frag.value()).is_ok());
    CHECK(fresh.preset() == 1);
    CHECK(fresh.op() == hardware::CollOp::AllGather);
    CHECK(fresh.type() == hardware::NcclType::Double);
    CHECK(fresh.min_size() == "1M");
    CHECK(fresh.max_size() == "1G");
    REQUIRE(fresh.rows().size() == hs.rows().size());
    for (size_t i = 0; i < hs.rows().size(); ++i) {
        CHECK(fresh.rows()[i].size_bytes == hs.rows()[i].size_bytes);
        CHECK(fresh.rows()[i].time_us == hs.rows()[i].time_us);
    }
    // An edited system is no preset: the tab names the link as its origin.
    hs.hardware().nodes = 3;
    hs.changed();
    ui::HardwareState edited;
    REQUIRE(edited.load_link("#" + hs.share_fragment().value()).is_ok());
    CHECK(edited.preset() == -1);
    CHECK(edited.hardware().nodes == 3);
    CHECK(edited.summary_json().find("\"preset\": \"(shared link)\"") != std::string::npos);
    // A damaged link is refused and the tab keeps what it had.
    const auto before = edited.rows().size();
    CHECK_FALSE(edited.load_link("#perf=zzzz").is_ok());
    CHECK(edited.hardware().nodes == 3);
    CHECK(edited.rows().size() == before);
}

TEST_CASE("hardware tab: a forced NVLS with a reduction the switch cannot do is named", "[hardware][ui]") {
    // nccl_algo nvls on the HGX H100 preset, then prod: NVLink SHARP only adds floats, so the tab shows the
    // CLI's message (collective-perf refuses the same file with -o prod) instead of a curve.
    ui::HardwareState hs;
    hs.hardware().algo = config::NcclAlgo::Nvls;
    hs.changed();
    REQUIRE(hs.problems().is_ok());
    hs.red_op() = hardware::NcclRedOp::Prod;
    hs.changed();
    CHECK(hs.rows().empty());
    CHECK(hs.problems().message().find("nccl_algo: nvls cannot prod float") != std::string::npos);
}

TEST_CASE("hardware tab: a measured nccl-tests output beside the curve", "[hardware][ui]") {
    // The open aws_p5 table as nccl-tests printed it (tests/data/nccl_tests_output/), on its own system:
    // the tab runs the table's 32 sizes (8 B-16 GiB, float, sum), the same rows and errors as
    // `collective-perf --measured` (the request measured_request makes, run directly here).
    auto hw =
        config::parse_hardware_json(test::read_data("nccl_tests_output/aws_p5_h100_1node.json"), "p5.json");
    REQUIRE(hw.is_ok());
    const std::string log = test::read_data("nccl_tests_output/aws_p5_h100_1node_allreduce.log");
    ui::HardwareState hs;
    hs.load(hw.value());
    hs.type() = hardware::NcclType::Double; // the table's float replaces it
    REQUIRE(hs.load_measured(log, "p5.log").is_ok());
    REQUIRE(hs.problems().is_ok());
    CHECK(hs.has_measured());
    CHECK(hs.type() == hardware::NcclType::Float);
    CHECK(hs.min_size() == "8");
    CHECK(hs.max_size() == "16G"); // nccl-tests' spelling of 17179869184
    CHECK(nccl_size_text(3 << 20) == "3M");
    CHECK(nccl_size_text(1000) == "1000");
    REQUIRE(hs.rows().size() == 32);
    auto table = hardware::parse_nccl_tests_output(log, "p5.log");
    CollectivePerfRequest base;
    base.hardware = hw.value();
    auto req = measured_request(base, table.value(), "p5.log");
    REQUIRE(req.is_ok());
    auto rows = run_collective_perf(req.value());
    REQUIRE(rows.is_ok());
    CHECK(rows->back().time_us == hs.rows().back().time_us);
    const MeasuredComparison cmp = compare_measured(rows.value(), table.value());
    CHECK(hs.comparison().measured_us == cmp.measured_us);
    CHECK(hs.comparison().large.rows == 15);
    CHECK(hs.comparison().large.geomean == cmp.large.geomean);
    CHECK(hs.summary_json().find("\"measured\": {") != std::string::npos);

    // The collective picked as all-gather: the table's busbw/algbw (1.750) names the run it is of, no
    // curve, the table kept; all-reduce again brings it back.
    hs.op() = hardware::CollOp::AllGather;
    hs.changed();
    REQUIRE_FALSE(hs.problems().is_ok());
    CHECK(hs.problems().message().find("p5.log: busbw/algbw is 1.750") != std::string::npos);
    CHECK(hs.problems().message().find("(all_reduce on 8 ranks)") != std::string::npos);
    hs.op() = hardware::CollOp::AllReduce;
    hs.changed();
    CHECK(hs.problems().is_ok());
    CHECK(hs.comparison().measured_us.size() == 32);

    // A text that is no table is refused with its reason, the tab as it was.
    auto bad = hs.load_measured("hello\n", "notes.txt");
    REQUIRE_FALSE(bad.is_ok());
    CHECK(bad.message() ==
          "notes.txt: no nccl-tests row (size, count, type, redop, [root,] time, algbw, busbw, "
          "...) was found");
    CHECK(hs.measured_name() == "p5.log");

    // Cleared: the curve runs the tab's own sizes again (the table's first and last, doubling: 32 rows).
    hs.clear_measured();
    CHECK_FALSE(hs.has_measured());
    CHECK(hs.comparison().measured_us.empty());
    CHECK(hs.rows().size() == 32);
    CHECK(hs.summary_json().find("\"measured\"") == std::string::npos);
}

TEST_CASE("hardware tab: Fit net_efficiency sets what collective-perf --fit gives", "[hardware][ui]") {
    // The two-node IB preset with rings forced (nccl_algo ring), beside a table the model itself gives at
    // 0.85 of line rate (CSV, as tests/data/nccl holds them): the tab's fit sets net_efficiency 0.850 and
    // its curve is then the table's; the summary carries the fit. Any edit forgets it.
    ui::HardwareState hs;
    hs.load_preset(1); // 2 x HGX H100 (IB 8 x 400G)
    hs.hardware().algo = config::NcclAlgo::Ring;
    hs.min_size() = "1M";
    hs.max_size() = "4G";
    hs.changed();
    REQUIRE(hs.problems().is_ok());
    CollectivePerfRequest req;
    req.hardware = hs.hardware();
    req.hardware.net_efficiency = 0.85;
    req.min_bytes = 1 << 20;
    req.max_bytes = 4ull << 30;
    auto made = run_collective_perf(req);
    REQUIRE(made.is_ok());
    auto csv_from = [&](uint64_t min_bytes) { // the made rows of min_bytes and up, as a CSV table
        std::string csv = "size_bytes,count,type,redop,time_us,algbw_gbs,busbw_gbs\n";
        for (const auto& r : made.value())
            if (r.size_bytes >= min_bytes)
                csv += std::to_string(r.size_bytes) + "," + std::to_string(r.size_bytes / 4) + ",float,sum," +
                       std::to_string(r.time_us) + "," + std::to_string(r.algbw_gbs) + "," +
                       std::to_string(r.busbw_gbs) + "\n";
        return csv;
    };
    REQUIRE(hs.load_measured(csv_from(0), "ring.csv").is_ok());
    REQUIRE(hs.problems().is_ok());
    REQUIRE(hs.fit() == nullptr);
    REQUIRE(hs.fit_measured().is_ok());
    REQUIRE(hs.fit() != nullptr);
    CHECK(hs.hardware().net_efficiency == Approx(0.85).margin(0.0015));
    CHECK(hs.fit()->previous == 0.978);
    CHECK(hs.comparison().large.geomean < 0.002);
    CHECK(hs.summary_json().find("\"net_efficiency\": 0.85") != std::string::npos);
    CHECK(hs.summary_json().find("\"fit\": {") != std::string::npos);
    hs.hardware().nodes = 2; // an edit (even to the same value) recomputes and forgets the fit
    hs.changed();
    CHECK(hs.fit() == nullptr);
    // Refused, the description unchanged, the reason kept for the tab: without rings the two-node
    // all-reduce runs NVLS-tree from 128 MiB up (the table's rows from 256 MiB).
    hs.hardware().algo = config::NcclAlgo::Auto;
    hs.hardware().net_efficiency = 0;
    hs.changed();
    REQUIRE(hs.load_measured(csv_from(256ull << 20), "large.csv").is_ok());
    REQUIRE(hs.problems().is_ok());
    REQUIRE_FALSE(hs.fit_measured().is_ok());
    CHECK(hs.hardware().net_efficiency == 0);
    CHECK(hs.fit_problem().find("large.csv: 0 of its rows run as rings") == 0);
    CHECK(hs.summary_json().find("\"fit_problem\"") != std::string::npos);
}

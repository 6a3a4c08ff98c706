// astrolabe.hardware/1 parsing: defaults, every bad key or value named, nearest spellings.
#include "core/config/config_parse.h"

#include <catch2/catch.hpp>

using namespace astrolabe::config;

TEST_CASE("hardware json: defaults and a full description", "[hardware]") {
    SECTION("only the GPU: one HGX node of 8, NVLS on H100, 8 x 400 Gb/s NICs, one process per GPU") {
        auto hw = parse_hardware_json(R"({"gpu": "H100-SXM"})", "hw.json");
        REQUIRE(hw.is_ok());
        CHECK(hw.value().nodes == 1);
        CHECK(hw.value().gpus_per_node == 8);
        CHECK(hw.value().nvls);
        CHECK(hw.value().nics_per_node == 8);
        CHECK(hw.value().nic_gbps == 400);
        CHECK(hw.value().processes == ProcessLayout::OnePerGpu);
        CHECK(hw.value().cpu == CpuVendor::Intel); // HGX H100 off AWS: Xeon (Sapphire Rapids) hosts
        CHECK(hw.value().algo == NcclAlgo::Auto);
    }
    SECTION("A100 defaults: no NVLS, HDR 200 Gb/s NICs") {
        auto hw = parse_hardware_json(R"({"gpu": "A100-SXM4-80GB", "gpus_per_node": 4})", "hw.json");
        REQUIRE(hw.is_ok());
        CHECK_FALSE(hw.value().nvls);
        CHECK(hw.value().nic_gbps == 200);
        CHECK(hw.value().nics_per_node == 4); // follows gpus_per_node
    }
    SECTION("every field given") {
        auto hw = parse_hardware_json(R"({"schema": "astrolabe.hardware/1", "gpu": "H100-SXM", "nodes": 2,
            "gpus_per_node": 8, "nvls": true, "nics_per_node": 8, "nic_gbps": 400, "fabric": "infiniband",
            "processes": "one-per-node", "cpu": "amd", "collnet": true, "nccl_algo": "collnet",
            "nccl_proto": "Simple"})",
                                      "hw.json");
        REQUIRE(hw.is_ok());
        CHECK(hw.value().ranks() == 16);
        CHECK(hw.value().fabric == Fabric::Infiniband);
        CHECK(hw.value().processes == ProcessLayout::OnePerNode);
        CHECK(hw.value().cpu == CpuVendor::Amd);
        CHECK(hw.value().algo == NcclAlgo::CollNet);
        CHECK(hw.value().proto == NcclProto::Simple);
    }
    SECTION("EFA's transport follows the instance that carries the GPU unless given") {
        // aws-ofi-nccl's platform table: RDMA writes on p5 (H100), tagged send/receive on p4d/p4de (A100).
        auto p5 = parse_hardware_json(R"({"gpu": "H100-SXM", "fabric": "efa"})", "hw.json");
        REQUIRE(p5.is_ok());
        CHECK(p5.value().efa_transport == EfaTransport::Rdma);
        auto p4de = parse_hardware_json(R"({"gpu": "A100-SXM4-80GB", "fabric": "efa"})", "hw.json");
        REQUIRE(p4de.is_ok());
        CHECK(p4de.value().efa_transport == EfaTransport::SendRecv);
        auto forced = parse_hardware_json(
            R"({"gpu": "H100-SXM", "fabric": "efa", "efa_transport": "sendrecv"})", "hw.json");
        REQUIRE(forced.is_ok());
        CHECK(forced.value().efa_transport == EfaTransport::SendRecv);
        // The writer names it on EFA only, and what it writes parses back to the same transport.
        CHECK(hardware_json(forced.value()).find("\"efa_transport\": \"sendrecv\"") != std::string::npos);
        auto back = parse_hardware_json(hardware_json(forced.value()), "back.json");
        REQUIRE(back.is_ok());
        CHECK(back.value().efa_transport == EfaTransport::SendRecv);
        auto ib = parse_hardware_json(R"({"gpu": "H100-SXM", "fabric": "infiniband"})", "hw.json");
        REQUIRE(ib.is_ok());
        CHECK(hardware_json(ib.value()).find("efa_transport") == std::string::npos);
    }
    SECTION("a key set to null is a key not given: its default") {
        // What a JSON writer emits for "none" (Python's None): the same description as without the keys.
        auto with_nulls = parse_hardware_json(
            R"({"gpu": "H100-SXM", "nodes": 2, "fabric": "efa", "nccl_algo": null, "cpu": null, "nvls": null})",
            "hw.json");
        auto without = parse_hardware_json(R"({"gpu": "H100-SXM", "nodes": 2, "fabric": "efa"})", "hw.json");
        REQUIRE(with_nulls.is_ok());
        REQUIRE(without.is_ok());
        CHECK(hardware_json(with_nulls.value()) == hardware_json(without.value()));
        CHECK(with_nulls.value().algo == NcclAlgo::Auto);
        CHECK(with_nulls.value().cpu == CpuVendor::Amd); // the p5's hosts
        CHECK(with_nulls.value().nvls);
    }
    SECTION("H200-SXM: H100's board and collectives, its own HBM") {
        // Same SMs, NVLink4 and NVSwitch gen3 (NVLS by default), so every collective figure is H100's and
        // an H200 description runs H100's rows; the datasheet's HBM3e (4.8 TB/s) is the difference. On EFA
        // it is a p5e: RDMA writes, AWS's tuner, AMD hosts.
        auto h200 = parse_hardware_json(R"({"gpu": "H200-SXM", "fabric": "efa"})", "hw.json");
        REQUIRE(h200.is_ok());
        CHECK(h200.value().nvls);
        CHECK(h200.value().nic_gbps == 400);
        CHECK(h200.value().hbm_gbs == 4800);
        CHECK(h200.value().peak_tflops == Approx(989.4));
        CHECK(h200.value().efa_transport == EfaTransport::Rdma);
        CHECK(h200.value().tuner == NcclTuner::AwsOfiNccl);
        CHECK(h200.value().cpu == CpuVendor::Amd);
        auto ib = parse_hardware_json(R"({"gpu": "H200-SXM", "fabric": "infiniband"})", "hw.json");
        REQUIRE(ib.is_ok());
        CHECK(ib.value().cpu == CpuVendor::Intel);
    }
    SECTION("nccl_algo and nccl_proto as NCCL's environment spells them") {
        // NCCL reads NCCL_ALGO/NCCL_PROTO without regard to case: NCCL_ALGO=Ring, NVLSTree, CollNetDirect.
        const struct {
            const char* algo;
            NcclAlgo want;
        } kAlgos[] = {{"Ring", NcclAlgo::Ring},           {"RING", NcclAlgo::Ring},
                      {"Tree", NcclAlgo::Tree},           {"NVLS", NcclAlgo::Nvls},
                      {"NVLSTree", NcclAlgo::NvlsTree},   {"CollNetDirect", NcclAlgo::CollNet},
                      {"CollNetChain", NcclAlgo::CollNet}};
        for (const auto& a : kAlgos) {
            const std::string json = std::string(R"({"gpu": "H100-SXM", "nodes": 2, "fabric": "infiniband",
                "collnet": true, "nccl_proto": "simple", "nccl_algo": ")") +
                                     a.algo + "\"}";
            auto hw = parse_hardware_json(json, "hw.json");
            INFO(a.algo);
            REQUIRE(hw.is_ok());
            CHECK(hw.value().algo == a.want);
            CHECK(hw.value().proto == NcclProto::Simple);
            NcclAlgo flag = NcclAlgo::Auto; // --algo takes the same spellings
            CHECK(parse_nccl_algo(a.algo, flag));
            CHECK(flag == a.want);
        }
    }
    SECTION("the hosts' CPU follows the platform that carries the GPU and fabric unless given") {
        // p5/p5e: AMD EPYC 7R13; p4d/p4de: Xeon 8275CL; DGX/HGX A100: AMD EPYC (Rome, Milan); DGX/HGX
        // H100: Xeon (Sapphire Rapids). NCCL rates multi-node LL and a network post by it.
        const struct {
            const char* json;
            CpuVendor cpu;
        } kPlatforms[] = {
            {R"({"gpu": "H100-SXM", "fabric": "efa"})", CpuVendor::Amd},
            {R"({"gpu": "A100-SXM4-80GB", "fabric": "efa"})", CpuVendor::Intel},
            {R"({"gpu": "A100-SXM4-40GB", "fabric": "infiniband"})", CpuVendor::Amd},
            {R"({"gpu": "A100-SXM4-40GB", "fabric": "roce"})", CpuVendor::Amd},
            {R"({"gpu": "H100-SXM", "fabric": "infiniband"})", CpuVendor::Intel},
            {R"({"gpu": "H100-SXM", "fabric": "tcpxo"})", CpuVendor::Intel},
            {R"({"gpu": "H100-SXM", "fabric": "efa", "cpu": "intel"})", CpuVendor::Intel}, // given
            {R"({"gpu": "A100-SXM4-40GB", "cpu": "intel"})", CpuVendor::Intel},
        };
        for (const auto& p : kPlatforms) {
            auto hw = parse_hardware_json(p.json, "hw.json");
            REQUIRE(hw.is_ok());
            INFO(p.json);
            CHECK(hw.value().cpu == p.cpu);
            auto back = parse_hardware_json(hardware_json(hw.value()), "back.json");
            REQUIRE(back.is_ok());
            CHECK(back.value().cpu == p.cpu);
        }
    }
    SECTION("AWS's tuner is NCCL's on p5 (H100 over EFA) unless given, NCCL's own elsewhere") {
        // aws-ofi-nccl points NCCL_TUNER_PLUGIN at itself; its maps cover p5/p5e only.
        auto p5 = parse_hardware_json(R"({"gpu": "H100-SXM", "fabric": "efa"})", "hw.json");
        REQUIRE(p5.is_ok());
        CHECK(p5.value().tuner == NcclTuner::AwsOfiNccl);
        auto p4de = parse_hardware_json(R"({"gpu": "A100-SXM4-80GB", "fabric": "efa"})", "hw.json");
        REQUIRE(p4de.is_ok());
        CHECK(p4de.value().tuner == NcclTuner::Nccl);
        auto ib = parse_hardware_json(R"({"gpu": "H100-SXM", "fabric": "infiniband"})", "hw.json");
        REQUIRE(ib.is_ok());
        CHECK(ib.value().tuner == NcclTuner::Nccl);
        CHECK(hardware_json(ib.value()).find("nccl_tuner") == std::string::npos);
        auto own =
            parse_hardware_json(R"({"gpu": "H100-SXM", "fabric": "efa", "nccl_tuner": "nccl"})", "hw.json");
        REQUIRE(own.is_ok());
        CHECK(own.value().tuner == NcclTuner::Nccl);
        // The writer names it on EFA, and it parses back.
        CHECK(hardware_json(own.value()).find("\"nccl_tuner\": \"nccl\"") != std::string::npos);
        auto back = parse_hardware_json(hardware_json(p5.value()), "back.json");
        REQUIRE(back.is_ok());
        CHECK(back.value().tuner == NcclTuner::AwsOfiNccl);
    }
}

TEST_CASE("hardware json: bad input names the key and the nearest spelling", "[hardware]") {
    auto problems = [](const char* text) {
        auto hw = parse_hardware_json(text, "hw.json");
        REQUIRE_FALSE(hw.is_ok());
        return hw.status().message();
    };
    SECTION("a misspelt key is an error with the key it resembles") {
        std::string m = problems(R"({"gpu": "H100-SXM", "nvsl": true})");
        CHECK(m.find("hw.json: nvsl: unknown key") != std::string::npos);
        CHECK(m.find("did you mean 'nvls'?") != std::string::npos);
    }
    SECTION("a misspelt GPU and fabric, each reported") {
        std::string m = problems(R"({"gpu": "H100-SMX", "fabric": "infiniban"})");
        CHECK(m.find("gpu: unknown value \"H100-SMX\"") != std::string::npos);
        CHECK(m.find("did you mean 'H100-SXM'?") != std::string::npos);
        CHECK(m.find("did you mean 'infiniband'?") != std::string::npos);
    }
    SECTION("NCCL_ALGO's lists, exclusions and PAT are not one forced algorithm we model") {
        // A list or an exclusion is NCCL choosing among several, not one forced algorithm; PAT has no model.
        CHECK(problems(R"({"nccl_algo": "Tree,Ring"})").find("one forced algorithm") != std::string::npos);
        CHECK(problems(R"({"nccl_algo": "^NVLS"})").find("did you mean") == std::string::npos);
        CHECK(problems(R"({"nccl_algo": "PAT"})").find("PAT algorithm is not modelled") != std::string::npos);
        // Other keys keep their exact names: "InfiniBand" is a slip the message names.
        CHECK(problems(R"({"fabric": "InfiniBand"})").find("did you mean 'infiniband'") != std::string::npos);
    }
    SECTION("a CPU vendor outside the two NCCL rates") {
        std::string m = problems(R"({"gpu": "H100-SXM", "cpu": "AMD"})");
        CHECK(m.find("hw.json: cpu: unknown value \"AMD\"; expected intel or amd") != std::string::npos);
        CHECK(m.find("did you mean 'amd'?") != std::string::npos);
    }
    SECTION("an EFA transport on another fabric, or misspelt") {
        std::string m = problems(R"({"gpu": "H100-SXM", "fabric": "roce", "efa_transport": "rdma"})");
        CHECK(m.find("hw.json: efa_transport: is set on fabric roce; it describes AWS's EFA plugin and needs "
                     "fabric efa") != std::string::npos);
        m = problems(R"({"gpu": "H100-SXM", "fabric": "efa", "efa_transport": "send_recv"})");
        CHECK(m.find("efa_transport: unknown value \"send_recv\"; expected sendrecv or rdma") !=
              std::string::npos);
        CHECK(m.find("did you mean 'sendrecv'?") != std::string::npos);
    }
    SECTION("AWS's tuner off EFA or off H100, or misspelt") {
        std::string m =
            problems(R"({"gpu": "H100-SXM", "fabric": "infiniband", "nccl_tuner": "aws-ofi-nccl"})");
        CHECK(m.find("hw.json: nccl_tuner: is aws-ofi-nccl on fabric infiniband; AWS's tuner comes with its "
                     "EFA plugin and needs fabric efa (or use nccl)") != std::string::npos);
        m = problems(R"({"gpu": "A100-SXM4-40GB", "fabric": "efa", "nccl_tuner": "aws-ofi-nccl"})");
        CHECK(m.find("nccl_tuner: is aws-ofi-nccl with A100-SXM4-40GB; AWS's tuner has maps for p5/p5e "
                     "(H100-SXM, H200-SXM) only") != std::string::npos);
        m = problems(R"({"gpu": "H100-SXM", "fabric": "efa", "nccl_tuner": "aws_ofi_nccl"})");
        CHECK(m.find("nccl_tuner: unknown value \"aws_ofi_nccl\"; expected nccl or aws-ofi-nccl") !=
              std::string::npos);
        CHECK(m.find("did you mean 'aws-ofi-nccl'?") != std::string::npos);
    }
    SECTION("values the hardware cannot have") {
        std::string m = problems(R"({"gpu": "A100-SXM4-40GB", "nvls": true, "nodes": 0, "collnet": true,
                                     "fabric": "efa", "nic_gbps": -1, "processes": 8})");
        CHECK(m.find("nvls: is true but A100-SXM4-40GB has no NVLink SHARP") != std::string::npos);
        CHECK(m.find("nodes: is 0") != std::string::npos);
        CHECK(m.find("collnet: is true on fabric efa") != std::string::npos);
        CHECK(m.find("nic_gbps: is -1") != std::string::npos);
        CHECK(m.find("processes: is 8") != std::string::npos);
    }
    SECTION("a forced algorithm the system does not offer") {
        CHECK(problems(R"({"gpu": "H100-SXM", "nvls": false, "nccl_algo": "nvls"})").find("nvls is false") !=
              std::string::npos);
        CHECK(problems(R"({"gpu": "H100-SXM", "nccl_algo": "nvls_tree"})").find("on one node") !=
              std::string::npos);
        CHECK(problems(R"({"gpu": "H100-SXM", "schema": "astrolabe.hardware/2"})").find("schema") !=
              std::string::npos);
    }
    SECTION("not JSON, not an object") {
        CHECK(problems("{").find("hw.json: invalid JSON") != std::string::npos);
        CHECK(problems("[1]").find("must be a JSON object") != std::string::npos);
    }
}

TEST_CASE("hardware json: the choice lists are the names, in enum order", "[hardware]") {
    // The parser reads choices by position in these lists, the browser's menus offer them and the name
    // functions return their entries, so each list must have one entry per enumerator, in enum order (a
    // list out of order would swap two values on a round trip): the counts and spellings pinned here.

    auto same = [](const char* key, int count, auto name) {
        const auto& names = hardware_choices(key);
        REQUIRE(names.size() == static_cast<size_t>(count));
        for (int i = 0; i < count; ++i)
            CHECK(names[static_cast<size_t>(i)] == name(i));
    };
    same("gpu", 4, [](int i) { return gpu_model_name(static_cast<GpuModel>(i)); });
    same("fabric", 5, [](int i) { return fabric_name(static_cast<Fabric>(i)); });
    same("processes", 2, [](int i) { return process_layout_name(static_cast<ProcessLayout>(i)); });
    same("cpu", 2, [](int i) { return cpu_vendor_name(static_cast<CpuVendor>(i)); });
    same("efa_transport", 2, [](int i) { return efa_transport_name(static_cast<EfaTransport>(i)); });
    same("nccl_tuner", 2, [](int i) { return nccl_tuner_name(static_cast<NcclTuner>(i)); });
    same("nccl_algo", 6, [](int i) { return nccl_algo_name(static_cast<NcclAlgo>(i)); });
    same("nccl_proto", 4, [](int i) { return nccl_proto_name(static_cast<NcclProto>(i)); });
    CHECK(hardware_choices("nodes").empty());
}

TEST_CASE("hardware json: nccl_buffsize, NCCL_BUFFSIZE in bytes", "[hardware]") {
    // Absent: the fabric's default, 8 MiB on EFA (aws-ofi-nccl's platform table sets NCCL_BUFFSIZE=8388608
    // on p4d/p4de/p5/p5e) and TCPXO (Google's NCCL profile), NCCL's 4 MiB elsewhere; the writer leaves it
    // out, so a description without it reads back without it. Given, it is kept and written.
    auto efa = parse_hardware_json(R"({"gpu": "A100-SXM4-40GB", "nodes": 2, "fabric": "efa"})", "hw.json");
    REQUIRE(efa.is_ok());
    CHECK(efa->nccl_buffsize == 0);
    CHECK(nccl_buffsize(efa.value()) == 8388608);
    CHECK(hardware_json(efa.value()).find("nccl_buffsize") == std::string::npos);
    auto ib = parse_hardware_json(R"({"fabric": "infiniband", "nccl_buffsize": 16777216})", "hw.json");
    REQUIRE(ib.is_ok());
    CHECK(nccl_buffsize(ib.value()) == 16777216);
    CHECK(hardware_json(ib.value()).find("\"nccl_buffsize\": 16777216") != std::string::npos);
    CHECK(nccl_buffsize(HardwareConfig{}) == 4194304);
    // Bad values are named: below one 8 KiB step per NCCL_STEPS, a string (nccl-tests' 8M spelling is
    // for sizes on the command line, not NCCL's variable).
    auto small = parse_hardware_json(R"({"nccl_buffsize": 4096})", "hw.json");
    REQUIRE_FALSE(small.is_ok());
    CHECK(small.status().message().find("hw.json: nccl_buffsize:") != std::string::npos);
    auto text = parse_hardware_json(R"({"nccl_buffsize": "8M"})", "hw.json");
    REQUIRE_FALSE(text.is_ok());
    CHECK(text.status().message().find("hw.json: nccl_buffsize:") != std::string::npos);
}

TEST_CASE("hardware json: net_efficiency, the line-rate fraction a cluster's collectives reach",
          "[hardware]") {
    // Absent: 0, the fabric's own figure, and not written (files and links without it are unchanged).
    // Given: kept and written, so a fitted description (collective-perf --fit) reads back as fitted.
    auto plain = parse_hardware_json(R"({"nodes": 4, "fabric": "infiniband"})", "hw.json");
    REQUIRE(plain.is_ok());
    CHECK(plain->net_efficiency == 0);
    CHECK(hardware_json(plain.value()).find("net_efficiency") == std::string::npos);
    auto fitted =
        parse_hardware_json(R"({"nodes": 4, "fabric": "infiniband", "net_efficiency": 0.813})", "hw.json");
    REQUIRE(fitted.is_ok());
    CHECK(fitted->net_efficiency == 0.813);
    const std::string text = hardware_json(fitted.value());
    CHECK(text.find("\"net_efficiency\": 0.813") != std::string::npos);
    auto again = parse_hardware_json(text, "again.json");
    REQUIRE(again.is_ok());
    CHECK(again->net_efficiency == 0.813);
    // A fraction of line rate: 0.05 to 1. More than the NIC's rate, a percentage, nothing or a string are
    // named with what was expected.
    for (const char* bad :
         {R"({"net_efficiency": 1.2})", R"({"net_efficiency": 81})", R"({"net_efficiency": 0.01})",
          R"({"net_efficiency": 0})", R"({"net_efficiency": "0.8"})"}) {
        auto r = parse_hardware_json(bad, "hw.json");
        REQUIRE_FALSE(r.is_ok());
        CHECK(r.status().message().find("hw.json: net_efficiency:") != std::string::npos);
    }
}

// libFuzzer harness: every configuration parser on the same bytes: ASTRA-sim's network YAML, system,
// remote-memory and communicator-group JSON, a hardware description (astrolabe.hardware/1) and Chakra's
// JSON trace form. Each must refuse garbage with a Status, never crash or hang. A hardware description the
// parser accepts also goes through NCCL's choice for every operation at three sizes and the mapping onto
// a network, so any value the parser lets through must give the model finite arithmetic (UBSan checks
// float-to-integer conversions). A curve link's document (astrolabe.perf-link/1) the parser accepts goes
// through the checker that turns it into collective-perf's request. A measured nccl-tests table
// (collective-perf --measured: nccl-tests' printed output or its CSV form) the reader accepts goes through
// the checks that set it beside a description, and when it fits one, through --fit's search.
#include "core/config/config_parse.h"
#include "core/hardware/hardware_mapping.h"
#include "core/hardware/nccl_model.h"
#include "core/hardware/nccl_tests_output.h"
#include "core/session/collective_perf_args.h"
#include "core/session/measured_compare.h"
#include "core/session/measured_fit.h"
#include "core/trace/trace_json.h"

#include <cstddef>
#include <cstdint>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    using namespace astrolabe::config;
    std::string_view text(reinterpret_cast<const char*>(data), size);
    (void)parse_network_yaml(text, "fuzz.yml");
    (void)parse_system_json(text, "fuzz.json");
    (void)parse_memory_json(text, "fuzz.json");
    (void)parse_comm_groups_json(text, "fuzz.json", 64);
    (void)astrolabe::trace::trace_from_json(text, "fuzz.json");
    if (auto link = parse_perf_link_json(text, "fuzz.json"); link.is_ok())
        (void)astrolabe::collective_perf_request(link.value());
    if (auto table = astrolabe::hardware::parse_nccl_tests_output(std::string(text), "fuzz.log");
        table.is_ok()) {
        astrolabe::CollectivePerfRequest req;
        req.hardware.nodes = 2;
        req.hardware.gpus_per_node = 8;
        // A table that fits the request also goes through --fit's search (any times, sizes, rows), as a
        // ring (NCCL_ALGO=Ring), whose rows the fit reads.
        if (auto run = astrolabe::measured_request(req, table.value(), "fuzz.log"); run.is_ok()) {
            run.value().algo = NcclAlgo::Ring;
            (void)astrolabe::fit_net_efficiency(run.value(), table.value(), "fuzz.log");
        }
    }
    auto hw = parse_hardware_json(text, "fuzz.json");
    if (hw.is_ok() && hw.value().ranks() >= 2) {
        namespace hwm = astrolabe::hardware;
        for (int op = 0; op < 4; ++op)
            for (uint64_t bytes : {uint64_t(8), uint64_t(1) << 20, uint64_t(1) << 34})
                (void)hwm::choose(hw.value(), static_cast<hwm::CollOp>(op), bytes);
        (void)hwm::map_system(hw.value());
    }
    return 0;
}

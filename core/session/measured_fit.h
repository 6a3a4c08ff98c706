// Fitting a description to a measured nccl-tests table (`collective-perf --measured FILE --fit OUT`): the
// fraction of line rate its collectives reach across nodes (net_efficiency), the one figure of a system
// that its description cannot give and a cluster shows in its own measurement (a congested fabric, a slow
// PCIe path). The model's defaults are never fitted so; docs/validation.md keeps the two apart.
#pragma once

#include "core/base/status.h"
#include "core/config/hardware_types.h"
#include "core/hardware/nccl_tests_output.h"
#include "core/session/collective_perf.h"
#include "core/session/measured_compare.h"

#include <cstdint>
#include <string>
#include <vector>

namespace astrolabe {

struct NetEfficiencyFit {
    config::HardwareConfig hardware; // the description, its net_efficiency set to `fitted`
    double previous = 0;             // the fraction it ran with: its own net_efficiency, else its fabric's
    double fitted = 0;               // rounded to 0.001
    std::vector<uint64_t> sizes;     // the rows the fit read
    MeasuredError before, after;     // over those rows, at `previous` and at `fitted`
};

// A row the fit reads: a ring (NCCL's developers read a network's rate from rings: a tree's rows on two
// nodes can exceed the NICs' rate) whose bytes, not its latency, take most of its time in the model (at
// least kFitBandwidthShare of the tuner's estimate), so the measured time says how fast data moved.
constexpr double kFitBandwidthShare = 0.75;

// The fraction in [0.05, 1] whose predictions for those rows are closest to the table's times (least mean
// |ln(predicted / measured)|), found by golden-section search on the engine's own rows. `run` is
// measured_request's (row i is the table's row i). Refused, naming `source`, for an all-to-all (its
// point-to-point keeps the fabric's figure), a system on one node, and a table with fewer than two such
// rows (which says to measure with rings, NCCL_ALGO=Ring).
Result<NetEfficiencyFit> fit_net_efficiency(const CollectivePerfRequest& run,
                                            const hardware::MeasuredTable& table, const std::string& source);

class JsonWriter;
// The fit as the field "fit" of the object being written: {"net_efficiency", "previous", "sizes",
// "before": {"rows", "geomean_error", "strict_error"}, "after": {...}}.
void fit_json(JsonWriter& w, const NetEfficiencyFit& fit);

// The fit in `#` lines for nccl-tests' table: the fraction before and after, the rows it read and their
// errors (written_to: where the fitted description was saved, or empty).
std::string fit_summary(const NetEfficiencyFit& fit, const std::string& written_to);

} // namespace astrolabe

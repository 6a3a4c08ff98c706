// A prediction beside a measured nccl-tests table (`collective-perf --measured`): the request that reruns
// the table's own sizes, type and reduction on a described system, the checks that the table and the
// description are of the same run, and the errors in docs/validation.md's two conventions.
#pragma once

#include "core/base/status.h"
#include "core/hardware/nccl_tests_output.h"
#include "core/session/collective_perf.h"

#include <string>
#include <vector>

namespace astrolabe {

// One size range's error (docs/validation.md): issue 20's convention, the geometric mean of |p - m| / m
// (each row floored at 1e-4, or one exact row would make it 0), and the stricter exp(mean |ln(p/m)|) - 1.
struct MeasuredError {
    size_t rows = 0;
    double geomean = 0;
    double strict = 0;
};

// The error over a set of rows given as ln(predicted / measured).
MeasuredError measured_error(const std::vector<double>& log_ratios);

// The most rows a table may have (what a run of `collective-perf` may ask for: -i can ask for millions).
constexpr size_t kMaxMeasuredRows = 4096;

// Rows at and above this size count as "large" (issue 20's targets: <= 5 % there, <= 15 % below).
constexpr uint64_t kLargeRowBytes = 1ull << 20;

struct MeasuredComparison {
    std::vector<double> measured_us; // per predicted row, the table's time at that size
    MeasuredError large;             // rows >= 1 MiB
    MeasuredError small;             // rows < 1 MiB
};

// `base` with the table's sizes (as printed: nccl-tests already cut them), type and reduction. Problems,
// each naming `source`: rows of more than one type or reduction; redop none (nccl-tests' all-gather and
// all-to-all) for a collective that reduces; a rank count ("Rank" lines) or GPUs per process (nGpus) that
// is not the description's; a busbw/algbw ratio that is not nccl-tests' factor for base.op on the
// description's ranks (the table is of another collective or system); more than kMaxMeasuredRows rows.
Result<CollectivePerfRequest>
measured_request(CollectivePerfRequest base, const hardware::MeasuredTable& table, const std::string& source);

class JsonWriter;
// One error as the field `key` of the object being written: {"rows", "geomean_error", "strict_error"}.
void measured_error_json(JsonWriter& w, const char* key, const MeasuredError& e);
// The comparison's errors as fields of the object being written: "large" and "small", each {"rows",
// "geomean_error", "strict_error"} (collective-perf --measured --json, the Hardware tab's summary).
void measured_errors_json(JsonWriter& w, const MeasuredComparison& m);

// The errors of `rows` (run from measured_request's request, so row i is the table's row i).
MeasuredComparison compare_measured(const std::vector<CollectivePerfRow>& rows,
                                    const hardware::MeasuredTable& table);

} // namespace astrolabe

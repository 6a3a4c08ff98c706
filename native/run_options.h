// `astrolabe run`'s option values checked before anything is loaded, and the hints its errors give: each
// bad value names its flag (with the nearest valid spelling), and a generated set run without its
// communicator groups says so once, naming the groups file beside the traces.
#pragma once

#include "core/base/status.h"
#include "core/report/report.h"
#include "native/args.h"

#include <string>

namespace astrolabe::cli {

// --network-model, --compute-model, --symmetry and --systolic-dataflow against their choices; every problem.
Status check_run_choices(const Args& a);

// A time with an optional unit: "1500", "1500ns", "2.5us", "10ms", "1.2s" (whole ns after scaling).
bool parse_time_ns(const std::string& s, TimeNs& out);

// --timeline-npus A-B (or A) and --timeline-window T0:T1 (either end may be empty); they need --timeline.
Result<TimelineFilter> timeline_filter(const Args& a);

// The trace problems of a run, with every "communicator group N is not defined" line folded into one that
// names the groups and, when it exists, the groups file `generate` wrote beside the traces (P.json).
std::string explain_trace_problems(const Status& problems, const Args& a);

// "194.3 MB" for a byte count.
std::string format_bytes(size_t bytes);

} // namespace astrolabe::cli

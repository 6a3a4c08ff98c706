// The run report: the JSON contract of docs/report.md, the human summary the CLI prints, and the
// Chrome trace-event timeline.
//
// JSON keys are stable and written in a fixed order; the same run gives the same bytes natively and in wasm
// except `engine.wall_s` and `engine.events_per_s`, which measure the host.
#pragma once

#include "core/base/json_writer.h"
#include "core/base/parallel.h"
#include "core/simulation/simulation.h"

#include <string>
#include <vector>

namespace astrolabe {

struct ReportContext {
    std::string workload;      // what ran (prefix or sample name)
    std::string network_model; // "analytical", ...
    std::string compute_model; // "trace" or "roofline"
    double wall_s = 0;
    bool partial = false; // stopped early (interrupted or a limit)
    std::string partial_reason;
    // build_simulation's warnings, one per occurrence; merged with the run's notes into `warnings`.
    std::vector<std::string> load_warnings;
};

// The report as one string (the browser, tests), or streamed to `sink` in pieces (the CLI's file: a
// million-NPU report is most of a GB). The same bytes either way, and for any runner (threads that
// format blocks of the per-NPU and per-collective arrays; nullptr: this thread).
std::string report_json(const RunResult& r, const ReportContext& ctx, TaskRunner* runner = nullptr);
void write_report_json(ByteSink& sink, const RunResult& r, const ReportContext& ctx,
                       TaskRunner* runner = nullptr);
// The human summary (stdout in the CLI): results only.
std::string report_summary(const RunResult& r, const ReportContext& ctx);
// What the run noticed that the user should hear about (messages sent but never received), as "warning:"
// lines for stderr, so scripts reading stdout get the summary alone; empty when there is nothing.
std::string run_warnings_text(const RunResult& r);

// Chrome trace-event JSON (chrome://tracing, Perfetto): one process per NPU, one thread per resource
// (CPU, GPU compute, GPU communication, receives), one complete event per node. Times in us as the format
// wants, with ns precision. Needs a run made with SimulationInput::keep_timeline.
std::string timeline_json(const Simulation& sim, const RunResult& r);

// Part of the timeline, to keep the file of a large run small: NPUs first_npu..last_npu (inclusive), and
// the nodes that overlap [from_ns, to_ns]. Nodes are kept whole (a node crossing the window's edge keeps its
// real start and duration).
struct TimelineFilter {
    uint32_t first_npu = 0;
    uint32_t last_npu = UINT32_MAX;
    TimeNs from_ns = 0;
    TimeNs to_ns = kTimeNever;
    bool keeps(const TimelineRecord& rec) const;
};
std::string timeline_json(const Simulation& sim, const RunResult& r, const TimelineFilter& filter);

} // namespace astrolabe

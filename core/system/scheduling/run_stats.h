// What a run measures, filled in by the executor and turned into the report by core/report.
#pragma once

#include "core/base/time.h"
#include "core/trace/trace_types.h"

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace astrolabe {

struct NpuStats {
    bool finished = false;
    TimeNs finish_ns = 0;
    TimeNs compute_ns = 0;       // GPU compute (what ASTRA-sim subtracts to get "exposed communication")
    TimeNs compute_bound_ns = 0; // roofline nodes limited by peak compute
    TimeNs memory_bound_ns = 0;  // roofline nodes limited by local memory bandwidth
    TimeNs cpu_ns = 0;           // host CPU ops, replayed from their duration
    // The systolic model (all zero under the other models).
    TimeNs systolic_ns = 0;               // compute nodes run on the array
    uint64_t systolic_cycles = 0;         // array cycles they took (counts, not SCALE-Sim's last index)
    double systolic_macs = 0;             // multiply-accumulates they did
    double systolic_mapped_cycles = 0;    // sum of cycles x mapping efficiency (a fraction)
    uint64_t systolic_nodes = 0;          // compute nodes with a GEMM shape
    uint64_t roofline_fallback_nodes = 0; // without a shape, timed by the roofline (num_ops, tensor_size)
    uint64_t replayed_nodes = 0;          // with neither, replayed from duration_micros
    TimeNs memory_ns = 0;                 // remote-memory loads and stores, issue to completion
    TimeNs comm_ns = 0; // collectives, sends and receives, issue to completion (summed per node)
    TimeNs busy_ns = 0; // time with at least one node in flight
    uint64_t nodes = 0;
    uint64_t nodes_done = 0;
    TimeNs exposed_comm_ns() const { return finish_ns > compute_ns ? finish_ns - compute_ns : 0; }
    TimeNs idle_ns() const { return finish_ns > busy_ns ? finish_ns - busy_ns : 0; }
};

// One collective as every member saw it: each NPU's k-th collective in a group is the same collective.
struct CollectiveRecord {
    uint32_t group_id = 0; // 0 = whole system
    uint32_t ordinal = 0;  // k: position among the group's collectives
    trace::CollectiveType type = trace::CollectiveType::AllReduce;
    uint64_t bytes = 0;
    uint32_t npus = 0; // members that finished it
    TimeNs start_ns = kTimeNever;
    TimeNs end_ns = 0;
};

// One node's execution, for the timeline (kept only when asked for).
struct TimelineRecord {
    uint32_t npu = 0;
    uint32_t node = 0; // index in that NPU's graph
    TimeNs start_ns = 0;
    TimeNs end_ns = 0;
};

struct RunStats {
    std::vector<NpuStats> npus;
    std::vector<CollectiveRecord> collectives;
    std::vector<TimelineRecord> timeline;
    uint64_t systolic_pes = 0;             // rows * cols of the systolic array; 0 = another compute model
    std::map<std::string, uint64_t> notes; // modelling notes -> occurrences (sorted: deterministic reports)
    void note(const std::string& what) { ++notes[what]; }
};

} // namespace astrolabe

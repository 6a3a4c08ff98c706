// `collective-perf`: nccl-tests' microbenchmark loop on a described system, run through the normal engine.
//
// For each size the NCCL-like tuner (core/hardware) picks an algorithm and protocol, hardware_mapping turns
// the choice into network and system configs, and a generated trace reproduces nccl-tests' loop on every
// rank: a host node launches each collective (one kernel launch per GPU the process drives), collectives
// run back to back on the GPU. nccl-tests reports the steady-state time per iteration, so we simulate one
// and `kIterations` iterations and report the difference per extra iteration: max(host launch, collective)
// once the loop is in its rhythm.
#pragma once

#include "core/base/status.h"
#include "core/config/hardware_types.h"
#include "core/hardware/nccl_model.h"
#include "core/hardware/nccl_types.h"

#include <cstdint>
#include <string>
#include <vector>

namespace astrolabe {

struct CollectivePerfRow {
    uint64_t size_bytes = 0;
    uint64_t count =
        0; // elements of the request's type (per rank for all-gather, reduce-scatter, all-to-all)
    double time_us = 0;
    double algbw_gbs = 0;
    double busbw_gbs = 0;
    hardware::NcclChoice choice;
};

struct CollectivePerfRequest {
    config::HardwareConfig hardware;
    hardware::CollOp op = hardware::CollOp::AllReduce;
    uint64_t min_bytes = 8;
    uint64_t max_bytes = 16ull << 30;
    uint64_t factor = 2;     // nccl-tests -f: each size is the previous times this
    uint64_t step_bytes = 0; // nccl-tests -i: each size is the previous plus this instead (0: the factor)
    // These sizes, as they are, instead of min/max/factor/step (a measured table's own sizes, --measured).
    std::vector<uint64_t> sizes;
    hardware::NcclType type = hardware::NcclType::Float; // nccl-tests -d
    // Cut each size as nccl-tests does (collective_perf_sizes). Off only for a measured table's own sizes,
    // which nccl-tests printed already cut.
    bool cut_sizes = true;
    hardware::NcclRedOp red_op = hardware::NcclRedOp::Sum; // nccl-tests -o (all-reduce, reduce-scatter)
    config::NcclAlgo algo = config::NcclAlgo::Auto;
    // ASTRA-sim's "HGX-H100-validated" configuration instead of the NCCL-like model (for contrast):
    // one Switch dimension at 400 GB/s and 936.25 ns, ring, 2 active chunks, its endpoint delay.
    bool astra_reference = false;
};

// The sizes nccl-tests would run: min, min*f (or min+i), ... up to max. With cut_sizes each is cut as
// nccl-tests cuts it: all-reduce to whole elements; all-gather, reduce-scatter and all-to-all to whole
// elements per rank, rounded down to a multiple of 16 bytes per rank (its getCollByteCount: 32 MiB on 20
// ranks is 33554240 bytes, whatever the type). A size with nothing per rank is skipped (nccl-tests prints
// a row of size 0 that moves nothing).
std::vector<uint64_t> collective_perf_sizes(const CollectivePerfRequest& req);

// How many sizes the request's -b, -e and -f or -i give before that cut (what a run would cost); the
// explicit list's length when the request has one.
uint64_t collective_perf_size_count(const CollectivePerfRequest& req);

// An error when the request's -b to -e holds no size nccl-tests would move anything at (every size is cut
// to nothing: less than 16 bytes per rank, or than one element for all-reduce), naming the first size
// that runs; `min_key` and `max_key` name the request's sizes in the message (-b/-e, from/to).
Status collective_perf_size_problems(const CollectivePerfRequest& req, const std::string& min_key,
                                     const std::string& max_key);

// The system a row runs on: the request's, without NVLink SHARP where NCCL's NVLS kernels cannot do the
// request's reduction (nccl_types.h nvls_reduces).
config::HardwareConfig collective_perf_system(const CollectivePerfRequest& req);

// What keeps the request's forced algorithm (its own, else the description's nccl_algo) from running: NVLS
// without NVLink SHARP or for a reduction the switch cannot do, CollNet without InfiniBand SHARP. `key`
// names the request's algorithm in messages (--algo on the command line, algo in the browser).
Status collective_perf_algo_problems(const CollectivePerfRequest& req, const std::string& key);

// Runs one row (one size) through the engine.
Result<CollectivePerfRow> run_collective_perf_row(const CollectivePerfRequest& req, uint64_t bytes);

// Every row of the request.
Result<std::vector<CollectivePerfRow>> run_collective_perf(const CollectivePerfRequest& req);

struct MeasuredComparison; // core/session/measured_compare.h
struct NetEfficiencyFit;   // core/session/measured_fit.h

// nccl-tests' text table and the `{"rows": [...]}` JSON form; with `measured`, each row also shows the
// measured time and the error against it, and the table closes with the per-range geomeans; with `fit`
// (the rows were run on a fitted description), the JSON also has {"fit": {...}} (fit_json).
std::string collective_perf_table(const CollectivePerfRequest& req,
                                  const std::vector<CollectivePerfRow>& rows,
                                  const MeasuredComparison* measured = nullptr);
std::string collective_perf_json(const CollectivePerfRequest& req, const std::vector<CollectivePerfRow>& rows,
                                 const MeasuredComparison* measured = nullptr,
                                 const NetEfficiencyFit* fit = nullptr);

} // namespace astrolabe

namespace astrolabe {
// nccl-tests' size spelling: a number with an optional K, M or G (powers of 1024), e.g. 8, 64K, 16G; our
// KiB/MiB/GiB spellings work too.
bool parse_nccl_size(const std::string& text, uint64_t& bytes);
// The shortest of those spellings that is exact (16G, 48K, 1000): what parse_nccl_size reads back.
std::string nccl_size_text(uint64_t bytes);
} // namespace astrolabe

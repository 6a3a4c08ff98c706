// A measured nccl-tests table, read from what nccl-tests prints (or from the CSV form of tests/data/nccl),
// so that a prediction can be set beside the user's own measurement (`collective-perf --measured`).
//
// nccl-tests prints one row per size: size, count, type, redop, root (since nccl-tests 2.10; older versions
// have no root column), then out-of-place time, algbw, busbw and #wrong, then the same for in-place. Times
// are printed with two decimals below 100 us, one below 10 ms and none above, #wrong is "N/A" with -c 0.
// Everything else it prints (its header, NCCL's INFO lines, the "Avg bus bandwidth" summary) is skipped,
// except two header lines that say what ran: "# nThread 1 nGpus 8 ..." and one "#  Rank  r Group ..."
// line per rank.
#pragma once

#include "core/base/status.h"

#include <cstdint>
#include <string>
#include <vector>

namespace astrolabe::hardware {

struct MeasuredRow {
    uint64_t size_bytes = 0;
    uint64_t count = 0;
    std::string type;   // nccl-tests' spelling (float, bfloat16, ...)
    std::string redop;  // sum, prod, max, min, avg, or none (all-gather, all-to-all)
    double time_us = 0; // out-of-place, as nccl-tests' time column
    double algbw_gbs = 0;
    double busbw_gbs = 0;
    uint32_t line = 0; // 1-based line in the source, for messages
};

struct MeasuredTable {
    std::vector<MeasuredRow> rows;
    uint32_t ranks = 0;            // "Rank" lines in the header; 0 when the text has none (a bare table, CSV)
    uint32_t gpus_per_process = 0; // the header's nGpus (-g); 0 when absent
};

// Reads nccl-tests' output or the CSV form (first line "size_bytes,count,type,redop,time_us,..."). Rows of
// size 0 (nccl-tests prints them when a size has no element per rank) are skipped. `source` names the
// text in messages ("nccl.log: line 14: ..."). A text without one row is a problem, as is a row that
// starts like one (two whole numbers) and does not go on as nccl-tests' columns do.
Result<MeasuredTable> parse_nccl_tests_output(const std::string& text, const std::string& source);

} // namespace astrolabe::hardware

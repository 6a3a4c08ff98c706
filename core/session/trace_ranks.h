// Which NPU a trace file belongs to, from its name: ASTRA-sim names them `<prefix>.<rank>.et`.
//
// The CLI reads a directory of traces this way and the browser orders the files a user opens (several at
// once, or dropped on the page) the same way, so both give the same NPU the same trace.
#pragma once

#include "core/base/status.h"

#include <string>
#include <vector>

namespace astrolabe {

// The rank in "<name>.<rank>.et" (or "<rank>.et"), or -1 when the name does not have that form.
int64_t trace_rank_of(const std::string& file_name);

// The order (indices into `names`) that puts the traces in rank order 0..n-1. An error names the file that
// breaks it: a name without a rank, or a rank missing or given twice. `what` names the set in messages.
Result<std::vector<size_t>> order_traces_by_rank(const std::vector<std::string>& names,
                                                 const std::string& what);

} // namespace astrolabe

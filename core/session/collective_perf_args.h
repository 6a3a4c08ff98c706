// collective-perf's arguments as text, the way the browser carries them: its scripting API
// (window.astrolabe.collectivePerf), its Hardware tab, and the tab's share link, which the CLI opens too
// (`collective-perf --link`). One checker turns them into a request, so each names a problem alike.
//
// Link form: `perf=` + base64url of the raw-deflated astrolabe.perf-link/1 document (config/perf_link.h):
// share_link.h's encoding under another key, so a scenario link and a curve link cannot be confused.
#pragma once

#include "core/base/status.h"
#include "core/config/perf_link.h"
#include "core/session/collective_perf.h"

#include <string>
#include <string_view>

namespace astrolabe {

using config::CollectivePerfArgs; // config/perf_link.h: the arguments as text

// The request, or every problem at once, each named by its key (op, algo, minBytes, type, ...); the two
// size keys are named as the caller shows them (the Hardware tab's fields are "from" and "to").
Result<CollectivePerfRequest> collective_perf_request(const CollectivePerfArgs& args,
                                                      const std::string& min_key = "minBytes",
                                                      const std::string& max_key = "maxBytes");

// The fragment (without '#') of a link to this curve, or why there is none (a description that is not
// JSON, a link longer than share_link.h allows).
Result<std::string> collective_perf_link_fragment(const CollectivePerfArgs& args);

// The arguments a link holds: a whole URL, a fragment with or without '#'. Says what is wrong (no perf=
// part, bad data, a key of the wrong kind); the arguments themselves are checked by
// collective_perf_request.
Result<CollectivePerfArgs> parse_collective_perf_link(std::string_view link);

} // namespace astrolabe

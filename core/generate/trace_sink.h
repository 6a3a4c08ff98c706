// Where generated traces go. Generators hand over one rank's encoded .et bytes at a time (never the whole
// cluster at once) and, when communicator groups are used, the comm-group JSON. The CLI writes files, the
// browser and tests keep them in memory; the generator does not know which.
#pragma once

#include "core/base/status.h"

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace astrolabe::generate {

class TraceSink {
public:
    virtual ~TraceSink() = default;
    // Rank `rank`'s trace file (the bytes of `<prefix>.<rank>.et`), ranks in increasing order.
    virtual Status write_rank(uint32_t rank, std::string et_bytes) = 0;
    // `{"<pg_name>": [ranks...]}`, written once after the ranks when any group is used.
    virtual Status write_comm_groups(std::string json) = 0;
};

// Keeps everything in memory (tests, the browser, a scenario's generated workload).
class MemorySink final : public TraceSink {
public:
    Status write_rank(uint32_t rank, std::string et_bytes) override {
        if (rank != ranks.size())
            return Status::error("generator wrote rank " + std::to_string(rank) + " out of order");
        ranks.push_back(std::move(et_bytes));
        return Status::ok();
    }
    Status write_comm_groups(std::string json) override {
        comm_groups = std::move(json);
        return Status::ok();
    }
    std::vector<std::string> ranks;
    std::string comm_groups;
};

} // namespace astrolabe::generate

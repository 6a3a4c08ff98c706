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

// Keeps everything in memory (tests, the browser, a scenario's generated workload), within a byte budget:
// a few parameters can describe more trace bytes than any memory holds, and that must be a message, not an
// out-of-memory kill (or a dead browser tab).
class MemorySink final : public TraceSink {
public:
    MemorySink() = default;
    // `max_bytes`: the most trace bytes kept; `expected_ranks` (0 = unknown): how many ranks will come, so
    // that the total can be projected from the ranks so far and an oversized workload refused early.
    MemorySink(uint64_t max_bytes, uint64_t expected_ranks)
        : max_bytes_(max_bytes), expected_(expected_ranks) {}

    Status write_rank(uint32_t rank, std::string et_bytes) override {
        if (rank != ranks.size())
            return Status::error("generator wrote rank " + std::to_string(rank) + " out of order");
        bytes_ += et_bytes.size();
        // The projection uses the mean rank size so far; ranks of one pipeline stage are alike.
        const double projected =
            expected_ > ranks.size() ? double(bytes_) / double(ranks.size() + 1) * double(expected_) : 0.0;
        if (bytes_ > max_bytes_ || projected > double(max_bytes_))
            return Status::error(
                "the generated traces need " +
                (bytes_ > max_bytes_ ? "more than " + std::to_string(bytes_)
                                     : "about " + std::to_string(static_cast<uint64_t>(projected))) +
                " bytes in memory (" + std::to_string(expected_ ? expected_ : ranks.size() + 1) +
                " ranks); at most " + std::to_string(max_bytes_) +
                " fit. Use fewer NPUs or steps, or write them to files with `astrolabe generate`");
        ranks.push_back(std::move(et_bytes));
        return Status::ok();
    }
    Status write_comm_groups(std::string json) override {
        comm_groups = std::move(json);
        return Status::ok();
    }
    std::vector<std::string> ranks;
    std::string comm_groups;

private:
    uint64_t max_bytes_ = UINT64_MAX;
    uint64_t expected_ = 0;
    uint64_t bytes_ = 0;
};

} // namespace astrolabe::generate

// A progress bar on stderr, shown only once a task has run for a second (short runs print nothing), and only
// on a terminal.
#pragma once

#include <chrono>
#include <cstdint>
#include <string>

namespace astrolabe::cli {

class ProgressBar {
public:
    // Drawn only when `enabled` and stderr is a terminal: in a log file the carriage returns of a redrawn bar
    // pile up as kilobytes of noise.
    ProgressBar(std::string label, bool enabled);
    ~ProgressBar() { finish(); }
    // True when update() would print now: lets callers skip building an expensive detail string.
    bool due() const;
    void update(uint64_t done, uint64_t total, const std::string& detail = "");
    void finish();
    double elapsed_s() const;

private:
    std::string label_;
    bool enabled_;
    bool shown_ = false;
    std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now();
    std::chrono::steady_clock::time_point last_{};
};

} // namespace astrolabe::cli

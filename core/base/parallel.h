// Threads for the parts of one run that split into independent pieces with a fixed place for each result
// (decoding per-rank traces, copying a symmetric run's results, formatting the report). The core starts
// no threads itself (the browser has none): a front end that has them passes a TaskRunner; without one,
// or with one worker, everything runs on the calling thread. Results never depend on the worker count:
// each task writes only its own slot and the caller combines the slots in index order.
#pragma once

#include <algorithm>
#include <cstddef>
#include <functional>

namespace astrolabe {

class TaskRunner {
public:
    virtual ~TaskRunner() = default;
    // Threads that run tasks, the caller's included (1: serial).
    virtual unsigned workers() const = 0;
    // Runs task(0) .. task(n - 1), each exactly once, possibly at the same time, and returns when all are
    // done. Should tasks throw, the exception of the lowest index is rethrown here once all have ended.
    virtual void run(size_t n, const std::function<void(size_t)>& task) = 0;
};

// The calling thread alone.
class SerialRunner final : public TaskRunner {
public:
    unsigned workers() const override { return 1; }
    void run(size_t n, const std::function<void(size_t)>& task) override {
        for (size_t i = 0; i < n; ++i)
            task(i);
    }
};

inline unsigned workers_of(const TaskRunner* runner) {
    return runner ? std::max(1u, runner->workers()) : 1u;
}

// fn(begin, end) over [0, n) in blocks of `block`, on the runner's threads (the caller's without one).
template <typename Fn>
void for_blocks(TaskRunner* runner, size_t n, size_t block, Fn fn) {
    block = std::max<size_t>(1, block);
    const size_t blocks = (n + block - 1) / block;
    if (workers_of(runner) <= 1 || blocks <= 1) {
        for (size_t b = 0; b < blocks; ++b)
            fn(b * block, std::min(n, (b + 1) * block));
        return;
    }
    runner->run(blocks, [&](size_t b) { fn(b * block, std::min(n, (b + 1) * block)); });
}

} // namespace astrolabe

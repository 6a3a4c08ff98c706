// Threads for the parts of one run that split into independent pieces with a fixed place for each result
// (decoding per-rank traces, copying a symmetric run's results, formatting the report). The core starts
// no threads itself (the browser has none): a front end that has them passes a TaskRunner; without one,
// or with one worker, everything runs on the calling thread. Results never depend on the worker count:
// each task writes only its own slot and the caller combines the slots in index order.
#pragma once

#include <algorithm>
#include <cstddef>
#include <functional>
#include <vector>

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

namespace astrolabe {

// std::sort on the runner's threads: one sorted run per worker, then runs merged pairwise (each level's
// merges at once). `less` must order every two distinct elements (a total order on their contents), so
// any sorting algorithm gives the same sequence and the result does not depend on the worker count.
template <typename T, typename Less>
void parallel_sort(TaskRunner* runner, std::vector<T>& v, Less less) {
    const size_t workers = workers_of(runner);
    constexpr size_t kMinPerRun = size_t(1) << 15;
    if (workers <= 1 || v.size() < 2 * kMinPerRun) {
        std::sort(v.begin(), v.end(), less);
        return;
    }
    const size_t runs = std::min(workers, v.size() / kMinPerRun);
    std::vector<size_t> bounds(runs + 1);
    for (size_t i = 0; i <= runs; ++i)
        bounds[i] = v.size() * i / runs;
    runner->run(runs, [&](size_t i) { std::sort(v.begin() + bounds[i], v.begin() + bounds[i + 1], less); });
    for (size_t width = 1; width < runs; width *= 2) {
        const size_t pairs = (runs + 2 * width - 1) / (2 * width);
        runner->run(pairs, [&](size_t p) {
            const size_t lo = p * 2 * width, mid = std::min(runs, lo + width),
                         hi = std::min(runs, lo + 2 * width);
            if (mid < hi)
                std::inplace_merge(v.begin() + bounds[lo], v.begin() + bounds[mid], v.begin() + bounds[hi],
                                   less);
        });
    }
}

} // namespace astrolabe

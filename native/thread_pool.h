// The CLI's TaskRunner (core/base/parallel.h): a fixed pool of std::threads that, with the calling
// thread, runs the tasks of one run() call. Tasks take indices from a shared counter, so which thread ran
// which task varies; the results do not, since each task fills its own slot.
#pragma once

#include "core/base/parallel.h"

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <exception>
#include <mutex>
#include <thread>
#include <vector>

namespace astrolabe::cli {

class ThreadPool final : public TaskRunner {
public:
    // `threads` counts the caller: 1 starts no thread.
    explicit ThreadPool(unsigned threads);
    ~ThreadPool() override;
    ThreadPool(const ThreadPool&) = delete;
    ThreadPool& operator=(const ThreadPool&) = delete;

    unsigned workers() const override { return static_cast<unsigned>(threads_.size()) + 1; }
    // Not reentrant: a task must not call run() on the same pool.
    void run(size_t n, const std::function<void(size_t)>& task) override;

private:
    void worker_loop();
    void drain();

    std::vector<std::thread> threads_;
    std::mutex mutex_;
    std::condition_variable start_, done_;
    uint64_t generation_ = 0; // one per run() call
    bool stop_ = false;
    size_t busy_ = 0; // workers still draining the current call
    const std::function<void(size_t)>* task_ = nullptr;
    size_t count_ = 0;
    std::atomic<size_t> next_{0};
    std::mutex error_mutex_;
    size_t error_index_ = SIZE_MAX;
    std::exception_ptr error_;
};

// --threads N: a whole number 1..256; the default is every core the machine reports.
unsigned default_threads();

} // namespace astrolabe::cli

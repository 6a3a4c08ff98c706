#include "native/thread_pool.h"

namespace astrolabe::cli {

unsigned default_threads() {
    return std::max(1u, std::thread::hardware_concurrency());
}

ThreadPool::ThreadPool(unsigned threads) {
    for (unsigned t = 1; t < threads; ++t)
        threads_.emplace_back([this] { worker_loop(); });
}

ThreadPool::~ThreadPool() {
    {
        std::lock_guard<std::mutex> lock(mutex_);
        stop_ = true;
    }
    start_.notify_all();
    for (auto& t : threads_)
        t.join();
}

void ThreadPool::drain() {
    for (size_t i = next_.fetch_add(1); i < count_; i = next_.fetch_add(1)) {
        try {
            (*task_)(i);
        } catch (...) {
            // The lowest failing index wins, so the error reported does not depend on the timing.
            std::lock_guard<std::mutex> lock(error_mutex_);
            if (i < error_index_) error_index_ = i, error_ = std::current_exception();
        }
    }
}

void ThreadPool::worker_loop() {
    uint64_t seen = 0;
    std::unique_lock<std::mutex> lock(mutex_);
    for (;;) {
        start_.wait(lock, [&] { return stop_ || generation_ != seen; });
        if (stop_) return;
        seen = generation_;
        lock.unlock();
        drain();
        lock.lock();
        if (--busy_ == 0) done_.notify_one();
    }
}

void ThreadPool::run(size_t n, const std::function<void(size_t)>& task) {
    if (threads_.empty() || n <= 1) {
        for (size_t i = 0; i < n; ++i)
            task(i);
        return;
    }
    {
        std::lock_guard<std::mutex> lock(mutex_);
        task_ = &task;
        count_ = n;
        next_.store(0);
        error_index_ = SIZE_MAX;
        error_ = nullptr;
        busy_ = threads_.size();
        ++generation_;
    }
    start_.notify_all();
    drain();
    std::unique_lock<std::mutex> lock(mutex_);
    done_.wait(lock, [&] { return busy_ == 0; });
    task_ = nullptr;
    if (error_) {
        std::exception_ptr e = error_;
        error_ = nullptr;
        std::rethrow_exception(e);
    }
}

} // namespace astrolabe::cli

#include "bench/threads_profile.h"

#include "native/thread_pool.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <ctime>

namespace astrolabe::bench {

namespace {

// Counts the bytes and sums them weighted by position (a checksum that does not depend on how the text
// was cut into pieces, and cheap enough, vectorised, not to be what is measured).
struct HashSink final : ByteSink {
    void write(std::string_view bytes) override {
        uint64_t h = 0;
        const uint64_t base = size + 1;
        for (size_t i = 0; i < bytes.size(); ++i)
            h += uint64_t(static_cast<unsigned char>(bytes[i])) * (base + i);
        hash += h;
        size += bytes.size();
    }
    uint64_t size = 0;
    uint64_t hash = 0;
};

double seconds(std::chrono::steady_clock::time_point t0) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

double median(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
}

} // namespace

void print_threads_profile(const char* name, const Session& session, const std::vector<unsigned>& threads,
                           int rounds) {
    std::vector<std::vector<double>> result_s(threads.size()), report_s(threads.size()),
        cpu_s(threads.size());
    std::vector<uint64_t> hashes(threads.size()), sizes(threads.size());
    ReportContext ctx = session.context();
    ctx.wall_s = 0; // the host field, fixed so the bytes compare
    for (int round = 0; round < rounds; ++round)
        for (size_t k = 0; k < threads.size(); ++k) {
            cli::ThreadPool pool(threads[k]);
            const std::clock_t c0 = std::clock();
            auto t0 = std::chrono::steady_clock::now();
            RunResult r = session.simulation().result(&pool);
            result_s[k].push_back(seconds(t0));
            HashSink sink;
            t0 = std::chrono::steady_clock::now();
            write_report_json(sink, r, ctx, &pool);
            report_s[k].push_back(seconds(t0));
            cpu_s[k].push_back(static_cast<double>(std::clock() - c0) / CLOCKS_PER_SEC);
            hashes[k] = sink.hash, sizes[k] = sink.size;
        }
    for (size_t k = 0; k < threads.size(); ++k)
        std::printf(
            "%s: %u thread(s): result (expand + sort) %.3f s, report (%.0f MB, checksum sink) %.3f s, "
            "processor time of both %.3f s; medians of %d; report checksum %016llx%s\n",
            name, threads[k], median(result_s[k]), double(sizes[k]) / 1e6, median(report_s[k]),
            median(cpu_s[k]), rounds, static_cast<unsigned long long>(hashes[k]),
            hashes[k] == hashes[0] && sizes[k] == sizes[0] ? "" : " DIFFERS");
}

} // namespace astrolabe::bench

// `astrolabe search` over MPI ranks (search_mpi.h).
//
// Per batch, rank 0 broadcasts the number of scenarios (0 = stop), their lengths and their bytes. Rank r
// evaluates the scenarios i with i % size == r on its threads and sends back one line per scenario
// ("status<TAB>step_time_ns<TAB>reason"), gathered on rank 0, which puts the results back in batch order.
#include "native/search_mpi.h"

#include <mpi.h>

#include <cstdint>
#include <cstdlib>
#include <string>

namespace astrolabe::cli {

namespace {

using S = search::EvalResult::Status;

std::string encode(const search::EvalResult& r) {
    std::string reason = r.reason;
    for (char& c : reason)
        if (c == '\n' || c == '\t') c = ' ';
    int status = r.status == S::Ok ? 0 : r.status == S::Infeasible ? 1 : 2;
    return std::to_string(status) + "\t" + std::to_string(r.step_time_ns) + "\t" + reason + "\n";
}

search::EvalResult decode(const std::string& line) {
    search::EvalResult r;
    size_t a = line.find('\t'), b = line.find('\t', a + 1);
    if (a == std::string::npos || b == std::string::npos) return {S::Error, 0, "MPI: a malformed result"};
    int status = std::atoi(line.substr(0, a).c_str());
    r.status = status == 0 ? S::Ok : status == 1 ? S::Infeasible : S::Error;
    r.step_time_ns = std::strtoll(line.substr(a + 1, b - a - 1).c_str(), nullptr, 10);
    r.reason = line.substr(b + 1);
    return r;
}

// The batch as every rank receives it (rank 0 passes its own).
std::vector<std::string> broadcast_batch(const MpiSearch& mpi, const std::vector<std::string>* batch) {
    uint64_t n = batch ? batch->size() : 0;
    MPI_Bcast(&n, 1, MPI_UINT64_T, 0, MPI_COMM_WORLD);
    std::vector<uint64_t> lengths(n);
    std::string bytes;
    if (mpi.rank == 0)
        for (uint64_t i = 0; i < n; ++i) {
            lengths[i] = (*batch)[i].size();
            bytes += (*batch)[i];
        }
    if (n == 0) return {};
    MPI_Bcast(lengths.data(), static_cast<int>(n), MPI_UINT64_T, 0, MPI_COMM_WORLD);
    uint64_t total = 0;
    for (uint64_t l : lengths)
        total += l;
    bytes.resize(total);
    MPI_Bcast(bytes.data(), static_cast<int>(total), MPI_CHAR, 0, MPI_COMM_WORLD);
    std::vector<std::string> out;
    uint64_t pos = 0;
    for (uint64_t l : lengths) {
        out.push_back(bytes.substr(pos, l));
        pos += l;
    }
    return out;
}

// Evaluates this rank's share and gathers every rank's answers on rank 0 (in batch order there).
std::vector<search::EvalResult> share_and_gather(const MpiSearch& mpi, const std::vector<std::string>& batch,
                                                 const LocalBatch& local) {
    std::vector<std::string> mine;
    for (size_t i = static_cast<size_t>(mpi.rank); i < batch.size(); i += static_cast<size_t>(mpi.size))
        mine.push_back(batch[i]);
    std::string answers;
    if (!mine.empty())
        for (const auto& r : local(mine))
            answers += encode(r);
    int len = static_cast<int>(answers.size());
    std::vector<int> lens(static_cast<size_t>(mpi.size)), offsets(static_cast<size_t>(mpi.size));
    MPI_Gather(&len, 1, MPI_INT, lens.data(), 1, MPI_INT, 0, MPI_COMM_WORLD);
    std::string all;
    if (mpi.rank == 0) {
        int total = 0;
        for (int r = 0; r < mpi.size; ++r) {
            offsets[static_cast<size_t>(r)] = total;
            total += lens[static_cast<size_t>(r)];
        }
        all.resize(static_cast<size_t>(total));
    }
    MPI_Gatherv(answers.data(), len, MPI_CHAR, all.data(), lens.data(), offsets.data(), MPI_CHAR, 0,
                MPI_COMM_WORLD);
    if (mpi.rank != 0) return {};
    // Rank r's k-th line is scenario r + k * size.
    std::vector<search::EvalResult> out(batch.size());
    for (int r = 0; r < mpi.size; ++r) {
        size_t pos = static_cast<size_t>(offsets[static_cast<size_t>(r)]);
        size_t end = pos + static_cast<size_t>(lens[static_cast<size_t>(r)]);
        for (size_t i = static_cast<size_t>(r); i < batch.size() && pos < end;
             i += static_cast<size_t>(mpi.size)) {
            size_t nl = all.find('\n', pos);
            out[i] = decode(all.substr(pos, nl - pos));
            pos = nl + 1;
        }
    }
    return out;
}

} // namespace

MpiSearch mpi_start() {
    MpiSearch m;
    // Only under a launcher: a plain `astrolabe search` must not need an MPI runtime to start.
    if (!std::getenv("OMPI_COMM_WORLD_SIZE") && !std::getenv("PMI_SIZE") && !std::getenv("PMIX_RANK"))
        return m;
    int provided = 0;
    MPI_Init_thread(nullptr, nullptr, MPI_THREAD_FUNNELED, &provided);
    MPI_Comm_rank(MPI_COMM_WORLD, &m.rank);
    MPI_Comm_size(MPI_COMM_WORLD, &m.size);
    m.active = true;
    return m;
}

std::vector<search::EvalResult> mpi_evaluate(const MpiSearch& mpi, const std::vector<std::string>& batch,
                                             const LocalBatch& local) {
    if (!mpi.active || mpi.size == 1) return local(batch);
    broadcast_batch(mpi, &batch);
    return share_and_gather(mpi, batch, local);
}

void mpi_serve(const MpiSearch& mpi, const LocalBatch& local) {
    if (!mpi.active) return;
    for (;;) {
        std::vector<std::string> batch = broadcast_batch(mpi, nullptr);
        if (batch.empty()) return;
        share_and_gather(mpi, batch, local);
    }
}

void mpi_finish(const MpiSearch& mpi) {
    if (!mpi.active) return;
    if (mpi.rank == 0 && mpi.size > 1) broadcast_batch(mpi, nullptr);
    MPI_Finalize();
}

} // namespace astrolabe::cli

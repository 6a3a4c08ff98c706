// `astrolabe search` across machines: with MPI, rank 0 runs the agent and every rank (rank 0 included)
// evaluates a share of each batch on its own threads; results go back to rank 0 in proposal order, so the
// log is the one a single process writes. search_mpi.cpp is compiled when CMake finds MPI
// (ASTROLABE_WITH_MPI), search_mpi_none.cpp otherwise (one process).
#pragma once

#include "core/search/evaluator.h"

#include <functional>
#include <string>
#include <vector>

namespace astrolabe::cli {

using LocalBatch = std::function<std::vector<search::EvalResult>(const std::vector<std::string>&)>;

struct MpiSearch {
    int rank = 0;
    int size = 1;
    bool active = false; // launched by mpirun/srun with MPI built in
};

// Starts MPI when the process was launched by an MPI launcher (and MPI is built in); else one process.
MpiSearch mpi_start();
// Rank 0: evaluates a batch over all ranks (`local` does this rank's share).
std::vector<search::EvalResult> mpi_evaluate(const MpiSearch& mpi, const std::vector<std::string>& batch,
                                             const LocalBatch& local);
// Ranks > 0: evaluate shares of batches until rank 0 says stop.
void mpi_serve(const MpiSearch& mpi, const LocalBatch& local);
// Rank 0: tells the other ranks to stop; every rank: ends MPI. Safe to call when MPI is not active.
void mpi_finish(const MpiSearch& mpi);

} // namespace astrolabe::cli

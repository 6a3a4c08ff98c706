// `astrolabe search` without MPI (search_mpi.h): one process, every batch evaluated locally.
#include "native/search_mpi.h"

namespace astrolabe::cli {

MpiSearch mpi_start() {
    return {};
}

std::vector<search::EvalResult> mpi_evaluate(const MpiSearch&, const std::vector<std::string>& batch,
                                             const LocalBatch& local) {
    return local(batch);
}

void mpi_serve(const MpiSearch&, const LocalBatch&) {}

void mpi_finish(const MpiSearch&) {}

} // namespace astrolabe::cli

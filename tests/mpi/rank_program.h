// What the rank tests (ranks_in_process_test) and the MPI bench
// (tests/bench/mpi_collectives_bench.cc) both need to run a program on ranks:
// creating one rank's program, and choosing MESHVK_RANK_COLLECTIVES safely
// while other threads live. Runtime only (no gtest, no MPI).
#ifndef MESHVK_TESTS_MPI_RANK_PROGRAM_H_
#define MESHVK_TESTS_MPI_RANK_PROGRAM_H_

#include "meshvk/module.h"
#include "meshvk/trace.h"
#include "meshvk/transport.h"

namespace meshvk_ranks {

// Sets MESHVK_RANK_COLLECTIVES, which the runtime reads at program creation
// ("" = the default, transport). The variable is created once before main
// (rank_program.cc), when the process has no other thread, and only
// overwritten afterwards, never removed: glibc's setenv of a name that is not
// there reallocates the environment array, which a getenv on another thread
// (the driver's, the validation layer's, MPI's threads) may be walking at that
// moment (a use after free). Suspected cause of one SEGFAULT seen at the first
// Transport/BlockCollectivesTest case under load, which toggled it with
// setenv/unsetenv (not reproduced in 65 later runs).
void SetRankMode(const char* mode);

// meshvk_program_create_with_info for one rank of a job.
meshvk_status_t CreateOnRanks(meshvk_module_t* module, meshvk_device_set_t* set, const meshvk_program_ranks_t* ranks,
                              meshvk_program_t** out);

}  // namespace meshvk_ranks

#endif  // MESHVK_TESTS_MPI_RANK_PROGRAM_H_

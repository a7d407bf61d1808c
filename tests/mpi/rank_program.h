// What the rank tests (ranks_in_process_test) and the MPI bench
// (tests/bench/mpi_collectives_bench.cc) both need to run a program on ranks:
// creating one rank's program, and naming a collective mode in their case
// tables. Runtime only (no gtest, no MPI).
#ifndef MESHVK_TESTS_MPI_RANK_PROGRAM_H_
#define MESHVK_TESTS_MPI_RANK_PROGRAM_H_

#include <string>

#include "meshvk/module.h"
#include "meshvk/trace.h"
#include "meshvk/transport.h"

namespace meshvk_ranks {

// The mode named `name` (meshvk_rank_collective_mode_name's words; "" is the
// default, TRANSPORT). Aborts on another name: a case table's typo.
meshvk_rank_collective_mode_t RankMode(const std::string& name);

// meshvk_program_create_with_info for one rank of a job.
meshvk_status_t CreateOnRanks(meshvk_module_t* module, meshvk_device_set_t* set, const meshvk_program_ranks_t* ranks,
                              meshvk_program_t** out);

}  // namespace meshvk_ranks

#endif  // MESHVK_TESTS_MPI_RANK_PROGRAM_H_

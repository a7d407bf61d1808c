// meshvk.Runtime over the ranks of an MPI job (meshvk/transport_mpi.h): under
// mpirun every rank creates the same Runtime and loads the same program; each
// rank runs the grid processes laid on it (meshvk_module_rank_layout) and
// every rank gets the whole results (gathered to rank 0, then broadcast).
//
// MPI starts once per process: the transport is created by the first Runtime
// that runs over ranks and ended at interpreter exit (EndRanks, registered
// with atexit by the package), after every such runtime is closed.
#ifndef MESHVK_PYTHON_RANKS_H_
#define MESHVK_PYTHON_RANKS_H_

#include <cstdint>
#include <memory>
#include <vector>

#include "meshvk/module.h"
#include "meshvk/transport.h"

namespace meshvk_py {

class RuntimeCore;

// True when an MPI launcher started this process among 2 or more ranks.
bool LaunchedAmongRanks();
// The process's MPI transport, started on first use; raises on failure.
const meshvk_transport_t* RankTransport();
// Closes `runtime` before MPI ends (weakly held).
void RegisterRankRuntime(const std::shared_ptr<RuntimeCore>& runtime);
// Closes every registered runtime, then ends the transport (MPI_Finalize).
void EndRanks();
// The rank of each of `module`'s grid processes over the transport's ranks
// (`axes` empty: the outermost axes that fit); raises with one line.
std::vector<uint32_t> LayRanks(const meshvk_module_t* module, const meshvk_transport_t* transport,
                               const std::vector<uint32_t>& axes);
// After an invoke: rank 0's results to every rank (in place). Call without
// the GIL, on the thread that started MPI.
void ShareResults(const meshvk_transport_t* transport, const std::vector<meshvk_host_output_t>& outputs);

}  // namespace meshvk_py

#endif  // MESHVK_PYTHON_RANKS_H_

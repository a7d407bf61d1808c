// meshvk/transport_mpi.h — the MPI implementation of meshvk_transport_t
// (meshvk/transport.h): one program's grid across the ranks of an MPI job.
//
// It is its own library, libmeshvk_transport_mpi (CMake: meshvk::transport_mpi,
// built when CMake finds MPI), so the runtime itself never links MPI. Link it
// next to meshvk::runtime (or meshvk::runtime_shared); it calls the runtime's
// meshvk_transport_reduce for the reductions MPI has no operation for.
//
//   meshvk_mpi_transport_t* mpi;
//   meshvk_mpi_transport_create(&argc, &argv, &mpi);   // MPI_Init if needed
//   meshvk_program_ranks_t ranks = MESHVK_PROGRAM_RANKS_INIT;
//   ranks.transport = meshvk_mpi_transport_get(mpi);
//   ranks.process_rank = process_rank;
//   create_info.next = &ranks;                          // meshvk/module.h
//   ... meshvk_program_create_with_info, meshvk_program_invoke on every rank ...
//   meshvk_mpi_transport_release(mpi);                  // after the program
//
// Threads: MPI is started at MPI_THREAD_FUNNELED; every call into the
// transport (program creation, invokes, the functions below) must come from
// the thread that created it.
#ifndef MESHVK_TRANSPORT_MPI_H_
#define MESHVK_TRANSPORT_MPI_H_

#include <stdint.h>

#include "meshvk/status.h"
#include "meshvk/transport.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct meshvk_mpi_transport_s meshvk_mpi_transport_t;

// The number of ranks the environment says this process was started among
// (OpenMPI's OMPI_COMM_WORLD_SIZE, else PMI_SIZE / PMIX_SIZE of other
// launchers); 0 when no MPI launcher started it. Does not start MPI, so a
// tool can ask before deciding to.
uint32_t meshvk_mpi_launcher_rank_count(void);

// The transport over MPI_COMM_WORLD. When MPI is not initialized yet, starts
// it (MPI_Init_thread; argc/argv may be NULL) and finalizes it in
// the transport's last release; when the application started MPI (e.g.
// mpi4py), uses it as it is and leaves MPI_Finalize to the application.
// INTERNAL when MPI fails to start or gives less than MPI_THREAD_FUNNELED;
// FAILED_PRECONDITION when MPI was finalized already. At most one transport
// exists at a time in a process (FAILED_PRECONDITION for a second, until the
// first one's last release). INVALID_ARGUMENT for a NULL out_transport. In a
// build without MPI: UNAVAILABLE.
meshvk_status_t meshvk_mpi_transport_create(int* argc, char*** argv, meshvk_mpi_transport_t** out_transport);

// The transport to pass in meshvk_program_ranks_t; valid until the last
// meshvk_mpi_transport_release. NULL for NULL.
const meshvk_transport_t* meshvk_mpi_transport_get(const meshvk_mpi_transport_t* transport);

// Bytes this rank handed to MPI and took from it, since creation: point to
// point exactly (MPI_Isend / MPI_Recv); for each collective call what the
// plan counts (MPI does not report its own traffic): MPI_Allreduce what a
// ring sends / receives at this rank (meshvk_transport_ring_bytes);
// MPI_Allgatherv, all_gather_pieces, MPI_Bcast and MPI_Alltoallv each block
// once per rank that receives it; MPI_Reduce_scatter each rank's segment
// once from each other rank. collective_calls: the MPI collective calls made
// for collectives between ranks. INVALID_ARGUMENT for NULL or another
// structure type.
typedef struct meshvk_mpi_transport_stats_s {
  meshvk_structure_type_t type;  // MESHVK_STRUCTURE_TYPE_MPI_TRANSPORT_STATS
  const void* next;
  uint64_t bytes_sent;
  uint64_t bytes_received;
  uint64_t collective_calls;
} meshvk_mpi_transport_stats_t;
#define MESHVK_MPI_TRANSPORT_STATS_INIT MESHVK_STRUCT_INIT(MESHVK_STRUCTURE_TYPE_MPI_TRANSPORT_STATS)
meshvk_status_t meshvk_mpi_transport_stats(const meshvk_mpi_transport_t* transport,
                                           meshvk_mpi_transport_stats_t* out_stats);

// Every rank calls it with its own `code` (collective over MPI_COMM_WORLD);
// returns the largest, and in *out_lowest_rank (may be NULL) the lowest rank
// that passed that code, so exactly one rank reports a failure every rank
// then ends with. -1 when MPI fails or for a NULL transport.
int32_t meshvk_mpi_transport_agree(meshvk_mpi_transport_t* transport, int32_t code, uint32_t* out_lowest_rank);

// Ends every rank of the job now with `code` (MPI_Abort): a failing rank
// must not leave the others blocked in a receive. Does not return (with a
// NULL transport: exits this process only).
void meshvk_mpi_transport_abort(meshvk_mpi_transport_t* transport, int32_t code);

// Reference counted (meshvk/meshvk.h). The last release frees the transport
// (and finalizes MPI if meshvk_mpi_transport_create started it); programs
// created with it do not retain it, so release it after them.
void meshvk_mpi_transport_retain(meshvk_mpi_transport_t* transport);
void meshvk_mpi_transport_release(meshvk_mpi_transport_t* transport);

#ifdef __cplusplus
}  // extern "C"
#endif

#endif  // MESHVK_TRANSPORT_MPI_H_

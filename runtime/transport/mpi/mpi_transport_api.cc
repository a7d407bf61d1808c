// The C API of the MPI transport (meshvk/transport_mpi.h) over MpiTransport.
#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <new>
#include <string>

#include "mpi_transport.h"

struct meshvk_mpi_transport_s {
  explicit meshvk_mpi_transport_s(bool owns_mpi) : impl(owns_mpi) {}
  std::atomic<uint32_t> references{1};
  meshvk::mpi::MpiTransport impl;
};

namespace {
bool g_exists = false;  // one transport at a time (MPI_Init once, host_ops shared)

meshvk_status_t Error(meshvk_status_code_t code, const std::string& message) {
  return meshvk_status_create(code, message.c_str());
}
}  // namespace

extern "C" {

meshvk_status_t meshvk_mpi_transport_create(int* argc, char*** argv, meshvk_mpi_transport_t** out_transport) {
  if (!out_transport)
    return Error(MESHVK_STATUS_INVALID_ARGUMENT, "meshvk_mpi_transport_create: out_transport is NULL");
  *out_transport = nullptr;
  if (g_exists)
    return Error(MESHVK_STATUS_FAILED_PRECONDITION,
                 "meshvk_mpi_transport_create: an MPI transport exists already in this process (release it first)");
  int initialized = 0, finalized = 0;
  MPI_Initialized(&initialized);
  MPI_Finalized(&finalized);
  if (finalized) return Error(MESHVK_STATUS_FAILED_PRECONDITION, "MPI was finalized already in this process");
  int provided = 0;
  if (initialized) {
    MPI_Query_thread(&provided);
  } else if (MPI_Init_thread(argc, argv, MPI_THREAD_FUNNELED, &provided) != MPI_SUCCESS) {
    return Error(MESHVK_STATUS_INTERNAL, "MPI_Init_thread failed");
  }
  if (provided < MPI_THREAD_FUNNELED)
    return Error(MESHVK_STATUS_INTERNAL, "MPI gives thread level " + std::to_string(provided) +
                                             "; the transport needs MPI_THREAD_FUNNELED or above");
  auto* transport = new (std::nothrow) meshvk_mpi_transport_s(!initialized);
  if (!transport) return Error(MESHVK_STATUS_RESOURCE_EXHAUSTED, "out of host memory creating the MPI transport");
  g_exists = true;
  *out_transport = transport;
  return MESHVK_OK;
}

const meshvk_transport_t* meshvk_mpi_transport_get(const meshvk_mpi_transport_t* transport) {
  return transport ? transport->impl.transport() : nullptr;
}

meshvk_status_t meshvk_mpi_transport_stats(const meshvk_mpi_transport_t* transport,
                                           meshvk_mpi_transport_stats_t* out_stats) {
  if (!transport) return Error(MESHVK_STATUS_INVALID_ARGUMENT, "meshvk_mpi_transport_stats: transport is NULL");
  if (!out_stats || out_stats->type != MESHVK_STRUCTURE_TYPE_MPI_TRANSPORT_STATS)
    return Error(MESHVK_STATUS_INVALID_ARGUMENT,
                 "meshvk_mpi_transport_stats: out_stats is NULL or not MESHVK_STRUCTURE_TYPE_MPI_TRANSPORT_STATS "
                 "(initialize it with MESHVK_MPI_TRANSPORT_STATS_INIT)");
  const void* next = out_stats->next;
  *out_stats = transport->impl.stats();
  out_stats->next = next;
  return MESHVK_OK;
}

int32_t meshvk_mpi_transport_agree(meshvk_mpi_transport_t* transport, int32_t code, uint32_t* out_lowest_rank) {
  if (!transport) return -1;
  const meshvk_transport_t* t = transport->impl.transport();
  int agreed = code;
  if (MPI_Allreduce(&code, &agreed, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD) != MPI_SUCCESS) return -1;
  int me = code == agreed ? static_cast<int>(t->rank) : static_cast<int>(t->rank_count), lowest = me;
  if (MPI_Allreduce(&me, &lowest, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD) != MPI_SUCCESS) return -1;
  if (out_lowest_rank) *out_lowest_rank = static_cast<uint32_t>(lowest);
  return agreed;
}

void meshvk_mpi_transport_abort(meshvk_mpi_transport_t* transport, int32_t code) {
  std::fflush(stdout);
  std::fflush(stderr);
  if (transport) MPI_Abort(MPI_COMM_WORLD, code);
  std::_Exit(code);  // MPI_Abort does not return; keep the promise anyway
}

void meshvk_mpi_transport_retain(meshvk_mpi_transport_t* transport) {
  if (transport) transport->references.fetch_add(1);
}

void meshvk_mpi_transport_release(meshvk_mpi_transport_t* transport) {
  if (!transport || transport->references.fetch_sub(1) != 1) return;
  delete transport;
  g_exists = false;
}

}  // extern "C"

// meshvk/transport_mpi.h in a build without MPI: creation says why, so a
// launch under mpirun ends with one line instead of running every rank alone.
#include <cstdlib>

#include "meshvk/transport_mpi.h"

extern "C" {

meshvk_status_t meshvk_mpi_transport_create(int*, char***, meshvk_mpi_transport_t** out_transport) {
  if (out_transport) *out_transport = nullptr;
  return meshvk_status_create(MESHVK_STATUS_UNAVAILABLE,
                              "meshvk was built without MPI (install libopenmpi-dev and reconfigure)");
}
const meshvk_transport_t* meshvk_mpi_transport_get(const meshvk_mpi_transport_t*) { return nullptr; }
// No transport can exist here: every handle is NULL.
meshvk_status_t meshvk_mpi_transport_stats(const meshvk_mpi_transport_t*, meshvk_mpi_transport_stats_t*) {
  return meshvk_status_create(MESHVK_STATUS_INVALID_ARGUMENT,
                              "meshvk_mpi_transport_stats: transport is NULL (meshvk was built without MPI)");
}
int32_t meshvk_mpi_transport_agree(meshvk_mpi_transport_t*, int32_t code, uint32_t* out_lowest_rank) {
  if (out_lowest_rank) *out_lowest_rank = 0;
  return code;
}
void meshvk_mpi_transport_abort(meshvk_mpi_transport_t*, int32_t code) { std::_Exit(code); }
void meshvk_mpi_transport_retain(meshvk_mpi_transport_t*) {}
void meshvk_mpi_transport_release(meshvk_mpi_transport_t*) {}

}  // extern "C"

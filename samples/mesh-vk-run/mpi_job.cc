// mesh-vk-run's MPI job (see mpi_job.h).
#include "mpi_job.h"

namespace meshvk_run {

std::unique_ptr<MpiJob> MpiJob::Start(int* argc, char*** argv, std::string* error) {
  meshvk_mpi_transport_t* mpi = nullptr;
  if (meshvk_status_t status = meshvk_mpi_transport_create(argc, argv, &mpi)) {
    *error = std::string("started by an MPI launcher, but ") + meshvk_status_message(status);
    meshvk_status_free(status);
    return nullptr;
  }
  return std::unique_ptr<MpiJob>(new MpiJob(mpi));
}

MpiJob::~MpiJob() { meshvk_mpi_transport_release(mpi_); }

meshvk_mpi_transport_stats_t MpiJob::stats() const {
  meshvk_mpi_transport_stats_t stats = MESHVK_MPI_TRANSPORT_STATS_INIT;
  meshvk_status_free(meshvk_mpi_transport_stats(mpi_, &stats));
  return stats;
}

void MpiJob::Abort(int code) {
  meshvk_mpi_transport_abort(mpi_, code);
  __builtin_unreachable();
}

int MpiJob::AgreeExit(int code) { return meshvk_mpi_transport_agree(mpi_, code, nullptr); }

int MpiJob::AgreeStart(int code, bool* report) {
  started_ = true;
  uint32_t lowest = 0;
  const int agreed = meshvk_mpi_transport_agree(mpi_, code, &lowest);
  *report = agreed != 0 && lowest == rank();
  failure_agreed_ = agreed != 0;
  return agreed;
}

}  // namespace meshvk_run

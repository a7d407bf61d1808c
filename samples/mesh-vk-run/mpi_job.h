// mesh-vk-run as one rank of an MPI job: the runtime's MPI transport
// (meshvk/transport_mpi.h) and the runner's rules over it: one exit code for
// the whole job, one rank reporting a failure every rank found before the
// invoke, the others ended at once when a rank fails during it.
#ifndef MESHVK_SAMPLES_MESH_VK_RUN_MPI_JOB_H_
#define MESHVK_SAMPLES_MESH_VK_RUN_MPI_JOB_H_

#include <cstdint>
#include <memory>
#include <string>

#include "meshvk/transport_mpi.h"

namespace meshvk_run {

class MpiJob {
 public:
  // Starts MPI. Null with a one-line *error when meshvk was built without
  // MPI or MPI fails to start.
  static std::unique_ptr<MpiJob> Start(int* argc, char*** argv, std::string* error);
  ~MpiJob();  // MPI_Finalize
  MpiJob(const MpiJob&) = delete;
  MpiJob& operator=(const MpiJob&) = delete;

  const meshvk_transport_t* transport() const { return meshvk_mpi_transport_get(mpi_); }
  uint32_t rank() const { return transport()->rank; }
  uint32_t size() const { return transport()->rank_count; }
  meshvk_mpi_transport_stats_t stats() const;
  // Ends every rank of the job now with `code`.
  [[noreturn]] void Abort(int code);
  // The largest of every rank's `code` (all ranks must call it).
  int AgreeExit(int code);
  // The start of the job's work, before any rank sends a byte: every rank
  // calls it exactly once, with the code of the check that failed on it or 0
  // when it is ready to invoke. Returns the job's code (the largest); *report
  // is true on the one rank that should print its message (the lowest rank
  // that failed with that code), so a bad input or a refusal found before the
  // invoke ends every rank with one line and the same exit code, no abort.
  int AgreeStart(int code, bool* report);
  bool started() const { return started_; }
  // True once AgreeStart agreed on a failure: every rank returns that code.
  bool failure_agreed() const { return failure_agreed_; }

 private:
  explicit MpiJob(meshvk_mpi_transport_t* mpi) : mpi_(mpi) {}
  meshvk_mpi_transport_t* mpi_;
  bool started_ = false, failure_agreed_ = false;
};

}  // namespace meshvk_run

#endif  // MESHVK_SAMPLES_MESH_VK_RUN_MPI_JOB_H_

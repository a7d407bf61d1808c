// mesh-vk-run's MPI session: MPI_Init/Finalize, the MPI implementation of
// meshvk_transport_t (meshvk/transport.h), the job-wide exit code and aborts.
// Built into its own target (meshvk_transport_mpi) when CMake finds MPI; the
// runtime never links MPI.
#ifndef MESHVK_SAMPLES_MESH_VK_RUN_MPI_SESSION_H_
#define MESHVK_SAMPLES_MESH_VK_RUN_MPI_SESSION_H_

#include <cstdint>
#include <memory>
#include <string>

#include "meshvk/transport.h"

namespace meshvk_run {

class MpiSession {
 public:
  // MPI_Init (thread level FUNNELED: only the main thread calls MPI). Null
  // with *error when mesh-vk-run was built without MPI or MPI fails to start.
  static std::unique_ptr<MpiSession> Start(int* argc, char*** argv, std::string* error);
  ~MpiSession();  // MPI_Finalize

  const meshvk_transport_t* transport() const { return &transport_; }
  uint32_t rank() const { return transport_.rank; }
  uint32_t size() const { return transport_.rank_count; }
  // Bytes this rank handed to MPI_Isend / took from MPI_Recv.
  uint64_t bytes_sent() const { return sent_; }
  uint64_t bytes_received() const { return received_; }
  // Ends every rank of the job now with `code` (MPI_Abort): a failing rank
  // must not leave the others blocked in a receive.
  [[noreturn]] void Abort(int code);
  // The largest of every rank's `code` (all ranks must call it).
  int AgreeExit(int code);

 private:
  MpiSession() = default;
  static int Send(void* user, uint32_t to, uint32_t tag, const void* data, uint64_t size);
  static int Receive(void* user, uint32_t from, uint32_t tag, void* data, uint64_t size);
  static int WaitSends(void* user);
  meshvk_transport_t transport_{};
  uint64_t sent_ = 0, received_ = 0;
  std::shared_ptr<void> requests_;  // std::vector<MPI_Request>, kept opaque to avoid mpi.h here
};

}  // namespace meshvk_run

#endif  // MESHVK_SAMPLES_MESH_VK_RUN_MPI_SESSION_H_

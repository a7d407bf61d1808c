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
  // Bytes this rank handed to MPI_Isend / took from MPI_Recv, plus for each
  // collective call what the plan counts (MPI does not report its own
  // traffic): MPI_Allreduce what a ring sends / receives at this rank
  // (meshvk_transport_ring_bytes); MPI_Allgatherv / all_gather_pieces /
  // MPI_Bcast / MPI_Alltoallv each block once per rank that receives it; MPI_Reduce_scatter each rank's
  // segment once from each other rank.
  uint64_t bytes_sent() const { return sent_; }
  uint64_t bytes_received() const { return received_; }
  // MPI collective calls made for collectives between ranks.
  uint64_t collective_calls() const { return collectives_; }
  // Ends every rank of the job now with `code` (MPI_Abort): a failing rank
  // must not leave the others blocked in a receive.
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
  MpiSession() = default;
  static int Send(void* user, uint32_t to, uint32_t tag, const void* data, uint64_t size);
  static int Receive(void* user, uint32_t from, uint32_t tag, void* data, uint64_t size);
  static int WaitSends(void* user);
  static int AllReduce(void* user, const uint32_t* ranks, uint32_t rank_count, void* data, uint64_t count,
                       uint32_t element_type, uint32_t reduction);
  static int AllGather(void* user, const uint32_t* ranks, uint32_t rank_count, void* data, const uint64_t* bytes);
  static int Broadcast(void* user, const uint32_t* ranks, uint32_t rank_count, uint32_t root, void* data,
                       uint64_t bytes);
  static int AllToAll(void* user, const uint32_t* ranks, uint32_t rank_count, const void* send,
                      const uint64_t* send_bytes, void* recv, const uint64_t* recv_bytes);
  static int ReduceScatter(void* user, const uint32_t* ranks, uint32_t rank_count, void* data, const uint64_t* counts,
                           uint32_t element_type, uint32_t reduction);
  static int AllGatherPieces(void* user, const uint32_t* ranks, uint32_t rank_count,
                             const meshvk_transport_piece_t* pieces, const uint32_t* piece_counts);
  uint32_t Position(const uint32_t* ranks, uint32_t rank_count) const;  // of this rank in `ranks`
  // The byte counters after an all_gather of `bytes[i]` from each rank i;
  // `me`: this rank's position.
  void CountAllGather(const uint64_t* bytes, uint32_t rank_count, uint32_t me);
  meshvk_transport_t transport_{};
  uint64_t sent_ = 0, received_ = 0;
  uint64_t collectives_ = 0;
  bool started_ = false, failure_agreed_ = false;
  std::shared_ptr<void> requests_;       // std::vector<MPI_Request>, kept opaque to avoid mpi.h here
  std::shared_ptr<void> communicators_;  // std::map<rank list, MPI_Comm>
};

}  // namespace meshvk_run

#endif  // MESHVK_SAMPLES_MESH_VK_RUN_MPI_SESSION_H_

// The MPI transport's state (meshvk/transport_mpi.h is its C API): MPI's
// requests and communicators, the byte counters, whether it started MPI.
#ifndef MESHVK_TRANSPORT_MPI_MPI_TRANSPORT_H_
#define MESHVK_TRANSPORT_MPI_MPI_TRANSPORT_H_

#include <mpi.h>

#include <cstdint>
#include <map>
#include <vector>

#include "meshvk/transport_mpi.h"

namespace meshvk::mpi {

struct ReductionCall;

class MpiTransport {
 public:
  // MPI must be initialized; `owns_mpi`: the destructor finalizes it.
  explicit MpiTransport(bool owns_mpi);
  ~MpiTransport();  // frees communicators and operations; MPI_Finalize if owned
  MpiTransport(const MpiTransport&) = delete;
  MpiTransport& operator=(const MpiTransport&) = delete;

  const meshvk_transport_t* transport() const { return &transport_; }
  meshvk_mpi_transport_stats_t stats() const {
    meshvk_mpi_transport_stats_t s = MESHVK_MPI_TRANSPORT_STATS_INIT;
    s.bytes_sent = sent_;
    s.bytes_received = received_;
    s.collective_calls = collectives_;
    return s;
  }

 private:
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
  // The communicator of exactly `ranks` (made on first use; see the .cc).
  int CommunicatorFor(const uint32_t* ranks, uint32_t rank_count, MPI_Comm* out);
  // What an all_reduce / reduce_scatter call needs (see the .cc); non-zero:
  // the code to return.
  int PrepareReduction(const uint32_t* ranks, uint32_t rank_count, uint32_t element_type, uint32_t reduction,
                       ReductionCall* out);
  // The byte counters after an all_gather of `bytes[i]` from each rank i;
  // `me`: this rank's position.
  void CountAllGather(const uint64_t* bytes, uint32_t rank_count, uint32_t me);

  meshvk_transport_t transport_{};
  bool owns_mpi_ = false;
  uint64_t sent_ = 0, received_ = 0;
  uint64_t collectives_ = 0;
  std::vector<MPI_Request> requests_;                        // sends not yet waited for
  std::map<std::vector<uint32_t>, MPI_Comm> communicators_;  // per rank list
};

}  // namespace meshvk::mpi

#endif  // MESHVK_TRANSPORT_MPI_MPI_TRANSPORT_H_

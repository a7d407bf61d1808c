// Copies between processes that run on different ranks (meshvk/transport.h),
// for the executor.
//
// Every rank numbers the cross-rank copies of a function the same way (in
// stream order: process, then command), and that number is the message tag,
// so sender and receiver agree without talking.
//  * Destination side: the copy reads a landing buffer on the destination's
//    device, as large as the source buffer so the recorded offsets stay; the
//    bytes are received into it before the consuming segment is submitted.
//  * Source side: once the producing segment finished, the span the copy
//    reads is staged out to host memory (meshvk_buffer_read) and sent.
// Deadlock freedom: before submitting phase k a rank sends everything whose
// producer ran in a phase < k, and a receive in phase k only waits for such a
// send; sends never block (the transport returns before delivery).
// Collective groups that span ranks (rank_collectives.h) are not copies here:
// their commands are left out of the numbering and run as host steps.

#ifndef MESHVK_RUNTIME_MODULE_REMOTE_COPIES_H_
#define MESHVK_RUNTIME_MODULE_REMOTE_COPIES_H_

#include <chrono>
#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <tuple>
#include <vector>

#include "meshvk/artifact/mvk_generated.h"
#include "meshvk/semaphore.h"
#include "meshvk/transport.h"
#include "rank_collectives.h"
#include "schedule.h"
#include "status.h"

namespace meshvk::module {

// Adds the time since its construction to *total when it goes out of scope
// (the host time of meshvk_transport_stats_t).
class HostTimer {
 public:
  explicit HostTimer(uint64_t* total) : total_(total), start_(std::chrono::steady_clock::now()) {}
  ~HostTimer() {
    *total_ += std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now() - start_).count();
  }

 private:
  uint64_t* total_;
  std::chrono::steady_clock::time_point start_;
};

// Bytes received into a landing buffer before a segment runs.
struct RemoteReceive {
  meshvk_buffer_t* landing = nullptr;
  uint64_t offset = 0, size = 0;
  uint32_t from_rank = 0, tag = 0;
};

// Bytes of one result shard (dense in its buffer).
uint64_t ShardBytes(const mvk::TensorSignature* t, const mvk::Shard* sh);

// Result tags start here; copy tags stay below (MPI guarantees tags up to 32767).
constexpr uint32_t kResultTagBase = 16384;

class RemoteCopies {
 public:
  RemoteCopies() = default;
  ~RemoteCopies();
  RemoteCopies(const RemoteCopies&) = delete;
  RemoteCopies& operator=(const RemoteCopies&) = delete;

  // Validates the map and numbers the cross-rank copies of every function.
  Status Init(const mvk::Artifact* artifact, const Schedule& schedule, const meshvk_program_ranks_t* ranks);
  // False for a program on one rank (nothing crosses ranks).
  bool enabled() const { return transport_ != nullptr; }
  bool Local(uint32_t process) const { return !enabled() || rank_of_[process] == transport_->rank; }
  uint32_t RankOf(uint32_t process) const { return enabled() ? rank_of_[process] : 0; }
  // The process -> rank map the program was created with (enabled() only).
  const uint32_t* process_rank() const { return rank_of_.data(); }
  uint32_t root() const { return root_; }
  const meshvk_transport_t* transport() const { return transport_; }

  // Copy command `command` of process `process` in `function` reads from
  // another rank: creates its landing buffer on `set` and adds the receive.
  Status LandingFor(meshvk_device_set_t* set, uint32_t function, uint32_t process, uint32_t command,
                    const mvk::Copy* copy, const std::string& path, meshvk_buffer_t** out,
                    std::vector<RemoteReceive>* receives);

  // Sends, in tag order, every outgoing copy of `function` whose producer ran
  // in a phase < `phase` and that is not sent yet in this invoke; waits on the
  // host for the producer first. `base`: the invoke's timeline base.
  Status SendReady(uint32_t function, uint32_t phase, const std::vector<std::vector<meshvk_buffer_t*>>& buffers,
                   const std::vector<meshvk_semaphore_t*>& semaphores, uint64_t base, uint64_t timeout_ns);
  Status Receive(const std::vector<RemoteReceive>& receives);
  // Command `command` of `process` in `function` is run by a host step.
  bool Replaced(uint32_t function, uint32_t process, uint32_t command) const {
    return enabled() && plans_[function].Replaced(process, command);
  }
  bool HasGroups(uint32_t function) const { return enabled() && !plans_[function].groups.empty(); }
  // The next group of this invoke's host steps (null: none left).
  const RankGroup* NextGroup(uint32_t function) const {
    return enabled() && next_group_ < plans_[function].groups.size() ? &plans_[function].groups[next_group_] : nullptr;
  }
  // Runs NextGroup's host step: waits for every local process's submitted
  // work (`last_signal`), then for an all_reduce stages the local members'
  // partials out, reduces them, all-reduces among the group's ranks and
  // writes each local member's result; for a copy collective stages its own
  // blocks out, makes the group's transport call and writes each block it
  // receives into the landing buffers of the local copies that read it.
  Status RunNextGroup(uint32_t function, const std::vector<std::vector<meshvk_buffer_t*>>& buffers,
                      const std::vector<meshvk_semaphore_t*>& semaphores, const std::vector<uint64_t>& last_signal,
                      uint64_t timeout_ns);
  // Sends one message (kept alive until FinishInvoke) / receives one.
  Status Send(uint32_t to, uint32_t tag, std::vector<uint8_t> bytes);
  Status ReceiveInto(uint32_t from, uint32_t tag, void* data, uint64_t size);
  void BeginInvoke(uint32_t function);
  // Completes every send of this invoke and frees their host copies.
  Status FinishInvoke();
  uint64_t bytes_sent() const { return sent_; }
  uint64_t bytes_received() const { return received_; }
  uint64_t host_ns() const { return host_ns_; }
  uint64_t staged_bytes() const { return staged_; }

 private:
  struct Outgoing {
    uint32_t process = 0, buffer = 0;
    int64_t after_phase = -1;  // the producing segment's phase (-1: inputs/constants)
    int64_t host_phase = -1;   // produced by a group's host step before that phase (-1: none)
    uint64_t offset = 0, size = 0;
    uint32_t to_rank = 0, tag = 0;
  };
  // Adds what `g` moves for the rank at `position` (GroupTraffic) to the
  // byte counters, after a transport collective call.
  void CountGroupTraffic(const RankGroup& g, uint32_t position);
  Status AllReduce(const RankGroup& g, uint32_t index, const std::vector<std::vector<meshvk_buffer_t*>>& buffers,
                   const std::string& what);
  // Chunk of the mapped all_reduce: large enough that each transport call
  // runs at its bandwidth, small enough that a chunk's reduce, transport
  // call and copies back share a 32 MiB L3 (4, 16 and unchunked measured on
  // a loaded 2-core box: within its noise of each other).
  static constexpr uint64_t kAllReduceChunkBytes = uint64_t(8) << 20;
  Status AllReduceMapped(const RankGroup& g, const std::vector<size_t>& local,
                         const std::function<uint8_t*(const mvk::BufferBinding&, size_t)>& address,
                         const std::string& what);
  Status AllReduceStaged(const RankGroup& g, const std::vector<size_t>& local,
                         const std::vector<std::vector<meshvk_buffer_t*>>& buffers, const std::string& what);
  Status ReduceScatter(const RankGroup& g, uint32_t index, const std::vector<std::vector<meshvk_buffer_t*>>& buffers,
                       const std::string& what);
  Status MoveBlocks(uint32_t function, const RankGroup& g, uint32_t index,
                    const std::vector<std::vector<meshvk_buffer_t*>>& buffers, const std::string& what);
  // An all_gather on host-mapped memory through the transport's
  // all_gather_pieces; *done false (nothing moved) where it cannot be.
  Status GatherMapped(uint32_t function, const RankGroup& g, uint32_t index,
                      const std::vector<std::vector<meshvk_buffer_t*>>& buffers, const std::string& what, bool* done);
  // Whether the host steps may work in host-mapped device memory (not in
  // `staged` mode).
  bool UseMapped() const { return mode_ != MESHVK_RANK_COLLECTIVES_STAGED; }
  uint32_t Position(const RankGroup& g) const;  // of this rank in g.ranks

  const meshvk_transport_t* transport_ = nullptr;
  const mvk::Artifact* artifact_ = nullptr;
  std::vector<uint32_t> rank_of_;
  uint32_t root_ = 0;
  std::map<std::tuple<uint32_t, uint32_t, uint32_t>, uint32_t> tags_;  // (function, process, command)
  std::vector<std::vector<Outgoing>> outgoing_;                        // [function], tag order
  std::vector<bool> sent_now_;                                         // [outgoing index of the invoked function]
  std::vector<RankCollectivePlan> plans_;                              // [function]
  size_t next_group_ = 0;
  meshvk_rank_collective_mode_t mode_ = MESHVK_RANK_COLLECTIVES_TRANSPORT;  // of the invoked function
  std::vector<uint8_t> group_sum_, group_part_, group_order_;               // host buffers of the host steps
  uint32_t invoked_ = UINT32_MAX;
  std::vector<std::vector<uint8_t>> in_flight_;  // result shards sent in this invoke
  // Host copies of outgoing copies, kept across invokes ([function][outgoing]):
  // a fresh multi-MiB allocation per invoke costs page faults and zeroing.
  std::vector<std::vector<std::vector<uint8_t>>> send_buffers_;
  std::vector<uint8_t> receive_buffer_;
  std::vector<meshvk_buffer_t*> landings_;  // +1 each
  // (function, group, block) -> the landing buffers of local copies reading
  // that block (borrowed from landings_), one per (VkDevice index, queue
  // family) they live on, shared by the copies there.
  std::map<std::tuple<uint32_t, uint32_t, uint32_t>, std::vector<std::tuple<meshvk_buffer_t*, uint32_t, uint32_t>>>
      block_landings_;
  uint64_t sent_ = 0, received_ = 0;
  uint64_t host_ns_ = 0;        // staging and transport calls in this invoke
  uint64_t staged_ = 0;         // bytes copied on the host into / out of device memory (transport stats)
  bool sends_pending_ = false;  // sends not yet completed (an invoke that failed midway)
};

}  // namespace meshvk::module

#endif  // MESHVK_RUNTIME_MODULE_REMOTE_COPIES_H_

// Collectives whose group spans ranks, run through the transport
// (meshvk/transport.h, "Collectives between ranks"), for the executor.
//
// The decision is the runtime's (ranks are a launch-time choice, the same
// artifact runs on one machine or on many) and depends only on the artifact
// and the process -> rank map, so every rank makes the same one without
// talking, and meshvk_module_rank_bytes / --print-plan can show it without a
// device.
//
// Where the host step runs: before the first phase that holds a command of
// the group (`phase`); the planner only takes a group when every member's
// last command before the collective runs in an earlier phase, so the
// partials are complete once the earlier phases finished. The group's
// commands are not recorded; waits on them are dropped (the host step wrote
// their output before any later phase is submitted).
// A copy collective's host step runs once every block's producer ran (the
// phase after the latest) and only when every copy it carries sits in that
// phase or later: the landing buffers are filled before those copies are
// submitted. Otherwise the collective keeps its point-to-point copies.
// Deadlock freedom: ranks run the host steps of a function in the same order
// (phase, then group), after sending everything other ranks may wait for in
// that phase (RemoteCopies::SendReady), so a rank inside a group's exchange
// only waits for ranks that reach the same group.
#ifndef MESHVK_RUNTIME_MODULE_RANK_COLLECTIVES_H_
#define MESHVK_RUNTIME_MODULE_RANK_COLLECTIVES_H_

#include <cstdint>
#include <map>
#include <utility>
#include <vector>

#include "meshvk/artifact/mvk_generated.h"
#include "meshvk/transport.h"
#include "schedule.h"

namespace meshvk::module {

// Message tags of the host steps' point-to-point exchanges (the ring, and
// the blocks when the transport has no collective of its own): one per
// group, above the result tags, below MPI's guaranteed 32767.
constexpr uint32_t kCollectiveTagBase = 24576;
constexpr uint32_t kMaxRankGroups = 32767 - kCollectiveTagBase;

// The transport call a group makes (the artifact's CollectiveKind values,
// as meshvk/transport.h's MESHVK_TRANSPORT_ALL_REDUCE ...).
enum class TransportCall : uint32_t {
  kAllReduce = 1,
  kAllGather = 2,
  kReduceScatter = 3,
  kAllToAll = 4,
  kBroadcast = 5
};

// Bytes of one process's buffer that copies on other ranks read: staged out
// once by its owner, received once by each rank in `to_ranks`.
struct Block {
  uint32_t process = 0, buffer = 0;
  uint64_t offset = 0, size = 0;
  uint32_t from = 0;         // position of the owner's rank in the group's ranks
  std::vector<uint32_t> to;  // positions of the ranks that read it, ascending
};

// One group run through the transport: an all_reduce or reduce_scatter
// group (its commands replaced by the host step), or the cross-rank copies of a copy collective
// (all_gather, broadcast, all_to_all) whose bytes one transport call moves
// into the copies' landing buffers (the copies still run).
struct RankGroup {
  uint32_t collective = 0;  // index in the function's collectives
  uint32_t phase = 0;       // the host step runs before this phase is submitted
  TransportCall call = TransportCall::kAllReduce;
  mvk::CollectiveKind kind = mvk::CollectiveKind::AllReduce;
  mvk::Reduction reduction = mvk::Reduction::None;
  mvk::ElementType element_type = mvk::ElementType::F32;
  uint64_t bytes = 0;             // all_reduce: per member; reduce_scatter: a member's chunk; others: sum of the blocks
  std::vector<uint32_t> members;  // grid processes, ascending
  std::vector<uint32_t> ranks;    // their ranks, ascending, distinct
  // all_reduce / reduce_scatter, per member: its partial (reduce_scatter: all
  // chunks), its result, its rank's position in `ranks`, and (reduce_scatter)
  // which chunk of the partials it reduces.
  std::vector<mvk::BufferBinding> input, output;
  std::vector<uint32_t> member_position, chunk;
  std::vector<Block> blocks;  // copy collectives: by owner position, process, buffer, offset
};

struct RankCollectivePlan {
  std::vector<RankGroup> groups;                 // in host-step order (phase, collective, first member)
  std::vector<std::vector<bool>> replaced;       // [process][command]: run by a host step instead
  std::vector<std::vector<int64_t>> host_phase;  // [process][command]: the host step's phase, -1: none
  // (process, command) of a copy whose source bytes a group's transport call
  // brings -> (group, block).
  std::map<std::pair<uint32_t, uint32_t>, std::pair<uint32_t, uint32_t>> carried;
  bool Replaced(uint32_t p, uint32_t c) const {
    return p < replaced.size() && c < replaced[p].size() && replaced[p][c];
  }
  const std::pair<uint32_t, uint32_t>* Carried(uint32_t p, uint32_t c) const {
    auto it = carried.find({p, c});
    return it == carried.end() ? nullptr : &it->second;
  }
};

// Bytes the rank at `position` of group `g` sends and receives in its host
// step (all_reduce: a ring's; blocks: each once per receiving rank).
void GroupTraffic(const RankGroup& g, uint32_t position, uint64_t* sent, uint64_t* received);
// "all_gather" ... for messages.
const char* CollectiveKindName(mvk::CollectiveKind kind);

// Whether `mode` is one of meshvk_rank_collective_mode_t's values (a caller
// may pass any number through the C API).
bool IsRankCollectiveMode(meshvk_rank_collective_mode_t mode);

// Groups of `function` (of a verified artifact) that run through the
// transport when process p runs on rank rank_of[p] (none in `copies` mode).
RankCollectivePlan PlanRankCollectives(const mvk::Artifact* artifact, const FunctionSchedule& schedule,
                                       uint32_t function, const std::vector<uint32_t>& rank_of,
                                       meshvk_rank_collective_mode_t mode);

// Bytes rank position `position` of `rank_count` sends (and receives) in a
// ring all-reduce of `count` elements of `element_size` bytes: chunk i holds
// elements [count*i/R, count*(i+1)/R); reduce-scatter then all-gather.
uint64_t RingAllReduceBytes(uint64_t count, uint32_t element_size, uint32_t rank_count, uint32_t position);

// Reduces `count` elements of `from` into `into` (host loop).
void ReduceInto(mvk::ElementType type, mvk::Reduction reduction, const uint8_t* from, uint8_t* into, uint64_t count);
// into[i] = a[i] (op) b[i]: one pass where a copy then ReduceInto make two
// (`into` may be `a` or `b`, never a partial overlap).
void ReduceTwo(mvk::ElementType type, mvk::Reduction reduction, const uint8_t* a, const uint8_t* b, uint8_t* into,
               uint64_t count);

}  // namespace meshvk::module

#endif  // MESHVK_RUNTIME_MODULE_RANK_COLLECTIVES_H_

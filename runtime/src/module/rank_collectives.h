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
// Deadlock freedom: ranks run the host steps of a function in the same order
// (phase, then group), after sending everything other ranks may wait for in
// that phase (RemoteCopies::SendReady), so a rank inside a group's exchange
// only waits for ranks that reach the same group.
#ifndef MESHVK_RUNTIME_MODULE_RANK_COLLECTIVES_H_
#define MESHVK_RUNTIME_MODULE_RANK_COLLECTIVES_H_

#include <cstdint>
#include <vector>

#include "meshvk/artifact/mvk_generated.h"
#include "meshvk/transport.h"
#include "schedule.h"

namespace meshvk::module {

// Message tags of the ring exchange: one per group, above the result tags.
constexpr uint32_t kCollectiveTagBase = 24576;

// One group of a tagged all_reduce, run through the transport.
struct RankGroup {
  uint32_t collective = 0;  // index in the function's collectives
  uint32_t phase = 0;       // the host step runs before this phase is submitted
  mvk::Reduction reduction = mvk::Reduction::None;
  mvk::ElementType element_type = mvk::ElementType::F32;
  uint64_t bytes = 0;                             // per member
  std::vector<uint32_t> members;                  // grid processes, ascending
  std::vector<uint32_t> ranks;                    // their ranks, ascending, distinct
  std::vector<mvk::BufferBinding> input, output;  // per member: its partial, its result
};

struct RankCollectivePlan {
  std::vector<RankGroup> groups;                 // in host-step order (phase, collective, first member)
  std::vector<std::vector<bool>> replaced;       // [process][command]: run by a host step instead
  std::vector<std::vector<int64_t>> host_phase;  // [process][command]: the host step's phase, -1: none
  bool Replaced(uint32_t p, uint32_t c) const {
    return p < replaced.size() && c < replaced[p].size() && replaced[p][c];
  }
};

// MESHVK_RANK_COLLECTIVES: `transport` (default: the transport's all_reduce
// when it has one, else the ring), `ring` (the ring over send/receive even
// when the transport has its own), `copies` (no group: the compiler's copies,
// point to point between ranks; for comparisons). False for another value.
enum class RankCollectiveMode { kTransport, kRing, kCopies };
bool ReadRankCollectiveMode(RankCollectiveMode* out);

// Groups of `function` (of a verified artifact) that run through the
// transport when process p runs on rank rank_of[p] (none in `copies` mode).
RankCollectivePlan PlanRankCollectives(const mvk::Artifact* artifact, const FunctionSchedule& schedule,
                                       uint32_t function, const std::vector<uint32_t>& rank_of);

// Bytes rank position `position` of `rank_count` sends (and receives) in a
// ring all-reduce of `count` elements of `element_size` bytes: chunk i holds
// elements [count*i/R, count*(i+1)/R); reduce-scatter then all-gather.
uint64_t RingAllReduceBytes(uint64_t count, uint32_t element_size, uint32_t rank_count, uint32_t position);

// Reduces `count` elements of `from` into `into` (host loop).
void ReduceInto(mvk::ElementType type, mvk::Reduction reduction, const uint8_t* from, uint8_t* into, uint64_t count);

}  // namespace meshvk::module

#endif  // MESHVK_RUNTIME_MODULE_RANK_COLLECTIVES_H_

// Cross-device race detector.
//
// Every work item carries a vector clock over the emulated devices: its own
// device's tick, joined with the clocks of everything it is ordered after
// (earlier work on its device, the signals of the semaphores it waits on, and
// what the host had waited for before submitting it). Two accesses from
// different devices to the same memory instance, at least one a write, whose
// clocks do not order them, are a race: a real device group may run them in
// either order or at the same time. No validation layer checks this, because
// it needs per-device memory instances that only a device group has.
#pragma once

#include <set>
#include <tuple>

#include "layer.h"

namespace meshvk_layer {

// One lane per device and queue: lane d is device d's queue of the real
// families, lane kMaxDevices + d its queue of the emulated transfer-only
// family (MESHVK_EMULATED_TRANSFER_FAMILY), which a real device runs
// alongside the other with no order but semaphores.
constexpr uint32_t kMaxLanes = 2 * kMaxDevices;
inline uint32_t laneOf(uint32_t device, bool transfer) { return device + (transfer ? kMaxDevices : 0); }
// "device 1" or "device 1's transfer queue", for messages.
std::string laneName(uint32_t lane);
using VectorClock = std::array<uint64_t, kMaxLanes>;
inline void join(VectorClock& a, const VectorClock& b) {
  for (uint32_t i = 0; i < kMaxLanes; ++i) a[i] = std::max(a[i], b[i]);
}

struct WorkDescription {
  uint32_t device;  // the lane
  uint64_t seq;
  uint32_t submission;  // 1-based count of vkQueueSubmit* calls on the device
  uint32_t batch;
  const VectorClock* clock;
};

class RaceDetector {
 public:
  // Checks the item's accesses against earlier ones and records them.
  void check(InstanceData* instance, const WorkDescription& work, const std::vector<Access>& accesses);
  void forget(uint64_t memoryId);

 private:
  struct Record {
    VkDeviceSize begin, end;
    bool write;
    uint32_t device;  // the lane
    uint64_t tick;    // the item's own tick on `device`
    uint64_t seq;
    uint32_t submission, batch;
    const char* command;
  };
  std::map<std::pair<uint64_t, uint32_t>, std::vector<Record>> instances_;
  std::set<std::tuple<uint64_t, uint64_t, uint64_t, uint32_t>> reported_;
};

}  // namespace meshvk_layer

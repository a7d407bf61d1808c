// Execution of an emulated device group's submissions on the one real queue.
//
// A vkQueueSubmit batch is split into one work item per emulated device: that
// device's real command buffers, the semaphore waits and signals the
// application gave to that device index. Items are ordered only by what the
// application ordered: program order on one device, semaphores, and host waits
// (fences, idle, timeline waits) before later submissions. In the reverse and
// shuffle orders items are held back until the host synchronises, then emitted
// in an order that runs independent devices' work out of submission order, so a
// missing cross-device dependency produces a wrong answer instead of hiding
// behind serial execution.
#pragma once

#include <deque>
#include <random>

#include "layer.h"
#include "race_detector.h"

namespace meshvk_layer {

struct SemaphoreOp {
  VkSemaphore semaphore;
  uint64_t value;  // timeline value (ignored for binary semaphores)
  VkPipelineStageFlags2 stages;
  uint32_t device;  // emulated device index that executes the operation
};
struct SubmittedCommandBuffer {
  EmulatedCommandBuffer* commandBuffer;
  uint32_t deviceMask;
};
struct Batch {
  std::vector<SemaphoreOp> waits;
  std::vector<SubmittedCommandBuffer> commandBuffers;
  std::vector<SemaphoreOp> signals;
};

class Scheduler {
 public:
  explicit Scheduler(DeviceData* device);
  ~Scheduler();

  VkResult submit(VkQueue queue, const std::vector<Batch>& batches, VkFence fence);
  // Emits every item whose dependencies are met.
  VkResult flush();

  void semaphoreCreated(VkSemaphore semaphore, bool timeline, uint64_t initialValue);
  void semaphoreDestroyed(VkSemaphore semaphore);
  void fenceDestroyed(VkFence fence);
  void memoryFreed(uint64_t memoryId);

  // What the host learnt from a successful wait: later submissions are ordered
  // after the work that the wait covered.
  void hostWaitedFence(VkFence fence);
  void hostWaitedAll();
  void hostObservedSemaphoreValue(VkSemaphore semaphore, uint64_t value);
  void hostSignaledSemaphore(VkSemaphore semaphore, uint64_t value);

 private:
  struct Item;
  using ItemPtr = std::shared_ptr<Item>;
  struct SemaphoreState {
    bool timeline = false;
    uint64_t hostValue = 0;  // highest value known signalled by the host (or initial)
    VectorClock hostClock{};
    std::deque<ItemPtr> binarySignals;  // signals not yet consumed by a wait
    std::vector<std::pair<uint64_t, ItemPtr>> timelineSignals;
    // Signals already handed to the real queue: value, device, that item's tick.
    struct Emitted {
      uint64_t value;
      uint32_t device;  // the lane (race_detector.h)
      uint64_t tick;
      uint32_t submission;
    };
    std::vector<Emitted> emitted;
    uint64_t realValue = 0;  // highest value the real semaphore will reach
  };
  // Timeline signals from different devices must be ordered by the
  // application: a real group may otherwise run the higher value first.
  bool checkTimelineSignal(Item& item, const SemaphoreOp& signal);

  bool ready(Item& item);
  VkResult emit(Item& item);
  SemaphoreState& semaphore(VkSemaphore s);

  DeviceData* device_;
  std::mutex mutex_;
  uint64_t nextSeq_ = 1;
  uint32_t nextSubmission_ = 1;
  VectorClock hostClock_{};
  uint64_t laneTicks_[kMaxLanes] = {};
  ItemPtr lastOnLane_[kMaxLanes];
  std::vector<ItemPtr> pending_;
  std::unordered_map<uint64_t, SemaphoreState> semaphores_;
  std::unordered_map<uint64_t, ItemPtr> fences_;
  std::mt19937_64 rng_;
  RaceDetector races_;
};

}  // namespace meshvk_layer

#include "scheduler.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <sstream>

namespace meshvk_layer {

struct Scheduler::Item {
  uint64_t seq = 0;
  uint32_t device = 0;
  uint32_t lane = 0;  // race_detector.h
  bool isFence = false;
  VkQueue queue = VK_NULL_HANDLE;
  VkFence fence = VK_NULL_HANDLE;
  uint32_t submission = 0, batch = 0;
  std::vector<VkCommandBuffer> commandBuffers;
  std::vector<Access> accesses;
  std::vector<SemaphoreOp> waits, signals;
  std::vector<ItemPtr> deps;                                 // emitted before this item
  std::vector<std::pair<VkSemaphore, uint64_t>> unresolved;  // timeline waits with no signal known yet
  ItemPtr prev;                                              // previous item on the same lane
  VectorClock clock{};                                       // host knowledge at submission, completed at emission
  bool emitted = false;
};

Scheduler::Scheduler(DeviceData* device) : device_(device), rng_(config().shuffleSeed) {}
Scheduler::~Scheduler() = default;

Scheduler::SemaphoreState& Scheduler::semaphore(VkSemaphore s) {
  return semaphores_[reinterpret_cast<uint64_t>(s)];  // unknown (e.g. created before): binary
}

void Scheduler::semaphoreCreated(VkSemaphore s, bool timeline, uint64_t initialValue) {
  std::lock_guard<std::mutex> lock(mutex_);
  SemaphoreState st;
  st.timeline = timeline;
  st.hostValue = initialValue;
  st.realValue = initialValue;
  semaphores_[reinterpret_cast<uint64_t>(s)] = std::move(st);
}
void Scheduler::semaphoreDestroyed(VkSemaphore s) {
  std::lock_guard<std::mutex> lock(mutex_);
  semaphores_.erase(reinterpret_cast<uint64_t>(s));
}
void Scheduler::fenceDestroyed(VkFence f) {
  std::lock_guard<std::mutex> lock(mutex_);
  fences_.erase(reinterpret_cast<uint64_t>(f));
}
void Scheduler::memoryFreed(uint64_t memoryId) {
  std::lock_guard<std::mutex> lock(mutex_);
  races_.forget(memoryId);
}

VkResult Scheduler::submit(VkQueue queue, const std::vector<Batch>& batches, VkFence fence) {
  bool tooManyPending = false;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    const uint32_t submission = nextSubmission_++;
    const bool transfer = isTransferQueue(device_, queue);
    for (uint32_t b = 0; b < batches.size(); ++b) {
      const Batch& batch = batches[b];
      uint32_t devices = 0;
      for (auto& w : batch.waits) devices |= 1u << w.device;
      for (auto& s : batch.signals) devices |= 1u << s.device;
      for (auto& c : batch.commandBuffers) devices |= c.deviceMask;
      for (uint32_t d = 0; d < device_->deviceCount; ++d) {
        if (!(devices & (1u << d))) continue;
        auto item = std::make_shared<Item>();
        item->seq = nextSeq_++;
        item->device = d;
        item->lane = laneOf(d, transfer);
        item->queue = queue;
        item->submission = submission;
        item->batch = b;
        item->clock = hostClock_;
        item->prev = lastOnLane_[item->lane];
        lastOnLane_[item->lane] = item;
        for (auto& c : batch.commandBuffers) {
          if (!(c.deviceMask & (1u << d))) continue;
          item->commandBuffers.push_back(c.commandBuffer->real[d]);
          auto& acc = c.commandBuffer->accesses[d];
          item->accesses.insert(item->accesses.end(), acc.begin(), acc.end());
        }
        for (auto& w : batch.waits) {
          if (w.device != d) continue;
          item->waits.push_back(w);
          SemaphoreState& st = semaphore(w.semaphore);
          if (!st.timeline) {
            if (!st.binarySignals.empty()) {
              item->deps.push_back(st.binarySignals.front());
              st.binarySignals.pop_front();
            }
          } else {
            item->unresolved.emplace_back(w.semaphore, w.value);
          }
        }
        for (auto& s : batch.signals) {
          if (s.device != d) continue;
          item->signals.push_back(s);
          SemaphoreState& st = semaphore(s.semaphore);
          if (!st.timeline) {
            st.binarySignals.push_back(item);
          } else {
            st.timelineSignals.emplace_back(s.value, item);
            if (st.timelineSignals.size() > 64) st.timelineSignals.erase(st.timelineSignals.begin());
          }
        }
        pending_.push_back(item);
      }
    }
    if (fence != VK_NULL_HANDLE) {
      // A fence covers all work submitted to the queue so far: after the last
      // item of every device on this queue's lanes.
      auto item = std::make_shared<Item>();
      item->seq = nextSeq_++;
      item->isFence = true;
      item->fence = fence;
      item->queue = queue;
      item->submission = submission;
      for (uint32_t d = 0; d < device_->deviceCount; ++d)
        if (const ItemPtr& last = lastOnLane_[laneOf(d, transfer)]) item->deps.push_back(last);
      fences_[reinterpret_cast<uint64_t>(fence)] = item;
      pending_.push_back(item);
    }
    tooManyPending = pending_.size() > 256;
  }
  // In submission order nothing is gained by holding work back.
  if (config().order == ExecutionOrder::kInOrder || tooManyPending) return flush();
  return VK_SUCCESS;
}

bool Scheduler::ready(Item& item) {
  if (item.prev && !item.prev->emitted) return false;
  for (auto& d : item.deps)
    if (!d->emitted) return false;
  for (size_t i = 0; i < item.unresolved.size();) {
    auto [sem, value] = item.unresolved[i];
    SemaphoreState& st = semaphore(sem);
    bool resolved = false;
    if (value <= st.hostValue) {
      join(item.clock, st.hostClock);
      resolved = true;
    } else {
      for (auto& [v, signaller] : st.timelineSignals)
        if (v >= value) {
          item.deps.push_back(signaller);
          resolved = true;
          break;
        }
    }
    if (resolved)
      item.unresolved.erase(item.unresolved.begin() + static_cast<long>(i));
    else
      ++i;
  }
  if (!item.unresolved.empty()) return false;
  for (auto& d : item.deps)
    if (!d->emitted) return false;
  return true;
}

VkResult Scheduler::emit(Item& item) {
  item.emitted = true;
  if (std::getenv("MESHVK_EMULATED_TRACE")) {
    std::fprintf(stderr, "[meshvk layer] emit seq %llu %s device %u:", (unsigned long long)item.seq,
                 item.isFence ? "fence" : "work", item.device);
    for (auto& w : item.waits) std::fprintf(stderr, " wait %p=%llu", (void*)w.semaphore, (unsigned long long)w.value);
    for (auto& s : item.signals)
      std::fprintf(stderr, " signal %p=%llu", (void*)s.semaphore, (unsigned long long)s.value);
    std::fprintf(stderr, " cbs %zu\n", item.commandBuffers.size());
  }
  for (auto& d : item.deps) join(item.clock, d->clock);
  if (item.isFence) {
    item.deps.clear();
    return device_->next.QueueSubmit(realQueue(device_, item.queue), 0, nullptr, item.fence);
  }
  if (item.prev) join(item.clock, item.prev->clock);
  item.clock[item.lane] = ++laneTicks_[item.lane];
  item.prev.reset();  // keep the chain short: the clock carries the history
  item.deps.clear();

  if (config().raceCheck)
    races_.check(device_->instance, {item.lane, item.seq, item.submission, item.batch, &item.clock}, item.accesses);
  item.accesses.clear();

  if (item.commandBuffers.empty() && item.waits.empty() && item.signals.empty()) return VK_SUCCESS;
  std::vector<VkSemaphore> waitSems, signalSems;
  std::vector<VkPipelineStageFlags> waitStages;
  std::vector<uint64_t> waitValues, signalValues;
  bool timeline = false;
  for (auto& w : item.waits) {
    waitSems.push_back(w.semaphore);
    // Stages beyond the 32-bit legacy set (or none) become ALL_COMMANDS: stricter, never weaker.
    waitStages.push_back(w.stages && w.stages <= 0xFFFFFFFFull
                             ? static_cast<VkPipelineStageFlags>(w.stages)
                             : static_cast<VkPipelineStageFlags>(VK_PIPELINE_STAGE_ALL_COMMANDS_BIT));
    waitValues.push_back(w.value);
    timeline |= semaphore(w.semaphore).timeline;
  }
  for (auto& s : item.signals) {
    if (semaphore(s.semaphore).timeline && !checkTimelineSignal(item, s)) continue;
    signalSems.push_back(s.semaphore);
    signalValues.push_back(s.value);
    timeline |= semaphore(s.semaphore).timeline;
  }
  VkTimelineSemaphoreSubmitInfo tl{VK_STRUCTURE_TYPE_TIMELINE_SEMAPHORE_SUBMIT_INFO};
  tl.waitSemaphoreValueCount = static_cast<uint32_t>(waitValues.size());
  tl.pWaitSemaphoreValues = waitValues.data();
  tl.signalSemaphoreValueCount = static_cast<uint32_t>(signalValues.size());
  tl.pSignalSemaphoreValues = signalValues.data();
  VkSubmitInfo si{VK_STRUCTURE_TYPE_SUBMIT_INFO};
  si.pNext = timeline ? &tl : nullptr;
  si.waitSemaphoreCount = static_cast<uint32_t>(waitSems.size());
  si.pWaitSemaphores = waitSems.data();
  si.pWaitDstStageMask = waitStages.data();
  si.commandBufferCount = static_cast<uint32_t>(item.commandBuffers.size());
  si.pCommandBuffers = item.commandBuffers.data();
  si.signalSemaphoreCount = static_cast<uint32_t>(signalSems.size());
  si.pSignalSemaphores = signalSems.data();
  return device_->next.QueueSubmit(realQueue(device_, item.queue), 1, &si, VK_NULL_HANDLE);
}

bool Scheduler::checkTimelineSignal(Item& item, const SemaphoreOp& signal) {
  SemaphoreState& st = semaphore(signal.semaphore);
  for (const auto& e : st.emitted) {
    if (e.device == item.lane || e.tick <= item.clock[e.device]) continue;
    std::ostringstream m;
    m << "timeline semaphore " << signal.semaphore << " is signalled to " << signal.value << " on "
      << laneName(item.lane) << " (submission " << item.submission << ") and to " << e.value << " on "
      << laneName(e.device) << " (submission " << e.submission
      << ") with nothing ordering the two signals; a real device group may run "
      << "them in either order, and a timeline value must only increase. Use one timeline per device, or order "
      << "the signals with a semaphore wait.";
    report(device_->instance, VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT, "MESHVK-timeline-signal-order", m.str());
    break;
  }
  st.emitted.push_back({signal.value, item.lane, item.clock[item.lane], item.submission});
  if (st.emitted.size() > 32) st.emitted.erase(st.emitted.begin());
  if (signal.value <= st.realValue) return false;  // would move the real counter back: dropped
  st.realValue = signal.value;
  return true;
}

VkResult Scheduler::flush() {
  std::lock_guard<std::mutex> lock(mutex_);
  VkResult result = VK_SUCCESS;
  std::vector<size_t> candidates;
  for (;;) {
    candidates.clear();
    for (size_t i = 0; i < pending_.size(); ++i)
      if (ready(*pending_[i])) candidates.push_back(i);
    if (candidates.empty()) break;
    size_t pick = candidates.front();  // pending_ is in submission order
    switch (config().order) {
      case ExecutionOrder::kInOrder:
        break;
      case ExecutionOrder::kReverse:
        pick = candidates.back();
        break;
      case ExecutionOrder::kShuffle:
        pick = candidates[rng_() % candidates.size()];
        break;
    }
    ItemPtr item = pending_[pick];
    pending_.erase(pending_.begin() + static_cast<long>(pick));
    VkResult r = emit(*item);
    if (r != VK_SUCCESS && result == VK_SUCCESS) result = r;
  }
  return result;
}

void Scheduler::hostWaitedFence(VkFence fence) {
  std::lock_guard<std::mutex> lock(mutex_);
  auto it = fences_.find(reinterpret_cast<uint64_t>(fence));
  if (it != fences_.end() && it->second->emitted) join(hostClock_, it->second->clock);
}

void Scheduler::hostWaitedAll() {
  std::lock_guard<std::mutex> lock(mutex_);
  for (const ItemPtr& last : lastOnLane_)
    if (last && last->emitted) join(hostClock_, last->clock);
}

void Scheduler::hostObservedSemaphoreValue(VkSemaphore s, uint64_t value) {
  std::lock_guard<std::mutex> lock(mutex_);
  SemaphoreState& st = semaphore(s);
  for (auto& [v, item] : st.timelineSignals)
    if (v <= value && item->emitted) join(hostClock_, item->clock);
  if (value <= st.hostValue) join(hostClock_, st.hostClock);
}

void Scheduler::hostSignaledSemaphore(VkSemaphore s, uint64_t value) {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    SemaphoreState& st = semaphore(s);
    st.hostValue = std::max(st.hostValue, value);
    st.realValue = std::max(st.realValue, value);
    join(st.hostClock, hostClock_);
  }
  flush();
}

}  // namespace meshvk_layer

// Bounded device waits (see device_wait.h).
#include "device_wait.h"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <vector>

#include "vulkan/vk_status.h"

namespace meshvk {
namespace {

Status Unresponsive(const std::string& where) {
  return MakeStatus(MESHVK_STATUS_DEVICE_LOST,
                    "%s: not waited on: the device stopped answering earlier (timed out or lost)", where.c_str());
}

// Converts a wait's result; a timeout or a lost device marks the device.
// `device_bound`: the wait ran for the whole device timeout. Only then does a
// VK_TIMEOUT mean the device stopped answering; a caller's shorter timeout
// (meshvk_semaphore_wait(..., 20 ms) on work gated by the host) is its own
// business and must not make teardown skip its drains.
Status WaitResult(LogicalDevice& device, VkResult result, const std::string& where, bool device_bound = true) {
  if ((result == VK_TIMEOUT && device_bound) || result == VK_ERROR_DEVICE_LOST) device.unresponsive = true;
  return VkResultToStatus(result, where);
}

std::string TimeoutText(uint64_t bound) {
  return bound == UINT64_MAX ? " (no timeout)" : " (timeout " + std::to_string(bound / 1000000) + " ms)";
}

}  // namespace

Status WaitSemaphores(LogicalDevice& device, const VkSemaphoreWaitInfo& wait, uint64_t timeout_ns,
                      const std::string& where, bool bounded_by_device) {
  if (device.unresponsive) return Unresponsive(where);
  const uint64_t bound = bounded_by_device ? std::min(timeout_ns, device.timeout_ns) : timeout_ns;
  return WaitResult(device, device.vk.vkWaitSemaphores(device.device, &wait, bound), where + TimeoutText(bound),
                    bounded_by_device && bound == device.timeout_ns);
}

Status WaitForFence(LogicalDevice& device, VkFence fence, const std::string& where) {
  if (device.unresponsive) return Unresponsive(where);
  uint64_t bound = device.timeout_ns;
  return WaitResult(device, device.vk.vkWaitForFences(device.device, 1, &fence, VK_TRUE, bound),
                    where + TimeoutText(bound));
}

Status DrainQueue(LogicalDevice& device, uint32_t queue, const std::string& where) {
  if (device.unresponsive) return Unresponsive(where);
  std::vector<VkSemaphore> timelines;
  std::vector<uint64_t> values;
  {
    std::lock_guard<std::mutex> lock(device.queue_locks[queue]);
    for (uint32_t d = 0; d < device.group_size(); ++d) {
      uint32_t i = device.timeline_index(queue, d);
      if (i < device.queue_timelines.size() && device.queue_timelines[i] && device.queue_timeline_values[i] > 0) {
        timelines.push_back(device.queue_timelines[i]);
        values.push_back(device.queue_timeline_values[i]);
      }
    }
  }
  if (!timelines.empty()) {
    VkSemaphoreWaitInfo wait{VK_STRUCTURE_TYPE_SEMAPHORE_WAIT_INFO};
    wait.semaphoreCount = static_cast<uint32_t>(timelines.size());
    wait.pSemaphores = timelines.data();
    wait.pValues = values.data();
    MESHVK_RETURN_IF_ERROR(WaitSemaphores(device, wait, device.timeout_ns, where + ": vkWaitSemaphores"));
  }
  // Everything meshvk submitted has finished, so this returns promptly (on an
  // application's queue it also waits for the application's work queued so
  // far, under its lock: lavapipe needs the drain before a pool is freed).
  QueueLock lock(device, queue);
  return WaitResult(device, device.vk.vkQueueWaitIdle(device.queues[queue]), where + ": vkQueueWaitIdle");
}

bool TouchesCommandBuffersAfterSignal(const meshvk_device_set_t* set, const LogicalDevice& device) {
  for (uint32_t physical : device.physical_indices)
    if (std::strstr(set->instance->physical_devices[physical].properties.deviceName, "llvmpipe")) return true;
  return false;
}

bool LeakIfUnresponsive(const LogicalDevice& device, uint64_t objects) {
  if (!device.unresponsive) return false;
  CountLeaked(objects);
  return true;
}

namespace {
std::atomic<uint64_t> leaked_objects{0};
}  // namespace

void CountLeaked(uint64_t objects) { leaked_objects += objects; }

void MarkIfUnanswered(std::atomic<bool>* flag, VkResult result, bool ran_device_timeout) {
  if (flag && ((result == VK_TIMEOUT && ran_device_timeout) || result == VK_ERROR_DEVICE_LOST)) *flag = true;
}

Status DrainDevice(LogicalDevice& device, const std::string& where) {
  for (uint32_t q = 0; q < device.queues.size(); ++q) MESHVK_RETURN_IF_ERROR(DrainQueue(device, q, where));
  if (!device.owns_device) return Status();  // meshvk's own submissions only
  // vkDeviceWaitIdle needs every queue of the device externally synchronized.
  std::vector<std::unique_lock<std::mutex>> locks;
  for (size_t q = 0; q < device.queues.size(); ++q) locks.emplace_back(device.queue_locks[q]);
  if (device.transfer_queue) locks.emplace_back(device.transfer_queue_lock);
  return WaitResult(device, device.vk.vkDeviceWaitIdle(device.device), where + ": vkDeviceWaitIdle");
}

}  // namespace meshvk

extern "C" uint64_t meshvk_leaked_object_count(void) { return meshvk::leaked_objects.load(); }

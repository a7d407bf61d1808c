// The emulated transfer-only queue family (MESHVK_EMULATED_TRANSFER_FAMILY=1).
//
// Discrete GPUs have queue families with only VK_QUEUE_TRANSFER_BIT, their
// DMA engines (an NVIDIA H200: families 1, 3 and 4); lavapipe has one family
// that does everything. With the option on, every emulated physical device
// reports one more family (index: the real family count) with only
// VK_QUEUE_TRANSFER_BIT and one queue, backed by the real family 0's first
// queue:
//  - its queue is a dispatchable wrapper, so the layer knows which family a
//    submission is for; the scheduler gives it a lane of its own, which the
//    race check orders against the device's other queue only through
//    semaphores and host waits, as a real device runs them side by side;
//  - its family index is replaced by the real one wherever the driver would
//    see it (queue creation, command pools, barriers, concurrent buffers);
//  - what a real driver does not support on such a family is reported
//    (MESHVK-transfer-family): dispatches, compute binds and push constants,
//    and barrier or semaphore-wait stages beyond transfer, host and
//    all-commands;
//  - copies and dispatches are counted per family, for tests
//    (vkGetEmulatedCommandCountsMESHVK).
// Submissions of both queues still run on the one real queue (in the
// scheduler's order); the wrapper's vkQueueWaitIdle waits for its own work
// through a fence, since the real queue is shared with the other family.
#include <algorithm>
#include <sstream>

#include "command_recording.h"
#include "scheduler.h"

namespace meshvk_layer {

uint32_t transferFamilyIndex(InstanceData* instance, VkPhysicalDevice real) {
  if (!config().transferFamily) return UINT32_MAX;
  auto fn = reinterpret_cast<PFN_vkGetPhysicalDeviceQueueFamilyProperties>(
      instance->pdForward[kPd_vkGetPhysicalDeviceQueueFamilyProperties]);
  uint32_t count = 0;
  if (fn) fn(real, &count, nullptr);
  return count;
}

std::vector<VkDeviceQueueCreateInfo> realQueueCreateInfos(const VkDeviceCreateInfo& info, uint32_t transferFamily,
                                                          std::vector<float>* storage) {
  std::vector<VkDeviceQueueCreateInfo> out;
  bool transfer = false, real0 = false;
  for (uint32_t i = 0; i < info.queueCreateInfoCount; ++i) {
    const VkDeviceQueueCreateInfo& q = info.pQueueCreateInfos[i];
    if (q.queueFamilyIndex == transferFamily) {
      transfer = true;
      continue;
    }
    real0 |= q.queueFamilyIndex == 0;
    out.push_back(q);
  }
  // The transfer family's queue is family 0's first: create it when only the
  // transfer family was asked for.
  if (transfer && !real0) {
    storage->assign(1, 1.0f);
    VkDeviceQueueCreateInfo q{VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO};
    q.queueFamilyIndex = 0;
    q.queueCount = 1;
    q.pQueuePriorities = storage->data();
    out.push_back(q);
  }
  return out;
}

bool isTransferQueue(DeviceData* d, VkQueue queue) {
  return d->transferQueue && queue == reinterpret_cast<VkQueue>(d->transferQueue);
}

VkQueue realQueue(DeviceData* d, VkQueue queue) { return isTransferQueue(d, queue) ? d->transferQueue->real : queue; }

uint32_t realFamily(const DeviceData* d, uint32_t family) {
  return family == d->transferFamily ? d->transferRealFamily : family;
}

void checkTransferCommand(EmulatedCommandBuffer* cb, const char* command) {
  if (!cb->transferOnly) return;
  report(cb->device->instance, VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT, "MESHVK-transfer-family",
         std::string(command) + " is recorded in a command buffer of queue family " +
             std::to_string(cb->device->transferFamily) +
             ", which supports only VK_QUEUE_TRANSFER_BIT (a real driver has no compute on its DMA engine)");
}

void checkTransferWaitStages(DeviceData* d, VkQueue queue, VkPipelineStageFlags2 stages, const char* fn) {
  if (!isTransferQueue(d, queue) || !(stages & ~kTransferFamilyStages)) return;
  report(d->instance, VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT, "MESHVK-transfer-family",
         std::string(fn) + " on the queue of transfer-only family " + std::to_string(d->transferFamily) +
             " waits at stages beyond transfer, host and all-commands (the family has no such stage)");
}

void countCommand(EmulatedCommandBuffer* cb, bool dispatch) {
  (dispatch ? cb->device->dispatches : cb->device->copies)[cb->transferOnly ? 1 : 0]++;
}

namespace {

// ---- the family in the physical device's queries -----------------------------

VkQueueFamilyProperties transferFamilyProperties(const VkQueueFamilyProperties& family0) {
  VkQueueFamilyProperties t = family0;
  t.queueFlags = VK_QUEUE_TRANSFER_BIT;
  t.queueCount = 1;
  t.minImageTransferGranularity = {1, 1, 1};
  return t;
}

VKAPI_ATTR void VKAPI_CALL GetPhysicalDeviceQueueFamilyProperties(VkPhysicalDevice pd, uint32_t* count,
                                                                  VkQueueFamilyProperties* props) {
  auto* e = emulatedPhysicalDevice(pd, "vkGetPhysicalDeviceQueueFamilyProperties");
  auto fn = reinterpret_cast<PFN_vkGetPhysicalDeviceQueueFamilyProperties>(
      e->instance->pdForward[kPd_vkGetPhysicalDeviceQueueFamilyProperties]);
  if (!fn) fatal("vkGetPhysicalDeviceQueueFamilyProperties", "is not available below the layer");
  if (!config().transferFamily) return fn(e->real, count, props);
  uint32_t real = 0;
  fn(e->real, &real, nullptr);
  if (!props) {
    *count = real + 1;
    return;
  }
  std::vector<VkQueueFamilyProperties> all(real);
  fn(e->real, &real, all.data());
  all.push_back(transferFamilyProperties(all[0]));
  *count = std::min<uint32_t>(*count, static_cast<uint32_t>(all.size()));
  std::copy(all.begin(), all.begin() + *count, props);
}
MESHVK_INTERCEPT(kPhysicalDevice, GetPhysicalDeviceQueueFamilyProperties)

VKAPI_ATTR void VKAPI_CALL GetPhysicalDeviceQueueFamilyProperties2(VkPhysicalDevice pd, uint32_t* count,
                                                                   VkQueueFamilyProperties2* props) {
  auto* e = emulatedPhysicalDevice(pd, "vkGetPhysicalDeviceQueueFamilyProperties2");
  auto fn = reinterpret_cast<PFN_vkGetPhysicalDeviceQueueFamilyProperties2>(
      e->instance->pdForward[kPd_vkGetPhysicalDeviceQueueFamilyProperties2]);
  if (!fn)
    fn = reinterpret_cast<PFN_vkGetPhysicalDeviceQueueFamilyProperties2>(
        e->instance->pdForward[kPd_vkGetPhysicalDeviceQueueFamilyProperties2KHR]);
  if (!fn) fatal("vkGetPhysicalDeviceQueueFamilyProperties2", "is not available below the layer");
  if (!config().transferFamily) return fn(e->real, count, props);
  uint32_t real = 0;
  fn(e->real, &real, nullptr);
  if (!props) {
    *count = real + 1;
    return;
  }
  // The driver fills the real families (with the application's chains); the
  // extra one copies family 0's core properties and leaves its chain as given.
  uint32_t filled = std::min(*count, real);
  fn(e->real, &filled, props);
  if (*count <= real) {
    *count = filled;
    return;
  }
  VkQueueFamilyProperties2 family0{VK_STRUCTURE_TYPE_QUEUE_FAMILY_PROPERTIES_2};
  if (filled > 0) {
    family0.queueFamilyProperties = props[0].queueFamilyProperties;
  } else {
    std::vector<VkQueueFamilyProperties2> all(real, {VK_STRUCTURE_TYPE_QUEUE_FAMILY_PROPERTIES_2});
    fn(e->real, &real, all.data());
    family0 = all[0];
  }
  props[real].queueFamilyProperties = transferFamilyProperties(family0.queueFamilyProperties);
  *count = real + 1;
}
MESHVK_INTERCEPT(kPhysicalDevice, GetPhysicalDeviceQueueFamilyProperties2)
MESHVK_INTERCEPT_ALIAS(kPhysicalDevice, GetPhysicalDeviceQueueFamilyProperties2,
                       GetPhysicalDeviceQueueFamilyProperties2KHR)

// ---- its queue ------------------------------------------------------------------

VkQueue transferQueue(VkDevice device, DeviceData* d) {
  std::lock_guard<std::mutex> lock(d->mutex);
  if (!d->transferQueue) {
    auto* q = new EmulatedQueue;
    q->loaderData = *reinterpret_cast<void**>(device);  // the loader's dispatch pointer (it sets it again)
    q->magic = kQueueMagic;
    d->next.GetDeviceQueue(device, d->transferRealFamily, 0, &q->real);
    d->transferQueue = q;
  }
  return reinterpret_cast<VkQueue>(d->transferQueue);
}

VKAPI_ATTR void VKAPI_CALL GetDeviceQueue(VkDevice device, uint32_t family, uint32_t index, VkQueue* out) {
  DeviceData* d = deviceFromHandle(device);
  if (family != d->transferFamily) return d->next.GetDeviceQueue(device, family, index, out);
  *out = transferQueue(device, d);
}
MESHVK_INTERCEPT(kDevice, GetDeviceQueue)

VKAPI_ATTR void VKAPI_CALL GetDeviceQueue2(VkDevice device, const VkDeviceQueueInfo2* info, VkQueue* out) {
  DeviceData* d = deviceFromHandle(device);
  if (info->queueFamilyIndex == d->transferFamily) {
    *out = transferQueue(device, d);
    return;
  }
  auto fn = reinterpret_cast<PFN_vkGetDeviceQueue2>(d->next.GetDeviceProcAddr(device, "vkGetDeviceQueue2"));
  fn(device, info, out);
}
MESHVK_INTERCEPT(kDevice, GetDeviceQueue2)

template <typename PFN, typename... A>
void forwardQueueLabel(const char* name, VkQueue queue, A... args) {
  DeviceData* d = deviceFromQueue(queue);
  auto fn = reinterpret_cast<PFN>(d->next.GetDeviceProcAddr(d->device, name));
  if (fn) fn(realQueue(d, queue), args...);
}
VKAPI_ATTR void VKAPI_CALL QueueBeginDebugUtilsLabelEXT(VkQueue queue, const VkDebugUtilsLabelEXT* label) {
  forwardQueueLabel<PFN_vkQueueBeginDebugUtilsLabelEXT>("vkQueueBeginDebugUtilsLabelEXT", queue, label);
}
MESHVK_INTERCEPT(kDevice, QueueBeginDebugUtilsLabelEXT)
VKAPI_ATTR void VKAPI_CALL QueueEndDebugUtilsLabelEXT(VkQueue queue) {
  forwardQueueLabel<PFN_vkQueueEndDebugUtilsLabelEXT>("vkQueueEndDebugUtilsLabelEXT", queue);
}
MESHVK_INTERCEPT(kDevice, QueueEndDebugUtilsLabelEXT)
VKAPI_ATTR void VKAPI_CALL QueueInsertDebugUtilsLabelEXT(VkQueue queue, const VkDebugUtilsLabelEXT* label) {
  forwardQueueLabel<PFN_vkQueueInsertDebugUtilsLabelEXT>("vkQueueInsertDebugUtilsLabelEXT", queue, label);
}
MESHVK_INTERCEPT(kDevice, QueueInsertDebugUtilsLabelEXT)

// ---- its command pools ------------------------------------------------------------

VKAPI_ATTR VkResult VKAPI_CALL CreateCommandPool(VkDevice device, const VkCommandPoolCreateInfo* info,
                                                 const VkAllocationCallbacks* alloc, VkCommandPool* out) {
  DeviceData* d = deviceFromHandle(device);
  auto fn = reinterpret_cast<PFN_vkCreateCommandPool>(d->next.GetDeviceProcAddr(device, "vkCreateCommandPool"));
  VkCommandPoolCreateInfo real = *info;
  real.queueFamilyIndex = realFamily(d, info->queueFamilyIndex);
  VkResult r = fn(device, &real, alloc, out);
  if (r == VK_SUCCESS && info->queueFamilyIndex == d->transferFamily) {
    std::lock_guard<std::mutex> lock(d->mutex);
    d->transferPools[reinterpret_cast<uint64_t>(*out)] = true;
  }
  return r;
}
MESHVK_INTERCEPT(kDevice, CreateCommandPool)

// Copies and dispatches recorded so far in command buffers of `family` (the
// transfer family's index, or any other for the real families).
VKAPI_ATTR VkResult VKAPI_CALL GetEmulatedCommandCountsMESHVK(VkDevice device, uint32_t family, uint64_t* copies,
                                                              uint64_t* dispatches) {
  DeviceData* d = deviceFromHandle(device);
  const int f = family == d->transferFamily ? 1 : 0;
  *copies = d->copies[f].load();
  *dispatches = d->dispatches[f].load();
  return VK_SUCCESS;
}
MESHVK_INTERCEPT(kDevice, GetEmulatedCommandCountsMESHVK)

}  // namespace

// vkQueueWaitIdle of either queue while the transfer family is on: the real
// queue serves both, so its own idle wait would wait for the other family's
// work and race with its submissions; a fence after this queue's work waits
// only for that (queue.cc).
VkResult waitIdleThroughFence(DeviceData* d, VkQueue queue) {
  auto create = reinterpret_cast<PFN_vkCreateFence>(d->next.GetDeviceProcAddr(d->device, "vkCreateFence"));
  VkFenceCreateInfo info{VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
  VkFence fence = VK_NULL_HANDLE;
  VkResult r = create(d->device, &info, nullptr, &fence);
  if (r != VK_SUCCESS) return r;
  r = d->scheduler->submit(queue, {}, fence);
  if (r == VK_SUCCESS) r = d->scheduler->flush();
  if (r == VK_SUCCESS) r = d->next.WaitForFences(d->device, 1, &fence, VK_TRUE, UINT64_MAX);
  if (r == VK_SUCCESS) d->scheduler->hostWaitedFence(fence);
  d->scheduler->fenceDestroyed(fence);
  d->next.DestroyFence(d->device, fence, nullptr);
  return r;
}

}  // namespace meshvk_layer

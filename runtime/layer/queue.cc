// Queue submission and host synchronisation. Submissions become per-device
// work items (scheduler.h); host waits tell the scheduler and the race
// detector what the host now knows to be complete.
#include <optional>

#include "layer.h"
#include "scheduler.h"

namespace meshvk_layer {
namespace {

VKAPI_ATTR VkResult VKAPI_CALL QueueSubmit(VkQueue queue, uint32_t count, const VkSubmitInfo* submits, VkFence fence) {
  const char* fn = "vkQueueSubmit";
  DeviceData* d = deviceFromQueue(queue);
  std::vector<Batch> batches(count);
  for (uint32_t i = 0; i < count; ++i) {
    const VkSubmitInfo& s = submits[i];
    // Without VkDeviceGroupSubmitInfo, semaphore operations and command buffers
    // execute on device index zero (the spec's rule, which a group-unaware
    // application relies on).
    const auto* group = findInChain<VkDeviceGroupSubmitInfo>(s.pNext, VK_STRUCTURE_TYPE_DEVICE_GROUP_SUBMIT_INFO);
    const auto* tl =
        findInChain<VkTimelineSemaphoreSubmitInfo>(s.pNext, VK_STRUCTURE_TYPE_TIMELINE_SEMAPHORE_SUBMIT_INFO);
    Batch& b = batches[i];
    for (uint32_t k = 0; k < s.waitSemaphoreCount; ++k) {
      SemaphoreOp op{s.pWaitSemaphores[k], 0, s.pWaitDstStageMask[k], 0};
      checkTransferWaitStages(d, queue, op.stages, fn);
      if (tl && k < tl->waitSemaphoreValueCount && tl->pWaitSemaphoreValues) op.value = tl->pWaitSemaphoreValues[k];
      if (group && k < group->waitSemaphoreCount) op.device = group->pWaitSemaphoreDeviceIndices[k];
      if (op.device >= d->deviceCount) fatal(fn, "got a wait semaphore device index outside the group");
      b.waits.push_back(op);
    }
    for (uint32_t k = 0; k < s.commandBufferCount; ++k) {
      SubmittedCommandBuffer c{emulatedCommandBuffer(s.pCommandBuffers[k], fn), 1u};
      if (group && k < group->commandBufferCount)
        c.deviceMask = group->pCommandBufferDeviceMasks[k] & d->allDevicesMask();
      b.commandBuffers.push_back(c);
    }
    for (uint32_t k = 0; k < s.signalSemaphoreCount; ++k) {
      SemaphoreOp op{s.pSignalSemaphores[k], 0, VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT, 0};
      if (tl && k < tl->signalSemaphoreValueCount && tl->pSignalSemaphoreValues)
        op.value = tl->pSignalSemaphoreValues[k];
      if (group && k < group->signalSemaphoreCount) op.device = group->pSignalSemaphoreDeviceIndices[k];
      if (op.device >= d->deviceCount) fatal(fn, "got a signal semaphore device index outside the group");
      b.signals.push_back(op);
    }
  }
  forwardImportedWaits(d, batches);
  return d->scheduler->submit(queue, batches, fence);
}
MESHVK_INTERCEPT(kDevice, QueueSubmit)

VKAPI_ATTR VkResult VKAPI_CALL QueueSubmit2(VkQueue queue, uint32_t count, const VkSubmitInfo2* submits,
                                            VkFence fence) {
  const char* fn = "vkQueueSubmit2";
  DeviceData* d = deviceFromQueue(queue);
  std::vector<Batch> batches(count);
  for (uint32_t i = 0; i < count; ++i) {
    const VkSubmitInfo2& s = submits[i];
    Batch& b = batches[i];
    for (uint32_t k = 0; k < s.waitSemaphoreInfoCount; ++k) {
      const auto& w = s.pWaitSemaphoreInfos[k];
      if (w.deviceIndex >= d->deviceCount) fatal(fn, "got a wait semaphore device index outside the group");
      checkTransferWaitStages(d, queue, w.stageMask, fn);
      b.waits.push_back({w.semaphore, w.value, w.stageMask, w.deviceIndex});
    }
    for (uint32_t k = 0; k < s.commandBufferInfoCount; ++k) {
      const auto& c = s.pCommandBufferInfos[k];
      uint32_t mask = c.deviceMask ? c.deviceMask & d->allDevicesMask() : d->allDevicesMask();
      b.commandBuffers.push_back({emulatedCommandBuffer(c.commandBuffer, fn), mask});
    }
    for (uint32_t k = 0; k < s.signalSemaphoreInfoCount; ++k) {
      const auto& sg = s.pSignalSemaphoreInfos[k];
      if (sg.deviceIndex >= d->deviceCount) fatal(fn, "got a signal semaphore device index outside the group");
      b.signals.push_back({sg.semaphore, sg.value, sg.stageMask, sg.deviceIndex});
    }
  }
  forwardImportedWaits(d, batches);
  return d->scheduler->submit(queue, batches, fence);
}
MESHVK_INTERCEPT(kDevice, QueueSubmit2)
MESHVK_INTERCEPT_ALIAS(kDevice, QueueSubmit2, QueueSubmit2KHR)

VKAPI_ATTR VkResult VKAPI_CALL QueueWaitIdle(VkQueue queue) {
  DeviceData* d = deviceFromQueue(queue);
  // The real queue serves the emulated transfer family too (transfer_family.cc).
  if (d->transferFamily != UINT32_MAX) return waitIdleThroughFence(d, queue);
  VkResult r = d->scheduler->flush();
  if (r != VK_SUCCESS) return r;
  r = d->next.QueueWaitIdle(queue);
  if (r == VK_SUCCESS) d->scheduler->hostWaitedAll();  // the device has one real queue
  return r;
}
MESHVK_INTERCEPT(kDevice, QueueWaitIdle)

VKAPI_ATTR VkResult VKAPI_CALL DeviceWaitIdle(VkDevice device) {
  DeviceData* d = deviceFromHandle(device);
  VkResult r = d->scheduler->flush();
  if (r != VK_SUCCESS) return r;
  r = d->next.DeviceWaitIdle(device);
  if (r == VK_SUCCESS) d->scheduler->hostWaitedAll();
  return r;
}
MESHVK_INTERCEPT(kDevice, DeviceWaitIdle)

VKAPI_ATTR VkResult VKAPI_CALL WaitForFences(VkDevice device, uint32_t count, const VkFence* fences, VkBool32 all,
                                             uint64_t timeout) {
  DeviceData* d = deviceFromHandle(device);
  VkResult r = d->scheduler->flush();
  if (r != VK_SUCCESS) return r;
  r = d->next.WaitForFences(device, count, fences, all, timeout);
  if (r == VK_SUCCESS)
    for (uint32_t i = 0; i < count; ++i)
      if (all || d->next.GetFenceStatus(device, fences[i]) == VK_SUCCESS) d->scheduler->hostWaitedFence(fences[i]);
  return r;
}
MESHVK_INTERCEPT(kDevice, WaitForFences)

VKAPI_ATTR VkResult VKAPI_CALL GetFenceStatus(VkDevice device, VkFence fence) {
  DeviceData* d = deviceFromHandle(device);
  VkResult r = d->scheduler->flush();
  if (r != VK_SUCCESS) return r;
  r = d->next.GetFenceStatus(device, fence);
  if (r == VK_SUCCESS) d->scheduler->hostWaitedFence(fence);
  return r;
}
MESHVK_INTERCEPT(kDevice, GetFenceStatus)

VKAPI_ATTR void VKAPI_CALL DestroyFence(VkDevice device, VkFence fence, const VkAllocationCallbacks* alloc) {
  DeviceData* d = deviceFromHandle(device);
  if (fence) d->scheduler->fenceDestroyed(fence);
  d->next.DestroyFence(device, fence, alloc);
}
MESHVK_INTERCEPT(kDevice, DestroyFence)

VKAPI_ATTR VkResult VKAPI_CALL CreateSemaphore(VkDevice device, const VkSemaphoreCreateInfo* info,
                                               const VkAllocationCallbacks* alloc, VkSemaphore* out) {
  DeviceData* d = deviceFromHandle(device);
  VkResult r;
  {
    // Exportable as an opaque fd is the layer's business (external_semaphore.cc):
    // lavapipe refuses the handle type.
    std::optional<ChainUnlink> dropExport;
    if (isEmulatedDeviceFunction(d, "vkGetSemaphoreFdKHR"))
      dropExport.emplace(info, VK_STRUCTURE_TYPE_EXPORT_SEMAPHORE_CREATE_INFO);
    r = d->next.CreateSemaphore(device, info, alloc, out);
  }
  if (r != VK_SUCCESS) return r;
  const auto* type = findInChain<VkSemaphoreTypeCreateInfo>(info->pNext, VK_STRUCTURE_TYPE_SEMAPHORE_TYPE_CREATE_INFO);
  const bool timeline = type && type->semaphoreType == VK_SEMAPHORE_TYPE_TIMELINE;
  d->scheduler->semaphoreCreated(*out, timeline, timeline ? type->initialValue : 0);
  return r;
}
MESHVK_INTERCEPT(kDevice, CreateSemaphore)

VKAPI_ATTR void VKAPI_CALL DestroySemaphore(VkDevice device, VkSemaphore semaphore,
                                            const VkAllocationCallbacks* alloc) {
  DeviceData* d = deviceFromHandle(device);
  if (semaphore) forgetSharedSemaphore(d, semaphore);
  if (semaphore) d->scheduler->semaphoreDestroyed(semaphore);
  d->next.DestroySemaphore(device, semaphore, alloc);
}
MESHVK_INTERCEPT(kDevice, DestroySemaphore)

VKAPI_ATTR VkResult VKAPI_CALL GetSemaphoreCounterValue(VkDevice device, VkSemaphore semaphore, uint64_t* value) {
  DeviceData* d = deviceFromHandle(device);
  VkResult r = d->scheduler->flush();
  if (r != VK_SUCCESS) return r;
  r = d->next.GetSemaphoreCounterValue(device, semaphore, value);
  if (r == VK_SUCCESS) d->scheduler->hostObservedSemaphoreValue(semaphore, *value);
  return r;
}
MESHVK_INTERCEPT(kDevice, GetSemaphoreCounterValue)
MESHVK_INTERCEPT_ALIAS(kDevice, GetSemaphoreCounterValue, GetSemaphoreCounterValueKHR)

VKAPI_ATTR VkResult VKAPI_CALL WaitSemaphores(VkDevice device, const VkSemaphoreWaitInfo* info, uint64_t timeout) {
  DeviceData* d = deviceFromHandle(device);
  VkResult r = d->scheduler->flush();
  if (r != VK_SUCCESS) return r;
  r = d->next.WaitSemaphores(device, info, timeout);
  if (r == VK_SUCCESS)
    for (uint32_t i = 0; i < info->semaphoreCount; ++i) {
      uint64_t value = 0;
      if (d->next.GetSemaphoreCounterValue(device, info->pSemaphores[i], &value) == VK_SUCCESS)
        d->scheduler->hostObservedSemaphoreValue(info->pSemaphores[i], value);
    }
  return r;
}
MESHVK_INTERCEPT(kDevice, WaitSemaphores)
MESHVK_INTERCEPT_ALIAS(kDevice, WaitSemaphores, WaitSemaphoresKHR)

VKAPI_ATTR VkResult VKAPI_CALL SignalSemaphore(VkDevice device, const VkSemaphoreSignalInfo* info) {
  DeviceData* d = deviceFromHandle(device);
  VkResult r = d->next.SignalSemaphore(device, info);
  if (r == VK_SUCCESS) d->scheduler->hostSignaledSemaphore(info->semaphore, info->value);
  return r;
}
MESHVK_INTERCEPT(kDevice, SignalSemaphore)
MESHVK_INTERCEPT_ALIAS(kDevice, SignalSemaphore, SignalSemaphoreKHR)

// Polling an event set by held-back work must not spin forever.
VKAPI_ATTR VkResult VKAPI_CALL GetEventStatus(VkDevice device, VkEvent event) {
  DeviceData* d = deviceFromHandle(device);
  d->scheduler->flush();
  return d->next.GetEventStatus(device, event);
}
MESHVK_INTERCEPT(kDevice, GetEventStatus)

// Results written by held-back work: VK_QUERY_RESULT_WAIT_BIT must not wait forever.
VKAPI_ATTR VkResult VKAPI_CALL GetQueryPoolResults(VkDevice device, VkQueryPool pool, uint32_t first, uint32_t count,
                                                   size_t size, void* data, VkDeviceSize stride,
                                                   VkQueryResultFlags flags) {
  DeviceData* d = deviceFromHandle(device);
  d->scheduler->flush();
  auto fn = reinterpret_cast<PFN_vkGetQueryPoolResults>(d->next.GetDeviceProcAddr(device, "vkGetQueryPoolResults"));
  return fn(device, pool, first, count, size, data, stride, flags);
}
MESHVK_INTERCEPT(kDevice, GetQueryPoolResults)

}  // namespace
}  // namespace meshvk_layer

// Commands that order and observe one device's stream: pipeline barriers,
// events, secondary command buffers, queries and debug labels. Like every
// vkCmd*, each is recorded once for each device in the current device mask,
// with that device's real buffers.
#include <vector>

#include "command_recording.h"

namespace meshvk_layer {
namespace {

// ---- synchronisation inside one device's stream ---------------------------------

// The ownership check's bookkeeping of one buffer barrier on device `d`: an
// acquire from VK_QUEUE_FAMILY_EXTERNAL or a release to it.
void noteOwnership(EmulatedCommandBuffer* cb, uint32_t d, VkBuffer buffer, uint32_t src, uint32_t dst, const char* fn) {
  if (!config().ownershipCheck || src == dst) return;
  // An acquire or release names the family of the command buffer's pool on
  // its side: one naming the other family hands the buffer to a family that
  // never takes it (MESHVK_EMULATED_TRANSFER_FAMILY).
  const DeviceData* dev = cb->device;
  const uint32_t side = src == VK_QUEUE_FAMILY_EXTERNAL ? dst : dst == VK_QUEUE_FAMILY_EXTERNAL ? src : UINT32_MAX;
  if (dev->transferFamily != UINT32_MAX && side != UINT32_MAX && (side == dev->transferFamily) != cb->transferOnly) {
    report(dev->instance, VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT, "MESHVK-queue-family-ownership",
           std::string(fn) + " on device " + std::to_string(d) + " names queue family " + std::to_string(side) +
               " in a command buffer of " + (cb->transferOnly ? "the transfer-only family" : "another family"));
  }
  if (src == VK_QUEUE_FAMILY_EXTERNAL) cb->owned[d][emulatedBuffer(buffer, fn)] = true;
  if (dst == VK_QUEUE_FAMILY_EXTERNAL) cb->owned[d][emulatedBuffer(buffer, fn)] = false;
}

// Barrier stages a transfer-only family supports (the spec's table of stages per queue capability).
void checkTransferStages(EmulatedCommandBuffer* cb, VkPipelineStageFlags2 stages, const char* fn) {
  if (cb->transferOnly && (stages & ~kTransferFamilyStages))
    checkTransferCommand(cb, (std::string(fn) + " with stages beyond transfer, host and all-commands").c_str());
}

std::vector<VkBufferMemoryBarrier> realBarriers(uint32_t d, uint32_t count, const VkBufferMemoryBarrier* in,
                                                const DeviceData* device, const char* fn) {
  std::vector<VkBufferMemoryBarrier> out(in, in + count);
  for (auto& b : out) {
    b.buffer = emulatedBuffer(b.buffer, fn)->real[d];
    b.srcQueueFamilyIndex = realFamily(device, b.srcQueueFamilyIndex);
    b.dstQueueFamilyIndex = realFamily(device, b.dstQueueFamilyIndex);
  }
  return out;
}

VKAPI_ATTR void VKAPI_CALL CmdPipelineBarrier(VkCommandBuffer handle, VkPipelineStageFlags srcStages,
                                              VkPipelineStageFlags dstStages, VkDependencyFlags flags,
                                              uint32_t memoryCount, const VkMemoryBarrier* memory, uint32_t bufferCount,
                                              const VkBufferMemoryBarrier* buffers, uint32_t imageCount,
                                              const VkImageMemoryBarrier* images) {
  const char* fn = "vkCmdPipelineBarrier";
  EmulatedCommandBuffer* cb = emulatedCommandBuffer(handle, fn);
  checkTransferStages(cb, srcStages | dstStages, fn);
  // VK_DEPENDENCY_DEVICE_GROUP_BIT would make the barrier cross devices; one
  // real device has no such thing, and the emulation orders devices only by
  // semaphores (stricter, never weaker than a real group).
  forEachDevice(cb, [&](uint32_t d, VkCommandBuffer r) {
    for (uint32_t i = 0; i < bufferCount; ++i)
      noteOwnership(cb, d, buffers[i].buffer, buffers[i].srcQueueFamilyIndex, buffers[i].dstQueueFamilyIndex, fn);
    auto rb = realBarriers(d, bufferCount, buffers, cb->device, fn);
    next(cb).CmdPipelineBarrier(r, srcStages, dstStages, flags & ~VK_DEPENDENCY_DEVICE_GROUP_BIT, memoryCount, memory,
                                bufferCount, rb.data(), imageCount, images);
  });
}
MESHVK_INTERCEPT(kDevice, CmdPipelineBarrier)

struct RealDependency {
  VkDependencyInfo info;
  std::vector<VkBufferMemoryBarrier2> buffers;
};
void realDependency(uint32_t d, const VkDependencyInfo& in, const DeviceData* device, RealDependency& out,
                    const char* fn) {
  out.info = in;
  out.info.dependencyFlags &= ~VK_DEPENDENCY_DEVICE_GROUP_BIT;
  out.buffers.assign(in.pBufferMemoryBarriers, in.pBufferMemoryBarriers + in.bufferMemoryBarrierCount);
  for (auto& b : out.buffers) {
    b.buffer = emulatedBuffer(b.buffer, fn)->real[d];
    b.srcQueueFamilyIndex = realFamily(device, b.srcQueueFamilyIndex);
    b.dstQueueFamilyIndex = realFamily(device, b.dstQueueFamilyIndex);
  }
  out.info.pBufferMemoryBarriers = out.buffers.data();
}

VKAPI_ATTR void VKAPI_CALL CmdPipelineBarrier2(VkCommandBuffer handle, const VkDependencyInfo* dep) {
  const char* fn = "vkCmdPipelineBarrier2";
  EmulatedCommandBuffer* cb = emulatedCommandBuffer(handle, fn);
  for (uint32_t i = 0; i < dep->memoryBarrierCount; ++i)
    checkTransferStages(cb, dep->pMemoryBarriers[i].srcStageMask | dep->pMemoryBarriers[i].dstStageMask, fn);
  for (uint32_t i = 0; i < dep->bufferMemoryBarrierCount; ++i)
    checkTransferStages(cb, dep->pBufferMemoryBarriers[i].srcStageMask | dep->pBufferMemoryBarriers[i].dstStageMask,
                        fn);
  forEachDevice(cb, [&](uint32_t d, VkCommandBuffer r) {
    for (uint32_t i = 0; i < dep->bufferMemoryBarrierCount; ++i) {
      const VkBufferMemoryBarrier2& b = dep->pBufferMemoryBarriers[i];
      noteOwnership(cb, d, b.buffer, b.srcQueueFamilyIndex, b.dstQueueFamilyIndex, fn);
    }
    RealDependency rd;
    realDependency(d, *dep, cb->device, rd, fn);
    next(cb).CmdPipelineBarrier2(r, &rd.info);
  });
}
MESHVK_INTERCEPT(kDevice, CmdPipelineBarrier2)
MESHVK_INTERCEPT_ALIAS(kDevice, CmdPipelineBarrier2, CmdPipelineBarrier2KHR)

// Events are real and shared: a device waiting on an event that another device
// sets is not a supported pattern (events do not cross devices in a group).
VKAPI_ATTR void VKAPI_CALL CmdSetEvent(VkCommandBuffer handle, VkEvent event, VkPipelineStageFlags stages) {
  EmulatedCommandBuffer* cb = emulatedCommandBuffer(handle, "vkCmdSetEvent");
  forEachDevice(cb, [&](uint32_t, VkCommandBuffer r) { next(cb).CmdSetEvent(r, event, stages); });
}
MESHVK_INTERCEPT(kDevice, CmdSetEvent)

VKAPI_ATTR void VKAPI_CALL CmdResetEvent(VkCommandBuffer handle, VkEvent event, VkPipelineStageFlags stages) {
  EmulatedCommandBuffer* cb = emulatedCommandBuffer(handle, "vkCmdResetEvent");
  forEachDevice(cb, [&](uint32_t, VkCommandBuffer r) { next(cb).CmdResetEvent(r, event, stages); });
}
MESHVK_INTERCEPT(kDevice, CmdResetEvent)

VKAPI_ATTR void VKAPI_CALL CmdWaitEvents(VkCommandBuffer handle, uint32_t eventCount, const VkEvent* events,
                                         VkPipelineStageFlags src, VkPipelineStageFlags dst, uint32_t memoryCount,
                                         const VkMemoryBarrier* memory, uint32_t bufferCount,
                                         const VkBufferMemoryBarrier* buffers, uint32_t imageCount,
                                         const VkImageMemoryBarrier* images) {
  const char* fn = "vkCmdWaitEvents";
  EmulatedCommandBuffer* cb = emulatedCommandBuffer(handle, fn);
  forEachDevice(cb, [&](uint32_t d, VkCommandBuffer r) {
    auto rb = realBarriers(d, bufferCount, buffers, cb->device, fn);
    next(cb).CmdWaitEvents(r, eventCount, events, src, dst, memoryCount, memory, bufferCount, rb.data(), imageCount,
                           images);
  });
}
MESHVK_INTERCEPT(kDevice, CmdWaitEvents)

VKAPI_ATTR void VKAPI_CALL CmdSetEvent2(VkCommandBuffer handle, VkEvent event, const VkDependencyInfo* dep) {
  const char* fn = "vkCmdSetEvent2";
  EmulatedCommandBuffer* cb = emulatedCommandBuffer(handle, fn);
  forEachDevice(cb, [&](uint32_t d, VkCommandBuffer r) {
    RealDependency rd;
    realDependency(d, *dep, cb->device, rd, fn);
    next(cb).CmdSetEvent2(r, event, &rd.info);
  });
}
MESHVK_INTERCEPT(kDevice, CmdSetEvent2)
MESHVK_INTERCEPT_ALIAS(kDevice, CmdSetEvent2, CmdSetEvent2KHR)

VKAPI_ATTR void VKAPI_CALL CmdResetEvent2(VkCommandBuffer handle, VkEvent event, VkPipelineStageFlags2 stages) {
  EmulatedCommandBuffer* cb = emulatedCommandBuffer(handle, "vkCmdResetEvent2");
  forEachDevice(cb, [&](uint32_t, VkCommandBuffer r) { next(cb).CmdResetEvent2(r, event, stages); });
}
MESHVK_INTERCEPT(kDevice, CmdResetEvent2)
MESHVK_INTERCEPT_ALIAS(kDevice, CmdResetEvent2, CmdResetEvent2KHR)

VKAPI_ATTR void VKAPI_CALL CmdWaitEvents2(VkCommandBuffer handle, uint32_t count, const VkEvent* events,
                                          const VkDependencyInfo* deps) {
  const char* fn = "vkCmdWaitEvents2";
  EmulatedCommandBuffer* cb = emulatedCommandBuffer(handle, fn);
  forEachDevice(cb, [&](uint32_t d, VkCommandBuffer r) {
    std::vector<RealDependency> rds(count);
    std::vector<VkDependencyInfo> infos(count);
    for (uint32_t i = 0; i < count; ++i) {
      realDependency(d, deps[i], cb->device, rds[i], fn);
      infos[i] = rds[i].info;
    }
    next(cb).CmdWaitEvents2(r, count, events, infos.data());
  });
}
MESHVK_INTERCEPT(kDevice, CmdWaitEvents2)
MESHVK_INTERCEPT_ALIAS(kDevice, CmdWaitEvents2, CmdWaitEvents2KHR)

VKAPI_ATTR void VKAPI_CALL CmdExecuteCommands(VkCommandBuffer handle, uint32_t count, const VkCommandBuffer* cbs) {
  const char* fn = "vkCmdExecuteCommands";
  EmulatedCommandBuffer* cb = emulatedCommandBuffer(handle, fn);
  std::vector<EmulatedCommandBuffer*> secondaries(count);
  for (uint32_t i = 0; i < count; ++i) secondaries[i] = emulatedCommandBuffer(cbs[i], fn);
  forEachDevice(cb, [&](uint32_t d, VkCommandBuffer r) {
    std::vector<VkCommandBuffer> real(count);
    for (uint32_t i = 0; i < count; ++i) {
      real[i] = secondaries[i]->real[d];
      auto& acc = secondaries[i]->accesses[d];
      cb->accesses[d].insert(cb->accesses[d].end(), acc.begin(), acc.end());
    }
    next(cb).CmdExecuteCommands(r, count, real.data());
  });
}
MESHVK_INTERCEPT(kDevice, CmdExecuteCommands)

// ---- queries: one real pool shared by the devices; results are those of the
// device that wrote a query last --------------------------------------------------

VKAPI_ATTR void VKAPI_CALL CmdResetQueryPool(VkCommandBuffer handle, VkQueryPool pool, uint32_t first, uint32_t n) {
  EmulatedCommandBuffer* cb = emulatedCommandBuffer(handle, "vkCmdResetQueryPool");
  forEachDevice(cb, [&](uint32_t, VkCommandBuffer r) { next(cb).CmdResetQueryPool(r, pool, first, n); });
}
MESHVK_INTERCEPT(kDevice, CmdResetQueryPool)

VKAPI_ATTR void VKAPI_CALL CmdWriteTimestamp(VkCommandBuffer handle, VkPipelineStageFlagBits stage, VkQueryPool pool,
                                             uint32_t query) {
  EmulatedCommandBuffer* cb = emulatedCommandBuffer(handle, "vkCmdWriteTimestamp");
  forEachDevice(cb, [&](uint32_t, VkCommandBuffer r) { next(cb).CmdWriteTimestamp(r, stage, pool, query); });
}
MESHVK_INTERCEPT(kDevice, CmdWriteTimestamp)

VKAPI_ATTR void VKAPI_CALL CmdWriteTimestamp2(VkCommandBuffer handle, VkPipelineStageFlags2 stage, VkQueryPool pool,
                                              uint32_t query) {
  EmulatedCommandBuffer* cb = emulatedCommandBuffer(handle, "vkCmdWriteTimestamp2");
  forEachDevice(cb, [&](uint32_t, VkCommandBuffer r) { next(cb).CmdWriteTimestamp2(r, stage, pool, query); });
}
MESHVK_INTERCEPT(kDevice, CmdWriteTimestamp2)
MESHVK_INTERCEPT_ALIAS(kDevice, CmdWriteTimestamp2, CmdWriteTimestamp2KHR)

VKAPI_ATTR void VKAPI_CALL CmdBeginQuery(VkCommandBuffer handle, VkQueryPool pool, uint32_t query,
                                         VkQueryControlFlags flags) {
  EmulatedCommandBuffer* cb = emulatedCommandBuffer(handle, "vkCmdBeginQuery");
  forEachDevice(cb, [&](uint32_t, VkCommandBuffer r) { next(cb).CmdBeginQuery(r, pool, query, flags); });
}
MESHVK_INTERCEPT(kDevice, CmdBeginQuery)

VKAPI_ATTR void VKAPI_CALL CmdEndQuery(VkCommandBuffer handle, VkQueryPool pool, uint32_t query) {
  EmulatedCommandBuffer* cb = emulatedCommandBuffer(handle, "vkCmdEndQuery");
  forEachDevice(cb, [&](uint32_t, VkCommandBuffer r) { next(cb).CmdEndQuery(r, pool, query); });
}
MESHVK_INTERCEPT(kDevice, CmdEndQuery)

VKAPI_ATTR void VKAPI_CALL CmdCopyQueryPoolResults(VkCommandBuffer handle, VkQueryPool pool, uint32_t first, uint32_t n,
                                                   VkBuffer dst, VkDeviceSize offset, VkDeviceSize stride,
                                                   VkQueryResultFlags flags) {
  const char* fn = "vkCmdCopyQueryPoolResults";
  EmulatedCommandBuffer* cb = emulatedCommandBuffer(handle, fn);
  EmulatedBuffer* t = emulatedBuffer(dst, fn);
  forEachDevice(cb, [&](uint32_t d, VkCommandBuffer r) {
    recordAccess(cb, d, t, offset, n ? stride * (n - 1) + 8 : 0, true, false, fn);
    next(cb).CmdCopyQueryPoolResults(r, pool, first, n, t->real[d], offset, stride, flags);
  });
}
MESHVK_INTERCEPT(kDevice, CmdCopyQueryPoolResults)

// ---- debug labels ----------------------------------------------------------------

VKAPI_ATTR void VKAPI_CALL CmdBeginDebugUtilsLabelEXT(VkCommandBuffer handle, const VkDebugUtilsLabelEXT* label) {
  EmulatedCommandBuffer* cb = emulatedCommandBuffer(handle, "vkCmdBeginDebugUtilsLabelEXT");
  if (!next(cb).CmdBeginDebugUtilsLabelEXT) return;
  forEachDevice(cb, [&](uint32_t, VkCommandBuffer r) { next(cb).CmdBeginDebugUtilsLabelEXT(r, label); });
}
MESHVK_INTERCEPT(kDevice, CmdBeginDebugUtilsLabelEXT)

VKAPI_ATTR void VKAPI_CALL CmdEndDebugUtilsLabelEXT(VkCommandBuffer handle) {
  EmulatedCommandBuffer* cb = emulatedCommandBuffer(handle, "vkCmdEndDebugUtilsLabelEXT");
  if (!next(cb).CmdEndDebugUtilsLabelEXT) return;
  forEachDevice(cb, [&](uint32_t, VkCommandBuffer r) { next(cb).CmdEndDebugUtilsLabelEXT(r); });
}
MESHVK_INTERCEPT(kDevice, CmdEndDebugUtilsLabelEXT)

VKAPI_ATTR void VKAPI_CALL CmdInsertDebugUtilsLabelEXT(VkCommandBuffer handle, const VkDebugUtilsLabelEXT* label) {
  EmulatedCommandBuffer* cb = emulatedCommandBuffer(handle, "vkCmdInsertDebugUtilsLabelEXT");
  if (!next(cb).CmdInsertDebugUtilsLabelEXT) return;
  forEachDevice(cb, [&](uint32_t, VkCommandBuffer r) { next(cb).CmdInsertDebugUtilsLabelEXT(r, label); });
}
MESHVK_INTERCEPT(kDevice, CmdInsertDebugUtilsLabelEXT)

}  // namespace
}  // namespace meshvk_layer

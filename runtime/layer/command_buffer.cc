// Command buffers: one real command buffer per emulated device. Every vkCmd*
// is recorded once for each device in the current device mask
// (vkCmdSetDeviceMask), with that device's real buffers and descriptor sets.
// The buffer ranges each command reads and writes are kept per device for the
// race detector.
#include <sstream>

#include "command_recording.h"
#include "descriptors.h"

namespace meshvk_layer {

// Records one buffer access by device `dev`, checking that the device has a
// memory instance there and, for a peer instance, the peer-memory feature.
void recordAccess(EmulatedCommandBuffer* cb, uint32_t dev, EmulatedBuffer* buf, VkDeviceSize offset, VkDeviceSize size,
                  bool write, bool generic, const char* command) {
  if (!buf) return;
  const BufferBinding& b = buf->binding[dev];
  if (!b.bound) return;  // the validation layer above reports unbound buffers
  if (size == VK_WHOLE_SIZE) size = offset < buf->size ? buf->size - offset : 0;
  InstanceData* inst = cb->device->instance;
  if (b.instance == UINT32_MAX) {
    std::ostringstream m;
    m << command << " on device " << dev << " uses a buffer bound to memory that has no instance on device " << dev
      << " (allocated with a device mask without it)";
    report(inst, VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT, "MESHVK-missing-memory-instance", m.str());
    return;
  }
  if (b.memory->multiInstance && b.instance != dev) {
    VkPeerMemoryFeatureFlags need =
        generic ? (write ? VK_PEER_MEMORY_FEATURE_GENERIC_DST_BIT : VK_PEER_MEMORY_FEATURE_GENERIC_SRC_BIT)
                : (write ? VK_PEER_MEMORY_FEATURE_COPY_DST_BIT : VK_PEER_MEMORY_FEATURE_COPY_SRC_BIT);
    if (!(config().peerFeatures & need)) {
      std::ostringstream m;
      m << command << " on device " << dev << (write ? " writes" : " reads") << " memory instance " << b.instance
        << " (a peer) but the emulated group's peer memory features lack "
        << (need == VK_PEER_MEMORY_FEATURE_COPY_SRC_BIT      ? "VK_PEER_MEMORY_FEATURE_COPY_SRC_BIT"
            : need == VK_PEER_MEMORY_FEATURE_COPY_DST_BIT    ? "VK_PEER_MEMORY_FEATURE_COPY_DST_BIT"
            : need == VK_PEER_MEMORY_FEATURE_GENERIC_SRC_BIT ? "VK_PEER_MEMORY_FEATURE_GENERIC_SRC_BIT"
                                                             : "VK_PEER_MEMORY_FEATURE_GENERIC_DST_BIT");
      report(inst, VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT, "MESHVK-peer-memory-feature", m.str());
    }
  }
  if (config().ownershipCheck && buf->exclusive && b.memory->external) {
    auto it = cb->owned[dev].find(buf);
    if (it == cb->owned[dev].end() || !it->second) {
      std::ostringstream m;
      m << command << " on device " << dev << (write ? " writes" : " reads")
        << " an EXCLUSIVE buffer of external memory "
        << (it == cb->owned[dev].end() ? "not acquired from" : "already released to")
        << " VK_QUEUE_FAMILY_EXTERNAL in this command buffer (its contents are undefined to this queue family)";
      report(inst, VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT, "MESHVK-queue-family-ownership", m.str());
    }
  }
  cb->accesses[dev].push_back({b.memoryId, b.instance, b.memoryOffset + offset, size, write, command});
}

namespace {

// The buffers a dispatch touches: every binding the pipeline's shader uses,
// through the bound (or pushed) descriptor sets.
void recordDispatch(EmulatedCommandBuffer* cb, uint32_t dev, const char* command) {
  checkTransferCommand(cb, command);
  countCommand(cb, true);
  if (!cb->computePipeline) return;
  for (const BindingAccess& ba : *cb->computePipeline) {
    const std::vector<BufferDescriptor>* slots = nullptr;
    const std::vector<uint32_t>* dynamicOffsets = nullptr;
    const DescriptorSetLayoutInfo* layout = nullptr;
    if (auto p = cb->pushDescriptors.find(ba.set); p != cb->pushDescriptors.end()) {
      auto s = p->second.find(ba.binding);
      if (s != p->second.end()) slots = &s->second;
    } else if (auto b = cb->boundSets.find(ba.set); b != cb->boundSets.end() && b->second.set) {
      auto s = b->second.set->buffers.find(ba.binding);
      if (s != b->second.set->buffers.end()) slots = &s->second;
      dynamicOffsets = &b->second.dynamicOffsets;
      layout = b->second.set->layout.get();
    }
    if (!slots) continue;
    // Dynamic offsets are consumed in binding order, then array order.
    uint32_t dynamicIndex = 0;
    if (layout)
      for (auto& [binding, tc] : layout->bindings) {
        if (binding >= ba.binding) break;
        if (tc.first == VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER_DYNAMIC ||
            tc.first == VK_DESCRIPTOR_TYPE_STORAGE_BUFFER_DYNAMIC)
          dynamicIndex += tc.second;
      }
    for (const BufferDescriptor& desc : *slots) {
      VkDeviceSize offset = desc.offset;
      const bool dynamic = desc.type == VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER_DYNAMIC ||
                           desc.type == VK_DESCRIPTOR_TYPE_STORAGE_BUFFER_DYNAMIC;
      if (dynamic && dynamicOffsets && dynamicIndex < dynamicOffsets->size()) offset += (*dynamicOffsets)[dynamicIndex];
      if (dynamic) ++dynamicIndex;
      const bool storage =
          desc.type == VK_DESCRIPTOR_TYPE_STORAGE_BUFFER || desc.type == VK_DESCRIPTOR_TYPE_STORAGE_BUFFER_DYNAMIC;
      VkDeviceSize size = desc.range;
      if (size == VK_WHOLE_SIZE && desc.buffer) size = offset < desc.buffer->size ? desc.buffer->size - offset : 0;
      if (ba.read || !storage) recordAccess(cb, dev, desc.buffer, offset, size, false, true, command);
      if (ba.write && storage) recordAccess(cb, dev, desc.buffer, offset, size, true, true, command);
    }
  }
}

void resetState(EmulatedCommandBuffer* cb) {
  for (auto& a : cb->accesses) a.clear();
  for (auto& o : cb->owned) o.clear();
  cb->computePipeline.reset();
  cb->boundSets.clear();
  cb->pushDescriptors.clear();
  cb->deviceMask = cb->device->allDevicesMask();
}

// ---- allocation --------------------------------------------------------------

VKAPI_ATTR VkResult VKAPI_CALL AllocateCommandBuffers(VkDevice device, const VkCommandBufferAllocateInfo* info,
                                                      VkCommandBuffer* out) {
  DeviceData* d = deviceFromHandle(device);
  const uint32_t n = info->commandBufferCount;
  std::vector<std::vector<VkCommandBuffer>> real(d->deviceCount, std::vector<VkCommandBuffer>(n));
  for (uint32_t dev = 0; dev < d->deviceCount; ++dev) {
    VkResult r = d->next.AllocateCommandBuffers(device, info, real[dev].data());
    if (r != VK_SUCCESS) {
      for (uint32_t j = 0; j < dev; ++j) d->next.FreeCommandBuffers(device, info->commandPool, n, real[j].data());
      for (uint32_t i = 0; i < n; ++i) out[i] = VK_NULL_HANDLE;
      return r;
    }
  }
  std::lock_guard<std::mutex> lock(d->mutex);
  auto& poolList = d->commandPools[reinterpret_cast<uint64_t>(info->commandPool)];
  const bool transferOnly = d->transferPools.count(reinterpret_cast<uint64_t>(info->commandPool)) > 0;
  for (uint32_t i = 0; i < n; ++i) {
    auto* cb = new EmulatedCommandBuffer;
    cb->loaderData = *reinterpret_cast<void**>(device);  // the loader's dispatch pointer
    cb->magic = kCommandBufferMagic;
    cb->device = d;
    cb->pool = info->commandPool;
    cb->transferOnly = transferOnly;
    for (uint32_t dev = 0; dev < d->deviceCount; ++dev) cb->real[dev] = real[dev][i];
    resetState(cb);
    poolList.push_back(cb);
    out[i] = reinterpret_cast<VkCommandBuffer>(cb);
  }
  return VK_SUCCESS;
}
MESHVK_INTERCEPT(kDevice, AllocateCommandBuffers)

void freeWrappers(DeviceData* d, VkDevice device, VkCommandPool pool, std::vector<EmulatedCommandBuffer*> cbs,
                  bool freeReal) {
  for (EmulatedCommandBuffer* cb : cbs) {
    if (freeReal) d->next.FreeCommandBuffers(device, pool, d->deviceCount, cb->real);
    cb->magic = 0;
    delete cb;
  }
}

VKAPI_ATTR void VKAPI_CALL FreeCommandBuffers(VkDevice device, VkCommandPool pool, uint32_t count,
                                              const VkCommandBuffer* cbs) {
  DeviceData* d = deviceFromHandle(device);
  std::vector<EmulatedCommandBuffer*> wrappers;
  {
    std::lock_guard<std::mutex> lock(d->mutex);
    auto& list = d->commandPools[reinterpret_cast<uint64_t>(pool)];
    for (uint32_t i = 0; i < count; ++i) {
      if (!cbs[i]) continue;
      EmulatedCommandBuffer* cb = emulatedCommandBuffer(cbs[i], "vkFreeCommandBuffers");
      for (size_t k = 0; k < list.size(); ++k)
        if (list[k] == cb) {
          list.erase(list.begin() + static_cast<long>(k));
          break;
        }
      wrappers.push_back(cb);
    }
  }
  freeWrappers(d, device, pool, wrappers, true);
}
MESHVK_INTERCEPT(kDevice, FreeCommandBuffers)

VKAPI_ATTR VkResult VKAPI_CALL ResetCommandPool(VkDevice device, VkCommandPool pool, VkCommandPoolResetFlags flags) {
  DeviceData* d = deviceFromHandle(device);
  VkResult r = d->next.ResetCommandPool(device, pool, flags);
  std::lock_guard<std::mutex> lock(d->mutex);
  for (EmulatedCommandBuffer* cb : d->commandPools[reinterpret_cast<uint64_t>(pool)]) resetState(cb);
  return r;
}
MESHVK_INTERCEPT(kDevice, ResetCommandPool)

VKAPI_ATTR void VKAPI_CALL DestroyCommandPool(VkDevice device, VkCommandPool pool, const VkAllocationCallbacks* alloc) {
  if (!pool) return;
  DeviceData* d = deviceFromHandle(device);
  std::vector<EmulatedCommandBuffer*> wrappers;
  {
    std::lock_guard<std::mutex> lock(d->mutex);
    auto it = d->commandPools.find(reinterpret_cast<uint64_t>(pool));
    if (it != d->commandPools.end()) {
      wrappers = std::move(it->second);
      d->commandPools.erase(it);
    }
    d->transferPools.erase(reinterpret_cast<uint64_t>(pool));
  }
  d->next.DestroyCommandPool(device, pool, alloc);  // frees the real command buffers
  freeWrappers(d, device, pool, wrappers, false);
}
MESHVK_INTERCEPT(kDevice, DestroyCommandPool)

// ---- recording ----------------------------------------------------------------

VKAPI_ATTR VkResult VKAPI_CALL BeginCommandBuffer(VkCommandBuffer handle, const VkCommandBufferBeginInfo* info) {
  EmulatedCommandBuffer* cb = emulatedCommandBuffer(handle, "vkBeginCommandBuffer");
  resetState(cb);
  if (auto* g = findInChain<VkDeviceGroupCommandBufferBeginInfo>(
          info->pNext, VK_STRUCTURE_TYPE_DEVICE_GROUP_COMMAND_BUFFER_BEGIN_INFO))
    cb->deviceMask = g->deviceMask & cb->device->allDevicesMask();
  // The real device is a group of one: its command buffers must not see the emulated mask.
  ChainUnlink unlink(info, VK_STRUCTURE_TYPE_DEVICE_GROUP_COMMAND_BUFFER_BEGIN_INFO);
  for (uint32_t d = 0; d < cb->device->deviceCount; ++d) {
    VkResult r = next(cb).BeginCommandBuffer(cb->real[d], info);
    if (r != VK_SUCCESS) return r;
  }
  return VK_SUCCESS;
}
MESHVK_INTERCEPT(kDevice, BeginCommandBuffer)

VKAPI_ATTR VkResult VKAPI_CALL EndCommandBuffer(VkCommandBuffer handle) {
  EmulatedCommandBuffer* cb = emulatedCommandBuffer(handle, "vkEndCommandBuffer");
  for (uint32_t d = 0; config().ownershipCheck && d < cb->device->deviceCount; ++d) {
    for (const auto& [buffer, acquired] : cb->owned[d]) {
      if (!acquired) continue;
      report(cb->device->instance, VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT, "MESHVK-queue-family-ownership",
             "vkEndCommandBuffer on device " + std::to_string(d) +
                 ": an EXCLUSIVE buffer of external memory acquired from VK_QUEUE_FAMILY_EXTERNAL is not released "
                 "back to it (another VkDevice's next acquire would find it owned here)");
    }
  }
  for (uint32_t d = 0; d < cb->device->deviceCount; ++d) {
    VkResult r = next(cb).EndCommandBuffer(cb->real[d]);
    if (r != VK_SUCCESS) return r;
  }
  return VK_SUCCESS;
}
MESHVK_INTERCEPT(kDevice, EndCommandBuffer)

VKAPI_ATTR VkResult VKAPI_CALL ResetCommandBuffer(VkCommandBuffer handle, VkCommandBufferResetFlags flags) {
  EmulatedCommandBuffer* cb = emulatedCommandBuffer(handle, "vkResetCommandBuffer");
  resetState(cb);
  for (uint32_t d = 0; d < cb->device->deviceCount; ++d) {
    VkResult r = next(cb).ResetCommandBuffer(cb->real[d], flags);
    if (r != VK_SUCCESS) return r;
  }
  return VK_SUCCESS;
}
MESHVK_INTERCEPT(kDevice, ResetCommandBuffer)

VKAPI_ATTR void VKAPI_CALL CmdSetDeviceMask(VkCommandBuffer handle, uint32_t mask) {
  EmulatedCommandBuffer* cb = emulatedCommandBuffer(handle, "vkCmdSetDeviceMask");
  cb->deviceMask = mask & cb->device->allDevicesMask();  // nothing is recorded on the real device
}
MESHVK_INTERCEPT(kDevice, CmdSetDeviceMask)
MESHVK_INTERCEPT_ALIAS(kDevice, CmdSetDeviceMask, CmdSetDeviceMaskKHR)

VKAPI_ATTR void VKAPI_CALL CmdBindPipeline(VkCommandBuffer handle, VkPipelineBindPoint point, VkPipeline pipeline) {
  EmulatedCommandBuffer* cb = emulatedCommandBuffer(handle, "vkCmdBindPipeline");
  checkTransferCommand(cb, "vkCmdBindPipeline");
  if (point == VK_PIPELINE_BIND_POINT_COMPUTE) {
    std::lock_guard<std::mutex> lock(cb->device->mutex);
    auto it = cb->device->pipelines.find(reinterpret_cast<uint64_t>(pipeline));
    cb->computePipeline = it == cb->device->pipelines.end() ? nullptr : it->second;
  }
  forEachDevice(cb, [&](uint32_t, VkCommandBuffer r) { next(cb).CmdBindPipeline(r, point, pipeline); });
}
MESHVK_INTERCEPT(kDevice, CmdBindPipeline)

VKAPI_ATTR void VKAPI_CALL CmdBindDescriptorSets(VkCommandBuffer handle, VkPipelineBindPoint point,
                                                 VkPipelineLayout layout, uint32_t firstSet, uint32_t count,
                                                 const VkDescriptorSet* sets, uint32_t dynamicCount,
                                                 const uint32_t* dynamicOffsets) {
  const char* fn = "vkCmdBindDescriptorSets";
  EmulatedCommandBuffer* cb = emulatedCommandBuffer(handle, fn);
  checkTransferCommand(cb, fn);
  std::vector<EmulatedDescriptorSet*> wrappers(count);
  for (uint32_t i = 0; i < count; ++i) wrappers[i] = sets[i] ? emulatedDescriptorSet(sets[i], fn) : nullptr;
  if (point == VK_PIPELINE_BIND_POINT_COMPUTE) {
    // Dynamic offsets are handed out to the sets in order.
    uint32_t consumed = 0;
    for (uint32_t i = 0; i < count; ++i) {
      BoundSet bs;
      bs.set = wrappers[i];
      if (bs.set && bs.set->layout)
        for (auto& [binding, tc] : bs.set->layout->bindings)
          if (tc.first == VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER_DYNAMIC ||
              tc.first == VK_DESCRIPTOR_TYPE_STORAGE_BUFFER_DYNAMIC)
            for (uint32_t k = 0; k < tc.second && consumed < dynamicCount; ++k)
              bs.dynamicOffsets.push_back(dynamicOffsets[consumed++]);
      cb->boundSets[firstSet + i] = bs;
      cb->pushDescriptors.erase(firstSet + i);
    }
  }
  forEachDevice(cb, [&](uint32_t d, VkCommandBuffer r) {
    std::vector<VkDescriptorSet> real(count);
    for (uint32_t i = 0; i < count; ++i) real[i] = wrappers[i] ? wrappers[i]->real[d] : VK_NULL_HANDLE;
    next(cb).CmdBindDescriptorSets(r, point, layout, firstSet, count, real.data(), dynamicCount, dynamicOffsets);
  });
}
MESHVK_INTERCEPT(kDevice, CmdBindDescriptorSets)

VKAPI_ATTR void VKAPI_CALL CmdPushDescriptorSetKHR(VkCommandBuffer handle, VkPipelineBindPoint point,
                                                   VkPipelineLayout layout, uint32_t set, uint32_t count,
                                                   const VkWriteDescriptorSet* writes) {
  const char* fn = "vkCmdPushDescriptorSetKHR";
  EmulatedCommandBuffer* cb = emulatedCommandBuffer(handle, fn);
  checkTransferCommand(cb, fn);
  if (point == VK_PIPELINE_BIND_POINT_COMPUTE) {
    cb->boundSets.erase(set);
    for (uint32_t i = 0; i < count; ++i) recordBufferWrites(nullptr, writes[i], cb->pushDescriptors[set], fn);
  }
  forEachDevice(cb, [&](uint32_t d, VkCommandBuffer r) {
    RealWrites rw;
    translateWrites(d, count, writes, true, rw, fn);
    next(cb).CmdPushDescriptorSetKHR(r, point, layout, set, count, rw.writes.data());
  });
}
MESHVK_INTERCEPT(kDevice, CmdPushDescriptorSetKHR)

VKAPI_ATTR void VKAPI_CALL CmdPushDescriptorSetWithTemplateKHR(VkCommandBuffer handle, VkDescriptorUpdateTemplate t,
                                                               VkPipelineLayout layout, uint32_t set,
                                                               const void* data) {
  const char* fn = "vkCmdPushDescriptorSetWithTemplateKHR";
  EmulatedCommandBuffer* cb = emulatedCommandBuffer(handle, fn);
  checkTransferCommand(cb, fn);
  auto entries = templateEntries(cb->device, t, fn);
  // Push-descriptor templates are compute or graphics; the race detector only
  // looks at compute dispatches, so recording for both is harmless.
  cb->boundSets.erase(set);
  recordTemplateWrites(nullptr, entries, data, cb->pushDescriptors[set], fn);
  auto push = next(cb).CmdPushDescriptorSetWithTemplateKHR;
  forEachDevice(cb, [&](uint32_t d, VkCommandBuffer r) {
    std::vector<uint8_t> real = translateTemplateData(d, entries, data, fn);
    push(r, t, layout, set, real.data());
  });
}
MESHVK_INTERCEPT(kDevice, CmdPushDescriptorSetWithTemplateKHR)

VKAPI_ATTR void VKAPI_CALL CmdPushConstants(VkCommandBuffer handle, VkPipelineLayout layout, VkShaderStageFlags stages,
                                            uint32_t offset, uint32_t size, const void* values) {
  EmulatedCommandBuffer* cb = emulatedCommandBuffer(handle, "vkCmdPushConstants");
  checkTransferCommand(cb, "vkCmdPushConstants");
  forEachDevice(
      cb, [&](uint32_t, VkCommandBuffer r) { next(cb).CmdPushConstants(r, layout, stages, offset, size, values); });
}
MESHVK_INTERCEPT(kDevice, CmdPushConstants)

VKAPI_ATTR void VKAPI_CALL CmdDispatch(VkCommandBuffer handle, uint32_t x, uint32_t y, uint32_t z) {
  EmulatedCommandBuffer* cb = emulatedCommandBuffer(handle, "vkCmdDispatch");
  forEachDevice(cb, [&](uint32_t d, VkCommandBuffer r) {
    recordDispatch(cb, d, "vkCmdDispatch");
    next(cb).CmdDispatch(r, x, y, z);
  });
}
MESHVK_INTERCEPT(kDevice, CmdDispatch)

VKAPI_ATTR void VKAPI_CALL CmdDispatchBase(VkCommandBuffer handle, uint32_t bx, uint32_t by, uint32_t bz, uint32_t x,
                                           uint32_t y, uint32_t z) {
  EmulatedCommandBuffer* cb = emulatedCommandBuffer(handle, "vkCmdDispatchBase");
  forEachDevice(cb, [&](uint32_t d, VkCommandBuffer r) {
    recordDispatch(cb, d, "vkCmdDispatchBase");
    next(cb).CmdDispatchBase(r, bx, by, bz, x, y, z);
  });
}
MESHVK_INTERCEPT(kDevice, CmdDispatchBase)
MESHVK_INTERCEPT_ALIAS(kDevice, CmdDispatchBase, CmdDispatchBaseKHR)

VKAPI_ATTR void VKAPI_CALL CmdDispatchIndirect(VkCommandBuffer handle, VkBuffer buffer, VkDeviceSize offset) {
  const char* fn = "vkCmdDispatchIndirect";
  EmulatedCommandBuffer* cb = emulatedCommandBuffer(handle, fn);
  EmulatedBuffer* buf = emulatedBuffer(buffer, fn);
  forEachDevice(cb, [&](uint32_t d, VkCommandBuffer r) {
    recordAccess(cb, d, buf, offset, sizeof(VkDispatchIndirectCommand), false, false, fn);
    recordDispatch(cb, d, fn);
    next(cb).CmdDispatchIndirect(r, buf->real[d], offset);
  });
}
MESHVK_INTERCEPT(kDevice, CmdDispatchIndirect)

VKAPI_ATTR void VKAPI_CALL CmdCopyBuffer(VkCommandBuffer handle, VkBuffer src, VkBuffer dst, uint32_t count,
                                         const VkBufferCopy* regions) {
  const char* fn = "vkCmdCopyBuffer";
  EmulatedCommandBuffer* cb = emulatedCommandBuffer(handle, fn);
  countCommand(cb, false);
  EmulatedBuffer* s = emulatedBuffer(src, fn);
  EmulatedBuffer* t = emulatedBuffer(dst, fn);
  forEachDevice(cb, [&](uint32_t d, VkCommandBuffer r) {
    for (uint32_t i = 0; i < count; ++i) {
      recordAccess(cb, d, s, regions[i].srcOffset, regions[i].size, false, false, fn);
      recordAccess(cb, d, t, regions[i].dstOffset, regions[i].size, true, false, fn);
    }
    next(cb).CmdCopyBuffer(r, s->real[d], t->real[d], count, regions);
  });
}
MESHVK_INTERCEPT(kDevice, CmdCopyBuffer)

VKAPI_ATTR void VKAPI_CALL CmdCopyBuffer2(VkCommandBuffer handle, const VkCopyBufferInfo2* info) {
  const char* fn = "vkCmdCopyBuffer2";
  EmulatedCommandBuffer* cb = emulatedCommandBuffer(handle, fn);
  countCommand(cb, false);
  EmulatedBuffer* s = emulatedBuffer(info->srcBuffer, fn);
  EmulatedBuffer* t = emulatedBuffer(info->dstBuffer, fn);
  forEachDevice(cb, [&](uint32_t d, VkCommandBuffer r) {
    for (uint32_t i = 0; i < info->regionCount; ++i) {
      recordAccess(cb, d, s, info->pRegions[i].srcOffset, info->pRegions[i].size, false, false, fn);
      recordAccess(cb, d, t, info->pRegions[i].dstOffset, info->pRegions[i].size, true, false, fn);
    }
    VkCopyBufferInfo2 real = *info;
    real.srcBuffer = s->real[d];
    real.dstBuffer = t->real[d];
    next(cb).CmdCopyBuffer2(r, &real);
  });
}
MESHVK_INTERCEPT(kDevice, CmdCopyBuffer2)
MESHVK_INTERCEPT_ALIAS(kDevice, CmdCopyBuffer2, CmdCopyBuffer2KHR)

VKAPI_ATTR void VKAPI_CALL CmdFillBuffer(VkCommandBuffer handle, VkBuffer dst, VkDeviceSize offset, VkDeviceSize size,
                                         uint32_t data) {
  const char* fn = "vkCmdFillBuffer";
  EmulatedCommandBuffer* cb = emulatedCommandBuffer(handle, fn);
  EmulatedBuffer* t = emulatedBuffer(dst, fn);
  forEachDevice(cb, [&](uint32_t d, VkCommandBuffer r) {
    recordAccess(cb, d, t, offset, size, true, false, fn);
    next(cb).CmdFillBuffer(r, t->real[d], offset, size, data);
  });
}
MESHVK_INTERCEPT(kDevice, CmdFillBuffer)

VKAPI_ATTR void VKAPI_CALL CmdUpdateBuffer(VkCommandBuffer handle, VkBuffer dst, VkDeviceSize offset, VkDeviceSize size,
                                           const void* data) {
  const char* fn = "vkCmdUpdateBuffer";
  EmulatedCommandBuffer* cb = emulatedCommandBuffer(handle, fn);
  EmulatedBuffer* t = emulatedBuffer(dst, fn);
  forEachDevice(cb, [&](uint32_t d, VkCommandBuffer r) {
    recordAccess(cb, d, t, offset, size, true, false, fn);
    next(cb).CmdUpdateBuffer(r, t->real[d], offset, size, data);
  });
}
MESHVK_INTERCEPT(kDevice, CmdUpdateBuffer)

}  // namespace
}  // namespace meshvk_layer

// Per-device descriptor sets (each device's set points at that device's real
// buffers) and the compute pipelines whose buffer accesses the race detector
// needs (from a SPIR-V analysis of their shader modules).
#include "descriptors.h"

#include "spirv_access.h"

namespace meshvk_layer {

bool isBufferDescriptor(VkDescriptorType t) {
  return t == VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER || t == VK_DESCRIPTOR_TYPE_STORAGE_BUFFER ||
         t == VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER_DYNAMIC || t == VK_DESCRIPTOR_TYPE_STORAGE_BUFFER_DYNAMIC;
}

void recordBufferWrites(const DescriptorSetLayoutInfo* layout, const VkWriteDescriptorSet& w,
                        std::map<uint32_t, std::vector<BufferDescriptor>>& table, const char* fn) {
  if (!isBufferDescriptor(w.descriptorType)) return;
  uint32_t binding = w.dstBinding, element = w.dstArrayElement;
  for (uint32_t i = 0; i < w.descriptorCount; ++i) {
    // Writes past the end of a binding continue in the next one (consecutive binding updates).
    if (layout) {
      auto it = layout->bindings.find(binding);
      while (it != layout->bindings.end() && element >= it->second.second) {
        element -= it->second.second;
        ++it;
        binding = it == layout->bindings.end() ? binding + 1 : it->first;
      }
    }
    auto& slots = table[binding];
    if (slots.size() <= element) slots.resize(element + 1);
    const VkDescriptorBufferInfo& bi = w.pBufferInfo[i];
    BufferDescriptor desc;
    desc.buffer = bi.buffer ? emulatedBuffer(bi.buffer, fn) : nullptr;
    desc.offset = bi.offset;
    desc.range = bi.range;
    desc.type = w.descriptorType;
    slots[element] = desc;
    ++element;
  }
}

void translateWrites(uint32_t device, uint32_t count, const VkWriteDescriptorSet* writes, bool pushDescriptor,
                     RealWrites& out, const char* fn) {
  out.writes.assign(writes, writes + count);
  out.bufferInfos.assign(count, {});
  for (uint32_t i = 0; i < count; ++i) {
    VkWriteDescriptorSet& w = out.writes[i];
    if (!pushDescriptor) w.dstSet = emulatedDescriptorSet(w.dstSet, fn)->real[device];
    if (w.descriptorType == VK_DESCRIPTOR_TYPE_UNIFORM_TEXEL_BUFFER ||
        w.descriptorType == VK_DESCRIPTOR_TYPE_STORAGE_TEXEL_BUFFER)
      fatal(fn, "texel buffer descriptors are not supported by the emulation layer");
    if (!isBufferDescriptor(w.descriptorType)) continue;
    auto& infos = out.bufferInfos[i];
    infos.assign(w.pBufferInfo, w.pBufferInfo + w.descriptorCount);
    for (auto& bi : infos)
      if (bi.buffer) bi.buffer = emulatedBuffer(bi.buffer, fn)->real[device];
    w.pBufferInfo = infos.data();
  }
}

namespace {

VKAPI_ATTR VkResult VKAPI_CALL CreateDescriptorSetLayout(VkDevice device, const VkDescriptorSetLayoutCreateInfo* info,
                                                         const VkAllocationCallbacks* alloc,
                                                         VkDescriptorSetLayout* out) {
  DeviceData* d = deviceFromHandle(device);
  VkResult r = d->next.CreateDescriptorSetLayout(device, info, alloc, out);
  if (r != VK_SUCCESS) return r;
  auto layout = std::make_shared<DescriptorSetLayoutInfo>();
  for (uint32_t i = 0; i < info->bindingCount; ++i)
    layout->bindings[info->pBindings[i].binding] = {info->pBindings[i].descriptorType,
                                                    info->pBindings[i].descriptorCount};
  std::lock_guard<std::mutex> lock(d->mutex);
  d->setLayouts[reinterpret_cast<uint64_t>(*out)] = layout;
  return r;
}
MESHVK_INTERCEPT(kDevice, CreateDescriptorSetLayout)

VKAPI_ATTR void VKAPI_CALL DestroyDescriptorSetLayout(VkDevice device, VkDescriptorSetLayout layout,
                                                      const VkAllocationCallbacks* alloc) {
  DeviceData* d = deviceFromHandle(device);
  {
    std::lock_guard<std::mutex> lock(d->mutex);
    d->setLayouts.erase(reinterpret_cast<uint64_t>(layout));
  }
  d->next.DestroyDescriptorSetLayout(device, layout, alloc);
}
MESHVK_INTERCEPT(kDevice, DestroyDescriptorSetLayout)

VKAPI_ATTR VkResult VKAPI_CALL CreateDescriptorPool(VkDevice device, const VkDescriptorPoolCreateInfo* info,
                                                    const VkAllocationCallbacks* alloc, VkDescriptorPool* out) {
  DeviceData* d = deviceFromHandle(device);
  auto pool = std::make_unique<EmulatedDescriptorPool>();
  pool->magic = kDescriptorPoolMagic;
  VkResult r = createPerDevice(
      d->deviceCount, pool->real,
      [&](VkDescriptorPool* real) { return d->next.CreateDescriptorPool(device, info, alloc, real); },
      [&](VkDescriptorPool real) { d->next.DestroyDescriptorPool(device, real, alloc); });
  if (r != VK_SUCCESS) return r;
  *out = reinterpret_cast<VkDescriptorPool>(pool.release());
  return VK_SUCCESS;
}
MESHVK_INTERCEPT(kDevice, CreateDescriptorPool)

void deleteSets(EmulatedDescriptorPool* pool) {
  for (EmulatedDescriptorSet* s : pool->sets) {
    s->magic = 0;
    delete s;
  }
  pool->sets.clear();
}

VKAPI_ATTR void VKAPI_CALL DestroyDescriptorPool(VkDevice device, VkDescriptorPool handle,
                                                 const VkAllocationCallbacks* alloc) {
  if (!handle) return;
  DeviceData* d = deviceFromHandle(device);
  EmulatedDescriptorPool* pool = emulatedDescriptorPool(handle, "vkDestroyDescriptorPool");
  for (uint32_t i = 0; i < d->deviceCount; ++i) d->next.DestroyDescriptorPool(device, pool->real[i], alloc);
  deleteSets(pool);
  pool->magic = 0;
  delete pool;
}
MESHVK_INTERCEPT(kDevice, DestroyDescriptorPool)

VKAPI_ATTR VkResult VKAPI_CALL ResetDescriptorPool(VkDevice device, VkDescriptorPool handle,
                                                   VkDescriptorPoolResetFlags flags) {
  DeviceData* d = deviceFromHandle(device);
  EmulatedDescriptorPool* pool = emulatedDescriptorPool(handle, "vkResetDescriptorPool");
  for (uint32_t i = 0; i < d->deviceCount; ++i) {
    VkResult r = d->next.ResetDescriptorPool(device, pool->real[i], flags);
    if (r != VK_SUCCESS) return r;
  }
  deleteSets(pool);
  return VK_SUCCESS;
}
MESHVK_INTERCEPT(kDevice, ResetDescriptorPool)

VKAPI_ATTR VkResult VKAPI_CALL AllocateDescriptorSets(VkDevice device, const VkDescriptorSetAllocateInfo* info,
                                                      VkDescriptorSet* out) {
  DeviceData* d = deviceFromHandle(device);
  EmulatedDescriptorPool* pool = emulatedDescriptorPool(info->descriptorPool, "vkAllocateDescriptorSets");
  const uint32_t n = info->descriptorSetCount;
  std::vector<std::vector<VkDescriptorSet>> real(d->deviceCount, std::vector<VkDescriptorSet>(n));
  for (uint32_t dev = 0; dev < d->deviceCount; ++dev) {
    VkDescriptorSetAllocateInfo ri = *info;
    ri.descriptorPool = pool->real[dev];
    VkResult r = d->next.AllocateDescriptorSets(device, &ri, real[dev].data());
    if (r != VK_SUCCESS) {
      for (uint32_t j = 0; j < dev; ++j) d->next.FreeDescriptorSets(device, pool->real[j], n, real[j].data());
      return r;
    }
  }
  std::lock_guard<std::mutex> lock(d->mutex);
  for (uint32_t i = 0; i < n; ++i) {
    auto* s = new EmulatedDescriptorSet;
    s->magic = kDescriptorSetMagic;
    s->pool = pool;
    auto it = d->setLayouts.find(reinterpret_cast<uint64_t>(info->pSetLayouts[i]));
    if (it != d->setLayouts.end()) s->layout = it->second;
    for (uint32_t dev = 0; dev < d->deviceCount; ++dev) s->real[dev] = real[dev][i];
    pool->sets.push_back(s);
    out[i] = reinterpret_cast<VkDescriptorSet>(s);
  }
  return VK_SUCCESS;
}
MESHVK_INTERCEPT(kDevice, AllocateDescriptorSets)

VKAPI_ATTR VkResult VKAPI_CALL FreeDescriptorSets(VkDevice device, VkDescriptorPool handle, uint32_t count,
                                                  const VkDescriptorSet* sets) {
  DeviceData* d = deviceFromHandle(device);
  EmulatedDescriptorPool* pool = emulatedDescriptorPool(handle, "vkFreeDescriptorSets");
  std::vector<EmulatedDescriptorSet*> wrappers;
  for (uint32_t i = 0; i < count; ++i)
    if (sets[i]) wrappers.push_back(emulatedDescriptorSet(sets[i], "vkFreeDescriptorSets"));
  VkResult result = VK_SUCCESS;
  for (uint32_t dev = 0; dev < d->deviceCount; ++dev) {
    std::vector<VkDescriptorSet> real;
    for (auto* s : wrappers) real.push_back(s->real[dev]);
    VkResult r = d->next.FreeDescriptorSets(device, pool->real[dev], static_cast<uint32_t>(real.size()), real.data());
    if (r != VK_SUCCESS) result = r;
  }
  std::lock_guard<std::mutex> lock(d->mutex);
  for (auto* s : wrappers) {
    for (size_t i = 0; i < pool->sets.size(); ++i)
      if (pool->sets[i] == s) {
        pool->sets.erase(pool->sets.begin() + static_cast<long>(i));
        break;
      }
    s->magic = 0;
    delete s;
  }
  return result;
}
MESHVK_INTERCEPT(kDevice, FreeDescriptorSets)

VKAPI_ATTR void VKAPI_CALL UpdateDescriptorSets(VkDevice device, uint32_t writeCount,
                                                const VkWriteDescriptorSet* writes, uint32_t copyCount,
                                                const VkCopyDescriptorSet* copies) {
  DeviceData* d = deviceFromHandle(device);
  const char* fn = "vkUpdateDescriptorSets";
  for (uint32_t dev = 0; dev < d->deviceCount; ++dev) {
    RealWrites rw;
    translateWrites(dev, writeCount, writes, false, rw, fn);
    std::vector<VkCopyDescriptorSet> rc(copies, copies + copyCount);
    for (auto& c : rc) {
      c.srcSet = emulatedDescriptorSet(c.srcSet, fn)->real[dev];
      c.dstSet = emulatedDescriptorSet(c.dstSet, fn)->real[dev];
    }
    d->next.UpdateDescriptorSets(device, writeCount, rw.writes.data(), copyCount, rc.data());
  }
  // What each binding now points at, for the race detector.
  for (uint32_t i = 0; i < writeCount; ++i) {
    EmulatedDescriptorSet* s = emulatedDescriptorSet(writes[i].dstSet, fn);
    recordBufferWrites(s->layout.get(), writes[i], s->buffers, fn);
  }
  for (uint32_t i = 0; i < copyCount; ++i) {
    const VkCopyDescriptorSet& c = copies[i];
    EmulatedDescriptorSet* src = emulatedDescriptorSet(c.srcSet, fn);
    EmulatedDescriptorSet* dst = emulatedDescriptorSet(c.dstSet, fn);
    auto it = src->buffers.find(c.srcBinding);
    for (uint32_t k = 0; k < c.descriptorCount; ++k) {
      auto& slots = dst->buffers[c.dstBinding];
      if (slots.size() <= c.dstArrayElement + k) slots.resize(c.dstArrayElement + k + 1);
      BufferDescriptor desc;
      if (it != src->buffers.end() && c.srcArrayElement + k < it->second.size())
        desc = it->second[c.srcArrayElement + k];
      slots[c.dstArrayElement + k] = desc;
    }
  }
}
MESHVK_INTERCEPT(kDevice, UpdateDescriptorSets)

}  // namespace

// ---- descriptor update templates ---------------------------------------------
// The template's data holds VkDescriptorBufferInfo structures whose buffers are
// emulated: each device gets a copy of the data with its own real buffers.

std::vector<VkDescriptorUpdateTemplateEntry> templateEntries(DeviceData* d, VkDescriptorUpdateTemplate t,
                                                             const char* fn) {
  std::lock_guard<std::mutex> lock(d->mutex);
  auto it = d->updateTemplates.find(reinterpret_cast<uint64_t>(t));
  if (it == d->updateTemplates.end()) fatal(fn, "received a descriptor update template the layer did not see created");
  return it->second;
}

size_t templateDataSize(const std::vector<VkDescriptorUpdateTemplateEntry>& entries) {
  size_t size = 0;
  for (const auto& e : entries) {
    if (!e.descriptorCount) continue;
    size_t element = isBufferDescriptor(e.descriptorType)                          ? sizeof(VkDescriptorBufferInfo)
                     : e.descriptorType == VK_DESCRIPTOR_TYPE_INLINE_UNIFORM_BLOCK ? 1
                     : e.descriptorType == VK_DESCRIPTOR_TYPE_UNIFORM_TEXEL_BUFFER ||
                             e.descriptorType == VK_DESCRIPTOR_TYPE_STORAGE_TEXEL_BUFFER
                         ? sizeof(VkBufferView)
                         : sizeof(VkDescriptorImageInfo);
    size_t extent = e.descriptorType == VK_DESCRIPTOR_TYPE_INLINE_UNIFORM_BLOCK
                        ? e.offset + e.descriptorCount
                        : e.offset + (e.descriptorCount - 1) * e.stride + element;
    size = std::max(size, extent);
  }
  return size;
}

// Device `device`'s copy of the data; also records the buffers into `table` when given.
std::vector<uint8_t> translateTemplateData(uint32_t device, const std::vector<VkDescriptorUpdateTemplateEntry>& entries,
                                           const void* data, const char* fn) {
  std::vector<uint8_t> out(static_cast<const uint8_t*>(data),
                           static_cast<const uint8_t*>(data) + templateDataSize(entries));
  for (const auto& e : entries) {
    if (e.descriptorType == VK_DESCRIPTOR_TYPE_UNIFORM_TEXEL_BUFFER ||
        e.descriptorType == VK_DESCRIPTOR_TYPE_STORAGE_TEXEL_BUFFER)
      fatal(fn, "texel buffer descriptors are not supported by the emulation layer");
    if (!isBufferDescriptor(e.descriptorType)) continue;
    for (uint32_t i = 0; i < e.descriptorCount; ++i) {
      auto* info = reinterpret_cast<VkDescriptorBufferInfo*>(out.data() + e.offset + i * e.stride);
      if (info->buffer) info->buffer = emulatedBuffer(info->buffer, fn)->real[device];
    }
  }
  return out;
}

// The same update expressed as VkWriteDescriptorSet, for the race detector's tables.
void recordTemplateWrites(const DescriptorSetLayoutInfo* layout,
                          const std::vector<VkDescriptorUpdateTemplateEntry>& entries, const void* data,
                          std::map<uint32_t, std::vector<BufferDescriptor>>& table, const char* fn) {
  for (const auto& e : entries) {
    if (!isBufferDescriptor(e.descriptorType)) continue;
    std::vector<VkDescriptorBufferInfo> infos(e.descriptorCount);
    for (uint32_t i = 0; i < e.descriptorCount; ++i)
      infos[i] =
          *reinterpret_cast<const VkDescriptorBufferInfo*>(static_cast<const uint8_t*>(data) + e.offset + i * e.stride);
    VkWriteDescriptorSet w{VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET};
    w.dstBinding = e.dstBinding;
    w.dstArrayElement = e.dstArrayElement;
    w.descriptorCount = e.descriptorCount;
    w.descriptorType = e.descriptorType;
    w.pBufferInfo = infos.data();
    recordBufferWrites(layout, w, table, fn);
  }
}

namespace {

VKAPI_ATTR VkResult VKAPI_CALL CreateDescriptorUpdateTemplate(VkDevice device,
                                                              const VkDescriptorUpdateTemplateCreateInfo* info,
                                                              const VkAllocationCallbacks* alloc,
                                                              VkDescriptorUpdateTemplate* out) {
  DeviceData* d = deviceFromHandle(device);
  auto create = d->next.CreateDescriptorUpdateTemplate;
  VkResult r = create(device, info, alloc, out);
  if (r != VK_SUCCESS) return r;
  std::lock_guard<std::mutex> lock(d->mutex);
  d->updateTemplates[reinterpret_cast<uint64_t>(*out)].assign(
      info->pDescriptorUpdateEntries, info->pDescriptorUpdateEntries + info->descriptorUpdateEntryCount);
  return r;
}
MESHVK_INTERCEPT(kDevice, CreateDescriptorUpdateTemplate)
MESHVK_INTERCEPT_ALIAS(kDevice, CreateDescriptorUpdateTemplate, CreateDescriptorUpdateTemplateKHR)

VKAPI_ATTR void VKAPI_CALL DestroyDescriptorUpdateTemplate(VkDevice device, VkDescriptorUpdateTemplate t,
                                                           const VkAllocationCallbacks* alloc) {
  DeviceData* d = deviceFromHandle(device);
  {
    std::lock_guard<std::mutex> lock(d->mutex);
    d->updateTemplates.erase(reinterpret_cast<uint64_t>(t));
  }
  auto destroy = d->next.DestroyDescriptorUpdateTemplate;
  destroy(device, t, alloc);
}
MESHVK_INTERCEPT(kDevice, DestroyDescriptorUpdateTemplate)
MESHVK_INTERCEPT_ALIAS(kDevice, DestroyDescriptorUpdateTemplate, DestroyDescriptorUpdateTemplateKHR)

VKAPI_ATTR void VKAPI_CALL UpdateDescriptorSetWithTemplate(VkDevice device, VkDescriptorSet handle,
                                                           VkDescriptorUpdateTemplate t, const void* data) {
  const char* fn = "vkUpdateDescriptorSetWithTemplate";
  DeviceData* d = deviceFromHandle(device);
  EmulatedDescriptorSet* set = emulatedDescriptorSet(handle, fn);
  auto entries = templateEntries(d, t, fn);
  auto update = d->next.UpdateDescriptorSetWithTemplate;
  for (uint32_t dev = 0; dev < d->deviceCount; ++dev) {
    std::vector<uint8_t> real = translateTemplateData(dev, entries, data, fn);
    update(device, set->real[dev], t, real.data());
  }
  recordTemplateWrites(set->layout.get(), entries, data, set->buffers, fn);
}
MESHVK_INTERCEPT(kDevice, UpdateDescriptorSetWithTemplate)
MESHVK_INTERCEPT_ALIAS(kDevice, UpdateDescriptorSetWithTemplate, UpdateDescriptorSetWithTemplateKHR)

// ---- shader modules and compute pipelines -----------------------------------

VKAPI_ATTR VkResult VKAPI_CALL CreateShaderModule(VkDevice device, const VkShaderModuleCreateInfo* info,
                                                  const VkAllocationCallbacks* alloc, VkShaderModule* out) {
  DeviceData* d = deviceFromHandle(device);
  VkResult r = d->next.CreateShaderModule(device, info, alloc, out);
  if (r != VK_SUCCESS) return r;
  auto access = std::make_shared<const ShaderAccess>(analyzeSpirv(info->pCode, info->codeSize / 4));
  std::lock_guard<std::mutex> lock(d->mutex);
  d->shaderModules[reinterpret_cast<uint64_t>(*out)] = access;
  return r;
}
MESHVK_INTERCEPT(kDevice, CreateShaderModule)

VKAPI_ATTR void VKAPI_CALL DestroyShaderModule(VkDevice device, VkShaderModule module,
                                               const VkAllocationCallbacks* alloc) {
  DeviceData* d = deviceFromHandle(device);
  {
    std::lock_guard<std::mutex> lock(d->mutex);
    d->shaderModules.erase(reinterpret_cast<uint64_t>(module));
  }
  d->next.DestroyShaderModule(device, module, alloc);
}
MESHVK_INTERCEPT(kDevice, DestroyShaderModule)

VKAPI_ATTR VkResult VKAPI_CALL CreateComputePipelines(VkDevice device, VkPipelineCache cache, uint32_t count,
                                                      const VkComputePipelineCreateInfo* infos,
                                                      const VkAllocationCallbacks* alloc, VkPipeline* out) {
  DeviceData* d = deviceFromHandle(device);
  VkResult r = d->next.CreateComputePipelines(device, cache, count, infos, alloc, out);
  std::lock_guard<std::mutex> lock(d->mutex);
  for (uint32_t i = 0; i < count; ++i) {
    if (!out[i]) continue;
    std::shared_ptr<const ShaderAccess> access;
    if (infos[i].stage.module) {
      auto it = d->shaderModules.find(reinterpret_cast<uint64_t>(infos[i].stage.module));
      if (it != d->shaderModules.end()) access = it->second;
    } else if (auto* m = findInChain<VkShaderModuleCreateInfo>(infos[i].stage.pNext,
                                                               VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO)) {
      access = std::make_shared<const ShaderAccess>(analyzeSpirv(m->pCode, m->codeSize / 4));
    }
    if (!access) access = std::make_shared<const ShaderAccess>();
    d->pipelines[reinterpret_cast<uint64_t>(out[i])] = access;
  }
  return r;
}
MESHVK_INTERCEPT(kDevice, CreateComputePipelines)

VKAPI_ATTR void VKAPI_CALL DestroyPipeline(VkDevice device, VkPipeline pipeline, const VkAllocationCallbacks* alloc) {
  DeviceData* d = deviceFromHandle(device);
  {
    std::lock_guard<std::mutex> lock(d->mutex);
    d->pipelines.erase(reinterpret_cast<uint64_t>(pipeline));
  }
  d->next.DestroyPipeline(device, pipeline, alloc);
}
MESHVK_INTERCEPT(kDevice, DestroyPipeline)

}  // namespace
}  // namespace meshvk_layer

// Device creation (one real VkDevice for a group of emulated devices) and the
// device's memory: per-device memory instances and per-device buffer bindings.
#include <algorithm>
#include <cstring>
#include <sstream>

#include "heap_cap.h"
#include "layer.h"
#include "scheduler.h"

namespace meshvk_layer {
namespace {

VKAPI_ATTR VkResult VKAPI_CALL CreateDevice(VkPhysicalDevice pd, const VkDeviceCreateInfo* info,
                                            const VkAllocationCallbacks* alloc, VkDevice* out) {
  EmulatedPhysicalDevice* e = emulatedPhysicalDevice(pd, "vkCreateDevice");
  auto* link = nextLayerLink<VkLayerDeviceCreateInfo>(info->pNext, VK_STRUCTURE_TYPE_LOADER_DEVICE_CREATE_INFO);
  if (!link) return VK_ERROR_INITIALIZATION_FAILED;
  PFN_vkGetInstanceProcAddr gipa = link->u.pLayerInfo->pfnNextGetInstanceProcAddr;
  PFN_vkGetDeviceProcAddr gdpa = link->u.pLayerInfo->pfnNextGetDeviceProcAddr;
  link->u.pLayerInfo = link->u.pLayerInfo->pNext;

  auto data = std::make_unique<DeviceData>();
  data->instance = e->instance;
  data->realPhysical = e->real;
  if (auto* group =
          findInChain<VkDeviceGroupDeviceCreateInfo>(info->pNext, VK_STRUCTURE_TYPE_DEVICE_GROUP_DEVICE_CREATE_INFO);
      group && group->physicalDeviceCount > 0) {
    if (group->physicalDeviceCount > kMaxDevices) fatal("vkCreateDevice", "got more than 8 physical devices");
    data->deviceCount = group->physicalDeviceCount;
    for (uint32_t i = 0; i < group->physicalDeviceCount; ++i) {
      EmulatedPhysicalDevice* m = emulatedPhysicalDevice(group->pPhysicalDevices[i], "vkCreateDevice");
      if (m->real != e->real)
        fatal("vkCreateDevice", "VkDeviceGroupDeviceCreateInfo mixes devices of different groups");
      data->members[i] = m;
    }
  } else {
    data->deviceCount = 1;
    data->members[0] = e;
  }

  auto create = reinterpret_cast<PFN_vkCreateDevice>(gipa(e->instance->instance, "vkCreateDevice"));
  VkResult r;
  // The driver must not see the extensions the layer emulates.
  std::vector<const char*> extensions;
  const bool semaphoreFd = removeEmulatedDeviceExtensions(e->real, e->instance, *info, &extensions);
  VkDeviceCreateInfo realInfo = *info;
  realInfo.enabledExtensionCount = static_cast<uint32_t>(extensions.size());
  realInfo.ppEnabledExtensionNames = extensions.data();
  // The emulated transfer-only family's queue is a real family's (transfer_family.cc).
  data->transferFamily = transferFamilyIndex(e->instance, e->real);
  std::vector<float> priorities;
  const std::vector<VkDeviceQueueCreateInfo> queues = realQueueCreateInfos(*info, data->transferFamily, &priorities);
  realInfo.queueCreateInfoCount = static_cast<uint32_t>(queues.size());
  realInfo.pQueueCreateInfos = queues.data();
  {
    // The real device is a group of one: it must not see the emulated group.
    ChainUnlink unlink(&realInfo, VK_STRUCTURE_TYPE_DEVICE_GROUP_DEVICE_CREATE_INFO);
    r = create(e->real, &realInfo, alloc, out);
  }
  if (r != VK_SUCCESS) return r;
  data->device = *out;
  data->next.GetDeviceProcAddr = gdpa;
  useHostBackedExports(data.get(), *info);
#define MESHVK_LOAD(name)                                                   \
  data->next.name = reinterpret_cast<PFN_vk##name>(gdpa(*out, "vk" #name)); \
  if (!data->next.name) data->next.name = reinterpret_cast<PFN_vk##name>(gdpa(*out, "vk" #name "KHR"));
  MESHVK_DEVICE_NEXT(MESHVK_LOAD)
#undef MESHVK_LOAD
  VkPhysicalDeviceMemoryProperties realMemory;
  e->instance->GetPhysicalDeviceMemoryProperties(e->real, &realMemory);
  data->memory = buildMemoryLayout(realMemory, config().groupSize());
  data->scheduler = std::make_unique<Scheduler>(data.get());
  if (semaphoreFd) emulateSemaphoreFd(data.get());
  registerDevice(data.release());
  return VK_SUCCESS;
}
MESHVK_INTERCEPT(kPhysicalDevice, CreateDevice)

VKAPI_ATTR void VKAPI_CALL DestroyDevice(VkDevice device, const VkAllocationCallbacks* alloc) {
  DeviceData* d = deviceFromHandle(device);
  if (!d) return;
  forgetSharedSemaphoreDevice(d);  // stops its forwarders first
  d->scheduler->flush();
  unregisterDevice(d);
  d->next.DestroyDevice(device, alloc);
  delete d->transferQueue;
  delete d;
}
MESHVK_INTERCEPT(kDevice, DestroyDevice)

VKAPI_ATTR void VKAPI_CALL GetDeviceGroupPeerMemoryFeatures(VkDevice device, uint32_t heapIndex, uint32_t local,
                                                            uint32_t remote, VkPeerMemoryFeatureFlags* features) {
  DeviceData* d = deviceFromHandle(device);
  if (local == remote || local >= d->deviceCount || remote >= d->deviceCount ||
      heapIndex >= d->memory.emulated.memoryHeapCount) {
    *features = VK_PEER_MEMORY_FEATURE_COPY_SRC_BIT | VK_PEER_MEMORY_FEATURE_COPY_DST_BIT |
                VK_PEER_MEMORY_FEATURE_GENERIC_SRC_BIT | VK_PEER_MEMORY_FEATURE_GENERIC_DST_BIT;
    return;
  }
  // A single-instance (host) heap is the same memory for every device.
  *features = d->memory.multiInstanceHeap[heapIndex] ? config().peerFeatures : 0xFu;
}
MESHVK_INTERCEPT(kDevice, GetDeviceGroupPeerMemoryFeatures)
MESHVK_INTERCEPT_ALIAS(kDevice, GetDeviceGroupPeerMemoryFeatures, GetDeviceGroupPeerMemoryFeaturesKHR)

// Presentation is not emulated: only device 0 presents, its own images.
VKAPI_ATTR VkResult VKAPI_CALL GetDeviceGroupPresentCapabilitiesKHR(VkDevice,
                                                                    VkDeviceGroupPresentCapabilitiesKHR* caps) {
  for (uint32_t i = 0; i < VK_MAX_DEVICE_GROUP_SIZE; ++i) caps->presentMask[i] = 0;
  caps->presentMask[0] = 1;
  caps->modes = VK_DEVICE_GROUP_PRESENT_MODE_LOCAL_BIT_KHR;
  return VK_SUCCESS;
}
MESHVK_INTERCEPT(kDevice, GetDeviceGroupPresentCapabilitiesKHR)

// ---- memory ------------------------------------------------------------------

VKAPI_ATTR VkResult VKAPI_CALL AllocateMemory(VkDevice device, const VkMemoryAllocateInfo* info,
                                              const VkAllocationCallbacks* alloc, VkDeviceMemory* out) {
  DeviceData* d = deviceFromHandle(device);
  const uint32_t type = info->memoryTypeIndex;
  if (type >= d->memory.emulated.memoryTypeCount) fatal("vkAllocateMemory", "got an invalid memoryTypeIndex");
  const bool imports =
      findInChain<VkImportMemoryFdInfoKHR>(info->pNext, VK_STRUCTURE_TYPE_IMPORT_MEMORY_FD_INFO_KHR) ||
      findInChain<VkImportMemoryHostPointerInfoEXT>(info->pNext, VK_STRUCTURE_TYPE_IMPORT_MEMORY_HOST_POINTER_INFO_EXT);
  const bool exports =
      findInChain<VkExportMemoryAllocateInfo>(info->pNext, VK_STRUCTURE_TYPE_EXPORT_MEMORY_ALLOCATE_INFO);
  // The fault switches: a driver that refuses a handle it advertised, or that
  // runs out of exportable memory.
  if (imports && config().externalMemory == ExternalMemory::kRefuseImport) return VK_ERROR_INVALID_EXTERNAL_HANDLE;
  if (exports && config().externalMemory == ExternalMemory::kRefuseExport) return VK_ERROR_OUT_OF_DEVICE_MEMORY;
  if (const auto* fd = findInChain<VkImportMemoryFdInfoKHR>(info->pNext, VK_STRUCTURE_TYPE_IMPORT_MEMORY_FD_INFO_KHR);
      fd && fd->handleType == VK_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD_BIT && !opaqueFdImportAllowed(d, fd->fd))
    return VK_ERROR_INVALID_EXTERNAL_HANDLE;
  const uint32_t heap = d->memory.emulated.memoryTypes[type].heapIndex;
  auto mem = std::make_unique<EmulatedMemory>();
  mem->magic = kMemoryMagic;
  mem->size = info->allocationSize;
  mem->emulatedType = type;
  mem->multiInstance = d->memory.multiInstanceHeap[heap];
  // Memory shared with another VkDevice: exported, imported from an fd, or a
  // host allocation imported (which other VkDevices may import too: the
  // spec's external memory all the same, so its EXCLUSIVE buffers are used
  // between an acquire from and a release to VK_QUEUE_FAMILY_EXTERNAL).
  mem->external = exports || imports;
  uint32_t deviceMask = d->allDevicesMask();
  const auto* flags = findInChain<VkMemoryAllocateFlagsInfo>(info->pNext, VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_FLAGS_INFO);
  if (flags && (flags->flags & VK_MEMORY_ALLOCATE_DEVICE_MASK_BIT)) deviceMask = flags->deviceMask;
  mem->instanceMask = mem->multiInstance ? deviceMask & d->allDevicesMask() : 1u;
  // External memory is one allocation: exporting or importing memory with
  // several instances has no single fd.
  if ((imports || exports) && __builtin_popcount(mem->instanceMask) != 1)
    fatal("vkAllocateMemory", "exports or imports memory with more than one instance (allocate it on one device)");
  {
    std::lock_guard<std::mutex> lock(d->mutex);
    mem->id = d->nextMemoryId++;
  }

  // The real allocation gets the real type and no device mask; other flags
  // (device address) stay. A dedicated-allocation hint names an emulated
  // buffer and is dropped: each instance backs a different real buffer.
  VkMemoryAllocateFlagsInfo realFlags{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_FLAGS_INFO};
  VkMemoryAllocateInfo realInfo = *info;
  realInfo.memoryTypeIndex = d->memory.realType[type];
  ChainUnlink dropFlags(&realInfo, VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_FLAGS_INFO);
  ChainUnlink dropDedicated(&realInfo, VK_STRUCTURE_TYPE_MEMORY_DEDICATED_ALLOCATE_INFO);
  if (flags && (flags->flags & ~VK_MEMORY_ALLOCATE_DEVICE_MASK_BIT)) {
    realFlags.flags = flags->flags & ~VK_MEMORY_ALLOCATE_DEVICE_MASK_BIT;
    realFlags.pNext = realInfo.pNext;
    realInfo.pNext = &realFlags;
  }
  // A small GPU's heap (MESHVK_EMULATED_HEAP_BYTES): imported memory was
  // counted where it was allocated.
  if (!imports && !chargeHeap(d, mem.get())) return VK_ERROR_OUT_OF_DEVICE_MEMORY;
  if (VkResult r; (imports || exports) && allocateHostBacked(d, device, realInfo, alloc, &mem->real[0], &r)) {
    if (r != VK_SUCCESS) {
      releaseHeap(d, mem.get());
      return r;
    }
    *out = reinterpret_cast<VkDeviceMemory>(mem.release());
    return VK_SUCCESS;
  }
  for (uint32_t i = 0; i < kMaxDevices; ++i) {
    if (!(mem->instanceMask & (1u << i))) continue;
    VkResult r = d->next.AllocateMemory(device, &realInfo, alloc, &mem->real[i]);
    if (r != VK_SUCCESS) {
      for (uint32_t j = 0; j < i; ++j)
        if (mem->real[j]) d->next.FreeMemory(device, mem->real[j], alloc);
      releaseHeap(d, mem.get());
      return r;
    }
  }
  *out = reinterpret_cast<VkDeviceMemory>(mem.release());
  return VK_SUCCESS;
}
MESHVK_INTERCEPT(kDevice, AllocateMemory)

VKAPI_ATTR void VKAPI_CALL FreeMemory(VkDevice device, VkDeviceMemory memory, const VkAllocationCallbacks* alloc) {
  if (!memory) return;
  DeviceData* d = deviceFromHandle(device);
  EmulatedMemory* mem = emulatedMemory(memory, "vkFreeMemory");
  for (VkDeviceMemory r : mem->real) {
    if (r) d->next.FreeMemory(device, r, alloc);
    if (r) freedHostBacked(r);
  }
  d->scheduler->memoryFreed(mem->id);
  releaseHeap(d, mem);
  mem->magic = 0;
  delete mem;
}
MESHVK_INTERCEPT(kDevice, FreeMemory)

// Mapping needs exactly one instance (the spec forbids mapping multi-instance memory).
VkDeviceMemory singleInstance(EmulatedMemory* mem) {
  if (__builtin_popcount(mem->instanceMask) != 1) return VK_NULL_HANDLE;
  return mem->real[__builtin_ctz(mem->instanceMask)];
}

// The fd of the one real allocation behind exported memory.
VKAPI_ATTR VkResult VKAPI_CALL GetMemoryFdKHR(VkDevice device, const VkMemoryGetFdInfoKHR* info, int* fd) {
  DeviceData* d = deviceFromHandle(device);
  if (!d->next.GetMemoryFdKHR) fatal("vkGetMemoryFdKHR", "is not available below the layer");
  VkMemoryGetFdInfoKHR real = *info;
  real.memory = singleInstance(emulatedMemory(info->memory, "vkGetMemoryFdKHR"));
  if (!real.memory) fatal("vkGetMemoryFdKHR", "names memory with more than one instance");
  VkResult r = VK_SUCCESS;
  if (!hostBackedFd(real.memory, fd, &r)) r = d->next.GetMemoryFdKHR(device, &real, fd);
  if (r == VK_SUCCESS && info->handleType == VK_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD_BIT) exportedMemoryFd(d, *fd);
  return r;
}
MESHVK_INTERCEPT(kDevice, GetMemoryFdKHR)

VKAPI_ATTR VkResult VKAPI_CALL MapMemory(VkDevice device, VkDeviceMemory memory, VkDeviceSize offset, VkDeviceSize size,
                                         VkMemoryMapFlags flags, void** data) {
  DeviceData* d = deviceFromHandle(device);
  EmulatedMemory* mem = emulatedMemory(memory, "vkMapMemory");
  VkDeviceMemory real = singleInstance(mem);
  // The emulated type decides, not the real one (lavapipe's only type is
  // host-visible): a discrete GPU's device-local memory cannot be mapped.
  if (!(d->memory.emulated.memoryTypes[mem->emulatedType].propertyFlags & VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT)) {
    report(d->instance, VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT, "MESHVK-map-not-host-visible",
           "vkMapMemory: the memory's type is not host-visible");
    return VK_ERROR_MEMORY_MAP_FAILED;
  }
  if (!real) {
    report(d->instance, VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT, "MESHVK-map-multi-instance",
           "vkMapMemory: memory with more than one instance cannot be mapped (allocate host-visible memory on "
           "one device with VkMemoryAllocateFlagsInfo, or from the host heap)");
    return VK_ERROR_MEMORY_MAP_FAILED;
  }
  return d->next.MapMemory(device, real, offset, size, flags, data);
}
MESHVK_INTERCEPT(kDevice, MapMemory)

VKAPI_ATTR void VKAPI_CALL UnmapMemory(VkDevice device, VkDeviceMemory memory) {
  DeviceData* d = deviceFromHandle(device);
  VkDeviceMemory real = singleInstance(emulatedMemory(memory, "vkUnmapMemory"));
  if (real) d->next.UnmapMemory(device, real);
}
MESHVK_INTERCEPT(kDevice, UnmapMemory)

std::vector<VkMappedMemoryRange> realRanges(uint32_t count, const VkMappedMemoryRange* ranges, const char* fn) {
  std::vector<VkMappedMemoryRange> out(ranges, ranges + count);
  for (auto& r : out) {
    r.memory = singleInstance(emulatedMemory(r.memory, fn));
    if (!r.memory) fatal(fn, "names memory that is not mapped (it has more than one instance)");
  }
  return out;
}

VKAPI_ATTR VkResult VKAPI_CALL FlushMappedMemoryRanges(VkDevice device, uint32_t count,
                                                       const VkMappedMemoryRange* ranges) {
  auto real = realRanges(count, ranges, "vkFlushMappedMemoryRanges");
  return deviceFromHandle(device)->next.FlushMappedMemoryRanges(device, count, real.data());
}
MESHVK_INTERCEPT(kDevice, FlushMappedMemoryRanges)

VKAPI_ATTR VkResult VKAPI_CALL InvalidateMappedMemoryRanges(VkDevice device, uint32_t count,
                                                            const VkMappedMemoryRange* ranges) {
  auto real = realRanges(count, ranges, "vkInvalidateMappedMemoryRanges");
  return deviceFromHandle(device)->next.InvalidateMappedMemoryRanges(device, count, real.data());
}
MESHVK_INTERCEPT(kDevice, InvalidateMappedMemoryRanges)

VKAPI_ATTR void VKAPI_CALL GetDeviceMemoryCommitment(VkDevice device, VkDeviceMemory memory, VkDeviceSize* bytes) {
  EmulatedMemory* mem = emulatedMemory(memory, "vkGetDeviceMemoryCommitment");
  DeviceData* d = deviceFromHandle(device);
  *bytes = 0;
  for (VkDeviceMemory r : mem->real)
    if (r) {
      VkDeviceSize b = 0;
      d->next.GetDeviceMemoryCommitment(device, r, &b);
      *bytes = std::max(*bytes, b);
    }
}
MESHVK_INTERCEPT(kDevice, GetDeviceMemoryCommitment)

// ---- buffers -----------------------------------------------------------------

VKAPI_ATTR VkResult VKAPI_CALL CreateBuffer(VkDevice device, const VkBufferCreateInfo* info,
                                            const VkAllocationCallbacks* alloc, VkBuffer* out) {
  DeviceData* d = deviceFromHandle(device);
  auto buf = std::make_unique<EmulatedBuffer>();
  buf->magic = kBufferMagic;
  buf->size = info->size;
  buf->exclusive = info->sharingMode == VK_SHARING_MODE_EXCLUSIVE;
  // CONCURRENT over the emulated transfer family and the real one it maps to
  // is one real family: EXCLUSIVE for the driver (transfer_family.cc).
  VkBufferCreateInfo realInfo = *info;
  std::vector<uint32_t> families;
  for (uint32_t i = 0; !buf->exclusive && i < info->queueFamilyIndexCount; ++i) {
    const uint32_t f = realFamily(d, info->pQueueFamilyIndices[i]);
    if (std::find(families.begin(), families.end(), f) == families.end()) families.push_back(f);
  }
  realInfo.queueFamilyIndexCount = static_cast<uint32_t>(families.size());
  realInfo.pQueueFamilyIndices = families.data();
  if (families.size() < 2) {
    realInfo.sharingMode = VK_SHARING_MODE_EXCLUSIVE;
    realInfo.queueFamilyIndexCount = 0;
    realInfo.pQueueFamilyIndices = nullptr;
  }
  VkResult r = createPerDevice(
      d->deviceCount, buf->real, [&](VkBuffer* real) { return d->next.CreateBuffer(device, &realInfo, alloc, real); },
      [&](VkBuffer real) { d->next.DestroyBuffer(device, real, alloc); });
  if (r != VK_SUCCESS) return r;
  *out = reinterpret_cast<VkBuffer>(buf.release());
  return VK_SUCCESS;
}
MESHVK_INTERCEPT(kDevice, CreateBuffer)

VKAPI_ATTR void VKAPI_CALL DestroyBuffer(VkDevice device, VkBuffer buffer, const VkAllocationCallbacks* alloc) {
  if (!buffer) return;
  DeviceData* d = deviceFromHandle(device);
  EmulatedBuffer* buf = emulatedBuffer(buffer, "vkDestroyBuffer");
  for (uint32_t i = 0; i < d->deviceCount; ++i) d->next.DestroyBuffer(device, buf->real[i], alloc);
  buf->magic = 0;
  delete buf;
}
MESHVK_INTERCEPT(kDevice, DestroyBuffer)

VKAPI_ATTR void VKAPI_CALL GetBufferMemoryRequirements(VkDevice device, VkBuffer buffer, VkMemoryRequirements* req) {
  DeviceData* d = deviceFromHandle(device);
  d->next.GetBufferMemoryRequirements(device, emulatedBuffer(buffer, "vkGetBufferMemoryRequirements")->real[0], req);
  req->memoryTypeBits = emulatedTypeBits(d->memory, req->memoryTypeBits);
}
MESHVK_INTERCEPT(kDevice, GetBufferMemoryRequirements)

VKAPI_ATTR void VKAPI_CALL GetBufferMemoryRequirements2(VkDevice device, const VkBufferMemoryRequirementsInfo2* info,
                                                        VkMemoryRequirements2* req) {
  DeviceData* d = deviceFromHandle(device);
  VkBufferMemoryRequirementsInfo2 real = *info;
  real.buffer = emulatedBuffer(info->buffer, "vkGetBufferMemoryRequirements2")->real[0];
  d->next.GetBufferMemoryRequirements2(device, &real, req);
  req->memoryRequirements.memoryTypeBits = emulatedTypeBits(d->memory, req->memoryRequirements.memoryTypeBits);
}
MESHVK_INTERCEPT(kDevice, GetBufferMemoryRequirements2)
MESHVK_INTERCEPT_ALIAS(kDevice, GetBufferMemoryRequirements2, GetBufferMemoryRequirements2KHR)

VKAPI_ATTR void VKAPI_CALL GetDeviceBufferMemoryRequirements(VkDevice device,
                                                             const VkDeviceBufferMemoryRequirements* info,
                                                             VkMemoryRequirements2* req) {
  DeviceData* d = deviceFromHandle(device);
  d->next.GetDeviceBufferMemoryRequirements(device, info, req);
  req->memoryRequirements.memoryTypeBits = emulatedTypeBits(d->memory, req->memoryRequirements.memoryTypeBits);
}
MESHVK_INTERCEPT(kDevice, GetDeviceBufferMemoryRequirements)
MESHVK_INTERCEPT_ALIAS(kDevice, GetDeviceBufferMemoryRequirements, GetDeviceBufferMemoryRequirementsKHR)

// Images are not emulated per device, but their memory type bits must name emulated types.
VKAPI_ATTR void VKAPI_CALL GetImageMemoryRequirements(VkDevice device, VkImage image, VkMemoryRequirements* req) {
  DeviceData* d = deviceFromHandle(device);
  auto fn = reinterpret_cast<PFN_vkGetImageMemoryRequirements>(
      d->next.GetDeviceProcAddr(device, "vkGetImageMemoryRequirements"));
  fn(device, image, req);
  req->memoryTypeBits = emulatedTypeBits(d->memory, req->memoryTypeBits);
}
MESHVK_INTERCEPT(kDevice, GetImageMemoryRequirements)

VKAPI_ATTR void VKAPI_CALL GetImageMemoryRequirements2(VkDevice device, const VkImageMemoryRequirementsInfo2* info,
                                                       VkMemoryRequirements2* req) {
  DeviceData* d = deviceFromHandle(device);
  auto fn = d->next.GetImageMemoryRequirements2;
  fn(device, info, req);
  req->memoryRequirements.memoryTypeBits = emulatedTypeBits(d->memory, req->memoryRequirements.memoryTypeBits);
}
MESHVK_INTERCEPT(kDevice, GetImageMemoryRequirements2)
MESHVK_INTERCEPT_ALIAS(kDevice, GetImageMemoryRequirements2, GetImageMemoryRequirements2KHR)

VKAPI_ATTR void VKAPI_CALL GetDeviceImageMemoryRequirements(VkDevice device,
                                                            const VkDeviceImageMemoryRequirements* info,
                                                            VkMemoryRequirements2* req) {
  DeviceData* d = deviceFromHandle(device);
  auto fn = d->next.GetDeviceImageMemoryRequirements;
  fn(device, info, req);
  req->memoryRequirements.memoryTypeBits = emulatedTypeBits(d->memory, req->memoryRequirements.memoryTypeBits);
}
MESHVK_INTERCEPT(kDevice, GetDeviceImageMemoryRequirements)
MESHVK_INTERCEPT_ALIAS(kDevice, GetDeviceImageMemoryRequirements, GetDeviceImageMemoryRequirementsKHR)

// Binds each device's real buffer to the memory instance that device sees:
// its own by default, another device's for a peer binding.
VkResult bindBuffer(DeviceData* d, const VkBindBufferMemoryInfo& info, const char* fn) {
  EmulatedBuffer* buf = emulatedBuffer(info.buffer, fn);
  EmulatedMemory* mem = emulatedMemory(info.memory, fn);
  const auto* group = findInChain<VkBindBufferMemoryDeviceGroupInfo>(
      info.pNext, VK_STRUCTURE_TYPE_BIND_BUFFER_MEMORY_DEVICE_GROUP_INFO);
  if (group && group->deviceIndexCount && group->deviceIndexCount != d->deviceCount)
    fatal(fn, "VkBindBufferMemoryDeviceGroupInfo::deviceIndexCount must be 0 or the number of devices");
  for (uint32_t dev = 0; dev < d->deviceCount; ++dev) {
    uint32_t instance = mem->multiInstance ? dev : 0;
    if (group && group->deviceIndexCount) instance = group->pDeviceIndices[dev];
    if (!mem->multiInstance && instance != 0) fatal(fn, "binds a device to instance > 0 of single-instance memory");
    BufferBinding& b = buf->binding[dev];
    b.bound = true;
    b.memory = mem;
    b.memoryId = mem->id;
    b.memoryOffset = info.memoryOffset;
    b.instance = instance;
    VkDeviceMemory real = instance < kMaxDevices ? mem->real[instance] : VK_NULL_HANDLE;
    if (!real) {
      // The memory has no instance on that device (allocated with a device
      // mask without it). Binding is allowed; using the buffer on that device
      // is not: the command recorder reports it. The real buffer still needs
      // memory, so it borrows the first instance.
      b.instance = UINT32_MAX;
      real = mem->real[__builtin_ctz(mem->instanceMask)];
    }
    VkResult r = d->next.BindBufferMemory(d->device, buf->real[dev], real, info.memoryOffset);
    if (r != VK_SUCCESS) return r;
  }
  return VK_SUCCESS;
}

VKAPI_ATTR VkResult VKAPI_CALL BindBufferMemory(VkDevice device, VkBuffer buffer, VkDeviceMemory memory,
                                                VkDeviceSize offset) {
  VkBindBufferMemoryInfo info{VK_STRUCTURE_TYPE_BIND_BUFFER_MEMORY_INFO, nullptr, buffer, memory, offset};
  return bindBuffer(deviceFromHandle(device), info, "vkBindBufferMemory");
}
MESHVK_INTERCEPT(kDevice, BindBufferMemory)

VKAPI_ATTR VkResult VKAPI_CALL BindBufferMemory2(VkDevice device, uint32_t count, const VkBindBufferMemoryInfo* infos) {
  DeviceData* d = deviceFromHandle(device);
  for (uint32_t i = 0; i < count; ++i) {
    VkResult r = bindBuffer(d, infos[i], "vkBindBufferMemory2");
    if (r != VK_SUCCESS) return r;
  }
  return VK_SUCCESS;
}
MESHVK_INTERCEPT(kDevice, BindBufferMemory2)
MESHVK_INTERCEPT_ALIAS(kDevice, BindBufferMemory2, BindBufferMemory2KHR)

// ---- debug names: emulated handles are not the driver's ---------------------

bool isEmulatedType(VkObjectType t) {
  return t == VK_OBJECT_TYPE_PHYSICAL_DEVICE || t == VK_OBJECT_TYPE_COMMAND_BUFFER ||
         t == VK_OBJECT_TYPE_DEVICE_MEMORY || t == VK_OBJECT_TYPE_BUFFER || t == VK_OBJECT_TYPE_DESCRIPTOR_SET ||
         t == VK_OBJECT_TYPE_DESCRIPTOR_POOL;
}

VKAPI_ATTR VkResult VKAPI_CALL SetDebugUtilsObjectNameEXT(VkDevice device, const VkDebugUtilsObjectNameInfoEXT* info) {
  if (isEmulatedType(info->objectType)) return VK_SUCCESS;  // layers above keep the name
  DeviceData* d = deviceFromHandle(device);
  auto fn = reinterpret_cast<PFN_vkSetDebugUtilsObjectNameEXT>(
      d->next.GetDeviceProcAddr(device, "vkSetDebugUtilsObjectNameEXT"));
  return fn ? fn(device, info) : VK_SUCCESS;
}
MESHVK_INTERCEPT(kDevice, SetDebugUtilsObjectNameEXT)

VKAPI_ATTR VkResult VKAPI_CALL SetDebugUtilsObjectTagEXT(VkDevice device, const VkDebugUtilsObjectTagInfoEXT* info) {
  if (isEmulatedType(info->objectType)) return VK_SUCCESS;
  DeviceData* d = deviceFromHandle(device);
  auto fn = reinterpret_cast<PFN_vkSetDebugUtilsObjectTagEXT>(
      d->next.GetDeviceProcAddr(device, "vkSetDebugUtilsObjectTagEXT"));
  return fn ? fn(device, info) : VK_SUCCESS;
}
MESHVK_INTERCEPT(kDevice, SetDebugUtilsObjectTagEXT)

}  // namespace
}  // namespace meshvk_layer

// Instance and physical-device entry points: N emulated physical devices per
// real one, one device group holding them, and every physical-device query
// answered for the real device behind the emulated handle.
#include <cstdio>
#include <cstring>

#include "heap_cap.h"
#include "layer.h"

namespace meshvk_layer {
namespace {

std::mutex gInstancesMutex;
std::unordered_map<void*, InstanceData*> gInstances;  // loader dispatch key -> instance

VKAPI_ATTR VkResult VKAPI_CALL CreateInstance(const VkInstanceCreateInfo* info, const VkAllocationCallbacks* alloc,
                                              VkInstance* out) {
  auto* link = nextLayerLink<VkLayerInstanceCreateInfo>(info->pNext, VK_STRUCTURE_TYPE_LOADER_INSTANCE_CREATE_INFO);
  if (!link) return VK_ERROR_INITIALIZATION_FAILED;
  PFN_vkGetInstanceProcAddr nextGipa = link->u.pLayerInfo->pfnNextGetInstanceProcAddr;
  PFN_GetPhysicalDeviceProcAddr nextGpdpa = link->u.pLayerInfo->pfnNextGetPhysicalDeviceProcAddr;
  link->u.pLayerInfo = link->u.pLayerInfo->pNext;
  // A bad configuration fails here, before anything is created.
  if (!configError().empty()) {
    std::fprintf(stderr, "%s: vkCreateInstance: %s\n", kLayerName, configError().c_str());
    return VK_ERROR_INITIALIZATION_FAILED;
  }
  auto create = reinterpret_cast<PFN_vkCreateInstance>(nextGipa(VK_NULL_HANDLE, "vkCreateInstance"));
  VkResult r = create(info, alloc, out);
  if (r != VK_SUCCESS) return r;

  auto* d = new InstanceData;
  d->instance = *out;
  d->nextGipa = nextGipa;
  d->nextGpdpa = nextGpdpa;
#define MESHVK_LOAD(member, name) d->member = reinterpret_cast<decltype(d->member)>(nextGipa(*out, name));
  MESHVK_LOAD(DestroyInstance, "vkDestroyInstance")
  MESHVK_LOAD(EnumeratePhysicalDevices, "vkEnumeratePhysicalDevices")
  MESHVK_LOAD(EnumeratePhysicalDeviceGroups, "vkEnumeratePhysicalDeviceGroups")
  if (!d->EnumeratePhysicalDeviceGroups)
    MESHVK_LOAD(EnumeratePhysicalDeviceGroups, "vkEnumeratePhysicalDeviceGroupsKHR")
  MESHVK_LOAD(GetPhysicalDeviceProperties, "vkGetPhysicalDeviceProperties")
  MESHVK_LOAD(GetPhysicalDeviceProperties2, "vkGetPhysicalDeviceProperties2")
  if (!d->GetPhysicalDeviceProperties2) MESHVK_LOAD(GetPhysicalDeviceProperties2, "vkGetPhysicalDeviceProperties2KHR")
  MESHVK_LOAD(GetPhysicalDeviceFeatures, "vkGetPhysicalDeviceFeatures")
  MESHVK_LOAD(GetPhysicalDeviceFeatures2, "vkGetPhysicalDeviceFeatures2")
  if (!d->GetPhysicalDeviceFeatures2) MESHVK_LOAD(GetPhysicalDeviceFeatures2, "vkGetPhysicalDeviceFeatures2KHR")
  MESHVK_LOAD(GetPhysicalDeviceMemoryProperties, "vkGetPhysicalDeviceMemoryProperties")
  MESHVK_LOAD(GetPhysicalDeviceMemoryProperties2, "vkGetPhysicalDeviceMemoryProperties2")
  if (!d->GetPhysicalDeviceMemoryProperties2)
    MESHVK_LOAD(GetPhysicalDeviceMemoryProperties2, "vkGetPhysicalDeviceMemoryProperties2KHR")
  MESHVK_LOAD(EnumerateDeviceExtensionProperties, "vkEnumerateDeviceExtensionProperties")
  MESHVK_LOAD(GetPhysicalDeviceExternalBufferProperties, "vkGetPhysicalDeviceExternalBufferProperties")
  if (!d->GetPhysicalDeviceExternalBufferProperties)
    MESHVK_LOAD(GetPhysicalDeviceExternalBufferProperties, "vkGetPhysicalDeviceExternalBufferPropertiesKHR")
  MESHVK_LOAD(CreateDebugUtilsMessengerEXT, "vkCreateDebugUtilsMessengerEXT")
  MESHVK_LOAD(DestroyDebugUtilsMessengerEXT, "vkDestroyDebugUtilsMessengerEXT")
#undef MESHVK_LOAD
#define MESHVK_SLOT(name) d->pdForward[kPd_##name] = nextGipa(*out, #name);
  MESHVK_PD_FORWARDS(MESHVK_SLOT)
#undef MESHVK_SLOT
  // Messengers chained into VkInstanceCreateInfo live as long as the instance.
  for (auto* s = static_cast<const VkBaseInStructure*>(info->pNext); s; s = s->pNext) {
    if (s->sType != VK_STRUCTURE_TYPE_DEBUG_UTILS_MESSENGER_CREATE_INFO_EXT) continue;
    auto* m = reinterpret_cast<const VkDebugUtilsMessengerCreateInfoEXT*>(s);
    d->messengers.push_back({VK_NULL_HANDLE, m->messageSeverity, m->messageType, m->pfnUserCallback, m->pUserData});
  }
  std::lock_guard<std::mutex> lock(gInstancesMutex);
  gInstances[dispatchKey(*out)] = d;
  return VK_SUCCESS;
}
MESHVK_INTERCEPT(kInstance, CreateInstance)

VKAPI_ATTR void VKAPI_CALL DestroyInstance(VkInstance instance, const VkAllocationCallbacks* alloc) {
  if (!instance) return;
  InstanceData* d = nullptr;
  {
    std::lock_guard<std::mutex> lock(gInstancesMutex);
    auto it = gInstances.find(dispatchKey(instance));
    if (it == gInstances.end()) return;
    d = it->second;
    gInstances.erase(it);
  }
  d->DestroyInstance(instance, alloc);
  delete d;
}
MESHVK_INTERCEPT(kInstance, DestroyInstance)

// Creates the N wrappers of every real physical device once; later calls return
// the same handles (the loader keys its own objects on them).
void ensureEmulated(InstanceData* d) {
  uint32_t count = 0;
  d->EnumeratePhysicalDevices(d->instance, &count, nullptr);
  std::vector<VkPhysicalDevice> real(count);
  if (count) d->EnumeratePhysicalDevices(d->instance, &count, real.data());
  real.resize(count);
  std::lock_guard<std::mutex> lock(d->mutex);
  for (VkPhysicalDevice r : real) {
    bool known = false;
    for (auto& e : d->emulated) known |= e.first == r;
    if (known) continue;
    std::vector<std::unique_ptr<EmulatedPhysicalDevice>> group;
    for (uint32_t i = 0; i < config().deviceCount; ++i) {
      auto e = std::make_unique<EmulatedPhysicalDevice>();
      e->loaderData = dispatchKey(r);
      e->magic = kPhysicalDeviceMagic;
      e->instance = d;
      e->real = r;
      e->index = i;
      group.push_back(std::move(e));
    }
    d->emulated.emplace_back(r, std::move(group));
  }
}

template <typename T>
VkResult fillArray(const std::vector<T>& items, uint32_t* count, T* out) {
  if (!out) {
    *count = static_cast<uint32_t>(items.size());
    return VK_SUCCESS;
  }
  uint32_t n = std::min<uint32_t>(*count, static_cast<uint32_t>(items.size()));
  for (uint32_t i = 0; i < n; ++i) out[i] = items[i];
  *count = n;
  return n < items.size() ? VK_INCOMPLETE : VK_SUCCESS;
}

VKAPI_ATTR VkResult VKAPI_CALL EnumeratePhysicalDevices(VkInstance instance, uint32_t* count, VkPhysicalDevice* out) {
  InstanceData* d = instanceFromHandle(instance);
  ensureEmulated(d);
  std::vector<VkPhysicalDevice> all;
  {
    std::lock_guard<std::mutex> lock(d->mutex);
    for (auto& g : d->emulated)
      for (auto& e : g.second) all.push_back(reinterpret_cast<VkPhysicalDevice>(e.get()));
  }
  return fillArray(all, count, out);
}
MESHVK_INTERCEPT(kInstance, EnumeratePhysicalDevices)

VKAPI_ATTR VkResult VKAPI_CALL EnumeratePhysicalDeviceGroups(VkInstance instance, uint32_t* count,
                                                             VkPhysicalDeviceGroupProperties* out) {
  InstanceData* d = instanceFromHandle(instance);
  ensureEmulated(d);
  std::vector<VkPhysicalDeviceGroupProperties> groups;
  {
    std::lock_guard<std::mutex> lock(d->mutex);
    for (auto& g : d->emulated) {
      // Separate: every emulated device is its own group of one, as Mesa shows
      // every real GPU.
      const uint32_t size = config().groupSize();
      for (uint32_t first = 0; first < g.second.size(); first += size) {
        VkPhysicalDeviceGroupProperties p{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_GROUP_PROPERTIES};
        p.physicalDeviceCount = size;
        for (uint32_t i = 0; i < size; ++i)
          p.physicalDevices[i] = reinterpret_cast<VkPhysicalDevice>(g.second[first + i].get());
        // Memory may live on a subset of the group: per-device instances need it.
        p.subsetAllocation = size > 1 ? VK_TRUE : VK_FALSE;
        groups.push_back(p);
      }
    }
  }
  if (!out) {
    *count = static_cast<uint32_t>(groups.size());
    return VK_SUCCESS;
  }
  uint32_t n = std::min<uint32_t>(*count, static_cast<uint32_t>(groups.size()));
  for (uint32_t i = 0; i < n; ++i) {
    void* pNext = out[i].pNext;  // the caller's chain stays in place
    out[i] = groups[i];
    out[i].pNext = pNext;
  }
  *count = n;
  return n < groups.size() ? VK_INCOMPLETE : VK_SUCCESS;
}
MESHVK_INTERCEPT(kInstance, EnumeratePhysicalDeviceGroups)
MESHVK_INTERCEPT_ALIAS(kInstance, EnumeratePhysicalDeviceGroups, EnumeratePhysicalDeviceGroupsKHR)

// ---- queries that the emulation changes -----------------------------------

bool isExternalSharingExtension(const char* name) {
  static const char* const kHidden[] = {"VK_KHR_external_memory_fd",       "VK_EXT_external_memory_dma_buf",
                                        "VK_EXT_external_memory_host",     "VK_KHR_external_semaphore_fd",
                                        "VK_KHR_external_fence_fd",        "VK_KHR_external_memory_win32",
                                        "VK_KHR_external_semaphore_win32", "VK_KHR_external_fence_win32"};
  for (const char* h : kHidden)
    if (!std::strcmp(name, h)) return true;
  return false;
}

void patchName(char* name, const EmulatedPhysicalDevice* e) {
  char suffix[64];
  std::snprintf(suffix, sizeof suffix, " [meshvk emulated %u/%u]", e->index, config().deviceCount);
  size_t len = std::strlen(name), add = std::strlen(suffix);
  if (len + add >= VK_MAX_PHYSICAL_DEVICE_NAME_SIZE) len = VK_MAX_PHYSICAL_DEVICE_NAME_SIZE - 1 - add;
  std::memcpy(name + len, suffix, add + 1);
}

VKAPI_ATTR void VKAPI_CALL GetPhysicalDeviceProperties(VkPhysicalDevice pd, VkPhysicalDeviceProperties* p) {
  auto* e = emulatedPhysicalDevice(pd, "vkGetPhysicalDeviceProperties");
  e->instance->GetPhysicalDeviceProperties(e->real, p);
  patchName(p->deviceName, e);
}
MESHVK_INTERCEPT(kPhysicalDevice, GetPhysicalDeviceProperties)

// The drivers mixed mode gives devices 1..7 (device 0 keeps the real one):
// each device its own vendor's driver.
constexpr VkDriverId kOtherDrivers[kMaxDevices - 1] = {
    VK_DRIVER_ID_MESA_RADV,           VK_DRIVER_ID_NVIDIA_PROPRIETARY, VK_DRIVER_ID_INTEL_OPEN_SOURCE_MESA,
    VK_DRIVER_ID_AMD_PROPRIETARY,     VK_DRIVER_ID_MESA_TURNIP,        VK_DRIVER_ID_ARM_PROPRIETARY,
    VK_DRIVER_ID_QUALCOMM_PROPRIETARY};

// Device `e`'s IDs as the emulation shows them. A group's members and
// separate devices with distinct UUIDs or mixed drivers differ in the last
// byte of deviceUUID (mixed: of driverUUID too, and in driverID); separate
// devices otherwise keep the real IDs: one real device, so memory exported
// as an opaque fd from one may be imported into another (the spec requires
// matching deviceUUID and driverUUID for that).
void patchIds(const EmulatedPhysicalDevice* e, uint8_t* deviceUuid, uint8_t* driverUuid, VkDriverId* driverId,
              char* driverName) {
  const Config& c = config();
  const bool mixed = c.drivers == Drivers::kMixed;
  const bool distinct = c.topology == Topology::kGroup || c.uuids == DeviceUuids::kDistinct || mixed;
  const auto mark = static_cast<uint8_t>(e->index);
  if (deviceUuid && distinct) deviceUuid[VK_UUID_SIZE - 1] ^= mark;
  if (!mixed || e->index == 0) return;
  if (driverUuid) driverUuid[VK_UUID_SIZE - 1] ^= mark;
  if (driverId) *driverId = kOtherDrivers[(e->index - 1) % (kMaxDevices - 1)];
  if (driverName) std::snprintf(driverName, VK_MAX_DRIVER_NAME_SIZE, "meshvk emulated driver %u", e->index);
}

VKAPI_ATTR void VKAPI_CALL GetPhysicalDeviceProperties2(VkPhysicalDevice pd, VkPhysicalDeviceProperties2* p) {
  auto* e = emulatedPhysicalDevice(pd, "vkGetPhysicalDeviceProperties2");
  e->instance->GetPhysicalDeviceProperties2(e->real, p);
  patchName(p->properties.deviceName, e);
  for (auto* s = reinterpret_cast<VkBaseOutStructure*>(p->pNext); s; s = s->pNext) {
    if (s->sType == VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_ID_PROPERTIES) {
      auto* ids = reinterpret_cast<VkPhysicalDeviceIDProperties*>(s);
      patchIds(e, ids->deviceUUID, ids->driverUUID, nullptr, nullptr);
    }
    if (s->sType == VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_1_PROPERTIES) {
      auto* v11 = reinterpret_cast<VkPhysicalDeviceVulkan11Properties*>(s);
      patchIds(e, v11->deviceUUID, v11->driverUUID, nullptr, nullptr);
    }
    if (s->sType == VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DRIVER_PROPERTIES) {
      auto* driver = reinterpret_cast<VkPhysicalDeviceDriverProperties*>(s);
      patchIds(e, nullptr, nullptr, &driver->driverID, driver->driverName);
    }
    if (s->sType == VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_PROPERTIES) {
      auto* v12 = reinterpret_cast<VkPhysicalDeviceVulkan12Properties*>(s);
      patchIds(e, nullptr, nullptr, &v12->driverID, v12->driverName);
    }
  }
}
MESHVK_INTERCEPT(kPhysicalDevice, GetPhysicalDeviceProperties2)
MESHVK_INTERCEPT_ALIAS(kPhysicalDevice, GetPhysicalDeviceProperties2, GetPhysicalDeviceProperties2KHR)

VKAPI_ATTR void VKAPI_CALL GetPhysicalDeviceFeatures(VkPhysicalDevice pd, VkPhysicalDeviceFeatures* f) {
  auto* e = emulatedPhysicalDevice(pd, "vkGetPhysicalDeviceFeatures");
  e->instance->GetPhysicalDeviceFeatures(e->real, f);
}
MESHVK_INTERCEPT(kPhysicalDevice, GetPhysicalDeviceFeatures)

VKAPI_ATTR void VKAPI_CALL GetPhysicalDeviceFeatures2(VkPhysicalDevice pd, VkPhysicalDeviceFeatures2* f) {
  auto* e = emulatedPhysicalDevice(pd, "vkGetPhysicalDeviceFeatures2");
  e->instance->GetPhysicalDeviceFeatures2(e->real, f);
  // Buffer device addresses are one per real buffer; a group-wide address that
  // is valid on every device cannot be emulated.
  for (auto* s = reinterpret_cast<VkBaseOutStructure*>(f->pNext); s; s = s->pNext) {
    if (s->sType == VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_BUFFER_DEVICE_ADDRESS_FEATURES)
      reinterpret_cast<VkPhysicalDeviceBufferDeviceAddressFeatures*>(s)->bufferDeviceAddressMultiDevice = VK_FALSE;
    if (s->sType == VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES)
      reinterpret_cast<VkPhysicalDeviceVulkan12Features*>(s)->bufferDeviceAddressMultiDevice = VK_FALSE;
  }
}
MESHVK_INTERCEPT(kPhysicalDevice, GetPhysicalDeviceFeatures2)
MESHVK_INTERCEPT_ALIAS(kPhysicalDevice, GetPhysicalDeviceFeatures2, GetPhysicalDeviceFeatures2KHR)

VKAPI_ATTR void VKAPI_CALL GetPhysicalDeviceMemoryProperties(VkPhysicalDevice pd, VkPhysicalDeviceMemoryProperties* p) {
  auto* e = emulatedPhysicalDevice(pd, "vkGetPhysicalDeviceMemoryProperties");
  VkPhysicalDeviceMemoryProperties real;
  e->instance->GetPhysicalDeviceMemoryProperties(e->real, &real);
  *p = buildMemoryLayout(real, config().groupSize()).emulated;
}
MESHVK_INTERCEPT(kPhysicalDevice, GetPhysicalDeviceMemoryProperties)

VKAPI_ATTR void VKAPI_CALL GetPhysicalDeviceMemoryProperties2(VkPhysicalDevice pd,
                                                              VkPhysicalDeviceMemoryProperties2* p) {
  auto* e = emulatedPhysicalDevice(pd, "vkGetPhysicalDeviceMemoryProperties2");
  e->instance->GetPhysicalDeviceMemoryProperties2(e->real, p);
  p->memoryProperties = buildMemoryLayout(p->memoryProperties, config().groupSize()).emulated;
  // VK_EXT_memory_budget reports per real heap; the extra host heap reuses heap 0's numbers.
  if (auto* b =
          const_cast<VkPhysicalDeviceMemoryBudgetPropertiesEXT*>(findInChain<VkPhysicalDeviceMemoryBudgetPropertiesEXT>(
              p->pNext, VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MEMORY_BUDGET_PROPERTIES_EXT))) {
    for (uint32_t h = 1; h < p->memoryProperties.memoryHeapCount; ++h)
      if (!b->heapBudget[h]) b->heapBudget[h] = b->heapBudget[0], b->heapUsage[h] = b->heapUsage[0];
    reportHeapBudget(e, p->memoryProperties, b);
  }
}
MESHVK_INTERCEPT(kPhysicalDevice, GetPhysicalDeviceMemoryProperties2)
MESHVK_INTERCEPT_ALIAS(kPhysicalDevice, GetPhysicalDeviceMemoryProperties2, GetPhysicalDeviceMemoryProperties2KHR)

VKAPI_ATTR VkResult VKAPI_CALL EnumerateDeviceExtensionProperties(VkPhysicalDevice pd, const char* layer,
                                                                  uint32_t* count, VkExtensionProperties* props) {
  if (layer && !std::strcmp(layer, kLayerName)) {
    *count = 0;  // the layer adds no device extension
    return VK_SUCCESS;
  }
  auto* e = emulatedPhysicalDevice(pd, "vkEnumerateDeviceExtensionProperties");
  if (layer) return e->instance->EnumerateDeviceExtensionProperties(e->real, layer, count, props);
  // Hidden: a device that shares nothing with other VkDevices (no external
  // memory, semaphore or fence extension). Separate mode adds the semaphore
  // fd extension lavapipe lacks (external_semaphore.cc).
  uint32_t realCount = 0;
  VkResult r = e->instance->EnumerateDeviceExtensionProperties(e->real, layer, &realCount, nullptr);
  if (r != VK_SUCCESS) return r;
  std::vector<VkExtensionProperties> all(realCount);
  r = e->instance->EnumerateDeviceExtensionProperties(e->real, layer, &realCount, all.data());
  if (r != VK_SUCCESS) return r;
  all.resize(realCount);
  std::vector<VkExtensionProperties> kept;
  for (const VkExtensionProperties& x : all)
    if (config().externalMemory != ExternalMemory::kHidden || !isExternalSharingExtension(x.extensionName))
      kept.push_back(x);
  appendEmulatedDeviceExtensions(&kept);
  return fillArray(kept, count, props);
}
MESHVK_INTERCEPT(kPhysicalDevice, EnumerateDeviceExtensionProperties)

// Hidden external memory reports no handle type as exportable or importable;
// otherwise the driver's answer.
VKAPI_ATTR void VKAPI_CALL GetPhysicalDeviceExternalBufferProperties(VkPhysicalDevice pd,
                                                                     const VkPhysicalDeviceExternalBufferInfo* info,
                                                                     VkExternalBufferProperties* props) {
  auto* e = emulatedPhysicalDevice(pd, "vkGetPhysicalDeviceExternalBufferProperties");
  if (config().externalMemory == ExternalMemory::kHidden) {
    props->externalMemoryProperties = {};
    return;
  }
  // The pointer taken at vkCreateInstance: asked for later, the loader hands
  // out its trampoline, which would send the real handle back to the top.
  if (!e->instance->GetPhysicalDeviceExternalBufferProperties)
    fatal("vkGetPhysicalDeviceExternalBufferProperties", "is not available below the layer");
  e->instance->GetPhysicalDeviceExternalBufferProperties(e->real, info, props);
}
MESHVK_INTERCEPT(kPhysicalDevice, GetPhysicalDeviceExternalBufferProperties)
MESHVK_INTERCEPT_ALIAS(kPhysicalDevice, GetPhysicalDeviceExternalBufferProperties,
                       GetPhysicalDeviceExternalBufferPropertiesKHR)

// ---- queries forwarded unchanged -------------------------------------------

template <typename T>
struct PdForward;
template <typename R, typename... A>
struct PdForward<R(VKAPI_PTR*)(VkPhysicalDevice, A...)> {
  template <int Slot>
  static VKAPI_ATTR R VKAPI_CALL call(VkPhysicalDevice pd, A... args) {
    auto* e = emulatedPhysicalDevice(pd, "a physical-device query");
    auto fn = reinterpret_cast<R(VKAPI_PTR*)(VkPhysicalDevice, A...)>(e->instance->pdForward[Slot]);
    if (!fn) fatal("a physical-device query", "is not available below the layer");
    return fn(e->real, args...);
  }
};
#define MESHVK_FORWARD(name)                          \
  static const EntryPointRegistrar meshvk_fwd_##name( \
      EntryKind::kPhysicalDevice, #name,              \
      reinterpret_cast<PFN_vkVoidFunction>(&PdForward<PFN_##name>::template call<kPd_##name>), true);
MESHVK_PD_FORWARDS(MESHVK_FORWARD)
#undef MESHVK_FORWARD

// ---- VK_EXT_debug_utils: the race detector reports through the app's messengers

VKAPI_ATTR VkResult VKAPI_CALL CreateDebugUtilsMessengerEXT(VkInstance instance,
                                                            const VkDebugUtilsMessengerCreateInfoEXT* info,
                                                            const VkAllocationCallbacks* alloc,
                                                            VkDebugUtilsMessengerEXT* out) {
  InstanceData* d = instanceFromHandle(instance);
  if (!d->CreateDebugUtilsMessengerEXT) return VK_ERROR_EXTENSION_NOT_PRESENT;
  VkResult r = d->CreateDebugUtilsMessengerEXT(instance, info, alloc, out);
  if (r != VK_SUCCESS) return r;
  std::lock_guard<std::mutex> lock(d->mutex);
  d->messengers.push_back({*out, info->messageSeverity, info->messageType, info->pfnUserCallback, info->pUserData});
  return r;
}
MESHVK_INTERCEPT(kInstance, CreateDebugUtilsMessengerEXT)

VKAPI_ATTR void VKAPI_CALL DestroyDebugUtilsMessengerEXT(VkInstance instance, VkDebugUtilsMessengerEXT messenger,
                                                         const VkAllocationCallbacks* alloc) {
  InstanceData* d = instanceFromHandle(instance);
  {
    std::lock_guard<std::mutex> lock(d->mutex);
    for (size_t i = 0; i < d->messengers.size(); ++i)
      if (d->messengers[i].handle == messenger && messenger != VK_NULL_HANDLE) {
        d->messengers.erase(d->messengers.begin() + static_cast<long>(i));
        break;
      }
  }
  if (d->DestroyDebugUtilsMessengerEXT) d->DestroyDebugUtilsMessengerEXT(instance, messenger, alloc);
}
MESHVK_INTERCEPT(kInstance, DestroyDebugUtilsMessengerEXT)

}  // namespace

bool sameDeviceAndDriver(const EmulatedPhysicalDevice* a, const EmulatedPhysicalDevice* b) {
  auto ids = [](const EmulatedPhysicalDevice* e) {
    VkPhysicalDeviceIDProperties id{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_ID_PROPERTIES};
    VkPhysicalDeviceProperties2 p{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2, &id};
    e->instance->GetPhysicalDeviceProperties2(e->real, &p);
    patchIds(e, id.deviceUUID, id.driverUUID, nullptr, nullptr);
    return std::string(reinterpret_cast<const char*>(id.deviceUUID), VK_UUID_SIZE) +
           std::string(reinterpret_cast<const char*>(id.driverUUID), VK_UUID_SIZE);
  };
  return a == b || ids(a) == ids(b);
}

InstanceData* instanceFromHandle(VkInstance instance) {
  if (!instance) return nullptr;
  std::lock_guard<std::mutex> lock(gInstancesMutex);
  auto it = gInstances.find(dispatchKey(instance));
  return it == gInstances.end() ? nullptr : it->second;
}

}  // namespace meshvk_layer

// The test-layer skeleton (see test_layer.h).
#include "test_layer.h"

#include <vulkan/vk_layer.h>

#include <cstring>
#include <mutex>
#include <string>
#include <unordered_map>

#if defined(__GNUC__)
#define TEST_LAYER_EXPORT __attribute__((visibility("default")))
#else
#define TEST_LAYER_EXPORT
#endif

namespace meshvk_test_layer {

void* DispatchKey(const void* dispatchable) { return *static_cast<void* const*>(dispatchable); }

namespace {

void* Key(const void* dispatchable) { return DispatchKey(dispatchable); }

// Next-layer functions are resolved while the instance or device is being
// created: afterwards the loader's last-layer vkGetInstanceProcAddr returns
// the application's dispatch (the top of the chain), which would recurse.
using NextFunctions = std::unordered_map<std::string, PFN_vkVoidFunction>;
struct InstanceData {
  VkInstance instance = VK_NULL_HANDLE;
  PFN_vkGetInstanceProcAddr gipa = nullptr;
  NextFunctions next;
};
struct DeviceData {
  VkDevice device = VK_NULL_HANDLE;
  PFN_vkGetDeviceProcAddr gdpa = nullptr;
  NextFunctions next;
};
std::mutex g_tables;
std::unordered_map<void*, InstanceData> g_instances;
std::unordered_map<void*, DeviceData> g_devices;

std::string CoreName(const char* name) {
  std::string core(name);
  if (core.size() > 3 && core.compare(core.size() - 3, 3, "KHR") == 0) core.resize(core.size() - 3);
  return core;
}

// The next layer's function for each row, under its core name: a core
// function may exist only under its KHR name.
template <typename Lookup>
NextFunctions Resolve(Entries entries, Lookup resolve) {
  NextFunctions next;
  for (size_t i = 0; i < entries.count; ++i) {
    std::string core = CoreName(entries.rows[i].name);
    PFN_vkVoidFunction f = resolve(core.c_str());
    if (!f) f = resolve((core + "KHR").c_str());
    next[core] = f;
  }
  return next;
}

PFN_vkVoidFunction Find(Entries entries, const char* name) {
  for (size_t i = 0; i < entries.count; ++i)
    if (std::strcmp(entries.rows[i].name, name) == 0) return entries.rows[i].function;
  return nullptr;
}

template <typename T>
T* LayerLink(const void* next, VkStructureType type) {
  for (auto* s = static_cast<const VkBaseInStructure*>(next); s; s = s->pNext) {
    if (s->sType == type && reinterpret_cast<const T*>(s)->function == VK_LAYER_LINK_INFO)
      return const_cast<T*>(reinterpret_cast<const T*>(s));
  }
  return nullptr;
}

VKAPI_ATTR PFN_vkVoidFunction VKAPI_CALL GetInstanceProcAddr(VkInstance instance, const char* name);
VKAPI_ATTR PFN_vkVoidFunction VKAPI_CALL GetDeviceProcAddr(VkDevice device, const char* name);

VKAPI_ATTR VkResult VKAPI_CALL CreateInstance(const VkInstanceCreateInfo* info, const VkAllocationCallbacks* alloc,
                                              VkInstance* out) {
  auto* link = LayerLink<VkLayerInstanceCreateInfo>(info->pNext, VK_STRUCTURE_TYPE_LOADER_INSTANCE_CREATE_INFO);
  if (!link) return VK_ERROR_INITIALIZATION_FAILED;
  PFN_vkGetInstanceProcAddr gipa = link->u.pLayerInfo->pfnNextGetInstanceProcAddr;
  link->u.pLayerInfo = link->u.pLayerInfo->pNext;
  const Layer& layer = ThisLayer();
  if (layer.before_create_instance)
    if (VkResult r = layer.before_create_instance()) return r;
  auto create = reinterpret_cast<PFN_vkCreateInstance>(gipa(VK_NULL_HANDLE, "vkCreateInstance"));
  VkResult r = create(info, alloc, out);
  if (r != VK_SUCCESS) return r;
  InstanceData d{*out, gipa, {}};
  VkInstance instance = *out;
  d.next = Resolve(layer.instance_entries, [&](const char* n) { return gipa(instance, n); });
  std::lock_guard<std::mutex> lock(g_tables);
  g_instances[Key(*out)] = std::move(d);
  return VK_SUCCESS;
}

VKAPI_ATTR VkResult VKAPI_CALL CreateDevice(VkPhysicalDevice physical, const VkDeviceCreateInfo* info,
                                            const VkAllocationCallbacks* alloc, VkDevice* out) {
  auto* link = LayerLink<VkLayerDeviceCreateInfo>(info->pNext, VK_STRUCTURE_TYPE_LOADER_DEVICE_CREATE_INFO);
  if (!link) return VK_ERROR_INITIALIZATION_FAILED;
  PFN_vkGetInstanceProcAddr gipa = link->u.pLayerInfo->pfnNextGetInstanceProcAddr;
  PFN_vkGetDeviceProcAddr gdpa = link->u.pLayerInfo->pfnNextGetDeviceProcAddr;
  link->u.pLayerInfo = link->u.pLayerInfo->pNext;
  const Layer& layer = ThisLayer();
  if (layer.before_create_device)
    if (VkResult r = layer.before_create_device()) return r;
  VkInstance instance;
  {
    std::lock_guard<std::mutex> lock(g_tables);
    instance = g_instances.at(Key(physical)).instance;
  }
  auto create = reinterpret_cast<PFN_vkCreateDevice>(gipa(instance, "vkCreateDevice"));
  VkResult r = create(physical, info, alloc, out);
  if (r != VK_SUCCESS) return r;
  VkDevice device = *out;
  DeviceData d{device, gdpa, {}};
  d.next = Resolve(layer.device_entries, [&](const char* n) { return gdpa(device, n); });
  std::lock_guard<std::mutex> lock(g_tables);
  g_devices[Key(device)] = std::move(d);
  return VK_SUCCESS;
}

const Entry kSkeletonInstanceEntries[] = {
    MESHVK_TEST_LAYER_ENTRY("vkCreateInstance", CreateInstance),
    MESHVK_TEST_LAYER_ENTRY("vkCreateDevice", CreateDevice),
    MESHVK_TEST_LAYER_ENTRY("vkGetInstanceProcAddr", GetInstanceProcAddr),
};

PFN_vkVoidFunction FindInstanceEntry(const char* name) {
  if (PFN_vkVoidFunction f = Find(kSkeletonInstanceEntries, name)) return f;
  return Find(ThisLayer().instance_entries, name);
}

PFN_vkVoidFunction FindDeviceEntry(const char* name) {
  if (std::strcmp(name, "vkGetDeviceProcAddr") == 0) return reinterpret_cast<PFN_vkVoidFunction>(&GetDeviceProcAddr);
  return Find(ThisLayer().device_entries, name);
}

VKAPI_ATTR PFN_vkVoidFunction VKAPI_CALL GetDeviceProcAddr(VkDevice device, const char* name) {
  if (PFN_vkVoidFunction f = FindDeviceEntry(name)) {
    // Only when the next layer has it (an extension the device lacks stays absent).
    if (std::strcmp(name, "vkGetDeviceProcAddr") == 0) return f;
    return NextDeviceFunction(device, CoreName(name).c_str()) ? f : nullptr;
  }
  std::lock_guard<std::mutex> lock(g_tables);
  const DeviceData& d = g_devices.at(Key(device));
  return d.gdpa(d.device, name);
}

VKAPI_ATTR PFN_vkVoidFunction VKAPI_CALL GetInstanceProcAddr(VkInstance instance, const char* name) {
  if (PFN_vkVoidFunction f = FindInstanceEntry(name)) return f;
  if (!instance) return nullptr;
  VkInstance next_instance;
  PFN_vkGetInstanceProcAddr gipa;
  {
    std::lock_guard<std::mutex> lock(g_tables);
    const InstanceData& d = g_instances.at(Key(instance));
    next_instance = d.instance;
    gipa = d.gipa;
  }
  PFN_vkVoidFunction next = gipa(next_instance, name);
  if (!next) return nullptr;
  if (PFN_vkVoidFunction f = FindDeviceEntry(name)) return f;
  return next;
}

PFN_vkVoidFunction Lookup(const NextFunctions& next, const char* name) {
  auto it = next.find(name);
  return it == next.end() ? nullptr : it->second;
}

}  // namespace

PFN_vkVoidFunction NextDeviceFunction(const void* device_handle, const char* name) {
  std::lock_guard<std::mutex> lock(g_tables);
  return Lookup(g_devices.at(Key(device_handle)).next, name);
}

PFN_vkVoidFunction NextInstanceFunction(const void* instance_handle, const char* name) {
  std::lock_guard<std::mutex> lock(g_tables);
  return Lookup(g_instances.at(Key(instance_handle)).next, name);
}

std::vector<std::pair<VkDevice, PFN_vkVoidFunction>> AllDevices(const char* name) {
  std::vector<std::pair<VkDevice, PFN_vkVoidFunction>> devices;
  std::lock_guard<std::mutex> lock(g_tables);
  for (const auto& [key, d] : g_devices)
    if (PFN_vkVoidFunction f = Lookup(d.next, name)) devices.push_back({d.device, f});
  return devices;
}

bool Intercepts(const char* name) { return FindInstanceEntry(name) || FindDeviceEntry(name); }

}  // namespace meshvk_test_layer

extern "C" TEST_LAYER_EXPORT VKAPI_ATTR VkResult VKAPI_CALL
vkNegotiateLoaderLayerInterfaceVersion(VkNegotiateLayerInterface* version) {
  if (!version || version->sType != LAYER_NEGOTIATE_INTERFACE_STRUCT) return VK_ERROR_INITIALIZATION_FAILED;
  if (version->loaderLayerInterfaceVersion > 2) version->loaderLayerInterfaceVersion = 2;
  version->pfnGetInstanceProcAddr = meshvk_test_layer::GetInstanceProcAddr;
  version->pfnGetDeviceProcAddr = meshvk_test_layer::GetDeviceProcAddr;
  version->pfnGetPhysicalDeviceProcAddr = nullptr;
  return VK_SUCCESS;
}

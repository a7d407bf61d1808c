// Entry-point lookup: the loader interface (version 2), vkGet*ProcAddr, and the
// stubs that abort when an entry point the layer does not wrap is called.
//
// Why abort: every VkCommandBuffer, VkBuffer, VkDeviceMemory, VkDescriptorSet,
// VkDescriptorPool and VkPhysicalDevice the application holds is an emulated
// handle. Passing one to the driver unchanged would crash far away from the
// cause or silently corrupt memory, so an unwrapped entry point that may see one
// stops the process with its name instead.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <utility>

#include "layer.h"

namespace meshvk_layer {
namespace {

struct Registry {
  std::unordered_map<std::string, PFN_vkVoidFunction> table[3];
};
Registry& registry() {
  static Registry r;
  return r;
}

// Device-level entry points whose parameters can never hold an emulated handle
// (they take only the real VkDevice/VkQueue and real non-dispatchable objects),
// so the layer returns the next layer's function unchanged.
const char* const kPassThroughDevice[] = {
    "vkCreateFence",
    "vkResetFences",
    "vkCreateEvent",
    "vkDestroyEvent",
    "vkSetEvent",
    "vkResetEvent",
    "vkCreateQueryPool",
    "vkDestroyQueryPool",
    "vkResetQueryPool",
    "vkResetQueryPoolEXT",
    "vkCreatePipelineLayout",
    "vkDestroyPipelineLayout",
    "vkCreatePipelineCache",
    "vkDestroyPipelineCache",
    "vkGetPipelineCacheData",
    "vkMergePipelineCaches",
    "vkGetDescriptorSetLayoutSupport",
    "vkGetDescriptorSetLayoutSupportKHR",
    "vkCreateSampler",
    "vkDestroySampler",
    "vkTrimCommandPool",
    "vkTrimCommandPoolKHR",
    "vkGetDeviceProcAddr",
    // Images and graphics objects are not emulated per device, but creating
    // them involves no emulated handle (binding image memory or recording a
    // draw does, and aborts).
    "vkCreateImage",
    "vkDestroyImage",
    "vkGetImageSubresourceLayout",
    "vkGetImageSparseMemoryRequirements",
    "vkGetImageSparseMemoryRequirements2",
    "vkGetImageSparseMemoryRequirements2KHR",
    "vkGetDeviceImageSparseMemoryRequirements",
    "vkGetDeviceImageSparseMemoryRequirementsKHR",
    "vkCreateImageView",
    "vkDestroyImageView",
    "vkCreateGraphicsPipelines",
    "vkCreateRenderPass",
    "vkCreateRenderPass2",
    "vkCreateRenderPass2KHR",
    "vkDestroyRenderPass",
    "vkCreateFramebuffer",
    "vkDestroyFramebuffer",
    "vkGetRenderAreaGranularity",
    "vkCreateSamplerYcbcrConversion",
    "vkCreateSamplerYcbcrConversionKHR",
    "vkDestroySamplerYcbcrConversion",
    "vkDestroySamplerYcbcrConversionKHR",
};

// Abort stubs: one function per slot, each knowing its slot's name. Arguments
// are ignored (the C calling convention lets a callee ignore them), so one stub
// type serves every signature.
constexpr size_t kStubSlots = 512;
const char* gStubNames[kStubSlots];
size_t gStubCount = 0;
std::mutex gStubMutex;

template <size_t I>
VKAPI_ATTR void VKAPI_CALL abortStubSlot() {
  fatal(gStubNames[I],
        "is not wrapped by the emulation layer and may receive emulated handles "
        "(VkCommandBuffer, VkBuffer, VkDeviceMemory, VkDescriptorSet, VkDescriptorPool, "
        "VkPhysicalDevice); see runtime/layer/README.md for the wrapped entry points");
}
template <size_t... I>
constexpr std::array<PFN_vkVoidFunction, sizeof...(I)> makeStubs(std::index_sequence<I...>) {
  return {reinterpret_cast<PFN_vkVoidFunction>(&abortStubSlot<I>)...};
}
const std::array<PFN_vkVoidFunction, kStubSlots> gStubs = makeStubs(std::make_index_sequence<kStubSlots>());

bool looksLikePhysicalDeviceFunction(const char* name) {
  return std::strstr(name, "PhysicalDevice") || std::strstr(name, "Display") ||
         !std::strcmp(name, "vkEnumerateDeviceExtensionProperties") ||
         !std::strcmp(name, "vkEnumerateDeviceLayerProperties") || !std::strcmp(name, "vkCreateDevice");
}

VKAPI_ATTR PFN_vkVoidFunction VKAPI_CALL GetDeviceProcAddr(VkDevice device, const char* name);

VKAPI_ATTR PFN_vkVoidFunction VKAPI_CALL GetInstanceProcAddr(VkInstance instance, const char* name) {
  if (!name) return nullptr;
  if (!std::strcmp(name, "vkGetInstanceProcAddr")) return reinterpret_cast<PFN_vkVoidFunction>(&GetInstanceProcAddr);
  if (!std::strcmp(name, "vkGetDeviceProcAddr")) return reinterpret_cast<PFN_vkVoidFunction>(&GetDeviceProcAddr);
  if (auto fn = findEntryPoint(EntryKind::kInstance, name)) return fn;
  if (auto fn = findEntryPoint(EntryKind::kPhysicalDevice, name)) return fn;
  if (auto fn = findEntryPoint(EntryKind::kDevice, name)) return fn;
  if (!instance) return nullptr;
  InstanceData* data = instanceFromHandle(instance);
  if (!data) return nullptr;
  PFN_vkVoidFunction next = data->nextGipa(data->instance, name);
  if (!next) return nullptr;
  if (looksLikePhysicalDeviceFunction(name)) return abortingStub(name);
  return next;
}

VKAPI_ATTR PFN_vkVoidFunction VKAPI_CALL GetPhysicalDeviceProcAddr(VkInstance instance, const char* name) {
  if (!name) return nullptr;
  if (auto fn = findEntryPoint(EntryKind::kPhysicalDevice, name)) return fn;
  InstanceData* data = instanceFromHandle(instance);
  if (!data || !data->nextGpdpa) return nullptr;
  if (!data->nextGpdpa(data->instance, name)) return nullptr;
  return abortingStub(name);  // an unknown query on an emulated VkPhysicalDevice
}

VKAPI_ATTR PFN_vkVoidFunction VKAPI_CALL GetDeviceProcAddr(VkDevice device, const char* name) {
  if (!name) return nullptr;
  if (!std::strcmp(name, "vkGetDeviceProcAddr")) return reinterpret_cast<PFN_vkVoidFunction>(&GetDeviceProcAddr);
  DeviceData* data = deviceFromHandle(device);
  if (!data) return nullptr;
  PFN_vkVoidFunction next = data->next.GetDeviceProcAddr(device, name);
  if (!next && isEmulatedDeviceFunction(data, name)) return findEntryPoint(EntryKind::kDevice, name);
  // The layer's own query for tests (transfer_family.cc).
  if (!next && !std::strcmp(name, "vkGetEmulatedCommandCountsMESHVK")) return findEntryPoint(EntryKind::kDevice, name);
  if (!next) return nullptr;  // not enabled on this device: stays unavailable
  if (auto fn = findEntryPoint(EntryKind::kDevice, name)) return fn;
  if (isPassThroughDeviceEntryPoint(name)) return next;
  return abortingStub(name);
}

}  // namespace

EntryPointRegistrar::EntryPointRegistrar(EntryKind kind, const char* name, PFN_vkVoidFunction fn, bool fallback) {
  // A fallback (a query forwarded unchanged) never replaces an interceptor of
  // the same name, whichever registers first.
  if (fallback)
    registry().table[static_cast<int>(kind)].emplace(name, fn);
  else
    registry().table[static_cast<int>(kind)][name] = fn;
}

PFN_vkVoidFunction findEntryPoint(EntryKind kind, const char* name) {
  auto& t = registry().table[static_cast<int>(kind)];
  auto it = t.find(name);
  return it == t.end() ? nullptr : it->second;
}

bool isPassThroughDeviceEntryPoint(const char* name) {
  for (const char* n : kPassThroughDevice)
    if (!std::strcmp(n, name)) return true;
  return false;
}

PFN_vkVoidFunction abortingStub(const char* name) {
  std::lock_guard<std::mutex> lock(gStubMutex);
  for (size_t i = 0; i < gStubCount; ++i)
    if (!std::strcmp(gStubNames[i], name)) return gStubs[i];
  if (gStubCount == kStubSlots) fatal(name, "too many distinct unwrapped entry points requested");
  gStubNames[gStubCount] = strdup(name);
  return gStubs[gStubCount++];
}

[[noreturn]] void fatal(const char* function, const std::string& what) {
  std::fprintf(stderr, "%s: %s %s\n", kLayerName, function, what.c_str());
  std::fflush(stderr);
  std::abort();
}

}  // namespace meshvk_layer

extern "C" VK_LAYER_EXPORT VKAPI_ATTR VkResult VKAPI_CALL
vkNegotiateLoaderLayerInterfaceVersion(VkNegotiateLayerInterface* version) {
  if (!version || version->sType != LAYER_NEGOTIATE_INTERFACE_STRUCT) return VK_ERROR_INITIALIZATION_FAILED;
  if (version->loaderLayerInterfaceVersion < 2) return VK_ERROR_INITIALIZATION_FAILED;
  version->loaderLayerInterfaceVersion = 2;
  version->pfnGetInstanceProcAddr = &meshvk_layer::GetInstanceProcAddr;
  version->pfnGetDeviceProcAddr = &meshvk_layer::GetDeviceProcAddr;
  version->pfnGetPhysicalDeviceProcAddr = &meshvk_layer::GetPhysicalDeviceProcAddr;
  return VK_SUCCESS;
}

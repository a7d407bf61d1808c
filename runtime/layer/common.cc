// Configuration, diagnostics, handle checks and the emulated memory layout.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <initializer_list>
#include <sstream>

#include "heap_cap.h"
#include "layer.h"

namespace meshvk_layer {

namespace {

std::string gConfigError;

void badEnv(const char* var, const char* value, const char* expected) {
  if (gConfigError.empty()) gConfigError = std::string(var) + "='" + value + "' is invalid; expected " + expected;
}

// One value of an environment variable; `allowed` false where the rest of
// the configuration rules it out (it then reads as invalid).
template <typename E>
struct Choice {
  const char* name;
  E value;
  bool allowed = true;
};

// Sets *out from environment variable `var` when it is set to one of
// `choices`; any other non-empty value is a configuration error.
template <typename E>
void readChoice(const char* var, std::initializer_list<Choice<E>> choices, const char* expected, E* out) {
  const char* v = std::getenv(var);
  if (!v || !*v) return;
  for (const Choice<E>& choice : choices) {
    if (std::strcmp(v, choice.name) != 0) continue;
    if (!choice.allowed) break;
    *out = choice.value;
    return;
  }
  badEnv(var, v, expected);
}

Config readConfig() {
  Config c;
  if (const char* v = std::getenv("MESHVK_EMULATED_DEVICE_COUNT"); v && *v) {
    char* end = nullptr;
    long n = std::strtol(v, &end, 10);
    if (*end || n < 1 || n > static_cast<long>(kMaxDevices))
      badEnv("MESHVK_EMULATED_DEVICE_COUNT", v, "an integer from 1 to 8");
    c.deviceCount = static_cast<uint32_t>(n);
  }
  if (const char* v = std::getenv("MESHVK_EMULATED_PEER_MEMORY_FEATURES"); v && *v) {
    // Either a number (bitmask of VkPeerMemoryFeatureFlagBits) or a comma list
    // of copy_src, copy_dst, generic_src, generic_dst, or "none".
    char* end = nullptr;
    long n = std::strtol(v, &end, 0);
    if (end != v && !*end && n >= 0 && n <= 0xF) {
      c.peerFeatures = static_cast<VkPeerMemoryFeatureFlags>(n);
    } else {
      c.peerFeatures = 0;
      std::stringstream ss(v);
      std::string item;
      while (std::getline(ss, item, ',')) {
        if (item == "copy_src")
          c.peerFeatures |= VK_PEER_MEMORY_FEATURE_COPY_SRC_BIT;
        else if (item == "copy_dst")
          c.peerFeatures |= VK_PEER_MEMORY_FEATURE_COPY_DST_BIT;
        else if (item == "generic_src")
          c.peerFeatures |= VK_PEER_MEMORY_FEATURE_GENERIC_SRC_BIT;
        else if (item == "generic_dst")
          c.peerFeatures |= VK_PEER_MEMORY_FEATURE_GENERIC_DST_BIT;
        else if (item == "none") {
        } else
          badEnv("MESHVK_EMULATED_PEER_MEMORY_FEATURES", v,
                 "a bitmask 0..15 or a comma list of copy_src,copy_dst,generic_src,generic_dst,none");
      }
    }
  }
  readChoice("MESHVK_EMULATED_EXECUTION_ORDER",
             {{"in-order", ExecutionOrder::kInOrder},
              {"reverse", ExecutionOrder::kReverse},
              {"shuffle", ExecutionOrder::kShuffle}},
             "in-order, reverse or shuffle", &c.order);
  if (const char* v = std::getenv("MESHVK_EMULATED_SHUFFLE_SEED"); v && *v) {
    char* end = nullptr;
    c.shuffleSeed = std::strtoull(v, &end, 10);
    if (*end) badEnv("MESHVK_EMULATED_SHUFFLE_SEED", v, "an unsigned integer");
  }
  readChoice("MESHVK_EMULATED_RACE_CHECK", {{"0", false}, {"1", true}}, "0 or 1", &c.raceCheck);
  readChoice("MESHVK_EMULATED_OWNERSHIP_CHECK", {{"0", false}, {"1", true}}, "0 or 1", &c.ownershipCheck);
  readChoice("MESHVK_EMULATED_TRANSFER_FAMILY", {{"0", false}, {"1", true}}, "0 or 1", &c.transferFamily);
  readChoice("MESHVK_EMULATED_TOPOLOGY", {{"group", Topology::kGroup}, {"separate", Topology::kSeparate}},
             "group or separate", &c.topology);
  readChoice("MESHVK_EMULATED_EXTERNAL_MEMORY",
             {{"on", ExternalMemory::kOn},
              {"hidden", ExternalMemory::kHidden},
              {"refuse-import", ExternalMemory::kRefuseImport},
              {"refuse-export", ExternalMemory::kRefuseExport}},
             "on, hidden, refuse-import or refuse-export", &c.externalMemory);
  // Host memory, distinct IDs and mixed drivers describe separate devices (a
  // group's members show distinct deviceUUIDs of one driver already).
  const bool separate = c.topology == Topology::kSeparate;
  readChoice("MESHVK_EMULATED_MEMORY",
             {{"rebar", MemoryKind::kResizableBar},
              {"discrete", MemoryKind::kDiscrete},
              {"host", MemoryKind::kHost, separate}},
             "rebar, discrete, or host with MESHVK_EMULATED_TOPOLOGY=separate", &c.memory);
  readChoice("MESHVK_EMULATED_UUIDS",
             {{"shared", DeviceUuids::kShared}, {"distinct", DeviceUuids::kDistinct, separate}},
             "shared, or distinct with MESHVK_EMULATED_TOPOLOGY=separate", &c.uuids);
  readChoice("MESHVK_EMULATED_DRIVERS", {{"same", Drivers::kSame}, {"mixed", Drivers::kMixed, separate}},
             "same, or mixed with MESHVK_EMULATED_TOPOLOGY=separate", &c.drivers);
  if (const char* v = std::getenv("MESHVK_EMULATED_HEAP_BYTES"); v && *v && !parseByteCount(v, &c.heapBytes))
    badEnv("MESHVK_EMULATED_HEAP_BYTES", v,
           "a byte count above 0, optionally with K, M, G or T (e.g. 268435456, 256M)");
  return c;
}

std::mutex gDevicesMutex;
std::unordered_map<void*, DeviceData*> gDevices;  // loader dispatch key -> device

}  // namespace

const Config& config() {
  static const Config c = readConfig();
  return c;
}

const std::string& configError() {
  (void)config();
  return gConfigError;
}

void report(InstanceData* instance, VkDebugUtilsMessageSeverityFlagBitsEXT severity, const char* messageId,
            const std::string& message) {
  std::vector<DebugMessenger> messengers;
  {
    std::lock_guard<std::mutex> lock(instance->mutex);
    messengers = instance->messengers;
  }
  VkDebugUtilsMessengerCallbackDataEXT data{VK_STRUCTURE_TYPE_DEBUG_UTILS_MESSENGER_CALLBACK_DATA_EXT};
  data.pMessageIdName = messageId;
  data.pMessage = message.c_str();
  const VkDebugUtilsMessageTypeFlagsEXT type = VK_DEBUG_UTILS_MESSAGE_TYPE_VALIDATION_BIT_EXT;
  // Messengers chained into VkInstanceCreateInfo (handle VK_NULL_HANDLE) are
  // meant for instance creation and destruction; they hear from the layer only
  // when no messenger was created with vkCreateDebugUtilsMessengerEXT.
  bool created = false;
  for (const DebugMessenger& m : messengers) created |= m.handle != VK_NULL_HANDLE;
  bool delivered = false;
  for (const DebugMessenger& m : messengers) {
    if (created && m.handle == VK_NULL_HANDLE) continue;
    if (!(m.severities & severity) || !(m.types & type)) continue;
    m.callback(severity, type, &data, m.userData);
    delivered = true;
  }
  if (!delivered) std::fprintf(stderr, "%s: [%s] %s\n", kLayerName, messageId, message.c_str());
}

void registerDevice(DeviceData* data) {
  std::lock_guard<std::mutex> lock(gDevicesMutex);
  gDevices[dispatchKey(data->device)] = data;
}
void unregisterDevice(DeviceData* data) {
  std::lock_guard<std::mutex> lock(gDevicesMutex);
  gDevices.erase(dispatchKey(data->device));
}
DeviceData* deviceFromHandle(VkDevice device) {
  if (!device) return nullptr;
  std::lock_guard<std::mutex> lock(gDevicesMutex);
  auto it = gDevices.find(dispatchKey(device));
  return it == gDevices.end() ? nullptr : it->second;
}
DeviceData* deviceFromQueue(VkQueue queue) {
  DeviceData* d = deviceFromHandle(reinterpret_cast<VkDevice>(queue));
  if (!d) fatal("vkQueue*", "received a VkQueue that belongs to no device created through the layer");
  return d;
}

EmulatedPhysicalDevice* emulatedPhysicalDevice(VkPhysicalDevice handle, const char* function) {
  auto* e = reinterpret_cast<EmulatedPhysicalDevice*>(handle);
  if (!e || e->magic != kPhysicalDeviceMagic) fatal(function, "received a VkPhysicalDevice the layer did not return");
  return e;
}

#define MESHVK_CHECKED_CAST(Type, Handle, Magic, what)                                            \
  Type* emulated##Type##Of(Handle h, const char* function) {                                      \
    auto* p = reinterpret_cast<Type*>(h);                                                         \
    if (!p || p->magic != Magic) fatal(function, "received a " what " the layer did not create"); \
    return p;                                                                                     \
  }
namespace {
MESHVK_CHECKED_CAST(EmulatedCommandBuffer, VkCommandBuffer, kCommandBufferMagic, "VkCommandBuffer")
MESHVK_CHECKED_CAST(EmulatedMemory, VkDeviceMemory, kMemoryMagic, "VkDeviceMemory")
MESHVK_CHECKED_CAST(EmulatedBuffer, VkBuffer, kBufferMagic, "VkBuffer")
MESHVK_CHECKED_CAST(EmulatedDescriptorSet, VkDescriptorSet, kDescriptorSetMagic, "VkDescriptorSet")
MESHVK_CHECKED_CAST(EmulatedDescriptorPool, VkDescriptorPool, kDescriptorPoolMagic, "VkDescriptorPool")
}  // namespace
EmulatedCommandBuffer* emulatedCommandBuffer(VkCommandBuffer h, const char* f) {
  return emulatedEmulatedCommandBufferOf(h, f);
}
EmulatedMemory* emulatedMemory(VkDeviceMemory h, const char* f) { return emulatedEmulatedMemoryOf(h, f); }
EmulatedBuffer* emulatedBuffer(VkBuffer h, const char* f) { return emulatedEmulatedBufferOf(h, f); }
EmulatedDescriptorSet* emulatedDescriptorSet(VkDescriptorSet h, const char* f) {
  return emulatedEmulatedDescriptorSetOf(h, f);
}
EmulatedDescriptorPool* emulatedDescriptorPool(VkDescriptorPool h, const char* f) {
  return emulatedEmulatedDescriptorPoolOf(h, f);
}

ChainUnlink::ChainUnlink(const void* owner, VkStructureType sType) {
  auto* prev = reinterpret_cast<VkBaseOutStructure*>(const_cast<void*>(owner));
  while (prev->pNext && prev->pNext->sType != sType) prev = prev->pNext;
  if (!prev->pNext) return;
  prev_ = prev;
  removed_ = prev->pNext;
  prev->pNext = removed_->pNext;
}
ChainUnlink::~ChainUnlink() {
  if (prev_) prev_->pNext = removed_;
}

// A device group of discrete GPUs typically shows device-local memory in a
// multi-instance heap and host memory in a separate single-instance heap
// (MESHVK_EMULATED_MEMORY=discrete: also for separate devices, and without
// the real device-local host-visible type).
// lavapipe has one heap and one type that is both; the emulation splits it:
//   device-local only   (multi-instance heap)
//   host-visible only   (an extra host heap: one instance shared by all devices)
//   both                (multi-instance heap: mappable only if allocated on one device)
namespace {

MemoryLayout splitHeaps(const VkPhysicalDeviceMemoryProperties& real, uint32_t deviceCount) {
  MemoryLayout out;
  VkPhysicalDeviceMemoryProperties& e = out.emulated;
  if (config().memory == MemoryKind::kHost && deviceCount == 1) {  // the driver's types as they are
    e = real;
    for (uint32_t t = 0; t < real.memoryTypeCount; ++t) out.realType[t] = t;
    return out;
  }
  const bool discrete = config().memory == MemoryKind::kDiscrete;
  e.memoryHeapCount = real.memoryHeapCount;
  VkDeviceSize hostHeapSize = 0;
  for (uint32_t h = 0; h < real.memoryHeapCount; ++h) {
    e.memoryHeaps[h] = real.memoryHeaps[h];
    if ((real.memoryHeaps[h].flags & VK_MEMORY_HEAP_DEVICE_LOCAL_BIT) && deviceCount > 1) {
      e.memoryHeaps[h].flags |= VK_MEMORY_HEAP_MULTI_INSTANCE_BIT;
      out.multiInstanceHeap[h] = true;
    }
  }
  uint32_t hostHeap = UINT32_MAX;
  auto addType = [&](VkMemoryPropertyFlags flags, uint32_t heap, uint32_t realType) {
    for (uint32_t i = 0; i < e.memoryTypeCount; ++i)
      if (e.memoryTypes[i].propertyFlags == flags && e.memoryTypes[i].heapIndex == heap) return;
    if (e.memoryTypeCount == VK_MAX_MEMORY_TYPES) return;
    out.realType[e.memoryTypeCount] = realType;
    e.memoryTypes[e.memoryTypeCount++] = {flags, heap};
  };
  const VkMemoryPropertyFlags hostBits =
      VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT | VK_MEMORY_PROPERTY_HOST_CACHED_BIT;
  for (uint32_t t = 0; t < real.memoryTypeCount; ++t) {  // device-local only
    const VkMemoryType& rt = real.memoryTypes[t];
    if (rt.propertyFlags & VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT) addType(rt.propertyFlags & ~hostBits, rt.heapIndex, t);
  }
  for (uint32_t t = 0; t < real.memoryTypeCount; ++t) {  // host-visible in a host heap
    const VkMemoryType& rt = real.memoryTypes[t];
    if (!(rt.propertyFlags & VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT)) continue;
    if (!(rt.propertyFlags & VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT)) {
      addType(rt.propertyFlags, rt.heapIndex, t);
      continue;
    }
    if (deviceCount == 1 && !discrete) continue;
    if (hostHeap == UINT32_MAX && e.memoryHeapCount < VK_MAX_MEMORY_HEAPS) {
      hostHeap = e.memoryHeapCount++;
      e.memoryHeaps[hostHeap] = {0, 0};
    }
    if (hostHeap == UINT32_MAX) continue;
    hostHeapSize = std::max(hostHeapSize, real.memoryHeaps[rt.heapIndex].size);
    e.memoryHeaps[hostHeap].size = hostHeapSize;
    addType(rt.propertyFlags & ~VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT, hostHeap, t);
  }
  for (uint32_t t = 0; t < real.memoryTypeCount; ++t) {  // the real types as they are
    const VkMemoryPropertyFlags flags = real.memoryTypes[t].propertyFlags;
    // A discrete GPU has no device-local type the host can map.
    if (discrete && (flags & VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT) && (flags & VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT))
      continue;
    addType(flags, real.memoryTypes[t].heapIndex, t);
  }
  return out;
}

}  // namespace

MemoryLayout buildMemoryLayout(const VkPhysicalDeviceMemoryProperties& real, uint32_t deviceCount) {
  MemoryLayout out = splitHeaps(real, deviceCount);
  capDeviceLocalHeaps(&out.emulated);
  return out;
}

uint32_t emulatedTypeBits(const MemoryLayout& layout, uint32_t realBits) {
  uint32_t bits = 0;
  for (uint32_t i = 0; i < layout.emulated.memoryTypeCount; ++i)
    if (realBits & (1u << layout.realType[i])) bits |= 1u << i;
  return bits;
}

}  // namespace meshvk_layer

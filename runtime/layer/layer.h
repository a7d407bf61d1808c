// VK_LAYER_MESHVK_emulated_device_group: shared state of the layer.
//
// The layer shows one real physical device as a device group of N emulated
// physical devices. Handles that must differ per emulated device are wrapped:
//   VkPhysicalDevice  dispatchable wrapper, one per emulated device
//   VkCommandBuffer   dispatchable wrapper holding one real command buffer per device
//   VkDeviceMemory    one real allocation per memory instance
//   VkBuffer          one real buffer per device (each bound to its own or a peer instance)
//   VkDescriptorPool / VkDescriptorSet   one real pool / set per device
// Everything else (VkDevice, VkQueue, pipelines, layouts, semaphores, fences, ...)
// is the real handle: one VkDevice serves the whole emulated group.
#pragma once

#include <vulkan/vk_layer.h>
#include <vulkan/vulkan.h>

#include <array>
#include <atomic>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

namespace meshvk_layer {

constexpr const char* kLayerName = "VK_LAYER_MESHVK_emulated_device_group";
constexpr uint32_t kMaxDevices = 8;

// Creates one real object per emulated device. A failure destroys the ones
// already made, so the caller never holds a half-built emulated handle.
template <typename Handle, typename Create, typename Destroy>
VkResult createPerDevice(uint32_t deviceCount, Handle* real, Create create, Destroy destroy) {
  for (uint32_t i = 0; i < deviceCount; ++i) {
    VkResult r = create(&real[i]);
    if (r != VK_SUCCESS) {
      for (uint32_t j = 0; j < i; ++j) destroy(real[j]);
      return r;
    }
  }
  return VK_SUCCESS;
}

// ---- configuration (environment, read once) --------------------------------
enum class ExecutionOrder { kInOrder, kReverse, kShuffle };
// How the N emulated devices are shown: one device group of N, or N separate
// groups of one (independent GPUs, as Mesa reports every real GPU).
enum class Topology { kGroup, kSeparate };
// What the emulated devices say about sharing memory with other VkDevices:
// the driver's answer, nothing (no external memory extensions, no handle
// types), or the extensions advertised but every import (or every exportable
// allocation) refused, to exercise an application's fallback.
enum class ExternalMemory { kOn, kHidden, kRefuseImport, kRefuseExport };
// The emulated devices' memory: kResizableBar (the default) a GPU whose
// device-local memory has a type the host cannot map and a host-visible one
// (lavapipe's own type, as a GPU with a resizable BAR); kDiscrete a discrete
// GPU's without one: device-local types the host can never map, and a
// separate host heap of host-visible types; kHost (separate mode only) the
// driver's own types unchanged, i.e. host memory as on a CPU device or an
// integrated GPU with one unified heap (every device-local type host-visible).
enum class MemoryKind { kResizableBar, kDiscrete, kHost };
// What the separate devices' IDs say about them: kShared keeps the real
// deviceUUID on every device (one real device, as lavapipe registered twice
// shows), kDistinct gives each its own, as two GPUs of one driver have.
enum class DeviceUuids { kShared, kDistinct };
// kSame: one driver for all; kMixed: each device its own driverUUID and
// driverID (and deviceUUID), as GPUs of different vendors side by side.
enum class Drivers { kSame, kMixed };
struct Config {
  uint32_t deviceCount = 2;                         // MESHVK_EMULATED_DEVICE_COUNT
  VkPeerMemoryFeatureFlags peerFeatures = 0xF;      // MESHVK_EMULATED_PEER_MEMORY_FEATURES
  ExecutionOrder order = ExecutionOrder::kInOrder;  // MESHVK_EMULATED_EXECUTION_ORDER
  uint64_t shuffleSeed = 1;                         // MESHVK_EMULATED_SHUFFLE_SEED
  bool raceCheck = true;                            // MESHVK_EMULATED_RACE_CHECK
  // Every use of an EXCLUSIVE buffer of external memory comes after an
  // acquire from VK_QUEUE_FAMILY_EXTERNAL in the same command buffer, and each
  // acquire is released back before the end (queue family ownership
  // transfers between VkDevices, command_buffer_sync.cc).
  bool ownershipCheck = false;  // MESHVK_EMULATED_OWNERSHIP_CHECK
  // Every emulated device reports one more queue family, with only
  // VK_QUEUE_TRANSFER_BIT (a DMA engine, as discrete GPUs have), backed by the
  // real queue; its work is its own lane for the race check (transfer_family.cc).
  bool transferFamily = false;                          // MESHVK_EMULATED_TRANSFER_FAMILY
  Topology topology = Topology::kGroup;                 // MESHVK_EMULATED_TOPOLOGY
  ExternalMemory externalMemory = ExternalMemory::kOn;  // MESHVK_EMULATED_EXTERNAL_MEMORY
  MemoryKind memory = MemoryKind::kResizableBar;        // MESHVK_EMULATED_MEMORY
  DeviceUuids uuids = DeviceUuids::kShared;             // MESHVK_EMULATED_UUIDS
  Drivers drivers = Drivers::kSame;                     // MESHVK_EMULATED_DRIVERS
  uint64_t heapBytes = 0;                               // MESHVK_EMULATED_HEAP_BYTES (0: the driver's sizes)
  // Devices one VkDevice can span: N in a group, 1 when shown separately (the
  // memory layout and UUIDs follow).
  uint32_t groupSize() const { return topology == Topology::kGroup ? deviceCount : 1; }
};
const Config& config();
// Empty, or the first invalid variable: "NAME='value' is invalid; expected ...".
const std::string& configError();

// Aborts the process naming the entry point: used when an emulated handle would
// otherwise reach the driver, or when the application breaks a rule the
// emulation depends on.
[[noreturn]] void fatal(const char* function, const std::string& what);

// ---- dispatch tables ------------------------------------------------------
// Physical-device queries forwarded unchanged (only the handle is swapped).
#define MESHVK_PD_FORWARDS(X)                           \
  X(vkGetPhysicalDeviceFormatProperties)                \
  X(vkGetPhysicalDeviceFormatProperties2)               \
  X(vkGetPhysicalDeviceFormatProperties2KHR)            \
  X(vkGetPhysicalDeviceImageFormatProperties)           \
  X(vkGetPhysicalDeviceImageFormatProperties2)          \
  X(vkGetPhysicalDeviceImageFormatProperties2KHR)       \
  X(vkGetPhysicalDeviceSparseImageFormatProperties)     \
  X(vkGetPhysicalDeviceSparseImageFormatProperties2)    \
  X(vkGetPhysicalDeviceSparseImageFormatProperties2KHR) \
  X(vkGetPhysicalDeviceQueueFamilyProperties)           \
  X(vkGetPhysicalDeviceQueueFamilyProperties2)          \
  X(vkGetPhysicalDeviceQueueFamilyProperties2KHR)       \
  X(vkGetPhysicalDeviceExternalSemaphoreProperties)     \
  X(vkGetPhysicalDeviceExternalSemaphorePropertiesKHR)  \
  X(vkGetPhysicalDeviceExternalFenceProperties)         \
  X(vkGetPhysicalDeviceExternalFencePropertiesKHR)      \
  X(vkGetPhysicalDeviceToolProperties)                  \
  X(vkGetPhysicalDeviceToolPropertiesEXT)               \
  X(vkEnumerateDeviceLayerProperties)

enum PdForwardSlot {
#define MESHVK_SLOT(name) kPd_##name,
  MESHVK_PD_FORWARDS(MESHVK_SLOT)
#undef MESHVK_SLOT
      kPdForwardCount
};

// Device-level functions the layer calls on the real device.
// One entry per line: clang-format cannot lay out X-macro lists.
// clang-format off
#define MESHVK_DEVICE_NEXT(X) \
  X(DestroyDevice) \
  X(GetDeviceQueue) \
  X(AllocateMemory) \
  X(FreeMemory) \
  X(MapMemory) \
  X(UnmapMemory) \
  X(FlushMappedMemoryRanges) \
  X(InvalidateMappedMemoryRanges) \
  X(GetDeviceMemoryCommitment) \
  X(CreateBuffer) \
  X(DestroyBuffer) \
  X(GetBufferMemoryRequirements) \
  X(GetBufferMemoryRequirements2) \
  X(GetDeviceBufferMemoryRequirements) \
  X(BindBufferMemory) \
  X(CreateDescriptorPool) \
  X(DestroyDescriptorPool) \
  X(ResetDescriptorPool) \
  X(AllocateDescriptorSets) \
  X(FreeDescriptorSets) \
  X(UpdateDescriptorSets) \
  X(CreateDescriptorSetLayout) \
  X(DestroyDescriptorSetLayout) \
  X(CreateShaderModule) \
  X(DestroyShaderModule) \
  X(CreateComputePipelines) \
  X(DestroyPipeline) \
  X(AllocateCommandBuffers) \
  X(FreeCommandBuffers) \
  X(ResetCommandPool) \
  X(DestroyCommandPool) \
  X(BeginCommandBuffer) \
  X(EndCommandBuffer) \
  X(ResetCommandBuffer) \
  X(CmdBindPipeline) \
  X(CmdBindDescriptorSets) \
  X(CmdPushConstants) \
  X(CmdDispatch) \
  X(CmdDispatchBase) \
  X(CmdDispatchIndirect) \
  X(CmdCopyBuffer) \
  X(CmdCopyBuffer2) \
  X(CmdFillBuffer) \
  X(CmdUpdateBuffer) \
  X(CmdPipelineBarrier) \
  X(CmdPipelineBarrier2) \
  X(CmdExecuteCommands) \
  X(CmdResetQueryPool) \
  X(CmdWriteTimestamp) \
  X(CmdWriteTimestamp2) \
  X(CmdBeginQuery) \
  X(CmdEndQuery) \
  X(CmdCopyQueryPoolResults) \
  X(CmdSetEvent) \
  X(CmdResetEvent) \
  X(CmdWaitEvents) \
  X(CmdSetEvent2) \
  X(CmdResetEvent2) \
  X(CmdWaitEvents2) \
  X(CmdPushDescriptorSetKHR) \
  X(CmdBeginDebugUtilsLabelEXT) \
  X(CmdEndDebugUtilsLabelEXT) \
  X(CmdInsertDebugUtilsLabelEXT) \
  X(QueueSubmit) \
  X(QueueWaitIdle) \
  X(DeviceWaitIdle) \
  X(WaitForFences) \
  X(GetFenceStatus) \
  X(DestroyFence) \
  X(CreateSemaphore) \
  X(DestroySemaphore) \
  X(WaitSemaphores) \
  X(GetSemaphoreCounterValue) \
  X(SignalSemaphore) \
  X(GetEventStatus) \
  X(GetMemoryFdKHR) \
  X(CreateDescriptorUpdateTemplate) \
  X(DestroyDescriptorUpdateTemplate) \
  X(UpdateDescriptorSetWithTemplate) \
  X(CmdPushDescriptorSetWithTemplateKHR) \
  X(GetImageMemoryRequirements2) \
  X(GetDeviceImageMemoryRequirements)
// clang-format on

struct DeviceDispatch {
  PFN_vkGetDeviceProcAddr GetDeviceProcAddr = nullptr;
#define MESHVK_MEMBER(name) PFN_vk##name name = nullptr;
  MESHVK_DEVICE_NEXT(MESHVK_MEMBER)
#undef MESHVK_MEMBER
};

// ---- instance and physical devices ----------------------------------------
struct InstanceData;

struct EmulatedPhysicalDevice {
  void* loaderData;  // MUST stay first: the loader's dispatch pointer (copied from `real`)
  uint32_t magic;
  InstanceData* instance;
  VkPhysicalDevice real;
  uint32_t index;  // position in the emulated group
  // Bytes allocated on this device per emulated heap, counted only under
  // MESHVK_EMULATED_HEAP_BYTES (heap_cap.cc; guarded by its mutex).
  VkDeviceSize heapUsed[VK_MAX_MEMORY_HEAPS] = {};
};
constexpr uint32_t kPhysicalDeviceMagic = 0x6d70646eu;

struct DebugMessenger {
  VkDebugUtilsMessengerEXT handle;
  VkDebugUtilsMessageSeverityFlagsEXT severities;
  VkDebugUtilsMessageTypeFlagsEXT types;
  PFN_vkDebugUtilsMessengerCallbackEXT callback;
  void* userData;
};

struct InstanceData {
  VkInstance instance = VK_NULL_HANDLE;
  PFN_vkGetInstanceProcAddr nextGipa = nullptr;
  PFN_GetPhysicalDeviceProcAddr nextGpdpa = nullptr;
  PFN_vkDestroyInstance DestroyInstance = nullptr;
  PFN_vkEnumeratePhysicalDevices EnumeratePhysicalDevices = nullptr;
  PFN_vkEnumeratePhysicalDeviceGroups EnumeratePhysicalDeviceGroups = nullptr;
  PFN_vkGetPhysicalDeviceProperties GetPhysicalDeviceProperties = nullptr;
  PFN_vkGetPhysicalDeviceProperties2 GetPhysicalDeviceProperties2 = nullptr;
  PFN_vkGetPhysicalDeviceFeatures GetPhysicalDeviceFeatures = nullptr;
  PFN_vkGetPhysicalDeviceFeatures2 GetPhysicalDeviceFeatures2 = nullptr;
  PFN_vkGetPhysicalDeviceMemoryProperties GetPhysicalDeviceMemoryProperties = nullptr;
  PFN_vkGetPhysicalDeviceMemoryProperties2 GetPhysicalDeviceMemoryProperties2 = nullptr;
  PFN_vkEnumerateDeviceExtensionProperties EnumerateDeviceExtensionProperties = nullptr;
  PFN_vkGetPhysicalDeviceExternalBufferProperties GetPhysicalDeviceExternalBufferProperties = nullptr;
  PFN_vkCreateDebugUtilsMessengerEXT CreateDebugUtilsMessengerEXT = nullptr;
  PFN_vkDestroyDebugUtilsMessengerEXT DestroyDebugUtilsMessengerEXT = nullptr;
  PFN_vkVoidFunction pdForward[kPdForwardCount] = {};

  std::mutex mutex;  // guards the members below
  // Stable wrappers: created once per real physical device, N each.
  std::vector<std::pair<VkPhysicalDevice, std::vector<std::unique_ptr<EmulatedPhysicalDevice>>>> emulated;
  std::vector<DebugMessenger> messengers;
};

// Emulated memory types: each maps to one real type, in an emulated heap.
struct MemoryLayout {
  VkPhysicalDeviceMemoryProperties emulated{};
  uint32_t realType[VK_MAX_MEMORY_TYPES] = {};
  // true for heaps with VK_MEMORY_HEAP_MULTI_INSTANCE_BIT (one instance per device)
  bool multiInstanceHeap[VK_MAX_MEMORY_HEAPS] = {};
};
// The emulated memory layout; device-local heaps are N bytes under
// MESHVK_EMULATED_HEAP_BYTES=N.
MemoryLayout buildMemoryLayout(const VkPhysicalDeviceMemoryProperties& real, uint32_t deviceCount);
uint32_t emulatedTypeBits(const MemoryLayout& layout, uint32_t realBits);

InstanceData* instanceFromHandle(VkInstance instance);
EmulatedPhysicalDevice* emulatedPhysicalDevice(VkPhysicalDevice handle, const char* function);

// Sends a message to every VK_EXT_debug_utils messenger of the instance (and to
// stderr when none listens).
void report(InstanceData* instance, VkDebugUtilsMessageSeverityFlagBitsEXT severity, const char* messageId,
            const std::string& message);

// ---- device ---------------------------------------------------------------
struct DeviceData;
class Scheduler;
struct EmulatedQueue;  // transfer_family.cc

struct EmulatedMemory {
  uint32_t magic;
  uint64_t id;  // never reused: race-tracker key
  VkDeviceSize size;
  uint32_t emulatedType;
  bool multiInstance;  // one instance per device in instanceMask
  uint32_t instanceMask;
  VkDeviceMemory real[kMaxDevices] = {};  // index = memory instance (single instance: [0])
  bool heapCharged = false;               // counted against MESHVK_EMULATED_HEAP_BYTES (heap_cap.h)
  bool external = false;                  // exported or imported (the ownership check)
};
constexpr uint32_t kMemoryMagic = 0x6d6d656du;

struct BufferBinding {
  bool bound = false;
  EmulatedMemory* memory = nullptr;
  uint64_t memoryId = 0;
  uint32_t instance = 0;  // memory instance this device's view reads/writes
  VkDeviceSize memoryOffset = 0;
};

struct EmulatedBuffer {
  uint32_t magic;
  VkDeviceSize size;
  VkBuffer real[kMaxDevices] = {};
  BufferBinding binding[kMaxDevices];
  bool exclusive = true;  // VK_SHARING_MODE_EXCLUSIVE
};
constexpr uint32_t kBufferMagic = 0x6d627566u;

struct DescriptorSetLayoutInfo {
  // binding -> (type, count), ordered by binding number (dynamic-offset order)
  std::map<uint32_t, std::pair<VkDescriptorType, uint32_t>> bindings;
};

struct BufferDescriptor {
  EmulatedBuffer* buffer = nullptr;
  VkDeviceSize offset = 0, range = 0;
  VkDescriptorType type = VK_DESCRIPTOR_TYPE_MAX_ENUM;
};

struct EmulatedDescriptorPool;
struct EmulatedDescriptorSet {
  uint32_t magic;
  EmulatedDescriptorPool* pool;
  std::shared_ptr<DescriptorSetLayoutInfo> layout;
  VkDescriptorSet real[kMaxDevices] = {};
  std::map<uint32_t, std::vector<BufferDescriptor>> buffers;  // binding -> array elements
};
constexpr uint32_t kDescriptorSetMagic = 0x6d647374u;

struct EmulatedDescriptorPool {
  uint32_t magic;
  VkDescriptorPool real[kMaxDevices] = {};
  std::vector<EmulatedDescriptorSet*> sets;
};
constexpr uint32_t kDescriptorPoolMagic = 0x6d64706cu;

// Which descriptor bindings a compute shader reads and writes (SPIR-V analysis).
struct BindingAccess {
  uint32_t set, binding;
  bool read, write;
};
using ShaderAccess = std::vector<BindingAccess>;

// One access of a command to a memory instance, for the race detector.
struct Access {
  uint64_t memoryId;
  uint32_t instance;
  VkDeviceSize offset, size;
  bool write;
  const char* command;
};

struct BoundSet {
  EmulatedDescriptorSet* set = nullptr;
  std::vector<uint32_t> dynamicOffsets;
};

struct EmulatedCommandBuffer {
  void* loaderData;  // MUST stay first: the loader writes its dispatch pointer here
  uint32_t magic;
  DeviceData* device;
  VkCommandPool pool;
  VkCommandBuffer real[kMaxDevices] = {};
  uint32_t deviceMask = 0;  // current vkCmdSetDeviceMask
  std::vector<Access> accesses[kMaxDevices];
  // recording state kept for the race detector
  std::shared_ptr<const ShaderAccess> computePipeline;
  std::map<uint32_t, BoundSet> boundSets;
  std::map<uint32_t, std::map<uint32_t, std::vector<BufferDescriptor>>> pushDescriptors;
  // The ownership check (MESHVK_EMULATED_OWNERSHIP_CHECK): per device, the
  // external-memory buffers this command buffer acquired from
  // VK_QUEUE_FAMILY_EXTERNAL (true) or released back to it (false).
  std::map<const EmulatedBuffer*, bool> owned[kMaxDevices];
  // From a pool of the emulated transfer-only family (MESHVK_EMULATED_TRANSFER_FAMILY).
  bool transferOnly = false;
};
constexpr uint32_t kCommandBufferMagic = 0x6d636d62u;

struct DeviceData {
  VkDevice device = VK_NULL_HANDLE;
  bool hostBackedExports = false;  // external_memory.cc
  InstanceData* instance = nullptr;
  VkPhysicalDevice realPhysical = VK_NULL_HANDLE;
  uint32_t deviceCount = 1;
  EmulatedPhysicalDevice* members[kMaxDevices] = {};
  MemoryLayout memory;
  DeviceDispatch next;
  std::unique_ptr<Scheduler> scheduler;

  std::mutex mutex;  // guards the maps below
  uint64_t nextMemoryId = 1;
  std::unordered_map<uint64_t, std::shared_ptr<const ShaderAccess>> shaderModules;
  std::unordered_map<uint64_t, std::shared_ptr<const ShaderAccess>> pipelines;
  std::unordered_map<uint64_t, std::shared_ptr<DescriptorSetLayoutInfo>> setLayouts;
  std::unordered_map<uint64_t, std::vector<VkDescriptorUpdateTemplateEntry>> updateTemplates;
  std::unordered_map<uint64_t, std::vector<EmulatedCommandBuffer*>> commandPools;
  std::unordered_map<uint64_t, bool> transferPools;  // command pools of the transfer-only family

  // MESHVK_EMULATED_TRANSFER_FAMILY (transfer_family.cc): the emulated
  // family's index (the real family count; UINT32_MAX when off), the real
  // family and queue behind it, and the dispatchable wrapper handed out as
  // its queue (created on first vkGetDeviceQueue).
  uint32_t transferFamily = UINT32_MAX;
  uint32_t transferRealFamily = 0;
  EmulatedQueue* transferQueue = nullptr;
  // Commands recorded per family (0: the real ones, 1: the transfer family),
  // for vkGetEmulatedCommandCountsMESHVK.
  std::atomic<uint64_t> copies[2] = {}, dispatches[2] = {};

  uint32_t allDevicesMask() const { return (1u << deviceCount) - 1u; }
};

DeviceData* deviceFromHandle(VkDevice device);  // also valid for VkQueue handles
DeviceData* deviceFromQueue(VkQueue queue);
void registerDevice(DeviceData* data);
void unregisterDevice(DeviceData* data);

// Typed casts with a check: an emulated handle carries a magic number.
EmulatedCommandBuffer* emulatedCommandBuffer(VkCommandBuffer handle, const char* function);
EmulatedMemory* emulatedMemory(VkDeviceMemory handle, const char* function);
EmulatedBuffer* emulatedBuffer(VkBuffer handle, const char* function);
EmulatedDescriptorSet* emulatedDescriptorSet(VkDescriptorSet handle, const char* function);
EmulatedDescriptorPool* emulatedDescriptorPool(VkDescriptorPool handle, const char* function);

template <typename T>
const T* findInChain(const void* pNext, VkStructureType sType) {
  for (auto* s = static_cast<const VkBaseInStructure*>(pNext); s; s = s->pNext)
    if (s->sType == sType) return reinterpret_cast<const T*>(s);
  return nullptr;
}

// The loader's dispatch-table pointer, the first word of every dispatchable
// handle: a device, its queues and its command buffers share it, so it keys
// the per-instance and per-device lookup tables.
inline void* dispatchKey(const void* handle) { return *static_cast<void* const*>(handle); }

// The VK_LAYER_LINK_INFO entry of the loader's create-info chain, which holds
// the next layer's entry points (LinkInfo: VkLayerInstanceCreateInfo or
// VkLayerDeviceCreateInfo, found under `sType`).
template <typename LinkInfo>
LinkInfo* nextLayerLink(const void* pNext, VkStructureType sType) {
  auto* link = const_cast<LinkInfo*>(findInChain<LinkInfo>(pNext, sType));
  while (link && link->function != VK_LAYER_LINK_INFO)
    link = const_cast<LinkInfo*>(findInChain<LinkInfo>(link->pNext, sType));
  return link;
}

// Temporarily removes one structure from a const pNext chain (restored by the
// destructor), so a device-group structure over emulated devices never reaches
// the real one-device driver.
class ChainUnlink {
 public:
  ChainUnlink(const void* owner, VkStructureType sType);
  ~ChainUnlink();
  ChainUnlink(const ChainUnlink&) = delete;
  ChainUnlink& operator=(const ChainUnlink&) = delete;

 private:
  VkBaseOutStructure* prev_ = nullptr;
  VkBaseOutStructure* removed_ = nullptr;
};

// Entry-point tables (entry_points.cc). Each interceptor registers itself with
// MESHVK_INTERCEPT next to its definition, so the list of wrapped entry points
// cannot drift from the code.
enum class EntryKind { kInstance, kPhysicalDevice, kDevice };
struct EntryPointRegistrar {
  EntryPointRegistrar(EntryKind kind, const char* name, PFN_vkVoidFunction fn, bool fallback = false);
};
#define MESHVK_INTERCEPT(kind, fn)                                                                            \
  static const ::meshvk_layer::EntryPointRegistrar meshvk_reg_##fn(::meshvk_layer::EntryKind::kind, "vk" #fn, \
                                                                   reinterpret_cast<PFN_vkVoidFunction>(&fn));
#define MESHVK_INTERCEPT_ALIAS(kind, fn, alias)                                                                     \
  static const ::meshvk_layer::EntryPointRegistrar meshvk_reg_##alias(::meshvk_layer::EntryKind::kind, "vk" #alias, \
                                                                      reinterpret_cast<PFN_vkVoidFunction>(&fn));
PFN_vkVoidFunction findEntryPoint(EntryKind kind, const char* name);
// Whether two emulated devices show the same deviceUUID and driverUUID: the
// spec's condition for sharing opaque-fd memory and semaphores (instance.cc).
bool sameDeviceAndDriver(const EmulatedPhysicalDevice* a, const EmulatedPhysicalDevice* b);
bool isPassThroughDeviceEntryPoint(const char* name);
PFN_vkVoidFunction abortingStub(const char* name);

// VK_KHR_external_semaphore_fd emulated in separate mode (external_semaphore.cc).
struct Batch;
// Adds the emulated device extensions the driver lacks to an enumeration.
void appendEmulatedDeviceExtensions(std::vector<VkExtensionProperties>* extensions);
// The enabled extensions without the emulated ones (the driver would refuse
// them); true when one was removed (then call emulateSemaphoreFd).
bool removeEmulatedDeviceExtensions(VkPhysicalDevice real, InstanceData* instance, const VkDeviceCreateInfo& info,
                                    std::vector<const char*>* kept);
void emulateSemaphoreFd(DeviceData* d);
// vkGetSemaphoreFdKHR / vkImportSemaphoreFdKHR on a device that enabled them.
bool isEmulatedDeviceFunction(DeviceData* d, const char* name);
// Starts the forwarding of every wait on an imported semaphore in `batches`.
void forwardImportedWaits(DeviceData* d, const std::vector<Batch>& batches);
void forgetSharedSemaphore(DeviceData* d, VkSemaphore semaphore);
void forgetSharedSemaphoreDevice(DeviceData* d);

// Opaque-fd exports of separate mode backed by host allocations
// (external_memory.cc), where the application enabled VK_EXT_external_memory_host.
void useHostBackedExports(DeviceData* d, const VkDeviceCreateInfo& info);
// Makes the real allocation of an opaque-fd export or of an import of such a
// fd; false when it is not one (the caller asks the driver).
bool allocateHostBacked(DeviceData* d, VkDevice device, const VkMemoryAllocateInfo& info,
                        const VkAllocationCallbacks* alloc, VkDeviceMemory* out, VkResult* result);
// vkGetMemoryFdKHR of a host-backed real allocation; false when it is not one.
bool hostBackedFd(VkDeviceMemory real, int* fd, VkResult* result);
// After the real allocation was freed.
void freedHostBacked(VkDeviceMemory real);
// Records that device `d` exported memory as `fd` (vkGetMemoryFdKHR).
void exportedMemoryFd(const DeviceData* d, int fd);
// Whether `d` may import opaque fd `fd`: false, with an error message, when
// its exporter shows another deviceUUID or driverUUID (a driver refuses it).
bool opaqueFdImportAllowed(DeviceData* d, int fd);

// ---- the emulated transfer-only queue family (transfer_family.cc) ----------
// The queue of the transfer family: a dispatchable wrapper over the real queue.
struct EmulatedQueue {
  void* loaderData;  // MUST stay first: the loader's dispatch pointer
  uint32_t magic;
  VkQueue real;
};
constexpr uint32_t kQueueMagic = 0x6d717565u;
// The real queue behind `queue` (itself unless it is the transfer family's).
VkQueue realQueue(DeviceData* d, VkQueue queue);
bool isTransferQueue(DeviceData* d, VkQueue queue);
// The real family index of an application's family index (the transfer
// family maps to the real family behind it; special values stay).
uint32_t realFamily(const DeviceData* d, uint32_t family);
// vkCreateDevice: the emulated family's index on `real` (UINT32_MAX when the
// option is off), and the queue create infos with its entry folded into the
// real family (`storage` keeps the priorities alive).
uint32_t transferFamilyIndex(InstanceData* instance, VkPhysicalDevice real);
std::vector<VkDeviceQueueCreateInfo> realQueueCreateInfos(const VkDeviceCreateInfo& info, uint32_t transferFamily,
                                                          std::vector<float>* storage);
// The pipeline stages a transfer-only family supports (the spec's table of
// stages per queue capability).
constexpr VkPipelineStageFlags2 kTransferFamilyStages =
    VK_PIPELINE_STAGE_2_TOP_OF_PIPE_BIT | VK_PIPELINE_STAGE_2_BOTTOM_OF_PIPE_BIT | VK_PIPELINE_STAGE_2_TRANSFER_BIT |
    VK_PIPELINE_STAGE_2_ALL_TRANSFER_BIT | VK_PIPELINE_STAGE_2_COPY_BIT | VK_PIPELINE_STAGE_2_CLEAR_BIT |
    VK_PIPELINE_STAGE_2_HOST_BIT | VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT;
// Reports a semaphore wait on the transfer queue at a stage it does not have.
void checkTransferWaitStages(DeviceData* d, VkQueue queue, VkPipelineStageFlags2 stages, const char* fn);
// Reports `command` recorded in a command buffer of the transfer-only
// family, which a real driver does not support (MESHVK-transfer-family).
void checkTransferCommand(EmulatedCommandBuffer* cb, const char* command);
// Counts a copy (or a dispatch) recorded in `cb` under its family.
void countCommand(EmulatedCommandBuffer* cb, bool dispatch);
// vkQueueWaitIdle while the transfer family is on (the real queue is shared).
VkResult waitIdleThroughFence(DeviceData* d, VkQueue queue);

}  // namespace meshvk_layer

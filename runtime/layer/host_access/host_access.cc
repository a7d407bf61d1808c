// VK_LAYER_MESHVK_host_access: proves that an application's frame goes from
// compute to draw without the host in between.
//
// A host readback of a compute result needs the host to know the result is
// there: a wait (vkWaitSemaphores, vkWaitForFences, vkQueueWaitIdle,
// vkDeviceWaitIdle), a poll (vkGetSemaphoreCounterValue, vkGetFenceStatus,
// vkGetQueryPoolResults) or a map/invalidate of the memory. Without one of
// those a host read would race the device and read garbage, so "none of them
// between the compute submission and the draw submission that consumes it"
// means the draw read the device buffers directly. The layer tracks which
// command buffers record dispatches and which record draws, and for every
// submission containing a draw writes one line to MESHVK_HOST_ACCESS_REPORT:
//
//   draw 3: compute_submits=4 host_syncs=0 maps=0 device_wait=1 buffer_copies=0
//
// counting what happened since the first compute submission after the
// previous draw submission (buffer_copies: vkCmdCopyBuffer regions submitted
// since the previous draw submission, i.e. the copies a frame makes); device_wait=1 when the draw waits on a semaphore
// that a submission in that window signals (the draw is ordered after the
// compute on the device, not by the host). Like the fault-injection layer it
// wraps no handle and passes every call through, so it stacks with the
// Khronos validation layer in any order.
#include <vulkan/vk_layer.h>
#include <vulkan/vulkan.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <set>
#include <string>
#include <unordered_map>
#include <vector>

#if defined(__GNUC__)
#define HOST_ACCESS_EXPORT __attribute__((visibility("default")))
#else
#define HOST_ACCESS_EXPORT
#endif

namespace {

// --- what one window (compute ... draw) saw -----------------------------------

enum Recorded : unsigned { kDispatch = 1, kDraw = 2 };

struct Window {
  bool open = false;  // a compute submission happened since the last draw submission
  uint64_t compute_submits = 0, host_syncs = 0, maps = 0;
  std::set<VkSemaphore> signalled;  // by submissions inside the window
};

std::mutex g_mutex;
std::unordered_map<VkCommandBuffer, unsigned> g_recorded;  // what each command buffer records
std::unordered_map<VkCommandBuffer, uint64_t> g_copies;    // vkCmdCopyBuffer regions each records
Window g_window;
uint64_t g_copies_since_draw = 0;
uint64_t g_draws = 0;

void Append(const std::string& line) {
  const char* path = std::getenv("MESHVK_HOST_ACCESS_REPORT");
  if (!path || !*path) return;
  if (FILE* f = std::fopen(path, "a")) {
    std::fprintf(f, "%s\n", line.c_str());
    std::fclose(f);
  }
}

// A host sync or map counts only inside an open window: set-up before the
// first frame and the read of the finished image after the last are not
// between a compute and its draw.
void HostSync() {
  std::lock_guard<std::mutex> lock(g_mutex);
  if (g_window.open) ++g_window.host_syncs;
}
void HostMap() {
  std::lock_guard<std::mutex> lock(g_mutex);
  if (g_window.open) ++g_window.maps;
}

void Record(VkCommandBuffer cb, unsigned what) {
  std::lock_guard<std::mutex> lock(g_mutex);
  g_recorded[cb] |= what;
}

// One VkSubmitInfo-like batch: its command buffers and semaphores.
void Submitted(const std::vector<VkCommandBuffer>& cbs, const std::vector<VkSemaphore>& waits,
               const std::vector<VkSemaphore>& signals) {
  std::lock_guard<std::mutex> lock(g_mutex);
  unsigned what = 0;
  for (VkCommandBuffer cb : cbs) {
    auto it = g_recorded.find(cb);
    if (it != g_recorded.end()) what |= it->second;
    auto copies = g_copies.find(cb);
    if (copies != g_copies.end()) g_copies_since_draw += copies->second;
  }
  if (what & kDraw) {
    bool device_wait = false;
    for (VkSemaphore s : waits) device_wait |= g_window.signalled.count(s) != 0;
    Append("draw " + std::to_string(++g_draws) + ": compute_submits=" + std::to_string(g_window.compute_submits) +
           " host_syncs=" + std::to_string(g_window.host_syncs) + " maps=" + std::to_string(g_window.maps) +
           " device_wait=" + std::to_string(device_wait ? 1 : 0) +
           " buffer_copies=" + std::to_string(g_copies_since_draw));
    g_window = Window{};
    g_copies_since_draw = 0;
    return;
  }
  if (what & kDispatch) {
    if (!g_window.open) g_window = Window{};
    g_window.open = true;
    ++g_window.compute_submits;
  }
  if (g_window.open) g_window.signalled.insert(signals.begin(), signals.end());
}

// --- dispatch tables (as in the fault-injection layer) -------------------------

void* Key(const void* dispatchable) { return *static_cast<void* const*>(dispatchable); }

struct InstanceData {
  VkInstance instance = VK_NULL_HANDLE;
  PFN_vkGetInstanceProcAddr gipa = nullptr;
};
struct DeviceData {
  VkDevice device = VK_NULL_HANDLE;
  PFN_vkGetDeviceProcAddr gdpa = nullptr;
  std::unordered_map<std::string, PFN_vkVoidFunction> next;
};
std::mutex g_tables;
std::unordered_map<void*, InstanceData> g_instances;
std::unordered_map<void*, DeviceData> g_devices;

template <typename PFN>
PFN Next(const void* device_handle, const char* name) {
  std::lock_guard<std::mutex> lock(g_tables);
  DeviceData& d = g_devices.at(Key(device_handle));
  auto it = d.next.find(name);
  return it == d.next.end() ? nullptr : reinterpret_cast<PFN>(it->second);
}

template <typename T>
T* LayerLink(const void* next, VkStructureType type) {
  for (auto* s = static_cast<const VkBaseInStructure*>(next); s; s = s->pNext) {
    if (s->sType == type && reinterpret_cast<const T*>(s)->function == VK_LAYER_LINK_INFO)
      return const_cast<T*>(reinterpret_cast<const T*>(s));
  }
  return nullptr;
}

extern const char* const kDeviceNames[];

VKAPI_ATTR PFN_vkVoidFunction VKAPI_CALL GetInstanceProcAddr(VkInstance instance, const char* name);
VKAPI_ATTR PFN_vkVoidFunction VKAPI_CALL GetDeviceProcAddr(VkDevice device, const char* name);

VKAPI_ATTR VkResult VKAPI_CALL CreateInstance(const VkInstanceCreateInfo* info, const VkAllocationCallbacks* alloc,
                                              VkInstance* out) {
  auto* link = LayerLink<VkLayerInstanceCreateInfo>(info->pNext, VK_STRUCTURE_TYPE_LOADER_INSTANCE_CREATE_INFO);
  if (!link) return VK_ERROR_INITIALIZATION_FAILED;
  PFN_vkGetInstanceProcAddr gipa = link->u.pLayerInfo->pfnNextGetInstanceProcAddr;
  link->u.pLayerInfo = link->u.pLayerInfo->pNext;
  auto create = reinterpret_cast<PFN_vkCreateInstance>(gipa(VK_NULL_HANDLE, "vkCreateInstance"));
  VkResult r = create(info, alloc, out);
  if (r != VK_SUCCESS) return r;
  std::lock_guard<std::mutex> lock(g_tables);
  g_instances[Key(*out)] = InstanceData{*out, gipa};
  return VK_SUCCESS;
}

VKAPI_ATTR VkResult VKAPI_CALL CreateDevice(VkPhysicalDevice physical, const VkDeviceCreateInfo* info,
                                            const VkAllocationCallbacks* alloc, VkDevice* out) {
  auto* link = LayerLink<VkLayerDeviceCreateInfo>(info->pNext, VK_STRUCTURE_TYPE_LOADER_DEVICE_CREATE_INFO);
  if (!link) return VK_ERROR_INITIALIZATION_FAILED;
  PFN_vkGetInstanceProcAddr gipa = link->u.pLayerInfo->pfnNextGetInstanceProcAddr;
  PFN_vkGetDeviceProcAddr gdpa = link->u.pLayerInfo->pfnNextGetDeviceProcAddr;
  link->u.pLayerInfo = link->u.pLayerInfo->pNext;
  VkInstance instance;
  {
    std::lock_guard<std::mutex> lock(g_tables);
    instance = g_instances.at(Key(physical)).instance;
  }
  auto create = reinterpret_cast<PFN_vkCreateDevice>(gipa(instance, "vkCreateDevice"));
  VkResult r = create(physical, info, alloc, out);
  if (r != VK_SUCCESS) return r;
  DeviceData d{*out, gdpa, {}};
  for (const char* const* n = kDeviceNames; *n; ++n) {
    PFN_vkVoidFunction f = gdpa(*out, *n);
    if (!f) f = gdpa(*out, (std::string(*n) + "KHR").c_str());
    d.next[*n] = f;
  }
  std::lock_guard<std::mutex> lock(g_tables);
  g_devices[Key(*out)] = std::move(d);
  return VK_SUCCESS;
}

// --- observed device-level entry points ------------------------------------------
// HOST_ACCESS_SYNCS(name, (parameters), (arguments)): calls through which the
// host learns that device work finished (or reads mapped memory).
#define HOST_ACCESS_SYNCS(X)                                                                                \
  X(WaitSemaphores, (VkDevice d, const VkSemaphoreWaitInfo* i, uint64_t t), (d, i, t))                      \
  X(WaitForFences, (VkDevice d, uint32_t n, const VkFence* f, VkBool32 all, uint64_t t), (d, n, f, all, t)) \
  X(QueueWaitIdle, (VkQueue d), (d))                                                                        \
  X(DeviceWaitIdle, (VkDevice d), (d))                                                                      \
  X(GetSemaphoreCounterValue, (VkDevice d, VkSemaphore s, uint64_t* v), (d, s, v))                          \
  X(GetFenceStatus, (VkDevice d, VkFence f), (d, f))                                                        \
  X(GetQueryPoolResults,                                                                                    \
    (VkDevice d, VkQueryPool q, uint32_t first, uint32_t n, size_t size, void* data, VkDeviceSize stride,   \
     VkQueryResultFlags f),                                                                                 \
    (d, q, first, n, size, data, stride, f))
#define HOST_ACCESS_MAPS(X)                                                                                       \
  X(MapMemory, (VkDevice d, VkDeviceMemory m, VkDeviceSize off, VkDeviceSize size, VkMemoryMapFlags f, void** p), \
    (d, m, off, size, f, p))                                                                                      \
  X(InvalidateMappedMemoryRanges, (VkDevice d, uint32_t n, const VkMappedMemoryRange* r), (d, n, r))
// Commands that make a command buffer a "compute" or a "draw" one.
#define HOST_ACCESS_COMMANDS(X)                                                                                       \
  X(CmdDispatch, kDispatch, (VkCommandBuffer d, uint32_t x, uint32_t y, uint32_t z), (d, x, y, z))                    \
  X(CmdDispatchBase, kDispatch,                                                                                       \
    (VkCommandBuffer d, uint32_t bx, uint32_t by, uint32_t bz, uint32_t x, uint32_t y, uint32_t z),                   \
    (d, bx, by, bz, x, y, z))                                                                                         \
  X(CmdDispatchIndirect, kDispatch, (VkCommandBuffer d, VkBuffer b, VkDeviceSize o), (d, b, o))                       \
  X(CmdDraw, kDraw, (VkCommandBuffer d, uint32_t v, uint32_t i, uint32_t fv, uint32_t fi), (d, v, i, fv, fi))         \
  X(CmdDrawIndexed, kDraw, (VkCommandBuffer d, uint32_t n, uint32_t i, uint32_t fi, int32_t vo, uint32_t fin),        \
    (d, n, i, fi, vo, fin))                                                                                           \
  X(CmdDrawIndirect, kDraw, (VkCommandBuffer d, VkBuffer b, VkDeviceSize o, uint32_t n, uint32_t s), (d, b, o, n, s)) \
  X(CmdDrawIndexedIndirect, kDraw, (VkCommandBuffer d, VkBuffer b, VkDeviceSize o, uint32_t n, uint32_t s),           \
    (d, b, o, n, s))

#define DEFINE_SYNC(name, params, args)            \
  VKAPI_ATTR VkResult VKAPI_CALL name params {     \
    HostSync();                                    \
    return Next<PFN_vk##name>(d, "vk" #name) args; \
  }
HOST_ACCESS_SYNCS(DEFINE_SYNC)
#undef DEFINE_SYNC
#define DEFINE_MAP(name, params, args)             \
  VKAPI_ATTR VkResult VKAPI_CALL name params {     \
    HostMap();                                     \
    return Next<PFN_vk##name>(d, "vk" #name) args; \
  }
HOST_ACCESS_MAPS(DEFINE_MAP)
#undef DEFINE_MAP
#define DEFINE_COMMAND(name, what, params, args) \
  VKAPI_ATTR void VKAPI_CALL name params {       \
    Record(d, what);                             \
    Next<PFN_vk##name>(d, "vk" #name) args;      \
  }
HOST_ACCESS_COMMANDS(DEFINE_COMMAND)
#undef DEFINE_COMMAND

// Re-recording a command buffer forgets what it recorded before.
VKAPI_ATTR VkResult VKAPI_CALL BeginCommandBuffer(VkCommandBuffer d, const VkCommandBufferBeginInfo* info) {
  {
    std::lock_guard<std::mutex> lock(g_mutex);
    g_recorded.erase(d);
    g_copies.erase(d);
  }
  return Next<PFN_vkBeginCommandBuffer>(d, "vkBeginCommandBuffer")(d, info);
}

VKAPI_ATTR void VKAPI_CALL CmdCopyBuffer(VkCommandBuffer d, VkBuffer src, VkBuffer dst, uint32_t n,
                                         const VkBufferCopy* regions) {
  {
    std::lock_guard<std::mutex> lock(g_mutex);
    g_copies[d] += n;
  }
  Next<PFN_vkCmdCopyBuffer>(d, "vkCmdCopyBuffer")(d, src, dst, n, regions);
}

VKAPI_ATTR VkResult VKAPI_CALL QueueSubmit(VkQueue d, uint32_t n, const VkSubmitInfo* s, VkFence f) {
  for (uint32_t i = 0; i < n; ++i) {
    Submitted({s[i].pCommandBuffers, s[i].pCommandBuffers + s[i].commandBufferCount},
              {s[i].pWaitSemaphores, s[i].pWaitSemaphores + s[i].waitSemaphoreCount},
              {s[i].pSignalSemaphores, s[i].pSignalSemaphores + s[i].signalSemaphoreCount});
  }
  return Next<PFN_vkQueueSubmit>(d, "vkQueueSubmit")(d, n, s, f);
}

VKAPI_ATTR VkResult VKAPI_CALL QueueSubmit2(VkQueue d, uint32_t n, const VkSubmitInfo2* s, VkFence f) {
  for (uint32_t i = 0; i < n; ++i) {
    std::vector<VkCommandBuffer> cbs;
    std::vector<VkSemaphore> waits, signals;
    for (uint32_t j = 0; j < s[i].commandBufferInfoCount; ++j) cbs.push_back(s[i].pCommandBufferInfos[j].commandBuffer);
    for (uint32_t j = 0; j < s[i].waitSemaphoreInfoCount; ++j) waits.push_back(s[i].pWaitSemaphoreInfos[j].semaphore);
    for (uint32_t j = 0; j < s[i].signalSemaphoreInfoCount; ++j)
      signals.push_back(s[i].pSignalSemaphoreInfos[j].semaphore);
    Submitted(cbs, waits, signals);
  }
  return Next<PFN_vkQueueSubmit2>(d, "vkQueueSubmit2")(d, n, s, f);
}

#define SYNC_NAME(name, params, args) "vk" #name,
#define COMMAND_NAME(name, what, params, args) "vk" #name,
const char* const kDeviceNames[] = {HOST_ACCESS_SYNCS(SYNC_NAME) HOST_ACCESS_MAPS(SYNC_NAME)
                                        HOST_ACCESS_COMMANDS(COMMAND_NAME) "vkBeginCommandBuffer",
                                    "vkCmdCopyBuffer", "vkQueueSubmit", "vkQueueSubmit2", nullptr};
#undef SYNC_NAME
#undef COMMAND_NAME

struct Entry {
  const char* name;
  PFN_vkVoidFunction function;
};
#define SYNC_ENTRY(name, params, args) {"vk" #name, reinterpret_cast<PFN_vkVoidFunction>(&name)},
#define COMMAND_ENTRY(name, what, params, args) {"vk" #name, reinterpret_cast<PFN_vkVoidFunction>(&name)},
const Entry kDeviceEntries[] = {
    HOST_ACCESS_SYNCS(SYNC_ENTRY) HOST_ACCESS_MAPS(SYNC_ENTRY) HOST_ACCESS_COMMANDS(COMMAND_ENTRY){
        "vkBeginCommandBuffer", reinterpret_cast<PFN_vkVoidFunction>(&BeginCommandBuffer)},
    {"vkCmdCopyBuffer", reinterpret_cast<PFN_vkVoidFunction>(&CmdCopyBuffer)},
    {"vkQueueSubmit", reinterpret_cast<PFN_vkVoidFunction>(&QueueSubmit)},
    {"vkQueueSubmit2", reinterpret_cast<PFN_vkVoidFunction>(&QueueSubmit2)},
    {"vkQueueSubmit2KHR", reinterpret_cast<PFN_vkVoidFunction>(&QueueSubmit2)},
    {"vkWaitSemaphoresKHR", reinterpret_cast<PFN_vkVoidFunction>(&WaitSemaphores)},
    {"vkGetSemaphoreCounterValueKHR", reinterpret_cast<PFN_vkVoidFunction>(&GetSemaphoreCounterValue)},
    {"vkCmdDispatchBaseKHR", reinterpret_cast<PFN_vkVoidFunction>(&CmdDispatchBase)},
    {"vkGetDeviceProcAddr", reinterpret_cast<PFN_vkVoidFunction>(&GetDeviceProcAddr)},
};
#undef SYNC_ENTRY
#undef COMMAND_ENTRY
const Entry kInstanceEntries[] = {
    {"vkCreateInstance", reinterpret_cast<PFN_vkVoidFunction>(&CreateInstance)},
    {"vkCreateDevice", reinterpret_cast<PFN_vkVoidFunction>(&CreateDevice)},
    {"vkGetInstanceProcAddr", reinterpret_cast<PFN_vkVoidFunction>(&GetInstanceProcAddr)},
};

PFN_vkVoidFunction Find(const Entry* begin, const Entry* end, const char* name) {
  for (const Entry* e = begin; e != end; ++e)
    if (std::strcmp(e->name, name) == 0) return e->function;
  return nullptr;
}

VKAPI_ATTR PFN_vkVoidFunction VKAPI_CALL GetDeviceProcAddr(VkDevice device, const char* name) {
  if (PFN_vkVoidFunction f = Find(std::begin(kDeviceEntries), std::end(kDeviceEntries), name)) {
    if (std::strcmp(name, "vkGetDeviceProcAddr") == 0) return f;
    std::string core(name);
    if (core.size() > 3 && core.compare(core.size() - 3, 3, "KHR") == 0) core.resize(core.size() - 3);
    return Next<PFN_vkVoidFunction>(device, core.c_str()) ? f : nullptr;
  }
  std::lock_guard<std::mutex> lock(g_tables);
  const DeviceData& d = g_devices.at(Key(device));
  return d.gdpa(d.device, name);
}

VKAPI_ATTR PFN_vkVoidFunction VKAPI_CALL GetInstanceProcAddr(VkInstance instance, const char* name) {
  if (PFN_vkVoidFunction f = Find(std::begin(kInstanceEntries), std::end(kInstanceEntries), name)) return f;
  if (!instance) return nullptr;
  InstanceData d;
  {
    std::lock_guard<std::mutex> lock(g_tables);
    d = g_instances.at(Key(instance));
  }
  PFN_vkVoidFunction next = d.gipa(d.instance, name);
  if (!next) return nullptr;
  if (PFN_vkVoidFunction f = Find(std::begin(kDeviceEntries), std::end(kDeviceEntries), name)) return f;
  return next;
}

}  // namespace

extern "C" HOST_ACCESS_EXPORT VKAPI_ATTR VkResult VKAPI_CALL
vkNegotiateLoaderLayerInterfaceVersion(VkNegotiateLayerInterface* version) {
  if (!version || version->sType != LAYER_NEGOTIATE_INTERFACE_STRUCT) return VK_ERROR_INITIALIZATION_FAILED;
  if (version->loaderLayerInterfaceVersion > 2) version->loaderLayerInterfaceVersion = 2;
  version->pfnGetInstanceProcAddr = GetInstanceProcAddr;
  version->pfnGetDeviceProcAddr = GetDeviceProcAddr;
  version->pfnGetPhysicalDeviceProcAddr = nullptr;
  return VK_SUCCESS;
}

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
// compute on the device, not by the host). It is a pass-through test layer
// (../test_layer/test_layer.h), like the fault-injection layer: it wraps no
// handle, so it stacks with the Khronos validation layer in any order.
#include <vulkan/vulkan.h>

#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <set>
#include <string>
#include <unordered_map>
#include <vector>

#include "test_layer.h"

namespace {

using meshvk_test_layer::Next;

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

#define SYNC_ENTRY(name, params, args) MESHVK_TEST_LAYER_ENTRY("vk" #name, name),
#define COMMAND_ENTRY(name, what, params, args) MESHVK_TEST_LAYER_ENTRY("vk" #name, name),
const meshvk_test_layer::Entry kDeviceEntries[] = {
    HOST_ACCESS_SYNCS(SYNC_ENTRY) HOST_ACCESS_MAPS(SYNC_ENTRY) HOST_ACCESS_COMMANDS(COMMAND_ENTRY)
        MESHVK_TEST_LAYER_ENTRY("vkBeginCommandBuffer", BeginCommandBuffer),
    MESHVK_TEST_LAYER_ENTRY("vkCmdCopyBuffer", CmdCopyBuffer),
    MESHVK_TEST_LAYER_ENTRY("vkQueueSubmit", QueueSubmit),
    MESHVK_TEST_LAYER_ENTRY("vkQueueSubmit2", QueueSubmit2),
    MESHVK_TEST_LAYER_ENTRY("vkQueueSubmit2KHR", QueueSubmit2),
    MESHVK_TEST_LAYER_ENTRY("vkWaitSemaphoresKHR", WaitSemaphores),
    MESHVK_TEST_LAYER_ENTRY("vkGetSemaphoreCounterValueKHR", GetSemaphoreCounterValue),
    MESHVK_TEST_LAYER_ENTRY("vkCmdDispatchBaseKHR", CmdDispatchBase),
};
#undef SYNC_ENTRY
#undef COMMAND_ENTRY

}  // namespace

const meshvk_test_layer::Layer& meshvk_test_layer::ThisLayer() {
  static const Layer layer{{}, kDeviceEntries};
  return layer;
}

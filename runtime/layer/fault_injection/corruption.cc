// Corruption modes of VK_LAYER_MESHVK_fault_injection (corruption.h): a
// driver that reports success and gets the work wrong. The layer wraps no
// handle, so it recognises a peer read from what the application told the
// driver: memory imported from another device (an fd, or a host allocation
// another device imported first), or a buffer bound to another device's
// memory instance of a group (VkBindBufferMemoryDeviceGroupInfo) read by a
// command buffer whose device mask holds only devices it is a peer view for.
#include "corruption.h"

#include <atomic>
#include <cstdlib>
#include <cstring>
#include <map>
#include <mutex>
#include <vector>

namespace meshvk_fault_corruption {
namespace {

using meshvk_test_layer::Next;

Modes g_modes;
void (*g_report)(const std::string&) = nullptr;

// Non-dispatchable handles as map keys (64-bit on the ABIs the layer builds for).
template <typename T>
uint64_t U64(T handle) {
  return (uint64_t)(handle);
}
void* Key(const void* dispatchable) { return *static_cast<void* const*>(dispatchable); }

// What the application told the driver about memory, buffers and command buffers.
struct MemoryInfo {
  bool peer = false;             // imported from another device
  const void* host_pointer = 0;  // a host-pointer import (its first importer owns it)
};
struct BufferInfo {
  VkDeviceMemory memory = VK_NULL_HANDLE;
  std::vector<uint32_t> device_indices;  // group peer binding: device d reads instance [d]
};
std::mutex g_mutex;
std::map<uint64_t, MemoryInfo> g_memory;
std::map<uint64_t, BufferInfo> g_buffers;
std::map<const void*, uint64_t> g_host_pointer_owner;  // host pointer -> first importing VkDevice
std::map<const void*, uint32_t> g_masks;               // command buffer -> current device mask
std::map<uint64_t, bool> g_timeline;                   // semaphore -> is a timeline semaphore

std::atomic<bool> g_fired_short{false}, g_fired_stale{false}, g_fired_early{false};
void FiredOnce(std::atomic<bool>& flag, const std::string& line) {
  if (!flag.exchange(true) && g_report) g_report(line);
}

template <typename S>
const S* Find(const void* next, VkStructureType type) {
  for (auto* s = static_cast<const VkBaseInStructure*>(next); s; s = s->pNext)
    if (s->sType == type) return reinterpret_cast<const S*>(s);
  return nullptr;
}

// Whether reading `buffer` in `cb` reads another device's memory on every
// device of the command buffer's mask.
bool IsPeerRead(VkCommandBuffer cb, VkBuffer buffer) {
  std::lock_guard<std::mutex> lock(g_mutex);
  auto b = g_buffers.find(U64(buffer));
  if (b == g_buffers.end()) return false;
  auto m = g_memory.find(U64(b->second.memory));
  if (m != g_memory.end() && m->second.peer) return true;
  const std::vector<uint32_t>& indices = b->second.device_indices;
  auto mask_it = g_masks.find(cb);
  uint32_t mask = mask_it == g_masks.end() ? ~0u : mask_it->second;
  bool any_peer = false;
  for (uint32_t d = 0; d < indices.size() && d < 32; ++d) {
    if (!(mask >> d & 1)) continue;
    if (indices[d] == d) return false;  // some device reads its own instance: a real copy there
    any_peer = true;
  }
  return any_peer;
}

// --- copies ---------------------------------------------------------------------

// Whether the copy from `src` is dropped as a stale peer read.
bool DropAsStale(VkCommandBuffer cb, VkBuffer src, const char* name) {
  if (!g_modes.stale_peer_read || !IsPeerRead(cb, src)) return false;
  FiredOnce(g_fired_stale, std::string("corrupt: stale peer read (a ") + name + " from a peer's memory not executed)");
  return true;
}

// The regions of a copy with MESHVK_FAULT_COPY_SHORT applied (VkBufferCopy
// or VkBufferCopy2); empty when nothing is left to copy.
template <typename Region>
std::vector<Region> Shortened(const Region* regions, uint32_t n, const char* name) {
  std::vector<Region> shorter(regions, regions + n);
  FiredOnce(g_fired_short, std::string("corrupt: ") + name + " drops the last " + std::to_string(g_modes.copy_short) +
                               " bytes of its last region");
  if (shorter.back().size > g_modes.copy_short) {
    shorter.back().size -= g_modes.copy_short;
  } else {
    shorter.pop_back();
  }
  return shorter;
}

VKAPI_ATTR void VKAPI_CALL CmdCopyBuffer(VkCommandBuffer cb, VkBuffer src, VkBuffer dst, uint32_t n,
                                         const VkBufferCopy* regions) {
  auto next = Next<PFN_vkCmdCopyBuffer>(cb, "vkCmdCopyBuffer");
  if (DropAsStale(cb, src, "vkCmdCopyBuffer")) return;
  if (g_modes.copy_short == 0 || n == 0) return next(cb, src, dst, n, regions);
  std::vector<VkBufferCopy> shorter = Shortened(regions, n, "vkCmdCopyBuffer");
  if (!shorter.empty()) next(cb, src, dst, static_cast<uint32_t>(shorter.size()), shorter.data());
}

VKAPI_ATTR void VKAPI_CALL CmdCopyBuffer2(VkCommandBuffer cb, const VkCopyBufferInfo2* info) {
  auto next = Next<PFN_vkCmdCopyBuffer2>(cb, "vkCmdCopyBuffer2");
  if (DropAsStale(cb, info->srcBuffer, "vkCmdCopyBuffer2")) return;
  if (g_modes.copy_short == 0 || info->regionCount == 0) return next(cb, info);
  std::vector<VkBufferCopy2> shorter = Shortened(info->pRegions, info->regionCount, "vkCmdCopyBuffer2");
  if (shorter.empty()) return;
  VkCopyBufferInfo2 copy = *info;
  copy.regionCount = static_cast<uint32_t>(shorter.size());
  copy.pRegions = shorter.data();
  next(cb, &copy);
}

VKAPI_ATTR void VKAPI_CALL CmdSetDeviceMask(VkCommandBuffer cb, uint32_t mask) {
  if (AnyMode()) {
    std::lock_guard<std::mutex> lock(g_mutex);
    g_masks[cb] = mask;
  }
  Next<PFN_vkCmdSetDeviceMask>(cb, "vkCmdSetDeviceMask")(cb, mask);
}

// --- early signal: held submissions ------------------------------------------------

// One batch of a vkQueueSubmit, deep-copied without its timeline signals
// (signalled from the host when it was taken).
struct HeldBatch {
  std::vector<VkSemaphore> waits, signals;
  std::vector<VkPipelineStageFlags> stages;
  std::vector<uint64_t> wait_values, signal_values;
  std::vector<uint32_t> wait_indices, signal_indices, masks;
  std::vector<VkCommandBuffer> command_buffers;
  bool timeline = false, group = false;
};
struct HeldSubmit {
  VkQueue queue;
  VkFence fence;
  std::vector<HeldBatch> batches;
};
std::mutex g_submit_mutex;  // the held submissions
std::vector<HeldSubmit> g_held;

// Whether a held submission signals `fence` or runs `cb`: waiting on that
// fence, or re-recording that command buffer, must run it first. Work that
// does not depend on held submissions (a fence-only staging copy) is not a
// drain point: it runs before them, as after an early signal it may.
bool IsHeld(const void* fence_or_cb) {
  std::lock_guard<std::mutex> lock(g_submit_mutex);
  for (const HeldSubmit& h : g_held) {
    if (h.fence != VK_NULL_HANDLE && (const void*)h.fence == fence_or_cb) return true;
    for (const HeldBatch& b : h.batches)
      for (VkCommandBuffer cb : b.command_buffers)
        if ((const void*)cb == fence_or_cb) return true;
  }
  return false;
}

bool IsTimeline(VkSemaphore s) {
  std::lock_guard<std::mutex> lock(g_mutex);
  auto it = g_timeline.find(U64(s));
  return it != g_timeline.end() && it->second;
}

// The batch without its timeline signals, which go to `host_signals`; false
// when the batch chains a structure this mode does not know (it is passed on).
bool CopyBatch(const VkSubmitInfo& s, HeldBatch& b, std::vector<std::pair<VkSemaphore, uint64_t>>& host_signals) {
  for (auto* p = static_cast<const VkBaseInStructure*>(s.pNext); p; p = p->pNext)
    if (p->sType != VK_STRUCTURE_TYPE_TIMELINE_SEMAPHORE_SUBMIT_INFO &&
        p->sType != VK_STRUCTURE_TYPE_DEVICE_GROUP_SUBMIT_INFO)
      return false;
  auto* t = Find<VkTimelineSemaphoreSubmitInfo>(s.pNext, VK_STRUCTURE_TYPE_TIMELINE_SEMAPHORE_SUBMIT_INFO);
  auto* g = Find<VkDeviceGroupSubmitInfo>(s.pNext, VK_STRUCTURE_TYPE_DEVICE_GROUP_SUBMIT_INFO);
  b.timeline = t != nullptr, b.group = g != nullptr;
  for (uint32_t i = 0; i < s.waitSemaphoreCount; ++i) {
    b.waits.push_back(s.pWaitSemaphores[i]);
    b.stages.push_back(s.pWaitDstStageMask[i]);
    b.wait_values.push_back(t && i < t->waitSemaphoreValueCount ? t->pWaitSemaphoreValues[i] : 0);
    b.wait_indices.push_back(g && i < g->waitSemaphoreCount ? g->pWaitSemaphoreDeviceIndices[i] : 0);
  }
  for (uint32_t i = 0; i < s.commandBufferCount; ++i) {
    b.command_buffers.push_back(s.pCommandBuffers[i]);
    b.masks.push_back(g && i < g->commandBufferCount ? g->pCommandBufferDeviceMasks[i] : ~0u);
  }
  for (uint32_t i = 0; i < s.signalSemaphoreCount; ++i) {
    uint64_t value = t && i < t->signalSemaphoreValueCount ? t->pSignalSemaphoreValues[i] : 0;
    if (IsTimeline(s.pSignalSemaphores[i])) {
      host_signals.push_back({s.pSignalSemaphores[i], value});
      continue;
    }
    b.signals.push_back(s.pSignalSemaphores[i]);
    b.signal_values.push_back(value);
    b.signal_indices.push_back(g && i < g->signalSemaphoreCount ? g->pSignalSemaphoreDeviceIndices[i] : 0);
  }
  return true;
}

// The VkDevice a queue belongs to (they share the loader's dispatch key) and
// its next-layer vkSignalSemaphore.
std::pair<VkDevice, PFN_vkSignalSemaphore> DeviceOf(const void* dispatchable) {
  for (const auto& [device, f] : meshvk_test_layer::AllDevices("vkSignalSemaphore"))
    if (Key(device) == Key(dispatchable)) return {device, reinterpret_cast<PFN_vkSignalSemaphore>(f)};
  return {VK_NULL_HANDLE, nullptr};
}

void SubmitHeld(const HeldSubmit& h) {
  std::vector<VkSubmitInfo> submits(h.batches.size(), VkSubmitInfo{VK_STRUCTURE_TYPE_SUBMIT_INFO});
  std::vector<VkTimelineSemaphoreSubmitInfo> timelines(h.batches.size(),
                                                       {VK_STRUCTURE_TYPE_TIMELINE_SEMAPHORE_SUBMIT_INFO});
  std::vector<VkDeviceGroupSubmitInfo> groups(h.batches.size(), {VK_STRUCTURE_TYPE_DEVICE_GROUP_SUBMIT_INFO});
  for (size_t i = 0; i < h.batches.size(); ++i) {
    const HeldBatch& b = h.batches[i];
    VkSubmitInfo& s = submits[i];
    const void* chain = nullptr;
    if (b.group) {
      groups[i].waitSemaphoreCount = static_cast<uint32_t>(b.waits.size());
      groups[i].pWaitSemaphoreDeviceIndices = b.wait_indices.data();
      groups[i].commandBufferCount = static_cast<uint32_t>(b.masks.size());
      groups[i].pCommandBufferDeviceMasks = b.masks.data();
      groups[i].signalSemaphoreCount = static_cast<uint32_t>(b.signals.size());
      groups[i].pSignalSemaphoreDeviceIndices = b.signal_indices.data();
      chain = &groups[i];
    }
    if (b.timeline) {
      timelines[i].pNext = chain;
      timelines[i].waitSemaphoreValueCount = static_cast<uint32_t>(b.wait_values.size());
      timelines[i].pWaitSemaphoreValues = b.wait_values.data();
      timelines[i].signalSemaphoreValueCount = static_cast<uint32_t>(b.signal_values.size());
      timelines[i].pSignalSemaphoreValues = b.signal_values.data();
      chain = &timelines[i];
    }
    s.pNext = chain;
    s.waitSemaphoreCount = static_cast<uint32_t>(b.waits.size());
    s.pWaitSemaphores = b.waits.data();
    s.pWaitDstStageMask = b.stages.data();
    s.commandBufferCount = static_cast<uint32_t>(b.command_buffers.size());
    s.pCommandBuffers = b.command_buffers.data();
    s.signalSemaphoreCount = static_cast<uint32_t>(b.signals.size());
    s.pSignalSemaphores = b.signals.data();
  }
  Next<PFN_vkQueueSubmit>(h.queue, "vkQueueSubmit")(h.queue, static_cast<uint32_t>(submits.size()), submits.data(),
                                                    h.fence);
}

// Drains every device's held submissions (vkDestroyDevice passes no queue).
void DrainAll() {
  std::vector<const void*> queues;
  {
    std::lock_guard<std::mutex> lock(g_submit_mutex);
    for (const HeldSubmit& h : g_held) queues.push_back(h.queue);
  }
  for (const void* q : queues) Drain(q);
}

// --- drain points -------------------------------------------------------------------
// Calls after which the application may reuse or free what held work uses:
// the held work runs first, to completion.
#define CORRUPTION_DRAIN_ENTRIES(X)                                                                                   \
  X(void, FreeMemory, (VkDevice d, VkDeviceMemory m, const VkAllocationCallbacks* a), (d, m, a), {                    \
    std::lock_guard<std::mutex> lock(g_mutex);                                                                        \
    auto it = g_memory.find(U64(m));                                                                                  \
    if (it != g_memory.end() && it->second.host_pointer && g_host_pointer_owner[it->second.host_pointer] == U64(d) && \
        !it->second.peer)                                                                                             \
      g_host_pointer_owner.erase(it->second.host_pointer);                                                            \
    if (it != g_memory.end()) g_memory.erase(it);                                                                     \
  })                                                                                                                  \
  X(void, DestroyBuffer, (VkDevice d, VkBuffer b, const VkAllocationCallbacks* a), (d, b, a), {                       \
    std::lock_guard<std::mutex> lock(g_mutex);                                                                        \
    g_buffers.erase(U64(b));                                                                                          \
  })                                                                                                                  \
  X(void, FreeCommandBuffers, (VkDevice d, VkCommandPool p, uint32_t n, const VkCommandBuffer* c), (d, p, n, c), {    \
    std::lock_guard<std::mutex> lock(g_mutex);                                                                        \
    for (uint32_t i = 0; i < n; ++i) g_masks.erase(c[i]);                                                             \
  })                                                                                                                  \
  X(void, DestroySemaphore, (VkDevice d, VkSemaphore s, const VkAllocationCallbacks* a), (d, s, a), {                 \
    std::lock_guard<std::mutex> lock(g_mutex);                                                                        \
    g_timeline.erase(U64(s));                                                                                         \
  })                                                                                                                  \
  X(void, DestroyCommandPool, (VkDevice d, VkCommandPool p, const VkAllocationCallbacks* a), (d, p, a), {})           \
  X(VkResult, ResetCommandPool, (VkDevice d, VkCommandPool p, VkCommandPoolResetFlags f), (d, p, f), {})              \
  X(void, DestroyDescriptorPool, (VkDevice d, VkDescriptorPool p, const VkAllocationCallbacks* a), (d, p, a), {})     \
  X(VkResult, ResetDescriptorPool, (VkDevice d, VkDescriptorPool p, VkDescriptorPoolResetFlags f), (d, p, f), {})     \
  X(void, DestroyFence, (VkDevice d, VkFence f, const VkAllocationCallbacks* a), (d, f, a), {})                       \
  X(void, DestroyQueryPool, (VkDevice d, VkQueryPool q, const VkAllocationCallbacks* a), (d, q, a), {})               \
  X(void, DestroyPipeline, (VkDevice d, VkPipeline p, const VkAllocationCallbacks* a), (d, p, a), {})

#define CORRUPTION_DRAIN_DEFINE(ret, name, params, args, forget) \
  VKAPI_ATTR ret VKAPI_CALL name params {                        \
    if (g_modes.early_signal) Drain(d);                          \
    if (AnyMode()) forget;                                       \
    return Next<PFN_vk##name>(d, "vk" #name) args;               \
  }
CORRUPTION_DRAIN_ENTRIES(CORRUPTION_DRAIN_DEFINE)
#undef CORRUPTION_DRAIN_DEFINE

VKAPI_ATTR VkResult VKAPI_CALL ResetCommandBuffer(VkCommandBuffer cb, VkCommandBufferResetFlags f) {
  if (g_modes.early_signal && IsHeld(cb)) Drain(cb);
  return Next<PFN_vkResetCommandBuffer>(cb, "vkResetCommandBuffer")(cb, f);
}

VKAPI_ATTR void VKAPI_CALL DestroyDevice(VkDevice d, const VkAllocationCallbacks* a) {
  if (g_modes.early_signal) DrainAll();
  Next<PFN_vkDestroyDevice>(d, "vkDestroyDevice")(d, a);
}

bool ParseFlag(const char* name, void (*misconfigured)(const std::string&)) {
  const char* v = std::getenv(name);
  if (!v || !*v || std::strcmp(v, "0") == 0) return false;
  if (std::strcmp(v, "1") == 0) return true;
  misconfigured(std::string(name) + "=" + v + ": expected 1 (on) or 0 (off)");
  return false;
}

}  // namespace

void Configure(void (*misconfigured)(const std::string&), void (*report)(const std::string&)) {
  g_report = report;
  if (const char* v = std::getenv("MESHVK_FAULT_COPY_SHORT"); v && *v) {
    char* end = nullptr;
    unsigned long long n = std::strtoull(v, &end, 10);
    if (*end || n == 0) misconfigured(std::string("MESHVK_FAULT_COPY_SHORT=") + v + ": expected a positive byte count");
    g_modes.copy_short = n;
  }
  g_modes.stale_peer_read = ParseFlag("MESHVK_FAULT_STALE_PEER_READ", misconfigured);
  g_modes.early_signal = ParseFlag("MESHVK_FAULT_EARLY_SIGNAL", misconfigured);
}

bool AnyMode() { return g_modes.copy_short || g_modes.stale_peer_read || g_modes.early_signal; }

void AfterAllocateMemory(VkDevice device, const VkMemoryAllocateInfo* info, VkDeviceMemory memory) {
  if (!AnyMode()) return;
  MemoryInfo m;
  auto* fd = Find<VkImportMemoryFdInfoKHR>(info->pNext, VK_STRUCTURE_TYPE_IMPORT_MEMORY_FD_INFO_KHR);
  auto* host =
      Find<VkImportMemoryHostPointerInfoEXT>(info->pNext, VK_STRUCTURE_TYPE_IMPORT_MEMORY_HOST_POINTER_INFO_EXT);
  std::lock_guard<std::mutex> lock(g_mutex);
  if (fd && fd->handleType) m.peer = true;
  if (host && host->handleType) {
    m.host_pointer = host->pHostPointer;
    auto [owner, first] = g_host_pointer_owner.insert({host->pHostPointer, U64(device)});
    m.peer = !first && owner->second != U64(device);
  }
  g_memory[U64(memory)] = m;
}

void AfterBindBufferMemory(VkBuffer buffer, VkDeviceMemory memory) {
  if (!AnyMode()) return;
  std::lock_guard<std::mutex> lock(g_mutex);
  g_buffers[U64(buffer)] = BufferInfo{memory, {}};
}

void AfterBindBufferMemory2(uint32_t count, const VkBindBufferMemoryInfo* infos) {
  if (!AnyMode()) return;
  std::lock_guard<std::mutex> lock(g_mutex);
  for (uint32_t i = 0; i < count; ++i) {
    BufferInfo b{infos[i].memory, {}};
    auto* g =
        Find<VkBindBufferMemoryDeviceGroupInfo>(infos[i].pNext, VK_STRUCTURE_TYPE_BIND_BUFFER_MEMORY_DEVICE_GROUP_INFO);
    if (g) b.device_indices.assign(g->pDeviceIndices, g->pDeviceIndices + g->deviceIndexCount);
    g_buffers[U64(infos[i].buffer)] = std::move(b);
  }
}

void AfterCreateSemaphore(const VkSemaphoreCreateInfo* info, VkSemaphore semaphore) {
  if (!AnyMode()) return;
  auto* type = Find<VkSemaphoreTypeCreateInfo>(info->pNext, VK_STRUCTURE_TYPE_SEMAPHORE_TYPE_CREATE_INFO);
  std::lock_guard<std::mutex> lock(g_mutex);
  g_timeline[U64(semaphore)] = type && type->semaphoreType == VK_SEMAPHORE_TYPE_TIMELINE;
}

void BeforeBeginCommandBuffer(VkCommandBuffer cb, const VkCommandBufferBeginInfo* info) {
  if (!AnyMode()) return;
  if (g_modes.early_signal && IsHeld(cb)) Drain(cb);  // re-recording: its held submissions run first
  auto* g =
      Find<VkDeviceGroupCommandBufferBeginInfo>(info->pNext, VK_STRUCTURE_TYPE_DEVICE_GROUP_COMMAND_BUFFER_BEGIN_INFO);
  std::lock_guard<std::mutex> lock(g_mutex);
  g_masks[cb] = g ? g->deviceMask : ~0u;
}

bool HoldSubmit(VkQueue queue, uint32_t count, const VkSubmitInfo* submits, VkFence fence) {
  if (!g_modes.early_signal) return false;
  HeldSubmit held{queue, fence, std::vector<HeldBatch>(count)};
  std::vector<std::pair<VkSemaphore, uint64_t>> host_signals;
  for (uint32_t i = 0; i < count; ++i)
    if (!CopyBatch(submits[i], held.batches[i], host_signals)) return false;
  if (host_signals.empty()) return false;
  auto [device, signal] = DeviceOf(queue);
  if (!signal) return false;
  FiredOnce(g_fired_early,
            "corrupt: early signal (timeline semaphores signalled at vkQueueSubmit, the work held until a drain)");
  std::lock_guard<std::mutex> lock(g_submit_mutex);
  for (const auto& [semaphore, value] : host_signals) {
    VkSemaphoreSignalInfo info{VK_STRUCTURE_TYPE_SEMAPHORE_SIGNAL_INFO};
    info.semaphore = semaphore;
    info.value = value;
    signal(device, &info);
  }
  g_held.push_back(std::move(held));
  return true;
}

void DrainForFences(const void* dispatchable, uint32_t count, const VkFence* fences) {
  if (!g_modes.early_signal) return;
  for (uint32_t i = 0; i < count; ++i)
    if (IsHeld((const void*)fences[i])) return Drain(dispatchable);
}

void Drain(const void* dispatchable) {
  if (!g_modes.early_signal) return;
  std::lock_guard<std::mutex> lock(g_submit_mutex);
  std::vector<VkQueue> queues;
  for (auto it = g_held.begin(); it != g_held.end();) {
    if (Key(it->queue) != Key(dispatchable)) {
      ++it;
      continue;
    }
    SubmitHeld(*it);
    bool seen = false;
    for (VkQueue q : queues) seen = seen || q == it->queue;
    if (!seen) queues.push_back(it->queue);
    it = g_held.erase(it);
  }
  for (VkQueue q : queues) Next<PFN_vkQueueWaitIdle>(q, "vkQueueWaitIdle")(q);
}

#define CORRUPTION_ENTRY(ret, name, params, args, forget) MESHVK_TEST_LAYER_ENTRY("vk" #name, name),
const meshvk_test_layer::Entry kDeviceEntries[] = {
    CORRUPTION_DRAIN_ENTRIES(CORRUPTION_ENTRY) MESHVK_TEST_LAYER_ENTRY("vkDestroyDevice", DestroyDevice),
    MESHVK_TEST_LAYER_ENTRY("vkResetCommandBuffer", ResetCommandBuffer),
    MESHVK_TEST_LAYER_ENTRY("vkCmdCopyBuffer", CmdCopyBuffer),
    MESHVK_TEST_LAYER_ENTRY("vkCmdCopyBuffer2", CmdCopyBuffer2),
    MESHVK_TEST_LAYER_ENTRY("vkCmdCopyBuffer2KHR", CmdCopyBuffer2),
    MESHVK_TEST_LAYER_ENTRY("vkCmdSetDeviceMask", CmdSetDeviceMask),
    MESHVK_TEST_LAYER_ENTRY("vkCmdSetDeviceMaskKHR", CmdSetDeviceMask),
};
#undef CORRUPTION_ENTRY
const size_t kDeviceEntryCount = sizeof kDeviceEntries / sizeof kDeviceEntries[0];

}  // namespace meshvk_fault_corruption

// VK_LAYER_MESHVK_fault_injection: makes the Nth call of one named Vulkan
// entry point fail with a chosen VkResult, can drop queue submissions (a GPU
// that stops answering) and can corrupt work while reporting success (a
// broken driver: corruption.h). Configured by environment variables (see
// README.md in this directory). It is a pass-through test layer
// (../test_layer/test_layer.h): it wraps no handle, and every call goes to the
// next layer unchanged unless a fault fires, so it composes with the Khronos
// validation layer and the emulated device-group layer in any order.
//
// Why it exists: the runtime's error paths (out of memory, device lost, a
// hung queue) cannot be reached on a healthy lavapipe, and an untested error
// path is where crashes and hangs live; and a conformance check that never
// saw broken work may be unable to notice it.
#include <vulkan/vulkan.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <mutex>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "corruption.h"
#include "test_layer.h"

namespace {

using meshvk_test_layer::Next;
using meshvk_test_layer::NextInstance;

// --- configuration -----------------------------------------------------------

struct Config {
  std::string entry_point;                         // MESHVK_FAULT_ENTRY_POINT
  uint64_t call = 1;                               // MESHVK_FAULT_CALL: 1-based, counted over the process
  VkResult error = VK_ERROR_OUT_OF_DEVICE_MEMORY;  // MESHVK_FAULT_ERROR
  uint64_t drop_submit = 0;                        // MESHVK_FAULT_DROP_SUBMIT: drop the Nth and later submissions
  std::string report;                              // MESHVK_FAULT_REPORT: append a line when a fault fires
  std::string counts;                              // MESHVK_FAULT_COUNTS: write per-entry-point call counts at exit
};

[[noreturn]] void Misconfigured(const std::string& why) {
  std::fprintf(stderr, "VK_LAYER_MESHVK_fault_injection: %s\n", why.c_str());
  std::abort();  // a test with a typo must fail loudly, not pass by accident
}

uint64_t ParseCount(const char* name, const char* text) {
  char* end = nullptr;
  unsigned long long v = std::strtoull(text, &end, 10);
  if (!*text || *end || v == 0) Misconfigured(std::string(name) + "=" + text + ": expected a positive integer");
  return v;
}

VkResult ParseError(const char* text) {
  static const std::pair<const char*, VkResult> kErrors[] = {
      {"out-of-device-memory", VK_ERROR_OUT_OF_DEVICE_MEMORY},
      {"VK_ERROR_OUT_OF_DEVICE_MEMORY", VK_ERROR_OUT_OF_DEVICE_MEMORY},
      {"out-of-host-memory", VK_ERROR_OUT_OF_HOST_MEMORY},
      {"VK_ERROR_OUT_OF_HOST_MEMORY", VK_ERROR_OUT_OF_HOST_MEMORY},
      {"device-lost", VK_ERROR_DEVICE_LOST},
      {"VK_ERROR_DEVICE_LOST", VK_ERROR_DEVICE_LOST},
      {"initialization-failed", VK_ERROR_INITIALIZATION_FAILED},
      {"VK_ERROR_INITIALIZATION_FAILED", VK_ERROR_INITIALIZATION_FAILED},
  };
  for (const auto& [name, result] : kErrors)
    if (std::strcmp(name, text) == 0) return result;
  Misconfigured(std::string("MESHVK_FAULT_ERROR=") + text +
                ": expected out-of-device-memory, out-of-host-memory, device-lost or initialization-failed");
}

bool IsIntercepted(const std::string& name);
void Report(const std::string& line);

// Never destroyed: the exit handler that writes MESHVK_FAULT_COUNTS reads it.
const Config& config() {
  static const Config& c = *new Config([] {
    Config c;
    if (const char* v = std::getenv("MESHVK_FAULT_ENTRY_POINT"); v && *v) {
      c.entry_point = v;
      if (!IsIntercepted(c.entry_point))
        Misconfigured("MESHVK_FAULT_ENTRY_POINT=" + c.entry_point +
                      " is not an entry point this layer can fail (see runtime/layer/fault_injection/README.md)");
    }
    if (const char* v = std::getenv("MESHVK_FAULT_CALL"); v && *v) c.call = ParseCount("MESHVK_FAULT_CALL", v);
    if (const char* v = std::getenv("MESHVK_FAULT_ERROR"); v && *v) c.error = ParseError(v);
    if (const char* v = std::getenv("MESHVK_FAULT_DROP_SUBMIT"); v && *v)
      c.drop_submit = ParseCount("MESHVK_FAULT_DROP_SUBMIT", v);
    if (const char* v = std::getenv("MESHVK_FAULT_REPORT")) c.report = v;
    if (const char* v = std::getenv("MESHVK_FAULT_COUNTS")) c.counts = v;
    meshvk_fault_corruption::Configure([](const std::string& why) { Misconfigured(why); }, Report);
    return c;
  }());
  return c;
}

// --- state -------------------------------------------------------------------

std::mutex g_mutex;
std::map<std::string, uint64_t> g_calls;  // entry point -> calls so far
std::atomic<bool> g_device_lost{false};   // sticky, like a real lost device
std::atomic<uint64_t> g_submits{0};
std::atomic<bool> g_dropped{false};  // a submission was dropped (reported once)
// What lost a submission never drains, as a hung GPU: those queues, and the
// devices they belong to (by dispatch key). Every other queue and device
// still goes idle, as a healthy GPU beside a hung one does.
std::mutex g_dropped_mutex;
std::set<VkQueue> g_dropped_queues;
std::set<void*> g_dropped_devices;

bool QueueDropped(VkQueue queue) {
  std::lock_guard<std::mutex> lock(g_dropped_mutex);
  return g_dropped_queues.count(queue) != 0;
}
// `handle`: a VkDevice or one of its queues.
bool DeviceDropped(const void* handle) {
  std::lock_guard<std::mutex> lock(g_dropped_mutex);
  return g_dropped_devices.count(meshvk_test_layer::DispatchKey(handle)) != 0;
}

void Report(const std::string& line) {
  if (config().report.empty()) return;
  if (FILE* f = std::fopen(config().report.c_str(), "a")) {
    std::fprintf(f, "%s\n", line.c_str());
    std::fclose(f);
  }
}

void WriteCounts() {
  if (config().counts.empty()) return;
  std::lock_guard<std::mutex> lock(g_mutex);
  if (FILE* f = std::fopen(config().counts.c_str(), "w")) {
    for (const auto& [name, n] : g_calls)
      std::fprintf(f, "%s %llu\n", name.c_str(), static_cast<unsigned long long>(n));
    std::fclose(f);
  }
}

void DrainRealDevices();

// Counts the call; returns the error to inject, or VK_SUCCESS to call down.
// `can_lose_device`: the entry point may return VK_ERROR_DEVICE_LOST, so after
// an injected device loss it keeps returning it.
VkResult Fault(const char* name, bool can_lose_device = true) {
  uint64_t n;
  {
    std::lock_guard<std::mutex> lock(g_mutex);
    n = ++g_calls[name];
  }
  if (can_lose_device && g_device_lost.load()) return VK_ERROR_DEVICE_LOST;
  const Config& c = config();
  if (n != c.call || c.entry_point != name) return VK_SUCCESS;
  if (c.error == VK_ERROR_DEVICE_LOST) {
    // A lost device executes nothing more. The real one below may still run
    // work submitted before the "loss": let it finish, so the application's
    // teardown (which rightly stops waiting on a lost device) does not free
    // what the driver still uses.
    DrainRealDevices();
    g_device_lost = true;
  }
  Report(std::string("fault: ") + name + " call " + std::to_string(n) + " -> " + std::to_string(c.error));
  return c.error;
}

// A queue that has lost a submission never becomes idle: block like a hung
// GPU would (the process is expected never to ask).
void HangForever(const char* name) {
  Report(std::string("hang: ") + name + " after a dropped submission");
  for (;;) std::this_thread::sleep_for(std::chrono::hours(1));
}

// Every real device below goes idle (see Fault), except those that lost a
// submission: they never would.
void DrainRealDevices() {
  for (const auto& [device, wait_idle] : meshvk_test_layer::AllDevices("vkDeviceWaitIdle"))
    if (!DeviceDropped(device)) reinterpret_cast<PFN_vkDeviceWaitIdle>(wait_idle)(device);
}

// --- instance-level entry points ---------------------------------------------

// vkCreateInstance and vkCreateDevice (the skeleton's) can fail too.
VkResult BeforeCreateInstance() {
  static std::once_flag once;
  std::call_once(once, [] { std::atexit(WriteCounts); });
  return Fault("vkCreateInstance", false);
}

VkResult BeforeCreateDevice() { return Fault("vkCreateDevice"); }

VKAPI_ATTR VkResult VKAPI_CALL EnumeratePhysicalDevices(VkInstance instance, uint32_t* count,
                                                        VkPhysicalDevice* devices) {
  if (VkResult r = Fault("vkEnumeratePhysicalDevices", false)) return r;
  return NextInstance<PFN_vkEnumeratePhysicalDevices>(instance, "vkEnumeratePhysicalDevices")(instance, count, devices);
}

VKAPI_ATTR VkResult VKAPI_CALL EnumeratePhysicalDeviceGroups(VkInstance instance, uint32_t* count,
                                                             VkPhysicalDeviceGroupProperties* groups) {
  if (VkResult r = Fault("vkEnumeratePhysicalDeviceGroups", false)) return r;
  return NextInstance<PFN_vkEnumeratePhysicalDeviceGroups>(instance, "vkEnumeratePhysicalDeviceGroups")(instance, count,
                                                                                                        groups);
}

// --- device-level entry points -----------------------------------------------
// FAULT_ENTRY(name, dispatchable parameter, (parameters), (arguments)): every
// VkResult-returning device-level call the runtime makes. The first parameter
// is the dispatchable handle (VkDevice, VkQueue or VkCommandBuffer share the
// device's dispatch key).
#define FAULT_DEVICE_ENTRIES(X)                                                                                        \
  X(CreateBuffer, (VkDevice d, const VkBufferCreateInfo* a, const VkAllocationCallbacks* c, VkBuffer* o),              \
    (d, a, c, o))                                                                                                      \
  X(MapMemory, (VkDevice d, VkDeviceMemory m, VkDeviceSize off, VkDeviceSize size, VkMemoryMapFlags f, void** p),      \
    (d, m, off, size, f, p))                                                                                           \
  X(CreateShaderModule,                                                                                                \
    (VkDevice d, const VkShaderModuleCreateInfo* a, const VkAllocationCallbacks* c, VkShaderModule* o), (d, a, c, o))  \
  X(CreateDescriptorSetLayout,                                                                                         \
    (VkDevice d, const VkDescriptorSetLayoutCreateInfo* a, const VkAllocationCallbacks* c, VkDescriptorSetLayout* o),  \
    (d, a, c, o))                                                                                                      \
  X(CreatePipelineLayout,                                                                                              \
    (VkDevice d, const VkPipelineLayoutCreateInfo* a, const VkAllocationCallbacks* c, VkPipelineLayout* o),            \
    (d, a, c, o))                                                                                                      \
  X(CreateComputePipelines,                                                                                            \
    (VkDevice d, VkPipelineCache pc, uint32_t n, const VkComputePipelineCreateInfo* a, const VkAllocationCallbacks* c, \
     VkPipeline* o),                                                                                                   \
    (d, pc, n, a, c, o))                                                                                               \
  X(CreateDescriptorPool,                                                                                              \
    (VkDevice d, const VkDescriptorPoolCreateInfo* a, const VkAllocationCallbacks* c, VkDescriptorPool* o),            \
    (d, a, c, o))                                                                                                      \
  X(AllocateDescriptorSets, (VkDevice d, const VkDescriptorSetAllocateInfo* a, VkDescriptorSet* o), (d, a, o))         \
  X(CreateCommandPool,                                                                                                 \
    (VkDevice d, const VkCommandPoolCreateInfo* a, const VkAllocationCallbacks* c, VkCommandPool* o), (d, a, c, o))    \
  X(AllocateCommandBuffers, (VkDevice d, const VkCommandBufferAllocateInfo* a, VkCommandBuffer* o), (d, a, o))         \
  X(EndCommandBuffer, (VkCommandBuffer d), (d))                                                                        \
  X(CreateFence, (VkDevice d, const VkFenceCreateInfo* a, const VkAllocationCallbacks* c, VkFence* o), (d, a, c, o))   \
  X(CreateQueryPool, (VkDevice d, const VkQueryPoolCreateInfo* a, const VkAllocationCallbacks* c, VkQueryPool* o),     \
    (d, a, c, o))                                                                                                      \
  X(GetSemaphoreCounterValue, (VkDevice d, VkSemaphore s, uint64_t* v), (d, s, v))                                     \
  X(SignalSemaphore, (VkDevice d, const VkSemaphoreSignalInfo* i), (d, i))

#define FAULT_DEFINE(name, params, args)           \
  VKAPI_ATTR VkResult VKAPI_CALL name params {     \
    if (VkResult r = Fault("vk" #name)) return r;  \
    return Next<PFN_vk##name>(d, "vk" #name) args; \
  }
FAULT_DEVICE_ENTRIES(FAULT_DEFINE)
#undef FAULT_DEFINE

// FAULT_HOOKED_ENTRIES(name, params, args, before, after): entry points the
// corruption modes watch (corruption.h): `before` runs once the fault check
// passed, `after` once the call down succeeded.
namespace corrupt = meshvk_fault_corruption;
#define FAULT_HOOKED_ENTRIES(X)                                                                                     \
  X(AllocateMemory, (VkDevice d, const VkMemoryAllocateInfo* a, const VkAllocationCallbacks* c, VkDeviceMemory* o), \
    (d, a, c, o), {}, corrupt::AfterAllocateMemory(d, a, *o))                                                       \
  X(BindBufferMemory, (VkDevice d, VkBuffer b, VkDeviceMemory m, VkDeviceSize off), (d, b, m, off), {},             \
    corrupt::AfterBindBufferMemory(b, m))                                                                           \
  X(BindBufferMemory2, (VkDevice d, uint32_t n, const VkBindBufferMemoryInfo* i), (d, n, i), {},                    \
    corrupt::AfterBindBufferMemory2(n, i))                                                                          \
  X(CreateSemaphore, (VkDevice d, const VkSemaphoreCreateInfo* a, const VkAllocationCallbacks* c, VkSemaphore* o),  \
    (d, a, c, o), {}, corrupt::AfterCreateSemaphore(a, *o))                                                         \
  X(BeginCommandBuffer, (VkCommandBuffer d, const VkCommandBufferBeginInfo* a), (d, a),                             \
    corrupt::BeforeBeginCommandBuffer(d, a), {})                                                                    \
  X(GetQueryPoolResults,                                                                                            \
    (VkDevice d, VkQueryPool q, uint32_t first, uint32_t n, size_t size, void* data, VkDeviceSize stride,           \
     VkQueryResultFlags f),                                                                                         \
    (d, q, first, n, size, data, stride, f), corrupt::Drain(d), {})                                                 \
  X(GetFenceStatus, (VkDevice d, VkFence f), (d, f), corrupt::DrainForFences(d, 1, &f), {})                         \
  X(ResetFences, (VkDevice d, uint32_t n, const VkFence* f), (d, n, f), corrupt::DrainForFences(d, n, f), {})

#define FAULT_HOOKED_DEFINE(name, params, args, before, after) \
  VKAPI_ATTR VkResult VKAPI_CALL name params {                 \
    if (VkResult r = Fault("vk" #name)) return r;              \
    before;                                                    \
    VkResult r = Next<PFN_vk##name>(d, "vk" #name) args;       \
    if (r == VK_SUCCESS) after;                                \
    return r;                                                  \
  }
FAULT_HOOKED_ENTRIES(FAULT_HOOKED_DEFINE)
#undef FAULT_HOOKED_DEFINE

// Submissions: the Nth and every later one can be dropped (VK_SUCCESS, but
// nothing runs and nothing is signalled), like a GPU that stopped answering.
bool DropThisSubmit(VkQueue queue) {
  uint64_t n = ++g_submits;
  if (config().drop_submit == 0 || n < config().drop_submit) return false;
  {
    std::lock_guard<std::mutex> lock(g_dropped_mutex);
    g_dropped_queues.insert(queue);
    g_dropped_devices.insert(meshvk_test_layer::DispatchKey(queue));
  }
  if (!g_dropped.exchange(true)) Report("drop: queue submission " + std::to_string(n) + " and later");
  return true;
}

VKAPI_ATTR VkResult VKAPI_CALL QueueSubmit(VkQueue d, uint32_t n, const VkSubmitInfo* s, VkFence f) {
  if (VkResult r = Fault("vkQueueSubmit")) return r;
  if (DropThisSubmit(d)) return VK_SUCCESS;
  if (corrupt::HoldSubmit(d, n, s, f)) return VK_SUCCESS;
  return Next<PFN_vkQueueSubmit>(d, "vkQueueSubmit")(d, n, s, f);
}

VKAPI_ATTR VkResult VKAPI_CALL QueueSubmit2(VkQueue d, uint32_t n, const VkSubmitInfo2* s, VkFence f) {
  if (VkResult r = Fault("vkQueueSubmit2")) return r;
  if (DropThisSubmit(d)) return VK_SUCCESS;
  return Next<PFN_vkQueueSubmit2>(d, "vkQueueSubmit2")(d, n, s, f);
}

// Waits: with a timeout they reach the driver, which times out because a
// dropped submission never signals; without one (UINT64_MAX) on a device that
// lost a submission, or an idle wait on a queue or device that did, they
// block for good, as on a hung GPU.
VKAPI_ATTR VkResult VKAPI_CALL WaitSemaphores(VkDevice d, const VkSemaphoreWaitInfo* i, uint64_t timeout) {
  if (VkResult r = Fault("vkWaitSemaphores")) return r;
  if (timeout == UINT64_MAX && DeviceDropped(d)) HangForever("vkWaitSemaphores(UINT64_MAX)");
  return Next<PFN_vkWaitSemaphores>(d, "vkWaitSemaphores")(d, i, timeout);
}

VKAPI_ATTR VkResult VKAPI_CALL WaitForFences(VkDevice d, uint32_t n, const VkFence* f, VkBool32 all, uint64_t timeout) {
  if (VkResult r = Fault("vkWaitForFences")) return r;
  if (timeout == UINT64_MAX && DeviceDropped(d)) HangForever("vkWaitForFences(UINT64_MAX)");
  corrupt::DrainForFences(d, n, f);
  return Next<PFN_vkWaitForFences>(d, "vkWaitForFences")(d, n, f, all, timeout);
}

VKAPI_ATTR VkResult VKAPI_CALL QueueWaitIdle(VkQueue d) {
  if (VkResult r = Fault("vkQueueWaitIdle")) return r;
  if (QueueDropped(d)) HangForever("vkQueueWaitIdle");
  corrupt::Drain(d);
  return Next<PFN_vkQueueWaitIdle>(d, "vkQueueWaitIdle")(d);
}

VKAPI_ATTR VkResult VKAPI_CALL DeviceWaitIdle(VkDevice d) {
  if (VkResult r = Fault("vkDeviceWaitIdle")) return r;
  if (DeviceDropped(d)) HangForever("vkDeviceWaitIdle");
  corrupt::Drain(d);
  return Next<PFN_vkDeviceWaitIdle>(d, "vkDeviceWaitIdle")(d);
}

// --- lookup --------------------------------------------------------------------

#define FAULT_ENTRY(name, params, args) MESHVK_TEST_LAYER_ENTRY("vk" #name, name),
#define FAULT_HOOKED_ENTRY(name, params, args, before, after) MESHVK_TEST_LAYER_ENTRY("vk" #name, name),
const meshvk_test_layer::Entry kFaultDeviceEntries[] = {
    FAULT_DEVICE_ENTRIES(FAULT_ENTRY) FAULT_HOOKED_ENTRIES(FAULT_HOOKED_ENTRY)
        MESHVK_TEST_LAYER_ENTRY("vkQueueSubmit", QueueSubmit),
    MESHVK_TEST_LAYER_ENTRY("vkQueueSubmit2", QueueSubmit2),
    MESHVK_TEST_LAYER_ENTRY("vkQueueSubmit2KHR", QueueSubmit2),
    MESHVK_TEST_LAYER_ENTRY("vkWaitSemaphores", WaitSemaphores),
    MESHVK_TEST_LAYER_ENTRY("vkWaitSemaphoresKHR", WaitSemaphores),
    MESHVK_TEST_LAYER_ENTRY("vkWaitForFences", WaitForFences),
    MESHVK_TEST_LAYER_ENTRY("vkQueueWaitIdle", QueueWaitIdle),
    MESHVK_TEST_LAYER_ENTRY("vkDeviceWaitIdle", DeviceWaitIdle),
};
#undef FAULT_ENTRY
#undef FAULT_HOOKED_ENTRY

// The fault rows and the corruption modes' rows, one table.
meshvk_test_layer::Entries DeviceEntries() {
  static const std::vector<meshvk_test_layer::Entry> rows = [] {
    std::vector<meshvk_test_layer::Entry> all(std::begin(kFaultDeviceEntries), std::end(kFaultDeviceEntries));
    all.insert(all.end(), corrupt::kDeviceEntries, corrupt::kDeviceEntries + corrupt::kDeviceEntryCount);
    return all;
  }();
  meshvk_test_layer::Entries entries;
  entries.rows = rows.data();
  entries.count = rows.size();
  return entries;
}
const meshvk_test_layer::Entry kInstanceEntries[] = {
    MESHVK_TEST_LAYER_ENTRY("vkEnumeratePhysicalDevices", EnumeratePhysicalDevices),
    MESHVK_TEST_LAYER_ENTRY("vkEnumeratePhysicalDeviceGroups", EnumeratePhysicalDeviceGroups),
    MESHVK_TEST_LAYER_ENTRY("vkEnumeratePhysicalDeviceGroupsKHR", EnumeratePhysicalDeviceGroups),
};

bool IsIntercepted(const std::string& name) {
  // The entry points Fault() counts (the corruption modes' rows are not
  // failable); the KHR aliases are counted under the core name.
  if (name == "vkCreateInstance" || name == "vkCreateDevice") return true;
  if (name.find("KHR") != std::string::npos) return false;
  for (const auto& row : kFaultDeviceEntries)
    if (name == row.name) return true;
  for (const auto& row : kInstanceEntries)
    if (name == row.name) return true;
  return false;
}

}  // namespace

const meshvk_test_layer::Layer& meshvk_test_layer::ThisLayer() {
  static const Layer layer{kInstanceEntries, DeviceEntries(), BeforeCreateInstance, BeforeCreateDevice};
  return layer;
}

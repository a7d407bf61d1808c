// VK_LAYER_MESHVK_fault_injection: makes the Nth call of one named Vulkan
// entry point fail with a chosen VkResult, and can drop queue submissions
// (a GPU that stops answering). Configured by environment variables (see
// README.md in this directory). It wraps no handle: every call goes to the
// next layer unchanged unless a fault fires, so it composes with the Khronos
// validation layer and the emulated device-group layer in any order.
//
// Why it exists: the runtime's error paths (out of memory, device lost, a
// hung queue) cannot be reached on a healthy lavapipe, and an untested error
// path is where crashes and hangs live.
#include <vulkan/vk_layer.h>
#include <vulkan/vulkan.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <mutex>
#include <string>
#include <thread>
#include <unordered_map>
#include <vector>

#if defined(__GNUC__)
#define FAULT_EXPORT __attribute__((visibility("default")))
#else
#define FAULT_EXPORT
#endif

namespace {

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
    return c;
  }());
  return c;
}

// --- state -------------------------------------------------------------------

std::mutex g_mutex;
std::map<std::string, uint64_t> g_calls;  // entry point -> calls so far
std::atomic<bool> g_device_lost{false};   // sticky, like a real lost device
std::atomic<uint64_t> g_submits{0};
std::atomic<bool> g_dropped{false};  // a submission was dropped: queues never drain

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

// --- dispatch tables ---------------------------------------------------------

void* Key(const void* dispatchable) { return *static_cast<void* const*>(dispatchable); }

// Next-layer functions are resolved while the instance or device is being
// created: afterwards the loader's last-layer vkGetInstanceProcAddr returns
// the application's dispatch (the top of the chain), which would recurse.
struct InstanceData {
  VkInstance instance = VK_NULL_HANDLE;
  PFN_vkGetInstanceProcAddr gipa = nullptr;
  PFN_vkEnumeratePhysicalDevices EnumeratePhysicalDevices = nullptr;
  PFN_vkEnumeratePhysicalDeviceGroups EnumeratePhysicalDeviceGroups = nullptr;
};
struct DeviceData {
  VkDevice device = VK_NULL_HANDLE;
  PFN_vkGetDeviceProcAddr gdpa = nullptr;
  std::unordered_map<std::string, PFN_vkVoidFunction> next;
};
std::unordered_map<void*, InstanceData> g_instances;
std::unordered_map<void*, DeviceData> g_devices;

InstanceData& InstanceOf(const void* handle) {
  std::lock_guard<std::mutex> lock(g_mutex);
  return g_instances.at(Key(handle));
}

template <typename PFN>
PFN Next(const void* device_handle, const char* name) {
  std::lock_guard<std::mutex> lock(g_mutex);
  DeviceData& d = g_devices.at(Key(device_handle));
  auto it = d.next.find(name);
  return it == d.next.end() ? nullptr : reinterpret_cast<PFN>(it->second);
}

void DrainRealDevices() {
  std::vector<std::pair<VkDevice, PFN_vkDeviceWaitIdle>> devices;
  {
    std::lock_guard<std::mutex> lock(g_mutex);
    for (auto& [key, d] : g_devices) {
      auto it = d.next.find("vkDeviceWaitIdle");
      if (it != d.next.end() && it->second)
        devices.push_back({d.device, reinterpret_cast<PFN_vkDeviceWaitIdle>(it->second)});
    }
  }
  if (!g_dropped)
    for (auto& [device, wait_idle] : devices) wait_idle(device);
}

template <typename T>
T* LayerLink(const void* next, VkStructureType type) {
  for (auto* s = static_cast<const VkBaseInStructure*>(next); s; s = s->pNext) {
    if (s->sType == type && reinterpret_cast<const T*>(s)->function == VK_LAYER_LINK_INFO)
      return const_cast<T*>(reinterpret_cast<const T*>(s));
  }
  return nullptr;
}

// Every device-level entry point the layer intercepts (core names), defined
// after the table below.
extern const char* const kDeviceNames[];

// --- instance-level entry points ---------------------------------------------

VKAPI_ATTR PFN_vkVoidFunction VKAPI_CALL GetInstanceProcAddr(VkInstance instance, const char* name);
VKAPI_ATTR PFN_vkVoidFunction VKAPI_CALL GetDeviceProcAddr(VkDevice device, const char* name);

VKAPI_ATTR VkResult VKAPI_CALL CreateInstance(const VkInstanceCreateInfo* info, const VkAllocationCallbacks* alloc,
                                              VkInstance* out) {
  auto* link = LayerLink<VkLayerInstanceCreateInfo>(info->pNext, VK_STRUCTURE_TYPE_LOADER_INSTANCE_CREATE_INFO);
  if (!link) return VK_ERROR_INITIALIZATION_FAILED;
  PFN_vkGetInstanceProcAddr gipa = link->u.pLayerInfo->pfnNextGetInstanceProcAddr;
  link->u.pLayerInfo = link->u.pLayerInfo->pNext;
  static std::once_flag once;
  std::call_once(once, [] { std::atexit(WriteCounts); });
  if (VkResult r = Fault("vkCreateInstance", false)) return r;
  auto create = reinterpret_cast<PFN_vkCreateInstance>(gipa(VK_NULL_HANDLE, "vkCreateInstance"));
  VkResult r = create(info, alloc, out);
  if (r != VK_SUCCESS) return r;
  InstanceData d{*out, gipa};
  d.EnumeratePhysicalDevices =
      reinterpret_cast<PFN_vkEnumeratePhysicalDevices>(gipa(*out, "vkEnumeratePhysicalDevices"));
  d.EnumeratePhysicalDeviceGroups =
      reinterpret_cast<PFN_vkEnumeratePhysicalDeviceGroups>(gipa(*out, "vkEnumeratePhysicalDeviceGroups"));
  if (!d.EnumeratePhysicalDeviceGroups)
    d.EnumeratePhysicalDeviceGroups =
        reinterpret_cast<PFN_vkEnumeratePhysicalDeviceGroups>(gipa(*out, "vkEnumeratePhysicalDeviceGroupsKHR"));
  std::lock_guard<std::mutex> lock(g_mutex);
  g_instances[Key(*out)] = d;
  return VK_SUCCESS;
}

VKAPI_ATTR VkResult VKAPI_CALL EnumeratePhysicalDevices(VkInstance instance, uint32_t* count,
                                                        VkPhysicalDevice* devices) {
  if (VkResult r = Fault("vkEnumeratePhysicalDevices", false)) return r;
  return InstanceOf(instance).EnumeratePhysicalDevices(instance, count, devices);
}

VKAPI_ATTR VkResult VKAPI_CALL EnumeratePhysicalDeviceGroups(VkInstance instance, uint32_t* count,
                                                             VkPhysicalDeviceGroupProperties* groups) {
  if (VkResult r = Fault("vkEnumeratePhysicalDeviceGroups", false)) return r;
  return InstanceOf(instance).EnumeratePhysicalDeviceGroups(instance, count, groups);
}

VKAPI_ATTR VkResult VKAPI_CALL CreateDevice(VkPhysicalDevice physical, const VkDeviceCreateInfo* info,
                                            const VkAllocationCallbacks* alloc, VkDevice* out) {
  auto* link = LayerLink<VkLayerDeviceCreateInfo>(info->pNext, VK_STRUCTURE_TYPE_LOADER_DEVICE_CREATE_INFO);
  if (!link) return VK_ERROR_INITIALIZATION_FAILED;
  PFN_vkGetInstanceProcAddr gipa = link->u.pLayerInfo->pfnNextGetInstanceProcAddr;
  PFN_vkGetDeviceProcAddr gdpa = link->u.pLayerInfo->pfnNextGetDeviceProcAddr;
  link->u.pLayerInfo = link->u.pLayerInfo->pNext;
  if (VkResult r = Fault("vkCreateDevice")) return r;
  InstanceData& inst = InstanceOf(physical);
  auto create = reinterpret_cast<PFN_vkCreateDevice>(gipa(inst.instance, "vkCreateDevice"));
  VkResult r = create(physical, info, alloc, out);
  if (r != VK_SUCCESS) return r;
  DeviceData d;
  d.device = *out;
  d.gdpa = gdpa;
  for (const char* const* n = kDeviceNames; *n; ++n) {
    const char* name = *n;
    PFN_vkVoidFunction f = gdpa(*out, name);
    // A core function may exist only under its KHR name; it is counted and
    // looked up under the core one.
    if (!f) f = gdpa(*out, (std::string(name) + "KHR").c_str());
    d.next[name] = f;
  }
  std::lock_guard<std::mutex> lock(g_mutex);
  g_devices[Key(*out)] = std::move(d);
  return VK_SUCCESS;
}

// --- device-level entry points -----------------------------------------------
// FAULT_ENTRY(name, dispatchable parameter, (parameters), (arguments)): every
// VkResult-returning device-level call the runtime makes. The first parameter
// is the dispatchable handle (VkDevice, VkQueue or VkCommandBuffer share the
// device's dispatch key).
#define FAULT_DEVICE_ENTRIES(X)                                                                                        \
  X(AllocateMemory, (VkDevice d, const VkMemoryAllocateInfo* a, const VkAllocationCallbacks* c, VkDeviceMemory* o),    \
    (d, a, c, o))                                                                                                      \
  X(CreateBuffer, (VkDevice d, const VkBufferCreateInfo* a, const VkAllocationCallbacks* c, VkBuffer* o),              \
    (d, a, c, o))                                                                                                      \
  X(BindBufferMemory, (VkDevice d, VkBuffer b, VkDeviceMemory m, VkDeviceSize off), (d, b, m, off))                    \
  X(BindBufferMemory2, (VkDevice d, uint32_t n, const VkBindBufferMemoryInfo* i), (d, n, i))                           \
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
  X(BeginCommandBuffer, (VkCommandBuffer d, const VkCommandBufferBeginInfo* a), (d, a))                                \
  X(EndCommandBuffer, (VkCommandBuffer d), (d))                                                                        \
  X(CreateSemaphore, (VkDevice d, const VkSemaphoreCreateInfo* a, const VkAllocationCallbacks* c, VkSemaphore* o),     \
    (d, a, c, o))                                                                                                      \
  X(CreateFence, (VkDevice d, const VkFenceCreateInfo* a, const VkAllocationCallbacks* c, VkFence* o), (d, a, c, o))   \
  X(CreateQueryPool, (VkDevice d, const VkQueryPoolCreateInfo* a, const VkAllocationCallbacks* c, VkQueryPool* o),     \
    (d, a, c, o))                                                                                                      \
  X(GetQueryPoolResults,                                                                                               \
    (VkDevice d, VkQueryPool q, uint32_t first, uint32_t n, size_t size, void* data, VkDeviceSize stride,              \
     VkQueryResultFlags f),                                                                                            \
    (d, q, first, n, size, data, stride, f))                                                                           \
  X(GetSemaphoreCounterValue, (VkDevice d, VkSemaphore s, uint64_t* v), (d, s, v))                                     \
  X(SignalSemaphore, (VkDevice d, const VkSemaphoreSignalInfo* i), (d, i))                                             \
  X(GetFenceStatus, (VkDevice d, VkFence f), (d, f))                                                                   \
  X(ResetFences, (VkDevice d, uint32_t n, const VkFence* f), (d, n, f))

#define FAULT_DEFINE(name, params, args)           \
  VKAPI_ATTR VkResult VKAPI_CALL name params {     \
    if (VkResult r = Fault("vk" #name)) return r;  \
    return Next<PFN_vk##name>(d, "vk" #name) args; \
  }
FAULT_DEVICE_ENTRIES(FAULT_DEFINE)
#undef FAULT_DEFINE

// Submissions: the Nth and every later one can be dropped (VK_SUCCESS, but
// nothing runs and nothing is signalled), like a GPU that stopped answering.
bool DropThisSubmit() {
  uint64_t n = ++g_submits;
  if (config().drop_submit == 0 || n < config().drop_submit) return false;
  if (!g_dropped.exchange(true)) Report("drop: queue submission " + std::to_string(n) + " and later");
  return true;
}

VKAPI_ATTR VkResult VKAPI_CALL QueueSubmit(VkQueue d, uint32_t n, const VkSubmitInfo* s, VkFence f) {
  if (VkResult r = Fault("vkQueueSubmit")) return r;
  if (DropThisSubmit()) return VK_SUCCESS;
  return Next<PFN_vkQueueSubmit>(d, "vkQueueSubmit")(d, n, s, f);
}

VKAPI_ATTR VkResult VKAPI_CALL QueueSubmit2(VkQueue d, uint32_t n, const VkSubmitInfo2* s, VkFence f) {
  if (VkResult r = Fault("vkQueueSubmit2")) return r;
  if (DropThisSubmit()) return VK_SUCCESS;
  return Next<PFN_vkQueueSubmit2>(d, "vkQueueSubmit2")(d, n, s, f);
}

// Waits: with a timeout they reach the driver, which times out because a
// dropped submission never signals; without one (UINT64_MAX) or an idle wait
// after a drop, they block for good, as on a hung GPU.
VKAPI_ATTR VkResult VKAPI_CALL WaitSemaphores(VkDevice d, const VkSemaphoreWaitInfo* i, uint64_t timeout) {
  if (VkResult r = Fault("vkWaitSemaphores")) return r;
  if (g_dropped && timeout == UINT64_MAX) HangForever("vkWaitSemaphores(UINT64_MAX)");
  return Next<PFN_vkWaitSemaphores>(d, "vkWaitSemaphores")(d, i, timeout);
}

VKAPI_ATTR VkResult VKAPI_CALL WaitForFences(VkDevice d, uint32_t n, const VkFence* f, VkBool32 all, uint64_t timeout) {
  if (VkResult r = Fault("vkWaitForFences")) return r;
  if (g_dropped && timeout == UINT64_MAX) HangForever("vkWaitForFences(UINT64_MAX)");
  return Next<PFN_vkWaitForFences>(d, "vkWaitForFences")(d, n, f, all, timeout);
}

VKAPI_ATTR VkResult VKAPI_CALL QueueWaitIdle(VkQueue d) {
  if (VkResult r = Fault("vkQueueWaitIdle")) return r;
  if (g_dropped) HangForever("vkQueueWaitIdle");
  return Next<PFN_vkQueueWaitIdle>(d, "vkQueueWaitIdle")(d);
}

VKAPI_ATTR VkResult VKAPI_CALL DeviceWaitIdle(VkDevice d) {
  if (VkResult r = Fault("vkDeviceWaitIdle")) return r;
  if (g_dropped) HangForever("vkDeviceWaitIdle");
  return Next<PFN_vkDeviceWaitIdle>(d, "vkDeviceWaitIdle")(d);
}

#define FAULT_NAME(name, params, args) "vk" #name,
const char* const kDeviceNames[] = {FAULT_DEVICE_ENTRIES(FAULT_NAME) "vkQueueSubmit",
                                    "vkQueueSubmit2",
                                    "vkWaitSemaphores",
                                    "vkWaitForFences",
                                    "vkQueueWaitIdle",
                                    "vkDeviceWaitIdle",
                                    nullptr};
#undef FAULT_NAME

// --- lookup --------------------------------------------------------------------

struct Entry {
  const char* name;
  PFN_vkVoidFunction function;
};
#define FAULT_ENTRY(name, params, args) {"vk" #name, reinterpret_cast<PFN_vkVoidFunction>(&name)},
const Entry kDeviceEntries[] = {
    FAULT_DEVICE_ENTRIES(FAULT_ENTRY){"vkQueueSubmit", reinterpret_cast<PFN_vkVoidFunction>(&QueueSubmit)},
    {"vkQueueSubmit2", reinterpret_cast<PFN_vkVoidFunction>(&QueueSubmit2)},
    {"vkQueueSubmit2KHR", reinterpret_cast<PFN_vkVoidFunction>(&QueueSubmit2)},
    {"vkWaitSemaphores", reinterpret_cast<PFN_vkVoidFunction>(&WaitSemaphores)},
    {"vkWaitSemaphoresKHR", reinterpret_cast<PFN_vkVoidFunction>(&WaitSemaphores)},
    {"vkWaitForFences", reinterpret_cast<PFN_vkVoidFunction>(&WaitForFences)},
    {"vkQueueWaitIdle", reinterpret_cast<PFN_vkVoidFunction>(&QueueWaitIdle)},
    {"vkDeviceWaitIdle", reinterpret_cast<PFN_vkVoidFunction>(&DeviceWaitIdle)},
    {"vkGetDeviceProcAddr", reinterpret_cast<PFN_vkVoidFunction>(&GetDeviceProcAddr)},
};
#undef FAULT_ENTRY
const Entry kInstanceEntries[] = {
    {"vkCreateInstance", reinterpret_cast<PFN_vkVoidFunction>(&CreateInstance)},
    {"vkEnumeratePhysicalDevices", reinterpret_cast<PFN_vkVoidFunction>(&EnumeratePhysicalDevices)},
    {"vkEnumeratePhysicalDeviceGroups", reinterpret_cast<PFN_vkVoidFunction>(&EnumeratePhysicalDeviceGroups)},
    {"vkEnumeratePhysicalDeviceGroupsKHR", reinterpret_cast<PFN_vkVoidFunction>(&EnumeratePhysicalDeviceGroups)},
    {"vkCreateDevice", reinterpret_cast<PFN_vkVoidFunction>(&CreateDevice)},
    {"vkGetInstanceProcAddr", reinterpret_cast<PFN_vkVoidFunction>(&GetInstanceProcAddr)},
};

PFN_vkVoidFunction Find(const Entry* begin, const Entry* end, const char* name) {
  for (const Entry* e = begin; e != end; ++e)
    if (std::strcmp(e->name, name) == 0) return e->function;
  return nullptr;
}

bool IsIntercepted(const std::string& name) {
  // The KHR aliases are counted under the core name.
  return (Find(std::begin(kDeviceEntries), std::end(kDeviceEntries), name.c_str()) ||
          Find(std::begin(kInstanceEntries), std::end(kInstanceEntries), name.c_str())) &&
         name.find("ProcAddr") == std::string::npos && name.find("KHR") == std::string::npos;
}

VKAPI_ATTR PFN_vkVoidFunction VKAPI_CALL GetDeviceProcAddr(VkDevice device, const char* name) {
  if (PFN_vkVoidFunction f = Find(std::begin(kDeviceEntries), std::end(kDeviceEntries), name)) {
    // Only when the next layer has it (an extension the device lacks stays absent).
    if (std::strcmp(name, "vkGetDeviceProcAddr") == 0) return f;
    std::string core(name);
    if (core.size() > 3 && core.compare(core.size() - 3, 3, "KHR") == 0) core.resize(core.size() - 3);
    return Next<PFN_vkVoidFunction>(device, core.c_str()) ? f : nullptr;
  }
  std::lock_guard<std::mutex> lock(g_mutex);
  const DeviceData& d = g_devices.at(Key(device));
  return d.gdpa(d.device, name);
}

VKAPI_ATTR PFN_vkVoidFunction VKAPI_CALL GetInstanceProcAddr(VkInstance instance, const char* name) {
  if (PFN_vkVoidFunction f = Find(std::begin(kInstanceEntries), std::end(kInstanceEntries), name)) return f;
  if (!instance) return nullptr;
  InstanceData& d = InstanceOf(instance);
  PFN_vkVoidFunction next = d.gipa(d.instance, name);
  if (!next) return nullptr;
  if (PFN_vkVoidFunction f = Find(std::begin(kDeviceEntries), std::end(kDeviceEntries), name)) return f;
  return next;
}

}  // namespace

extern "C" FAULT_EXPORT VKAPI_ATTR VkResult VKAPI_CALL
vkNegotiateLoaderLayerInterfaceVersion(VkNegotiateLayerInterface* version) {
  if (!version || version->sType != LAYER_NEGOTIATE_INTERFACE_STRUCT) return VK_ERROR_INITIALIZATION_FAILED;
  if (version->loaderLayerInterfaceVersion > 2) version->loaderLayerInterfaceVersion = 2;
  version->pfnGetInstanceProcAddr = GetInstanceProcAddr;
  version->pfnGetDeviceProcAddr = GetDeviceProcAddr;
  version->pfnGetPhysicalDeviceProcAddr = nullptr;
  return VK_SUCCESS;
}

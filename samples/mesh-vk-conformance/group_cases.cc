// Device-group cases (cases.h): what vkGetDeviceGroupPeerMemoryFeatures
// reports per heap and per pair of devices, each reported feature exercised
// between every two devices (copy source and destination, shader source and
// destination: a dispatch on one device reading or writing a peer's shard
// through its device mask), and one dispatch split over the devices with
// vkCmdDispatchBase. Oracles: the patterns written, and the kernel's formula
// (shaders/group_peer.comp) computed on the host.
//
// meshvk records only pulls (copies into the recording process's own
// buffer), so the copy-destination case records its own Vulkan command
// buffer on the process's VkDevice (meshvk/vulkan.h hands out the handles);
// Vulkan comes from the system loader (dlopen), not from the runtime's own
// function tables.
#define VK_NO_PROTOTYPES
#include <dlfcn.h>
#include <vulkan/vulkan.h>

#include <algorithm>
#include <chrono>
#include <cstring>

#include "cases.h"
#include "mesh_vk_conformance_shaders.h"
#include "meshvk/buffer.h"
#include "meshvk/command_buffer.h"
#include "meshvk/executable.h"
#include "meshvk/queue.h"
#include "meshvk/semaphore.h"
#include "meshvk/vulkan.h"

namespace meshvk_conformance {
namespace {

constexpr uint32_t kGroupSize = 64;                    // the kernel's local size
constexpr uint32_t kWorkgroups = 64;                   // per full dispatch
constexpr uint32_t kWords = kGroupSize * kWorkgroups;  // 16 KiB buffers

const char* const kFeatureChecks[] = {"copy_src", "copy_dst", "generic_src", "generic_dst"};
const VkPeerMemoryFeatureFlagBits kFeatureBits[] = {
    VK_PEER_MEMORY_FEATURE_COPY_SRC_BIT, VK_PEER_MEMORY_FEATURE_COPY_DST_BIT, VK_PEER_MEMORY_FEATURE_GENERIC_SRC_BIT,
    VK_PEER_MEMORY_FEATURE_GENERIC_DST_BIT};

// The loader's entry points the group cases call themselves.
struct Vk {
  PFN_vkGetPhysicalDeviceMemoryProperties memory_properties = nullptr;
  PFN_vkGetDeviceProcAddr device_proc = nullptr;
  bool ok() const { return memory_properties && device_proc; }
};

Vk LoadVk(meshvk_instance_t* instance) {
  Vk vk;
  static void* loader = dlopen("libvulkan.so.1", RTLD_NOW | RTLD_LOCAL);
  if (!loader) return vk;
  auto gipa = reinterpret_cast<PFN_vkGetInstanceProcAddr>(dlsym(loader, "vkGetInstanceProcAddr"));
  VkInstance vi = meshvk_instance_vk_instance(instance);
  if (!gipa || !vi) return vk;
  vk.memory_properties =
      reinterpret_cast<PFN_vkGetPhysicalDeviceMemoryProperties>(gipa(vi, "vkGetPhysicalDeviceMemoryProperties"));
  vk.device_proc = reinterpret_cast<PFN_vkGetDeviceProcAddr>(gipa(vi, "vkGetDeviceProcAddr"));
  return vk;
}

template <typename PFN>
PFN DeviceFn(const Vk& vk, VkDevice device, const char* name) {
  return reinterpret_cast<PFN>(vk.device_proc(device, name));
}

uint32_t GroupSize(meshvk_instance_t* instance, const Topology& topology) {
  meshvk_device_group_info_t info = MESHVK_DEVICE_GROUP_INFO_INIT;
  Status s(meshvk_instance_device_group_info(instance, topology.group_index, &info));
  return s.ok() ? info.device_count : 0;
}

std::string PairName(uint32_t a, uint32_t b) { return "group." + std::to_string(a) + "-" + std::to_string(b); }

std::vector<uint32_t> Pattern(uint32_t a, uint32_t b) {
  std::vector<uint32_t> words(kWords);
  for (uint32_t i = 0; i < kWords; ++i) words[i] = (i * 2246822519u) ^ (a << 28) ^ (b << 24) ^ 0x5a5a;
  return words;
}

std::vector<uint32_t> Complement(const std::vector<uint32_t>& words) {
  std::vector<uint32_t> out(words.size());
  for (size_t i = 0; i < words.size(); ++i) out[i] = ~words[i];
  return out;
}

// The shared state of one group topology's cases.
struct Group {
  meshvk_device_set_t* set = nullptr;
  meshvk_executable_t* kernel = nullptr;
  std::vector<meshvk_buffer_t*> src, dst;  // one of each per process (= device index)
  std::vector<uint32_t> features;          // [local * n + remote] of the shard heap
  uint32_t heap = 0, n = 0;
  Vk vk;
  const KitOptions* options = nullptr;
  ~Group() {
    for (meshvk_buffer_t* b : src) meshvk_buffer_release(b);
    for (meshvk_buffer_t* b : dst) meshvk_buffer_release(b);
    meshvk_executable_release(kernel);
    meshvk_device_set_release(set);
  }
};

std::string Write(meshvk_buffer_t* b, const std::vector<uint32_t>& words) {
  Status s(meshvk_buffer_write(b, 0, words.data(), words.size() * 4));
  return s.ok() ? "" : "write: " + s.Message();
}

// "" when `b` holds `want`, else the first differing word.
std::string Compare(meshvk_buffer_t* b, const std::vector<uint32_t>& want) {
  std::vector<uint32_t> got(want.size());
  Status s(meshvk_buffer_read(b, 0, got.data(), got.size() * 4));
  if (!s.ok()) return "read back: " + s.Message();
  for (size_t i = 0; i < want.size(); ++i)
    if (got[i] != want[i])
      return "word " + std::to_string(i) + " (byte " + std::to_string(i * 4) + "): got " + std::to_string(got[i]) +
             ", expected " + std::to_string(want[i]);
  return "";
}

// Records `record` into a meshvk command buffer of `process`, submits it and
// waits for it.
template <typename Record>
std::string RunOnProcess(Group& g, uint32_t process, Record record) {
  meshvk_command_buffer_t* cb = nullptr;
  meshvk_semaphore_t* done = nullptr;
  std::string e;
  Status c(meshvk_command_buffer_create(g.set, process, &cb));
  if (!c.ok()) return "command buffer: " + c.Message();
  Status sem(meshvk_semaphore_create(g.set, process, 0, &done));
  if (!sem.ok()) e = "semaphore: " + sem.Message();
  if (e.empty()) e = record(cb);
  if (e.empty()) {
    Status end(meshvk_command_buffer_end(cb));
    meshvk_semaphore_value_t signal = {done, 1};
    meshvk_submit_info_t submit = MESHVK_SUBMIT_INFO_INIT;
    submit.command_buffer = cb;
    submit.signals = &signal;
    submit.signal_count = 1;
    Status s(end.ok() ? meshvk_queue_submit(g.set, &submit) : MESHVK_OK);
    Status w(end.ok() && s.ok() ? meshvk_semaphore_wait(done, 1, g.options->timeout_ns) : MESHVK_OK);
    e = !end.ok() ? "end: " + end.Message()
        : !s.ok() ? "submit: " + s.Message()
        : !w.ok() ? "wait: " + w.Message()
                  : "";
  }
  meshvk_semaphore_release(done);
  meshvk_command_buffer_release(cb);
  return e;
}

std::string Dispatch(Group& g, uint32_t process, meshvk_buffer_t* src, meshvk_buffer_t* dst, uint32_t salt,
                     uint32_t base, uint32_t count) {
  return RunOnProcess(g, process, [&](meshvk_command_buffer_t* cb) -> std::string {
    meshvk_binding_t bindings[2] = {{src, 0, 0, 0}, {dst, 0, 0, 1}};
    uint32_t push[2] = {kWords, salt};
    meshvk_dispatch_info_t info = MESHVK_DISPATCH_INFO_INIT;
    info.executable = g.kernel;
    info.bindings = bindings;
    info.binding_count = 2;
    info.push_constants = push;
    info.push_constant_size = sizeof push;
    info.workgroup_count[0] = count, info.workgroup_count[1] = 1, info.workgroup_count[2] = 1;
    info.workgroup_base[0] = base;
    Status s(meshvk_command_buffer_dispatch(cb, &info));
    return s.ok() ? "" : "dispatch: " + s.Message();
  });
}

// A push: device `a` copies its own buffer into `dst` (another device's
// memory), recorded with the loader's functions on the group's VkDevice.
std::string PushCopy(Group& g, uint32_t a, meshvk_buffer_t* src, meshvk_buffer_t* dst) {
  meshvk_process_vulkan_t pv = MESHVK_PROCESS_VULKAN_INIT;
  Status s(meshvk_device_set_process_vulkan(g.set, a, &pv));
  if (!s.ok()) return s.Message();
  VkDevice d = pv.device;
  VkDeviceSize src_off = 0, dst_off = 0;
  VkBuffer vsrc = meshvk_buffer_vk_buffer(src, &src_off), vdst = meshvk_buffer_vk_buffer(dst, &dst_off);
  VkCommandPoolCreateInfo pool_info{VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO};
  pool_info.queueFamilyIndex = pv.queue_family;
  VkCommandPool pool = VK_NULL_HANDLE;
  VkFence fence = VK_NULL_HANDLE;
  VkCommandBuffer cb = VK_NULL_HANDLE;
  VkResult r = DeviceFn<PFN_vkCreateCommandPool>(g.vk, d, "vkCreateCommandPool")(d, &pool_info, nullptr, &pool);
  VkCommandBufferAllocateInfo alloc{VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO};
  alloc.commandPool = pool;
  alloc.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
  alloc.commandBufferCount = 1;
  if (r == VK_SUCCESS) r = DeviceFn<PFN_vkAllocateCommandBuffers>(g.vk, d, "vkAllocateCommandBuffers")(d, &alloc, &cb);
  VkDeviceGroupCommandBufferBeginInfo mask{VK_STRUCTURE_TYPE_DEVICE_GROUP_COMMAND_BUFFER_BEGIN_INFO};
  mask.deviceMask = pv.device_mask;
  VkCommandBufferBeginInfo begin{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO, &mask};
  begin.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT;
  if (r == VK_SUCCESS) r = DeviceFn<PFN_vkBeginCommandBuffer>(g.vk, d, "vkBeginCommandBuffer")(cb, &begin);
  if (r == VK_SUCCESS) {
    VkBufferCopy region{src_off, dst_off, kWords * 4};
    DeviceFn<PFN_vkCmdCopyBuffer>(g.vk, d, "vkCmdCopyBuffer")(cb, vsrc, vdst, 1, &region);
    // The copy's writes reach later submissions and the host.
    VkMemoryBarrier barrier{VK_STRUCTURE_TYPE_MEMORY_BARRIER};
    barrier.srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT;
    barrier.dstAccessMask = VK_ACCESS_MEMORY_READ_BIT | VK_ACCESS_HOST_READ_BIT;
    DeviceFn<PFN_vkCmdPipelineBarrier>(g.vk, d, "vkCmdPipelineBarrier")(
        cb, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_ALL_COMMANDS_BIT | VK_PIPELINE_STAGE_HOST_BIT, 0, 1,
        &barrier, 0, nullptr, 0, nullptr);
    r = DeviceFn<PFN_vkEndCommandBuffer>(g.vk, d, "vkEndCommandBuffer")(cb);
  }
  VkFenceCreateInfo fence_info{VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
  if (r == VK_SUCCESS) r = DeviceFn<PFN_vkCreateFence>(g.vk, d, "vkCreateFence")(d, &fence_info, nullptr, &fence);
  VkDeviceGroupSubmitInfo group{VK_STRUCTURE_TYPE_DEVICE_GROUP_SUBMIT_INFO};
  group.commandBufferCount = 1;
  group.pCommandBufferDeviceMasks = &pv.device_mask;
  VkSubmitInfo submit{VK_STRUCTURE_TYPE_SUBMIT_INFO, &group};
  submit.commandBufferCount = 1;
  submit.pCommandBuffers = &cb;
  if (r == VK_SUCCESS) r = DeviceFn<PFN_vkQueueSubmit>(g.vk, d, "vkQueueSubmit")(pv.queue, 1, &submit, fence);
  if (r == VK_SUCCESS)
    r = DeviceFn<PFN_vkWaitForFences>(g.vk, d, "vkWaitForFences")(d, 1, &fence, VK_TRUE, g.options->timeout_ns);
  if (fence) DeviceFn<PFN_vkDestroyFence>(g.vk, d, "vkDestroyFence")(d, fence, nullptr);
  if (pool) DeviceFn<PFN_vkDestroyCommandPool>(g.vk, d, "vkDestroyCommandPool")(d, pool, nullptr);
  if (r == VK_TIMEOUT)
    return "vkWaitForFences: timed out after " + std::to_string(g.options->timeout_ns / 1000000) + " ms";
  return r == VK_SUCCESS ? "" : "vkCmdCopyBuffer to the peer: VkResult " + std::to_string(r);
}

// One feature exercised with device `a` local and `b` remote: the data
// written by the operation must be what it computes.
std::string Exercise(Group& g, uint32_t check, uint32_t a, uint32_t b) {
  std::vector<uint32_t> in = Pattern(a, b), want = in;
  uint32_t salt = 17 + check;
  bool kernel = check >= 2;
  if (kernel)
    for (uint32_t& w : want) w = w * 3u + salt;
  // copy_src / generic_src read b's buffer into a's; the _dst checks write b's.
  bool push = check == 1 || check == 3;
  meshvk_buffer_t* from = push ? g.src[a] : g.src[b];
  meshvk_buffer_t* to = push ? g.dst[b] : g.dst[a];
  std::string e = Write(from, in);
  if (e.empty()) e = Write(to, Complement(want));  // an operation that did nothing cannot pass
  if (e.empty()) {
    if (check == 0) {
      e = RunOnProcess(g, a, [&](meshvk_command_buffer_t* cb) -> std::string {
        Status s(meshvk_command_buffer_copy(cb, from, 0, to, 0, kWords * 4));
        return s.ok() ? "" : "copy: " + s.Message();
      });
    } else if (check == 1) {
      e = PushCopy(g, a, from, to);
    } else {
      e = Dispatch(g, a, from, to, salt, 0, kWorkgroups);
    }
  }
  if (e.empty()) e = Compare(to, want);
  return e;
}

// Every process dispatches its slice of one grid (vkCmdDispatchBase): the
// slice of its own buffer holds the formula, the rest keeps its poison.
std::string DispatchBase(Group& g) {
  const uint32_t salt = 101;
  for (uint32_t p = 0; p < g.n; ++p) {
    uint32_t first = kWorkgroups * p / g.n, last = kWorkgroups * (p + 1) / g.n;
    std::vector<uint32_t> in = Pattern(p, p), want = in;
    for (uint32_t& w : want) w = w * 3u + salt;
    std::vector<uint32_t> expected = Complement(want);
    for (uint32_t i = first * kGroupSize; i < last * kGroupSize; ++i) expected[i] = want[i];
    std::string e = Write(g.src[p], in);
    if (e.empty()) e = Write(g.dst[p], Complement(want));
    if (e.empty()) e = Dispatch(g, p, g.src[p], g.dst[p], salt, first, last - first);
    if (e.empty()) e = Compare(g.dst[p], expected);
    if (!e.empty())
      return "device " + std::to_string(p) + " (workgroups " + std::to_string(first) + ".." + std::to_string(last) +
             "): " + e;
  }
  return "";
}

// The heap meshvk places shards in: the first device-local heap.
uint32_t ShardHeap(const Vk& vk, VkPhysicalDevice pd, bool* device_local_found) {
  VkPhysicalDeviceMemoryProperties mp{};
  vk.memory_properties(pd, &mp);
  for (uint32_t h = 0; h < mp.memoryHeapCount; ++h)
    if (mp.memoryHeaps[h].flags & VK_MEMORY_HEAP_DEVICE_LOCAL_BIT) return *device_local_found = true, h;
  *device_local_found = false;
  return 0;
}

std::string FeatureNames(uint32_t flags) {
  std::string out;
  for (int i = 0; i < 4; ++i)
    if (flags & kFeatureBits[i]) out += std::string(out.empty() ? "" : "|") + kFeatureChecks[i];
  return out.empty() ? "none" : out;
}

// Queries every heap and pair (recorded in the report), and checks the
// spec's floor: COPY_DST for every pair on at least one device-local heap.
std::string QueryFeatures(Group& g, TopologyResult& out) {
  meshvk_process_vulkan_t pv = MESHVK_PROCESS_VULKAN_INIT;
  Status s(meshvk_device_set_process_vulkan(g.set, 0, &pv));
  if (!s.ok()) return s.Message();
  VkPhysicalDeviceMemoryProperties mp{};
  g.vk.memory_properties(pv.physical_device, &mp);
  auto query = DeviceFn<PFN_vkGetDeviceGroupPeerMemoryFeatures>(g.vk, pv.device, "vkGetDeviceGroupPeerMemoryFeatures");
  if (!query) return "vkGetDeviceGroupPeerMemoryFeatures is missing";
  bool found = false;
  g.heap = ShardHeap(g.vk, pv.physical_device, &found);
  if (!found) return "no device-local memory heap";
  g.features.assign(g.n * g.n, 0);
  std::string floor;
  for (uint32_t a = 0; a < g.n; ++a)
    for (uint32_t b = 0; b < g.n; ++b) {
      if (a == b) continue;
      bool copy_dst = false;
      for (uint32_t h = 0; h < mp.memoryHeapCount; ++h) {
        VkPeerMemoryFeatureFlags f = 0;
        query(pv.device, h, a, b, &f);
        bool local = mp.memoryHeaps[h].flags & VK_MEMORY_HEAP_DEVICE_LOCAL_BIT;
        out.peer_features.push_back({h, a, b, f, local});
        if (h == g.heap) g.features[a * g.n + b] = f;
        copy_dst = copy_dst || (local && (f & VK_PEER_MEMORY_FEATURE_COPY_DST_BIT));
      }
      if (!copy_dst && floor.empty())
        floor = "device " + std::to_string(a) + " using device " + std::to_string(b) +
                "'s memory: no device-local heap reports COPY_DST (the spec requires one)";
    }
  return floor;
}

}  // namespace

std::vector<std::string> GroupCaseNames(meshvk_instance_t* instance, const Topology& topology) {
  std::vector<std::string> names;
  if (topology.kind != MESHVK_TOPOLOGY_DEVICE_GROUP) return names;
  uint32_t n = GroupSize(instance, topology);
  names.push_back("group.peer_features");
  for (uint32_t a = 0; a < n; ++a)
    for (uint32_t b = 0; b < n; ++b)
      if (a != b)
        for (const char* check : kFeatureChecks) names.push_back(PairName(a, b) + "." + check);
  names.push_back("group.dispatch_base");
  return names;
}

void RunGroupCases(meshvk_instance_t* instance, const Topology& topology, const KitOptions& options,
                   TopologyResult& out) {
  std::vector<std::string> names = GroupCaseNames(instance, topology);
  auto selected = [&](const std::string& n) { return options.selected(topology.name + "/" + n); };
  if (std::none_of(names.begin(), names.end(), selected)) return;
  auto start = std::chrono::steady_clock::now();
  auto seconds = [&] { return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(); };
  auto all = [&](Outcome outcome, const std::string& why) {
    for (const std::string& n : names)
      if (selected(n)) out.cases.push_back({n, outcome, why, 0});
  };
  Group g;
  g.options = &options;
  g.n = GroupSize(instance, topology);
  g.vk = LoadVk(instance);
  if (!g.vk.ok()) return all(Outcome::kFail, "the Vulkan loader (libvulkan.so.1) cannot be opened");
  meshvk_status_t raw = MESHVK_OK;
  g.set = CreateDeviceSet(instance, topology, g.n, options.timeout_ns, &raw);
  Status made(raw);
  if (!made.ok())
    return all(made.NotSupported() ? Outcome::kNotSupported : Outcome::kFail, "device set: " + made.Message());
  meshvk_executable_create_info_t kernel = MESHVK_EXECUTABLE_CREATE_INFO_INIT;
  kernel.spirv = meshvk_conformance_shaders::group_peer;
  kernel.spirv_size = meshvk_conformance_shaders::group_peer_word_count * 4;
  kernel.binding_count = 2;
  kernel.push_constant_size = 8;
  kernel.workgroup_size[0] = kGroupSize, kernel.workgroup_size[1] = 1, kernel.workgroup_size[2] = 1;
  Status k(meshvk_executable_create(g.set, &kernel, &g.kernel));
  if (!k.ok()) return all(Outcome::kFail, "the kit's kernel: " + k.Message());
  for (uint32_t p = 0; p < g.n; ++p) {
    meshvk_buffer_create_info_t info = MESHVK_BUFFER_CREATE_INFO_INIT;
    info.process = p;
    info.size = kWords * 4;
    g.src.push_back(nullptr), g.dst.push_back(nullptr);
    Status s1(meshvk_buffer_create_with_info(g.set, &info, &g.src.back()));
    Status s2(meshvk_buffer_create_with_info(g.set, &info, &g.dst.back()));
    if (!s1.ok() || !s2.ok()) return all(Outcome::kFail, "buffers: " + s1.Message() + s2.Message());
  }
  std::string floor = QueryFeatures(g, out);
  if (selected("group.peer_features"))
    out.cases.push_back({"group.peer_features", floor.empty() ? Outcome::kPass : Outcome::kFail, floor, seconds()});
  for (uint32_t a = 0; a < g.n; ++a)
    for (uint32_t b = 0; b < g.n; ++b)
      for (uint32_t c = 0; a != b && c < 4; ++c) {
        std::string name = PairName(a, b) + "." + kFeatureChecks[c];
        if (!selected(name)) continue;
        start = std::chrono::steady_clock::now();
        if (g.features.empty() || !(g.features[a * g.n + b] & kFeatureBits[c])) {
          out.cases.push_back({name, Outcome::kNotSupported,
                               "vkGetDeviceGroupPeerMemoryFeatures(heap " + std::to_string(g.heap) + ", local " +
                                   std::to_string(a) + ", remote " + std::to_string(b) + ") reports " +
                                   FeatureNames(g.features.empty() ? 0 : g.features[a * g.n + b]),
                               0});
          continue;
        }
        std::string e = Exercise(g, c, a, b);
        out.cases.push_back({name, e.empty() ? Outcome::kPass : Outcome::kFail, e, seconds()});
      }
  if (selected("group.dispatch_base")) {
    start = std::chrono::steady_clock::now();
    std::string e = DispatchBase(g);
    out.cases.push_back({"group.dispatch_base", e.empty() ? Outcome::kPass : Outcome::kFail, e, seconds()});
  }
}

}  // namespace meshvk_conformance

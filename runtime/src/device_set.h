// Internal view of meshvk_device_set_t (see meshvk/device_set.h).
#ifndef MESHVK_RUNTIME_SRC_DEVICE_SET_H_
#define MESHVK_RUNTIME_SRC_DEVICE_SET_H_

#include <volk.h>

#include <atomic>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "instance.h"
#include "meshvk/device_set.h"
#include "meshvk/executable.h"
#include "meshvk/vulkan.h"
#include "status.h"

namespace meshvk {

class StagingRingCache;  // host_staging.h

// One VkDevice of a set: a whole device group, or one physical device that
// several LOGICAL processes share.
// Without a chained meshvk_device_timeout_t: 60 s.
constexpr uint64_t kDefaultDeviceTimeoutNs = 60ull * 1000 * 1000 * 1000;

// What a VkDevice's pipeline cache did (meshvk_pipeline_cache_stats_t).
struct PipelineCacheCounters {
  bool file_loaded = false;            // it started from its file
  bool file_ignored = false;           // a file was there but failed a check (pipeline_cache.h)
  uint64_t loaded_bytes = 0;           // the driver data it started from
  uint64_t loaded_hash = 0;            // and its FNV-1a hash
  std::atomic<uint64_t> pipelines{0};  // compute pipelines created through it
  std::atomic<uint64_t> hits{0};       // of those, found in it (creation feedback)
  std::atomic<uint64_t> create_ns{0};  // host time in vkCreateComputePipelines
};

struct LogicalDevice {
  VkDevice device = VK_NULL_HANDLE;
  VolkDeviceTable vk{};                      // this device's entry points (one table per VkDevice)
  std::vector<uint32_t> physical_indices;    // group members; one for LOGICAL
  const PhysicalDevice* physical = nullptr;  // first member: limits, memory types
  uint32_t api_version = 0;
  uint32_t queue_family = 0;
  std::vector<VkQueue> queues;
  // vkQueueSubmit needs the queue externally synchronized; processes share queues.
  std::unique_ptr<std::mutex[]> queue_locks;
  // Per (queue, device of the group): an internal timeline signalled by every
  // submit, so a command buffer can be released only after its last
  // submission finished. Per device because the devices of a group run their
  // parts of one queue independently: one counter shared by all of them would
  // be signalled out of order. Index: queue * group_size() + device_index.
  std::vector<VkSemaphore> queue_timelines;
  std::vector<uint64_t> queue_timeline_values;  // guarded by queue_locks[queue]
  // A transfer-only queue family (a DMA engine: no compute or graphics, as a
  // discrete GPU's copy families), where the device has one and is meshvk's
  // own VkDevice of one physical device: host-staged copies and host I/O run
  // on its queue (host_staging.h). UINT32_MAX otherwise: they run on the
  // compute queue, as before. Buffers the queue touches are CONCURRENT over
  // both families, or shared with other VkDevices and acquired from
  // VK_QUEUE_FAMILY_EXTERNAL by each command buffer (buffer.h).
  uint32_t transfer_family = UINT32_MAX;
  VkQueue transfer_queue = VK_NULL_HANDLE;
  std::mutex transfer_queue_lock;
  // Signalled by every submission to the transfer queue; each compute
  // submission waits for its value then (queue.cc), as each transfer
  // submission waits for its compute queue's timeline: the two queues keep
  // the order one queue gave them. Values guarded by transfer_queue_lock.
  VkSemaphore transfer_timeline = VK_NULL_HANDLE;
  uint64_t transfer_timeline_value = 0;
  // Memory type used for every shard buffer, and its heap.
  uint32_t storage_memory_type = 0;
  uint32_t storage_heap = 0;
  bool storage_host_mappable = false;  // HOST_VISIBLE | HOST_COHERENT
  // peer[(local * D) + remote] for storage_heap: VkPeerMemoryFeatureFlags.
  std::vector<uint32_t> peer;
  // False for an application's VkDevice (meshvk/vulkan.h): never destroyed or
  // waited idle; its queues are shared under the application's lock.
  bool owns_device = true;
  // Used by every pipeline made on this device, kept across runs
  // (pipeline_cache.h); VK_NULL_HANDLE when it could not be made.
  VkPipelineCache pipeline_cache = VK_NULL_HANDLE;
  std::string pipeline_cache_file;  // where it is read from and saved; "" for none
  PipelineCacheCounters cache_counters;
  meshvk_queue_lock_t app_queue_lock{};
  // The external memory handle type this device's exportable shard buffers
  // use (VkExternalMemoryHandleTypeFlagBits; 0: it shares with no other
  // VkDevice of the set), and whether VK_KHR_external_memory_fd is enabled.
  uint32_t export_handle_type = 0;
  bool external_memory_fd = false;
  // VK_EXT_external_memory_host is enabled: host allocations aligned to this
  // (minImportedHostPointerAlignment) can be imported; 0 when it is not.
  uint64_t host_pointer_alignment = 0;
  // The shard memory type takes host pointers (the driver says so for a probe
  // allocation) and is host memory: a shard buffer another VkDevice reads is
  // one host allocation both import (external_memory.h).
  bool host_memory_shards = false;
  // VK_KHR_external_semaphore_fd is enabled (timelines exportable and
  // importable as opaque fds): semaphores are created exportable.
  bool external_semaphore_fd = false;
  // Host-visible staging memory held now, and the most held (host_staging.h).
  std::atomic<uint64_t> staging_bytes{0};
  std::atomic<uint64_t> peak_staging_bytes{0};
  StagingRingCache* staging_rings = nullptr;  // owned; freed before the VkDevice

  // Set when a wait timed out or reported a lost device (device_wait.h): the
  // device is never waited on again, so teardown cannot hang on it.
  std::atomic<bool> unresponsive{false};
  // The bound of every wait on work meshvk submitted here (the set's
  // meshvk_device_timeout_t): running past it sets `unresponsive`.
  uint64_t timeout_ns = kDefaultDeviceTimeoutNs;

  uint32_t group_size() const { return static_cast<uint32_t>(physical_indices.size()); }
  uint32_t timeline_index(uint32_t queue, uint32_t device_index) const { return queue * group_size() + device_index; }
};

// Holds queue `queue` of `device` for one vkQueueSubmit/vkQueueWaitIdle:
// meshvk's own mutex, then the application's lock for a shared queue.
class QueueLock {
 public:
  QueueLock(LogicalDevice& device, uint32_t queue) : device_(device), queue_(queue), lock_(device.queue_locks[queue]) {
    if (device_.app_queue_lock.lock) {
      device_.app_queue_lock.lock(device_.app_queue_lock.user_data, device_.queues[queue_]);
    }
  }
  ~QueueLock() {
    if (device_.app_queue_lock.unlock) {
      device_.app_queue_lock.unlock(device_.app_queue_lock.user_data, device_.queues[queue_]);
    }
  }
  QueueLock(const QueueLock&) = delete;
  QueueLock& operator=(const QueueLock&) = delete;

 private:
  LogicalDevice& device_;
  uint32_t queue_;
  std::lock_guard<std::mutex> lock_;
};

struct Process {
  uint32_t physical_device = 0;
  uint32_t device_index = 0;  // within the group (0 for LOGICAL)
  uint32_t logical_device = 0;
  uint32_t queue_index = 0;
};

}  // namespace meshvk

struct meshvk_device_set_s {
  std::atomic<uint32_t> refs{1};
  meshvk_instance_t* instance = nullptr;  // retained
  uint64_t device_timeout_ns = meshvk::kDefaultDeviceTimeoutNs;
  // Where its VkDevices keep their pipeline caches (meshvk_pipeline_cache_t,
  // else the default location); "" for none.
  std::string pipeline_cache_directory;
  meshvk_topology_t topology = MESHVK_TOPOLOGY_LOGICAL;
  std::vector<std::unique_ptr<meshvk::LogicalDevice>> devices;
  std::vector<meshvk::Process> processes;
  std::unique_ptr<std::atomic<uint64_t>[]> allocated_bytes;  // per process
  // pair_paths[src * devices.size() + dst]: how a copy from memory of
  // VkDevice src into VkDevice dst goes (src != dst; see copy_path.h).
  std::vector<meshvk_copy_path_info_t> pair_paths;
  std::mutex builtin_mutex;
  meshvk_executable_t* builtins[MESHVK_BUILTIN_COUNT] = {};

  bool is_group() const { return topology == MESHVK_TOPOLOGY_DEVICE_GROUP; }
  meshvk::LogicalDevice& DeviceOf(uint32_t process) const { return *devices[processes[process].logical_device]; }
  // "process 2 (physical device 0 'llvmpipe ...', device index 0)": the prefix
  // of every error about work of that process.
  std::string Where(uint32_t process) const;
  // OUT_OF_RANGE unless process < P; `what` names the calling API.
  meshvk::Status CheckProcess(uint32_t process, const char* what) const;
  // Peer memory features `local` has on memory owned by `remote`.
  uint32_t PeerFeatures(uint32_t local, uint32_t remote) const;
  // The path of a copy from memory of process `src` into process `dst`.
  meshvk_copy_path_info_t CopyPath(uint32_t src, uint32_t dst) const;
  // OK when `local` may access `remote`'s memory with all of `required`
  // (VkPeerMemoryFeatureFlags); UNIMPLEMENTED across VkDevices (they read a
  // peer through meshvk_buffer_import or meshvk_buffer_copy_host_staged),
  // UNAVAILABLE when the group lacks the peer feature.
  meshvk::Status CheckPeerAccess(uint32_t local, uint32_t remote, uint32_t required, const char* what) const;
};

namespace meshvk {

// Given device, physical, physical_indices, api_version, queue_family, queues
// and vk: creates the queue timelines, picks the storage memory type and reads
// the peer features. Shared by created and adopted devices (logical_device.cc).
Status SetUpLogicalDevice(meshvk_device_set_t* set, LogicalDevice* device);
// Creates one VkDevice over `members` (indices into the instance's physical
// devices; a group when members.size() > 1 or `as_group`) with `queue_count`
// queues of the first compute family and `extensions` besides meshvk's own,
// then sets it up. *out keeps what was made on failure (DestroyLogicalDevice
// frees it).
Status CreateLogicalDevice(meshvk_device_set_t* set, const std::vector<uint32_t>& members, bool as_group,
                           uint32_t queue_count, const std::vector<const char*>& extensions, LogicalDevice* out);
// Drains and frees what meshvk made of `device` (bounded; an unresponsive
// device is leaked, device_wait.h); an adopted VkDevice itself stays.
void DestroyLogicalDevice(LogicalDevice* device);
// The last step of freeing a set (device set release, or a failed create or
// import): its devices, then its reference to the instance.
void DestroySet(meshvk_device_set_t* set);
// What the structs chained to the set's create or import info `info` choose:
// the device timeout (meshvk_device_timeout_t; 60 s without one;
// INVALID_ARGUMENT for 0) and the pipeline cache directory
// (meshvk_pipeline_cache_t; pipeline_cache.h's default without one).
Status TakeChainedOptions(const void* info, meshvk_device_set_t* set);
// Hands the set's device timeout to each of its VkDevices (after creation).
void ApplyDeviceTimeout(meshvk_device_set_t* set);

// The arguments every per-process create shares (`what` names the API,
// `out_name` its out parameter). Clears *out first: a failed create leaves
// NULL behind, as the public headers promise.
template <typename T>
Status CheckProcessCreate(const meshvk_device_set_t* set, uint32_t process, T** out, const char* what,
                          const char* out_name) {
  if (!out) return MakeStatus(MESHVK_STATUS_INVALID_ARGUMENT, "%s: %s is NULL", what, out_name);
  *out = nullptr;
  if (!set) return MakeStatus(MESHVK_STATUS_INVALID_ARGUMENT, "%s: set is NULL", what);
  return set->CheckProcess(process, what);
}

}  // namespace meshvk

#endif  // MESHVK_RUNTIME_SRC_DEVICE_SET_H_

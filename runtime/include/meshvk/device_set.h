// meshvk/device_set.h — the devices a grid of P processes runs on.
//
// A device set maps each process p of a grid to a device and a queue:
//  * DEVICE_GROUP: one VkDevice over all physical devices of a group
//    (VkDeviceGroupDeviceCreateInfo); process p runs on device index p % D
//    (or as process_devices / physical_devices deal it). Buffers are allocated
//    per device (device masks), peers are reached through peer bindings,
//    commands are restricted with vkCmdSetDeviceMask.
//  * LOGICAL: every process on the first chosen physical device (one
//    VkDevice) unless process_devices maps them (then one VkDevice per
//    physical device used); processes share it, each with its own buffers,
//    command streams and, where the queue family has several, its own queue.
//  * INDEPENDENT: one VkDevice per physical device, each process on its own
//    device where there are enough (round robin over the chosen devices
//    otherwise). Copies between
//    VkDevices read the source's exported memory (external memory) or go
//    through host memory (host staging), whichever the pair of drivers allows
//    (meshvk_device_set_copy_path); waits across VkDevices happen on the host.
// Layers above do not need to know which one they run on.
// Reference counted (meshvk/meshvk.h): a set retains its instance; buffers,
// executables, semaphores, command buffers and programs retain their set.
// Threading: every query and meshvk_device_set_wait_idle are thread-safe
// (queues are locked); objects created on one set from several threads are
// independent.
// All devices need Vulkan 1.2 with timeline semaphores (UNAVAILABLE otherwise);
// shader features the device has (int64, int16, float16, 8/16-bit storage,
// Vulkan memory model) are enabled.
#ifndef MESHVK_DEVICE_SET_H_
#define MESHVK_DEVICE_SET_H_

#include "meshvk/instance.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct meshvk_device_set_s meshvk_device_set_t;

typedef enum meshvk_topology_e {
  // DEVICE_GROUP over a group of 2+ devices (with physical_devices: the
  // group holding all of them; without: the first group of 2+), else
  // INDEPENDENT when 2+ physical devices are chosen, else LOGICAL. Without
  // physical_devices every physical device is chosen, CPU devices (llvmpipe)
  // left out when a GPU is present.
  MESHVK_TOPOLOGY_AUTO = 0,
  MESHVK_TOPOLOGY_DEVICE_GROUP = 1,
  // All processes on the first chosen physical device (one VkDevice).
  MESHVK_TOPOLOGY_LOGICAL = 2,
  MESHVK_TOPOLOGY_INDEPENDENT = 3,
} meshvk_topology_t;

// "auto", "group", "logical", "independent"; "unknown" for another value.
const char* meshvk_topology_name(meshvk_topology_t topology);

typedef struct meshvk_device_set_create_info_s {
  meshvk_structure_type_t type;  // MESHVK_STRUCTURE_TYPE_DEVICE_SET_CREATE_INFO
  const void* next;              // may chain a meshvk_device_timeout_t and a meshvk_pipeline_cache_t
  meshvk_topology_t topology;
  uint32_t process_count;       // P >= 1
  uint32_t device_group_index;  // DEVICE_GROUP: which group (default 0)
  // LOGICAL/INDEPENDENT: optional, process_count entries: physical device of
  // process p. DEVICE_GROUP: optional, process_count entries: device index of
  // process p. NULL: as the topology deals them (above).
  const uint32_t* process_devices;
  // Optional (count 0: all): the physical devices to use, as indices into the
  // instance's list, in the order processes are dealt to them. DEVICE_GROUP
  // (and AUTO) use the group holding all of them. Checked even with
  // process_devices, which then decides the placement (the list still picks
  // the group).
  const uint32_t* physical_devices;
  uint32_t physical_device_count;
} meshvk_device_set_create_info_t;
#if MESHVK_DESIGNATED_INITIALIZERS
#define MESHVK_DEVICE_SET_CREATE_INFO_INIT \
  {.type = MESHVK_STRUCTURE_TYPE_DEVICE_SET_CREATE_INFO, .topology = MESHVK_TOPOLOGY_AUTO, .process_count = 1}
#else
#define MESHVK_DEVICE_SET_CREATE_INFO_INIT \
  {MESHVK_STRUCTURE_TYPE_DEVICE_SET_CREATE_INFO, NULL, MESHVK_TOPOLOGY_AUTO, 1, 0, NULL, NULL, 0}
#endif

// Chained to a device set's create (or import) info: how long work meshvk
// submitted may take on one of the set's devices before a wait takes the
// device as unresponsive (DEADLINE_EXCEEDED), after which meshvk never waits
// on it again (later waits on it fail at once with DEVICE_LOST; teardown
// skips its waits, see meshvk_leaked_object_count). Without it: 60 s
// (MESHVK_DEVICE_TIMEOUT_INIT's value; mesh-vk-run and the Python
// package set it from MESHVK_DEVICE_TIMEOUT_MS). MESHVK_TIMEOUT_INFINITE: no
// bound; 0 is INVALID_ARGUMENT. A wait with a shorter timeout of its own that
// runs out leaves the device as it is.
typedef struct meshvk_device_timeout_s {
  meshvk_structure_type_t type;  // MESHVK_STRUCTURE_TYPE_DEVICE_TIMEOUT
  const void* next;
  meshvk_timeout_t timeout;
} meshvk_device_timeout_t;
#if MESHVK_DESIGNATED_INITIALIZERS
#define MESHVK_DEVICE_TIMEOUT_INIT {.type = MESHVK_STRUCTURE_TYPE_DEVICE_TIMEOUT, .timeout = 60000000000ull}
#else
#define MESHVK_DEVICE_TIMEOUT_INIT {MESHVK_STRUCTURE_TYPE_DEVICE_TIMEOUT, NULL, 60000000000ull}
#endif

// Chained to a device set's create (or import) info: where each of its
// VkDevices keeps its VkPipelineCache across runs, so that creating a program
// a second time does not compile its pipelines again. `directory` NULL: no
// cache is read or written. Without it: $XDG_CACHE_HOME/meshvk, else
// $HOME/.cache/meshvk (the one default the library takes from the
// environment, as Mesa's shader cache does), none when neither names an
// absolute path. One file per physical device and driver
// (pipelines-<deviceUUID>-<driverUUID>.bin), written when the set is
// released: meshvk's header (vendor and device IDs, driver version, device,
// driver and pipeline-cache UUIDs, size and hash of the rest), then the
// driver's data, both checked before the driver sees it. A missing, short,
// truncated, damaged or foreign file, or a directory that cannot be written,
// is never an error: the device starts with an empty cache (counted in
// meshvk_pipeline_cache_stats_t) and the file is rewritten. Saves merge what
// another process saved since and replace the file by a rename, so
// concurrent processes never read half a file; a run that added nothing
// writes nothing.
// mesh-vk-run, the Python package and the tests chain one from
// MESHVK_PIPELINE_CACHE (a directory, or `off`).
typedef struct meshvk_pipeline_cache_s {
  meshvk_structure_type_t type;  // MESHVK_STRUCTURE_TYPE_PIPELINE_CACHE
  const void* next;
  const char* directory;  // copied at set creation; created when missing
} meshvk_pipeline_cache_t;
#define MESHVK_PIPELINE_CACHE_INIT MESHVK_STRUCT_INIT(MESHVK_STRUCTURE_TYPE_PIPELINE_CACHE)

// Creates the VkDevice(s), their queues and queue timelines (command pools
// belong to command buffers). INVALID_ARGUMENT for NULL instance/info/out_set,
// P=0, an unknown topology, a process_devices entry past the group or device
// count, a physical device listed twice or a count with a NULL list, or a
// chained device timeout of 0; OUT_OF_RANGE for device_group_index or a
// listed physical device past the count; UNAVAILABLE when the topology is
// impossible here (no group holds the listed devices, no physical device, a
// device without Vulkan 1.2 timeline semaphores or a compute queue family);
// a Vulkan error of vkCreateDevice as converted. *out_set NULL on failure.
// Retains `instance`.
meshvk_status_t meshvk_device_set_create(meshvk_instance_t* instance, const meshvk_device_set_create_info_t* info,
                                         meshvk_device_set_t** out_set);
void meshvk_device_set_retain(meshvk_device_set_t* set);
void meshvk_device_set_release(meshvk_device_set_t* set);

// The set's topology (never AUTO; AUTO for NULL) and process count (0 for NULL).
meshvk_topology_t meshvk_device_set_topology(const meshvk_device_set_t* set);
uint32_t meshvk_device_set_process_count(const meshvk_device_set_t* set);

typedef struct meshvk_process_info_s {
  meshvk_structure_type_t type;  // MESHVK_STRUCTURE_TYPE_PROCESS_INFO
  const void* next;
  uint32_t physical_device;  // index into the instance's physical devices
  uint32_t device_index;     // index within the device group (0 for LOGICAL)
  uint32_t logical_device;   // which VkDevice of the set (0..n-1)
  uint32_t queue_family;
  uint32_t queue_index;
} meshvk_process_info_t;
#define MESHVK_PROCESS_INFO_INIT MESHVK_STRUCT_INIT(MESHVK_STRUCTURE_TYPE_PROCESS_INFO)

// Where process `process` runs. This and meshvk_device_set_process_limits:
// INVALID_ARGUMENT for NULL or another structure type, OUT_OF_RANGE for a bad
// process.
meshvk_status_t meshvk_device_set_process_info(const meshvk_device_set_t* set, uint32_t process,
                                               meshvk_process_info_t* out_info);
// Limits of the device process `process` runs on (for codegen / verification).
meshvk_status_t meshvk_device_set_process_limits(const meshvk_device_set_t* set, uint32_t process,
                                                 meshvk_device_limits_t* out_limits);
// Peer memory features (VkPeerMemoryFeatureFlags) for `local` process reading
// or writing memory owned by `remote` process, for the heap shard buffers are
// allocated from. Same device: all bits. LOGICAL processes on one VkDevice
// share memory: all bits. Processes on different VkDevices: 0 (they reach
// each other's memory through copies: meshvk_device_set_copy_path).
// Out-of-range processes and NULL: 0.
uint32_t meshvk_device_set_peer_features(const meshvk_device_set_t* set, uint32_t local, uint32_t remote);

// The path a copy from memory of process `src` into memory of process `dst`
// takes in this set: SAME_DEVICE on one device (LOGICAL processes sharing a
// VkDevice included), GROUP_PEER inside a device group, and between VkDevices
// what meshvk_instance_copy_path reports for the two physical devices, or
// HOST_STAGING when the set could not enable the external-memory extension
// or the source device exports another handle type to its other readers;
// always HOST_STAGING between imported VkDevices (meshvk/vulkan.h: meshvk
// cannot know what the application enabled). INVALID_ARGUMENT for NULL or
// another structure type, OUT_OF_RANGE for a bad process.
meshvk_status_t meshvk_device_set_copy_path(const meshvk_device_set_t* set, uint32_t src, uint32_t dst,
                                            meshvk_copy_path_info_t* out_info);

// Bytes of host-visible staging memory process `process`'s device holds now
// for host-staged copies and host I/O (not counted in
// meshvk_device_set_allocated_bytes): the landing buffers of host-staged
// copies (MESHVK_BUFFER_STAGING_BIT) plus at most two staging rings of 2
// chunks (1 MiB each), kept between transfers (a copy through a host
// allocation both devices import counts that allocation instead, while it
// runs). 0 for NULL or a bad process.
uint64_t meshvk_device_set_staging_bytes(const meshvk_device_set_t* set, uint32_t process);
// The largest value meshvk_device_set_staging_bytes reached for the device of
// `process` since the set was created; 0 for NULL or a bad process.
uint64_t meshvk_device_set_peak_staging_bytes(const meshvk_device_set_t* set, uint32_t process);
// Bytes of device memory allocated for the live buffers of `process`
// (meshvk_buffer_allocation_size summed; staging buffers not counted); 0 for
// NULL or an out-of-range process.
uint64_t meshvk_device_set_allocated_bytes(const meshvk_device_set_t* set, uint32_t process);

// The device memory process `process`'s buffers come from: the heap of the
// memory type every shard buffer uses, its size (VkMemoryHeap::size; for a
// device group's multi-instance heap, what each device of the group has),
// and the bytes this set's live buffers hold on the same physical device now
// (every process placed on it: LOGICAL processes share one heap). `device`
// names the device as errors do: "physical device 0 'llvmpipe'", plus
// ", device index 1" in a group. For checking that a program fits before
// allocating it (meshvk_program_create). INVALID_ARGUMENT for NULL or
// another structure type, OUT_OF_RANGE for a bad process. No Vulkan call;
// thread-safe.
typedef struct meshvk_process_memory_s {
  meshvk_structure_type_t type;  // MESHVK_STRUCTURE_TYPE_PROCESS_MEMORY
  const void* next;
  uint32_t physical_device;  // index into the instance's physical devices
  uint32_t heap_index;
  uint64_t heap_bytes;
  uint64_t allocated_bytes;  // this set's live buffers on the physical device
  char device[MESHVK_MAX_NAME + 64];
} meshvk_process_memory_t;
#define MESHVK_PROCESS_MEMORY_INIT MESHVK_STRUCT_INIT(MESHVK_STRUCTURE_TYPE_PROCESS_MEMORY)
meshvk_status_t meshvk_device_set_process_memory(const meshvk_device_set_t* set, uint32_t process,
                                                 meshvk_process_memory_t* out_memory);

// Waits, device by device, until the work meshvk submitted on each queue has
// finished (its queue timelines, bounded by the device timeout), then
// vkQueueWaitIdle on each queue (on an imported queue this also waits for
// the application's work queued so far, unbounded) and, on VkDevices meshvk
// created, vkDeviceWaitIdle. INVALID_ARGUMENT for NULL; DEADLINE_EXCEEDED /
// DEVICE_LOST from the waits (DEVICE_LOST at once for a device that stopped
// answering).
meshvk_status_t meshvk_device_set_wait_idle(meshvk_device_set_t* set);

// What the set's pipeline caches (meshvk_pipeline_cache_t) did, summed over
// its VkDevices: whether they started from their files, and how the
// pipelines of every executable made on the set so far (programs, built-ins)
// were created. A warm run is one whose VkDevices all loaded their file; on a
// driver that reports it (Vulkan 1.3's pipeline creation feedback), its
// cache_hits equal its pipelines. (Mesa 22.3's lavapipe keeps no pipelines in
// its cache: its files hold the cache header alone and it reports no hits.)
// INVALID_ARGUMENT for NULL or another structure type. No Vulkan call;
// thread-safe.
typedef struct meshvk_pipeline_cache_stats_s {
  meshvk_structure_type_t type;  // MESHVK_STRUCTURE_TYPE_PIPELINE_CACHE_STATS
  const void* next;
  uint32_t device_count;   // the set's VkDevices
  uint32_t files_loaded;   // of those, the ones that started from their file
  uint32_t files_ignored;  // a file was there but not used: short, truncated, damaged, another device's or
                           // driver's, or refused by the driver (it is rewritten when the set is released)
  uint32_t reserved;
  uint64_t loaded_bytes;        // driver cache data read from the files
  uint64_t pipelines;           // compute pipelines created
  uint64_t cache_hits;          // of those, the driver found in the cache (0 where it does not say)
  uint64_t pipeline_create_ns;  // host time spent in vkCreateComputePipelines
} meshvk_pipeline_cache_stats_t;
#define MESHVK_PIPELINE_CACHE_STATS_INIT MESHVK_STRUCT_INIT(MESHVK_STRUCTURE_TYPE_PIPELINE_CACHE_STATS)
meshvk_status_t meshvk_device_set_pipeline_cache_stats(const meshvk_device_set_t* set,
                                                       meshvk_pipeline_cache_stats_t* out_stats);

// Vulkan objects meshvk left undestroyed on purpose in this process. After a
// wait on a device ran out its set's device timeout (meshvk_device_timeout_t)
// or reported a lost device, that device is never waited on again, and teardown must not
// destroy what its unfinished work may still use (undefined, and a hung
// driver can block inside the destroy call): releasing a buffer, semaphore,
// command buffer, executable or set of that device then leaves its Vulkan
// objects (memory, pools, pipelines, the VkDevice itself; the VkInstance
// once anything was left) alive and counts them here. The process is
// expected to exit soon after (mesh-vk-run exits 3); the OS reclaims them.
// 0 in every run where no device stopped answering. Thread-safe.
uint64_t meshvk_leaked_object_count(void);

#ifdef __cplusplus
}  // extern "C"
#endif

#endif  // MESHVK_DEVICE_SET_H_

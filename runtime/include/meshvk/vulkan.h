// meshvk/vulkan.h — embedding meshvk in an application that owns Vulkan.
//
// The Vulkan-typed functions of each noun: import the application's
// VkInstance and VkDevice(s) instead of creating them, tell the application
// what its device must enable, import its VkBuffers and timeline VkSemaphores,
// and hand out the native handles behind meshvk objects. The only public header that
// includes Vulkan's (vulkan_core.h; define VK_NO_PROTOTYPES before it as
// usual if you load Vulkan yourself).
//
// Ownership: meshvk never destroys, frees or waits idle on an object it did
// not create. An imported instance or device must outlive every meshvk object
// made from it; an imported buffer's memory or semaphore must outlive the
// meshvk_buffer_t / meshvk_semaphore_t and every program or command buffer
// that uses it.
//
// Threading (in addition to each noun's header):
//  * Queues: meshvk submits to an imported queue only while holding the
//    application's meshvk_queue_lock_t (and its own per-queue mutex), so the
//    application may submit to the same VkQueue from other threads as long as
//    it takes the same lock. Without a lock callback the application must not
//    use those queues while meshvk may submit (any invoke/submit/release, and
//    until the signals of an async invoke over several VkDevices, which a
//    worker thread submits).
//  * meshvk never calls vkDeviceWaitIdle on an imported device: it waits on
//    its own timeline semaphores. It calls vkQueueWaitIdle (under the queue
//    lock) in meshvk_device_set_wait_idle and when the set is released,
//    after its own work finished, and, on lavapipe only, when a command
//    buffer it submitted is released (that driver still reads a command
//    buffer after signalling its work).
#ifndef MESHVK_VULKAN_H_
#define MESHVK_VULKAN_H_

#include <vulkan/vulkan_core.h>

#include "meshvk/buffer.h"
#include "meshvk/device_set.h"
#include "meshvk/executable.h"
#include "meshvk/instance.h"
#include "meshvk/semaphore.h"

#ifdef __cplusplus
extern "C" {
#endif

// --- instance ----------------------------------------------------------------

typedef struct meshvk_instance_import_info_s {
  meshvk_structure_type_t type;  // MESHVK_STRUCTURE_TYPE_INSTANCE_IMPORT_INFO
  const void* next;
  uint32_t meshvk_api_version;                       // MESHVK_VERSION (as meshvk_instance_create_info_t)
  VkInstance instance;                               // the application's, not destroyed
  PFN_vkGetInstanceProcAddr get_instance_proc_addr;  // NULL: the system loader's
  uint32_t api_version;                              // VkApplicationInfo::apiVersion it was created with (>= 1.2)
} meshvk_instance_import_info_t;
#if MESHVK_DESIGNATED_INITIALIZERS
#define MESHVK_INSTANCE_IMPORT_INFO_INIT \
  {.type = MESHVK_STRUCTURE_TYPE_INSTANCE_IMPORT_INFO, .meshvk_api_version = MESHVK_VERSION}
#else
#define MESHVK_INSTANCE_IMPORT_INFO_INIT \
  {MESHVK_STRUCTURE_TYPE_INSTANCE_IMPORT_INFO, NULL, MESHVK_VERSION, VK_NULL_HANDLE, NULL, 0}
#endif

// Wraps the application's instance: enumerates its physical devices and groups
// (as meshvk_instance_create does) but creates no instance and no debug
// messenger (validation messages go to the application's own messenger;
// meshvk_instance_message_count stays 0). The last meshvk_instance_release
// frees only meshvk's bookkeeping. INVALID_ARGUMENT for NULL info/instance/
// out_instance, another structure type or meshvk_api_version 0; UNAVAILABLE
// for api_version < 1.2, headers this runtime does not serve, or no Vulkan
// loader when get_instance_proc_addr is NULL. Not thread-safe against other
// uses of the same
// VkInstance's enumeration (the usual Vulkan rule).
meshvk_status_t meshvk_instance_import(const meshvk_instance_import_info_t* info, meshvk_instance_t** out_instance);
// The VkInstance (created or imported); VK_NULL_HANDLE for NULL.
VkInstance meshvk_instance_vk_instance(const meshvk_instance_t* instance);

// --- what meshvk needs from a device ------------------------------------------

typedef struct meshvk_vulkan_requirements_s {
  meshvk_structure_type_t type;  // MESHVK_STRUCTURE_TYPE_VULKAN_REQUIREMENTS
  const void* next;
  uint32_t api_version;  // minimum instance and device API version
  uint32_t device_extension_count;
  const char* const* device_extensions;  // device_extension_count static strings
  uint32_t timeline_semaphore;           // VkPhysicalDeviceVulkan12Features (always 1)
  uint32_t queue_flags;                  // VkQueueFlags the queues given to meshvk need
  meshvk_shader_features_t shader;       // from `shader_features`, as given
} meshvk_vulkan_requirements_t;
#define MESHVK_VULKAN_REQUIREMENTS_INIT MESHVK_STRUCT_INIT(MESHVK_STRUCTURE_TYPE_VULKAN_REQUIREMENTS)

// What an application must enable when it creates the VkInstance/VkDevice it
// will hand to meshvk: Vulkan 1.2, timeline semaphores, a compute queue, the
// shader features of what it will run (`shader_features`, e.g. from
// meshvk_module_shader_features; NULL: the built-ins only), and for
// MESHVK_TOPOLOGY_DEVICE_GROUP nothing beyond core 1.1 device groups (no
// device extension: device_extension_count is 0). Call it before creating
// the device. INVALID_ARGUMENT for a NULL `out`, a struct of another
// structure type, or a topology other than AUTO, LOGICAL and DEVICE_GROUP
// (an imported set is never INDEPENDENT). Thread-safe.
meshvk_status_t meshvk_vulkan_requirements(meshvk_topology_t topology, const meshvk_shader_features_t* shader_features,
                                           meshvk_vulkan_requirements_t* out);

// --- device set ---------------------------------------------------------------

// The application's lock for queues it shares with meshvk. meshvk calls
// lock(user_data, queue) right before and unlock(user_data, queue) right after
// each vkQueueSubmit it makes on an imported queue, from whatever thread made
// the meshvk call, or from a program's worker thread (an async invoke over
// several VkDevices runs there: meshvk_program_invoke_async). Both must be
// set, or both NULL (no sharing).
typedef struct meshvk_queue_lock_s {
  void (*lock)(void* user_data, VkQueue queue);
  void (*unlock)(void* user_data, VkQueue queue);
  void* user_data;
} meshvk_queue_lock_t;

// One application VkDevice and the queues meshvk may submit to.
typedef struct meshvk_imported_device_s {
  // The physical device(s) it was created over: one, or a device group's
  // members in VkDeviceGroupDeviceCreateInfo order. Each must be one of the
  // instance's (meshvk_instance_physical_device_info).
  const VkPhysicalDevice* physical_devices;
  uint32_t physical_device_count;
  VkDevice device;        // not destroyed
  uint32_t api_version;   // the device's effective API version (>= 1.2)
  uint32_t queue_family;  // must support compute and transfer
  const VkQueue* queues;  // from vkGetDeviceQueue on queue_family
  uint32_t queue_count;   // >= 1
} meshvk_imported_device_t;

typedef struct meshvk_device_set_import_info_s {
  meshvk_structure_type_t type;  // MESHVK_STRUCTURE_TYPE_DEVICE_SET_IMPORT_INFO
  const void* next;              // may chain a meshvk_device_timeout_t and a meshvk_pipeline_cache_t
  uint32_t process_count;        // P >= 1
  const meshvk_imported_device_t* devices;
  uint32_t device_count;  // >= 1
  // process_count entries: which imported device process p runs on (and, for a
  // device over a group, process p's device index is p % group size). NULL:
  // round robin over the devices.
  const uint32_t* process_devices;
  meshvk_queue_lock_t queue_lock;  // shared by all imported queues
} meshvk_device_set_import_info_t;
#define MESHVK_DEVICE_SET_IMPORT_INFO_INIT MESHVK_STRUCT_INIT(MESHVK_STRUCTURE_TYPE_DEVICE_SET_IMPORT_INFO)

// A device set on the application's VkDevice(s): topology DEVICE_GROUP when
// the (single) device spans several physical devices, else LOGICAL. The
// device(s) must have been created with meshvk_vulkan_requirements enabled
// (meshvk cannot query what a VkDevice enabled; missing features show as
// validation errors). meshvk creates its own timeline semaphores and command
// pools on them and destroys only those. Processes on one imported device
// round-robin its queues. Copies between imported VkDevices go through host
// staging. INVALID_ARGUMENT for NULL handles, another structure type, P=0 or
// no device, a device over a group that is not the only device, a queue_lock
// with only one of lock/unlock, a physical device that is not the
// instance's, a bad mapping or a chained device timeout of 0; UNAVAILABLE for
// an API version below 1.2 or a queue family without compute. *out_set NULL
// on failure. Retains `instance`.
meshvk_status_t meshvk_device_set_import(meshvk_instance_t* instance, const meshvk_device_set_import_info_t* info,
                                         meshvk_device_set_t** out_set);

// Native handles of process `process`: its VkDevice, VkPhysicalDevice, the
// VkQueue it submits to and that queue's family. INVALID_ARGUMENT for NULL or
// another structure type, OUT_OF_RANGE for a bad process. Thread-safe.
typedef struct meshvk_process_vulkan_s {
  meshvk_structure_type_t type;  // MESHVK_STRUCTURE_TYPE_PROCESS_VULKAN
  const void* next;
  VkPhysicalDevice physical_device;
  VkDevice device;
  VkQueue queue;
  uint32_t queue_family;
  uint32_t device_mask;  // device group: 1 << device index; else 1
} meshvk_process_vulkan_t;
#define MESHVK_PROCESS_VULKAN_INIT MESHVK_STRUCT_INIT(MESHVK_STRUCTURE_TYPE_PROCESS_VULKAN)
meshvk_status_t meshvk_device_set_process_vulkan(const meshvk_device_set_t* set, uint32_t process,
                                                 meshvk_process_vulkan_t* out);

// --- buffers --------------------------------------------------------------------

// Wraps bytes [offset, offset + range) of the application's `buffer` (created
// on the VkDevice of `process` with STORAGE_BUFFER | TRANSFER_SRC |
// TRANSFER_DST usage and bound to memory) as a shard buffer of `process`.
// offset must be a multiple of minStorageBufferOffsetAlignment. The VkBuffer
// and its memory stay the application's: release frees only the wrapper, and
// allocated-bytes accounting does not count it. Host read/write go through a
// staging copy. The application must order its own use of the bytes against
// meshvk's with semaphores (meshvk_program_invoke_async). OUT_OF_RANGE /
// INVALID_ARGUMENT as for meshvk_buffer_create, INVALID_ARGUMENT too for a
// NULL info or VkBuffer, another structure type, range 0 or a misaligned
// offset (the range is not checked against the VkBuffer's size). Retains
// the set.
typedef struct meshvk_buffer_import_info_s {
  meshvk_structure_type_t type;  // MESHVK_STRUCTURE_TYPE_BUFFER_IMPORT_INFO
  const void* next;
  uint32_t process;
  VkBuffer buffer;
  VkDeviceSize offset;
  VkDeviceSize range;
} meshvk_buffer_import_info_t;
#define MESHVK_BUFFER_IMPORT_INFO_INIT MESHVK_STRUCT_INIT(MESHVK_STRUCTURE_TYPE_BUFFER_IMPORT_INFO)
meshvk_status_t meshvk_buffer_import(meshvk_device_set_t* set, const meshvk_buffer_import_info_t* info,
                                     meshvk_buffer_t** out_buffer);
// The VkBuffer behind a shard buffer and where its bytes start in it (0 unless
// imported with an offset); VK_NULL_HANDLE for NULL. Thread-safe.
VkBuffer meshvk_buffer_vk_buffer(const meshvk_buffer_t* buffer, VkDeviceSize* out_offset);

// --- semaphores -----------------------------------------------------------------

// Wraps the application's timeline VkSemaphore (created on the VkDevice of
// `process`) so meshvk can wait on and signal it. Not destroyed on release.
// Waits on it are bounded by their own timeout only (meshvk/semaphore.h); it
// cannot be shared (meshvk_semaphore_share: UNAVAILABLE). INVALID_ARGUMENT
// for NULL set/semaphore/out_semaphore, OUT_OF_RANGE for a bad process.
// meshvk cannot check that it is a timeline semaphore. Retains the set.
meshvk_status_t meshvk_semaphore_import(meshvk_device_set_t* set, uint32_t process, VkSemaphore semaphore,
                                        meshvk_semaphore_t** out_semaphore);
// The timeline VkSemaphore behind a meshvk semaphore; VK_NULL_HANDLE for NULL.
// Thread-safe.
VkSemaphore meshvk_semaphore_vk_semaphore(const meshvk_semaphore_t* semaphore);

#ifdef __cplusplus
}  // extern "C"
#endif

#endif  // MESHVK_VULKAN_H_

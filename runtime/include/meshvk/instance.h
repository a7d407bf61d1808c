// meshvk/instance.h — the Vulkan instance and device discovery.
//
// An instance loads Vulkan (through volk), optionally with the Khronos validation
// layer, and enumerates physical devices and device groups. Threading: the
// query functions may be called concurrently (the peer-feature cache is
// locked); the last release must not race with other uses of the instance.
#ifndef MESHVK_INSTANCE_H_
#define MESHVK_INSTANCE_H_

#include "meshvk/status.h"
#include "meshvk/version.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct meshvk_instance_s meshvk_instance_t;

#define MESHVK_MAX_NAME 256
#define MESHVK_MAX_GROUP_DEVICES 32  // VK_MAX_DEVICE_GROUP_SIZE
#define MESHVK_MAX_HEAPS 16          // VK_MAX_MEMORY_HEAPS

typedef enum meshvk_instance_flag_bits_e {
  // Enable VK_LAYER_KHRONOS_validation. (The runtime reads no environment
  // variable: mesh-vk-run and the Python package set this from
  // MESHVK_VALIDATION=1, and the sync bit from MESHVK_VALIDATION=sync.)
  MESHVK_INSTANCE_VALIDATION_BIT = 1u << 0,
  // With validation: also enable synchronization validation.
  MESHVK_INSTANCE_SYNC_VALIDATION_BIT = 1u << 1,
} meshvk_instance_flag_bits_t;
typedef uint32_t meshvk_instance_flags_t;

typedef enum meshvk_message_severity_e {
  MESHVK_MESSAGE_INFO = 0,
  MESHVK_MESSAGE_WARNING = 1,
  MESHVK_MESSAGE_ERROR = 2,
} meshvk_message_severity_t;

// Receives every validation-layer (VK_EXT_debug_utils) message of warning or
// error severity: validation and performance messages, and errors of any type.
// The loader's general warnings (e.g. about VK_INSTANCE_LAYERS being set) are
// not passed on. Called on the thread that made the Vulkan call.
typedef void (*meshvk_message_callback_t)(meshvk_message_severity_t severity, const char* message, void* user_data);

typedef struct meshvk_instance_create_info_s {
  meshvk_structure_type_t type;  // MESHVK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO
  const void* next;
  // The version of the headers the caller was compiled with (MESHVK_VERSION,
  // which the initializer sets): the runtime refuses headers of another major
  // version or of a newer minor version than its own (UNAVAILABLE).
  uint32_t api_version;
  meshvk_instance_flags_t flags;
  meshvk_message_callback_t message_callback;  // NULL: print to stderr
  void* message_user_data;
  const char* application_name;  // may be NULL
} meshvk_instance_create_info_t;
#if MESHVK_DESIGNATED_INITIALIZERS
#define MESHVK_INSTANCE_CREATE_INFO_INIT \
  {.type = MESHVK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO, .api_version = MESHVK_VERSION}
#else
#define MESHVK_INSTANCE_CREATE_INFO_INIT \
  {MESHVK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO, NULL, MESHVK_VERSION, 0, NULL, NULL, NULL}
#endif

// Creates an instance (vkCreateInstance, Vulkan 1.1+ required).
// INVALID_ARGUMENT for a NULL `info`/`out_instance`, another structure type or
// info->api_version 0; UNAVAILABLE when no Vulkan loader is found or it is
// older than 1.1, validation was requested and the layer is missing, or
// info->api_version is not one this runtime serves; a vkCreateInstance error
// as converted (meshvk/status.h). *out_instance is NULL on failure. Device
// sets retain their instance.
meshvk_status_t meshvk_instance_create(const meshvk_instance_create_info_t* info, meshvk_instance_t** out_instance);
void meshvk_instance_retain(meshvk_instance_t* instance);
void meshvk_instance_release(meshvk_instance_t* instance);

// Number of validation messages (warning or error) seen since creation; 0 for NULL.
uint64_t meshvk_instance_message_count(const meshvk_instance_t* instance);

typedef struct meshvk_device_limits_s {
  meshvk_structure_type_t type;  // MESHVK_STRUCTURE_TYPE_DEVICE_LIMITS
  const void* next;
  uint32_t max_workgroup_size[3];
  uint32_t max_workgroup_count[3];
  uint32_t max_workgroup_invocations;
  uint32_t max_shared_memory_bytes;
  uint32_t subgroup_size;
  uint32_t max_push_constants_bytes;
  uint32_t max_storage_buffer_range;
  uint64_t max_memory_allocation_size;
  uint64_t min_storage_buffer_offset_alignment;
} meshvk_device_limits_t;
#define MESHVK_DEVICE_LIMITS_INIT MESHVK_STRUCT_INIT(MESHVK_STRUCTURE_TYPE_DEVICE_LIMITS)

typedef struct meshvk_queue_family_info_s {
  uint32_t queue_flags;  // VkQueueFlags
  uint32_t queue_count;
  uint32_t timestamp_valid_bits;
} meshvk_queue_family_info_t;

typedef struct meshvk_physical_device_info_s {
  meshvk_structure_type_t type;  // MESHVK_STRUCTURE_TYPE_PHYSICAL_DEVICE_INFO
  const void* next;
  char name[MESHVK_MAX_NAME];  // VK_MAX_PHYSICAL_DEVICE_NAME_SIZE
  uint32_t vendor_id;
  uint32_t device_id;
  uint32_t device_type;  // VkPhysicalDeviceType
  uint32_t api_version;
  float timestamp_period_ns;
  uint32_t shader_float16;        // 1 if shaderFloat16 is supported
  uint32_t storage_buffer_16bit;  // 1 if storageBuffer16BitAccess
  uint32_t queue_family_count;
  const meshvk_queue_family_info_t* queue_families;  // queue_family_count entries, owned by the instance
  uint32_t heap_count;
  uint64_t heap_sizes[MESHVK_MAX_HEAPS];  // VK_MAX_MEMORY_HEAPS bounds the count
  uint32_t heap_flags[MESHVK_MAX_HEAPS];  // VkMemoryHeapFlags
  meshvk_device_limits_t limits;
  // VkPhysicalDeviceIDProperties: two devices share external memory and
  // semaphores through opaque fds only when both UUIDs match.
  uint8_t device_uuid[16];
  uint8_t driver_uuid[16];
  // VkPhysicalDeviceDriverProperties (Vulkan 1.2 devices; 0 and "" before).
  uint32_t driver_id;  // VkDriverId
  char driver_name[MESHVK_MAX_NAME];
  uint32_t shader_float64;  // 1 if VkPhysicalDeviceFeatures::shaderFloat64 (added last: the layout above is kept)
} meshvk_physical_device_info_t;
#define MESHVK_PHYSICAL_DEVICE_INFO_INIT MESHVK_STRUCT_INIT(MESHVK_STRUCTURE_TYPE_PHYSICAL_DEVICE_INFO)

uint32_t meshvk_instance_physical_device_count(const meshvk_instance_t* instance);
// Fills `out_info` for physical device `index` (OUT_OF_RANGE past the count).
// Its queue_families pointer stays valid while the instance lives.
meshvk_status_t meshvk_instance_physical_device_info(const meshvk_instance_t* instance, uint32_t index,
                                                     meshvk_physical_device_info_t* out_info);

// The name meshvk's tools print for a VkPhysicalDeviceType
// (meshvk_physical_device_info_t::device_type): "integrated-gpu",
// "discrete-gpu", "virtual-gpu", "cpu", or "other" for
// VK_PHYSICAL_DEVICE_TYPE_OTHER and any value Vulkan does not define. Never
// NULL; a static string (do not free). Thread-safe, no Vulkan call.
const char* meshvk_physical_device_type_name(uint32_t device_type);

typedef struct meshvk_device_group_info_s {
  meshvk_structure_type_t type;  // MESHVK_STRUCTURE_TYPE_DEVICE_GROUP_INFO
  const void* next;
  uint32_t device_count;
  // Indices into the instance's physical device list (VK_MAX_DEVICE_GROUP_SIZE
  // bounds the count).
  uint32_t physical_devices[MESHVK_MAX_GROUP_DEVICES];
  uint32_t subset_allocation;  // VkPhysicalDeviceGroupProperties::subsetAllocation
  uint32_t heap_count;         // heaps meshvk_instance_device_group_peer_features answers for
} meshvk_device_group_info_t;
#define MESHVK_DEVICE_GROUP_INFO_INIT MESHVK_STRUCT_INIT(MESHVK_STRUCTURE_TYPE_DEVICE_GROUP_INFO)

uint32_t meshvk_instance_device_group_count(const meshvk_instance_t* instance);
// Fills `out_info` for device group `index` (OUT_OF_RANGE past the count).
meshvk_status_t meshvk_instance_device_group_info(meshvk_instance_t* instance, uint32_t index,
                                                  meshvk_device_group_info_t* out_info);
// The VkPeerMemoryFeatureFlags (vkGetDeviceGroupPeerMemoryFeatures) for group
// `index`'s device `local` using memory of heap `heap` that lives on device
// `remote` (positions in the group; local == remote reports all bits). The
// first call for a group creates a temporary VkDevice over it (the query
// needs a device) and caches every answer; that device's creation can fail
// (UNAVAILABLE without a compute queue family, or the vkCreateDevice error).
// OUT_OF_RANGE for a bad group index, heap or device position.
meshvk_status_t meshvk_instance_device_group_peer_features(meshvk_instance_t* instance, uint32_t index, uint32_t heap,
                                                           uint32_t local, uint32_t remote, uint32_t* out_features);

// ---- copies between devices ------------------------------------------------
// How bytes owned by one device reach another, fastest first. A copy is always
// recorded on the destination (a pull); what differs is what it reads from.
typedef enum meshvk_copy_path_e {
  MESHVK_COPY_PATH_NONE = 0,             // no path (bad index)
  MESHVK_COPY_PATH_SAME_DEVICE = 1,      // the same memory: a local copy
  MESHVK_COPY_PATH_GROUP_PEER = 2,       // a device group's peer memory (one VkDevice)
  MESHVK_COPY_PATH_EXTERNAL_MEMORY = 3,  // the source's memory exported and imported (fd)
  MESHVK_COPY_PATH_HOST_STAGING = 4,     // through host memory, chunked and double-buffered
  MESHVK_COPY_PATH_COUNT = 5,
} meshvk_copy_path_t;

// "same device", "group peer memory", "external memory", "host staging";
// "none" for MESHVK_COPY_PATH_NONE and any other value. A static string.
const char* meshvk_copy_path_name(meshvk_copy_path_t path);

typedef struct meshvk_copy_path_info_s {
  meshvk_structure_type_t type;  // MESHVK_STRUCTURE_TYPE_COPY_PATH_INFO
  const void* next;
  meshvk_copy_path_t path;
  // EXTERNAL_MEMORY: the VkExternalMemoryHandleTypeFlagBits used (host
  // allocation, opaque fd or dma-buf); 0 otherwise.
  uint32_t handle_type;
  // 1 when both devices can share a timeline semaphore through an opaque fd
  // (VK_KHR_external_semaphore_fd, exportable and importable, same
  // deviceUUID/driverUUID). For a set's pair (meshvk_device_set_copy_path):
  // the extension is enabled on both VkDevices, and the executor makes the
  // consumer's submission wait on a view of the producer's semaphore
  // (meshvk_semaphore_share) for copies by external memory; the host waits
  // otherwise (host staging needs the host anyway).
  uint32_t external_semaphores;
  char reason[MESHVK_MAX_NAME];  // one line: why this path and not a faster one
} meshvk_copy_path_info_t;
#define MESHVK_COPY_PATH_INFO_INIT MESHVK_STRUCT_INIT(MESHVK_STRUCTURE_TYPE_COPY_PATH_INFO)

// The path a copy from memory of physical device `src` into memory of physical
// device `dst` takes when they are separate VkDevices (src == dst: SAME_DEVICE;
// members of one device group report EXTERNAL_MEMORY or HOST_STAGING too, as
// they would outside a group: see meshvk_device_set_copy_path for a set). Decided
// from what the drivers report: one host allocation both import
// (VK_EXT_external_memory_host) when both devices' memory is host memory (every
// device-local memory type host-visible), else VK_KHR_external_memory_fd with
// opaque fd handles when deviceUUID and driverUUID match, else
// VK_EXT_external_memory_dma_buf on both, else host staging. OUT_OF_RANGE for a
// bad index.
meshvk_status_t meshvk_instance_copy_path(const meshvk_instance_t* instance, uint32_t src, uint32_t dst,
                                          meshvk_copy_path_info_t* out_info);

#ifdef __cplusplus
}  // extern "C"
#endif

#endif  // MESHVK_INSTANCE_H_

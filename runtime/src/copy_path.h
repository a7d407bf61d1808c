// Copy paths between devices: what two physical devices can share, and the
// fastest way a copy from one into the other can go (see meshvk_copy_path_t).
// Decided in one place, from what the drivers report, for --list-devices, the
// device set and the executor alike.
#ifndef MESHVK_RUNTIME_SRC_COPY_PATH_H_
#define MESHVK_RUNTIME_SRC_COPY_PATH_H_

#include <volk.h>

#include <string>
#include <vector>

#include "instance.h"
#include "meshvk/device_set.h"
#include "meshvk/instance.h"
#include "status.h"

namespace meshvk {

// What one physical device offers for sharing memory and semaphores with
// another VkDevice, for storage buffers (usage storage | transfer src/dst).
struct SharingCapabilities {
  bool memory_fd_extension = false;     // VK_KHR_external_memory_fd
  bool dma_buf_extension = false;       // VK_EXT_external_memory_dma_buf
  bool semaphore_fd_extension = false;  // VK_KHR_external_semaphore_fd
  // VK_EXT_external_memory_host: a host allocation imported as device memory
  // (host staging then shares one allocation between two devices, no memcpy).
  bool memory_host_extension = false;
  uint64_t host_pointer_alignment = 0;  // minImportedHostPointerAlignment
  // A host allocation can be imported as the memory of a shard buffer
  // (VK_EXTERNAL_MEMORY_HANDLE_TYPE_HOST_ALLOCATION_BIT_EXT importable).
  bool host_allocation_import = false;
  // The device's memory is host memory: it has device-local memory types and
  // every one of them is host-visible and coherent (CPU devices such as
  // lavapipe, integrated GPUs with one unified heap), so a shard buffer in a
  // host allocation costs what a shard buffer in its own memory costs.
  bool memory_is_host = false;
  bool opaque_fd_export = false, opaque_fd_import = false;
  bool dma_buf_export = false, dma_buf_import = false;
  bool timeline_fd = false;  // a timeline semaphore exportable and importable as an opaque fd
  uint8_t device_uuid[VK_UUID_SIZE] = {};
  uint8_t driver_uuid[VK_UUID_SIZE] = {};
};

SharingCapabilities QuerySharing(const meshvk_instance_t* instance, uint32_t physical);

// The path and reason for a copy from physical device `src` into `dst` when
// they are separate VkDevices (fills `out`). External memory, fastest first:
// one host allocation imported on both devices (both devices' memory is host
// memory; not when `host_allocation` is false), an opaque fd (same
// deviceUUID/driverUUID), a dma-buf; else host staging.
void ChoosePairPath(const meshvk_instance_t* instance, uint32_t src, uint32_t dst, meshvk_copy_path_info_t* out,
                    bool host_allocation = true);

// The copy path between every two VkDevices of `set` (set->pair_paths), and
// the one handle type each device's exportable buffers use (set->devices[i]
// ->export_handle_type): host allocations only when every reader takes them,
// else an opaque fd when any reader takes it. Needs the devices' enabled
// sharing extensions (external_memory_fd, host_memory_shards, ...).
void ChooseSetPairPaths(meshvk_device_set_t* set);

// The device extensions a VkDevice on `physical` enables so that its memory can
// be exported or imported (only those the device has), and the handle types
// that makes possible.
std::vector<const char*> SharingExtensions(const SharingCapabilities& caps);

// Writes `text` into a fixed reason buffer, cut to fit.
void SetReason(meshvk_copy_path_info_t* out, const std::string& text);

}  // namespace meshvk

#endif  // MESHVK_RUNTIME_SRC_COPY_PATH_H_

// Internal view of meshvk_buffer_t (see meshvk/buffer.h).
#ifndef MESHVK_RUNTIME_SRC_BUFFER_H_
#define MESHVK_RUNTIME_SRC_BUFFER_H_

#include <volk.h>

#include <atomic>
#include <string>

#include "device_set.h"
#include "meshvk/buffer.h"

struct meshvk_buffer_s {
  std::atomic<uint32_t> refs{1};
  meshvk_device_set_t* set = nullptr;  // retained
  uint32_t process = 0;
  uint64_t size = 0;
  uint64_t allocation_size = 0;
  VkBuffer buffer = VK_NULL_HANDLE;
  VkDeviceMemory memory = VK_NULL_HANDLE;
  void* mapped = nullptr;  // persistent mapping when the memory is host-mappable
  // An application's VkBuffer (meshvk_buffer_import_vulkan): its bytes start at
  // base_offset; neither the buffer nor its memory is meshvk's to destroy.
  bool imported = false;
  uint64_t base_offset = 0;
  // Exportable memory: the handle type it exports as (0: not exportable).
  uint32_t export_handle_type = 0;
  // A host allocation as the memory (export_handle_type HOST_ALLOCATION): the
  // owner and every reader import it (external_memory.h); unmapped after the
  // owner's memory is freed (views keep the owner alive).
  void* host_allocation = nullptr;
  uint64_t host_allocation_bytes = 0;
  // Created exportable, but the driver refused to share the memory (it is
  // ordinary memory): why, for meshvk_buffer_import's UNAVAILABLE.
  std::string share_refused;
  // A view of another VkDevice's buffer (meshvk_buffer_import): that buffer,
  // retained; the memory here is the import.
  meshvk_buffer_t* imported_from = nullptr;
  // Counted in the device's staging bytes instead of the process's allocated
  // bytes (a host-staging landing buffer).
  bool staging = false;
  // VK_SHARING_MODE_CONCURRENT over the device's compute and transfer-only
  // families (LogicalDevice::transfer_family): host staging may use the
  // transfer queue without ownership transfers.
  bool concurrent = false;
};

namespace meshvk {
// OUT_OF_RANGE unless [offset, offset + size) lies inside `buffer`.
Status CheckRange(const meshvk_buffer_t* buffer, uint64_t offset, uint64_t size, const char* what);
// Whether `buffer`'s memory is shared with other VkDevices: exported (its
// memory is imported elsewhere) or a view of another VkDevice's buffer. An
// EXCLUSIVE buffer of external memory is used only between an acquire from
// VK_QUEUE_FAMILY_EXTERNAL and a release to it (queue family ownership
// transfer, Vulkan spec 7.7.4): the other VkDevice's queues are the external
// family, and without the acquire the bytes they wrote are undefined here.
inline bool SharedWithOtherDevices(const meshvk_buffer_t* buffer) {
  return buffer->export_handle_type != 0 || buffer->imported_from != nullptr;
}
// Whether host staging of `buffer` may run on its device's transfer-only
// queue: the buffer is CONCURRENT over both families, or shared with other
// VkDevices (then each staging command buffer acquires it from
// VK_QUEUE_FAMILY_EXTERNAL and releases it back, on whichever family). Any
// other buffer (an application's, or an exportable one whose export was
// refused) is EXCLUSIVE to the compute family and stays on its queue.
inline bool StagesOnTransferQueue(const meshvk_buffer_t* buffer) {
  return buffer->set->DeviceOf(buffer->process).transfer_queue && !buffer->imported &&
         (buffer->concurrent || SharedWithOtherDevices(buffer));
}
}  // namespace meshvk

#endif  // MESHVK_RUNTIME_SRC_BUFFER_H_

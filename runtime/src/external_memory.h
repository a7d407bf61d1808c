// External memory: shard buffers whose memory another VkDevice of the set
// imports, so a copy between VkDevices is an ordinary vkCmdCopyBuffer on the
// destination. Two kinds (the set picks one per exporting device, copy_path.h):
//  * an fd (VK_KHR_external_memory_fd, opaque fd or dma-buf): the owner
//    allocates exportable memory, a reader imports its fd;
//  * a host allocation (VK_EXT_external_memory_host), where the devices'
//    memory is host memory anyway (CPU devices, integrated GPUs): the buffer's
//    memory is a host allocation that the owner and every reader import, so
//    it costs what ordinary memory costs (lavapipe's exportable memory is a
//    memfd, measured up to 2x slower to copy from at 256 MiB). Counted in the
//    owner's allocated bytes as an ordinary allocation of the buffer
//    (VkMemoryRequirements::size); the host allocation is that rounded up to
//    the import alignment (under one page more per buffer).
#ifndef MESHVK_RUNTIME_SRC_EXTERNAL_MEMORY_H_
#define MESHVK_RUNTIME_SRC_EXTERNAL_MEMORY_H_

#include <volk.h>

#include "device_set.h"
#include "meshvk/buffer.h"
#include "status.h"

namespace meshvk {

// The pNext structures an exportable buffer and its memory carry.
struct ExportChain {
  VkExternalMemoryBufferCreateInfo buffer{VK_STRUCTURE_TYPE_EXTERNAL_MEMORY_BUFFER_CREATE_INFO};
  VkExportMemoryAllocateInfo allocate{VK_STRUCTURE_TYPE_EXPORT_MEMORY_ALLOCATE_INFO};
  explicit ExportChain(VkExternalMemoryHandleTypeFlags types) {
    buffer.handleTypes = types;
    allocate.handleTypes = types;
  }
};

// `bytes` of fresh anonymous host memory (rounded up to pages) at an address
// aligned to `alignment`, with transparent huge pages asked for from 2 MiB
// up; nullptr when the host has none. Freed with UnmapHostPages.
void* MapHostPages(uint64_t bytes, uint64_t alignment);
void UnmapHostPages(void* pages, uint64_t bytes);

// Whether `device`'s shard memory type is host memory that takes host
// pointers: host-visible and coherent, and among the types the driver reports
// for a probe host allocation (vkGetMemoryHostPointerPropertiesEXT).
bool ShardMemoryTakesHostPointers(const LogicalDevice& device);

// Backs `buffer` (its VkBuffer created with `requirements`, on a device whose
// export_handle_type is a host allocation) with a new host allocation
// imported on the owner's device: sets memory, host_allocation and
// host_allocation_bytes. UNAVAILABLE when the driver refuses the import (the
// caller falls back to ordinary memory), RESOURCE_EXHAUSTED when the host
// has no memory for it.
Status ImportHostAllocation(meshvk_buffer_t* buffer, const VkMemoryRequirements& requirements);

// Unmaps `buffer`'s host allocation (after every memory importing it is freed).
void FreeHostAllocation(meshvk_buffer_t* buffer);

// Creates the view `view` (process, size and set already filled) of exportable
// `exported` on the view's VkDevice: exports an fd, imports it, binds a buffer.
Status ImportBuffer(meshvk_buffer_t* exported, meshvk_buffer_t* view);

}  // namespace meshvk

#endif  // MESHVK_RUNTIME_SRC_EXTERNAL_MEMORY_H_

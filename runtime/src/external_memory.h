// External memory: shard buffers whose memory another VkDevice of the set
// imports (VK_KHR_external_memory_fd, opaque fd or dma-buf), so a copy between
// VkDevices is an ordinary vkCmdCopyBuffer on the destination.
#ifndef MESHVK_RUNTIME_SRC_EXTERNAL_MEMORY_H_
#define MESHVK_RUNTIME_SRC_EXTERNAL_MEMORY_H_

#include <volk.h>

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

// Creates the view `view` (process, size and set already filled) of exportable
// `exported` on the view's VkDevice: exports an fd, imports it, binds a buffer.
Status ImportBuffer(meshvk_buffer_t* exported, meshvk_buffer_t* view);

}  // namespace meshvk

#endif  // MESHVK_RUNTIME_SRC_EXTERNAL_MEMORY_H_

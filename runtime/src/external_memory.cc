// External memory between the VkDevices of a set (see external_memory.h).
#include "external_memory.h"

#include <unistd.h>

#include "buffer.h"
#include "vulkan/vk_status.h"

namespace meshvk {

Status ImportBuffer(meshvk_buffer_t* exported, meshvk_buffer_t* view) {
  meshvk_device_set_t* set = exported->set;
  LogicalDevice& source = set->DeviceOf(exported->process);
  LogicalDevice& target = set->DeviceOf(view->process);
  const std::string where = set->Where(view->process) + ": importing the memory of a " +
                            std::to_string(exported->allocation_size) + "-byte buffer of " +
                            set->Where(exported->process);
  const auto type = static_cast<VkExternalMemoryHandleTypeFlagBits>(exported->export_handle_type);
  if (!source.vk.vkGetMemoryFdKHR || !target.vk.vkGetMemoryFdKHR) {
    return MakeStatus(MESHVK_STATUS_UNAVAILABLE, "%s: VK_KHR_external_memory_fd is not enabled", where.c_str());
  }
  VkExternalMemoryBufferCreateInfo external{VK_STRUCTURE_TYPE_EXTERNAL_MEMORY_BUFFER_CREATE_INFO};
  external.handleTypes = type;
  VkBufferCreateInfo info{VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO};
  info.pNext = &external;
  info.size = exported->size;
  info.usage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_SRC_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT;
  MESHVK_VK_RETURN_IF_ERROR(target.vk.vkCreateBuffer(target.device, &info, nullptr, &view->buffer),
                            where + ": vkCreateBuffer");
  VkMemoryRequirements requirements;
  target.vk.vkGetBufferMemoryRequirements(target.device, view->buffer, &requirements);

  int fd = -1;
  VkMemoryGetFdInfoKHR get{VK_STRUCTURE_TYPE_MEMORY_GET_FD_INFO_KHR};
  get.memory = exported->memory;
  get.handleType = type;
  MESHVK_VK_RETURN_IF_ERROR(source.vk.vkGetMemoryFdKHR(source.device, &get, &fd), where + ": vkGetMemoryFdKHR");
  uint32_t allowed = requirements.memoryTypeBits;
  if (type == VK_EXTERNAL_MEMORY_HANDLE_TYPE_DMA_BUF_BIT_EXT && target.vk.vkGetMemoryFdPropertiesKHR) {
    VkMemoryFdPropertiesKHR props{VK_STRUCTURE_TYPE_MEMORY_FD_PROPERTIES_KHR};
    if (target.vk.vkGetMemoryFdPropertiesKHR(target.device, type, fd, &props) == VK_SUCCESS)
      allowed &= props.memoryTypeBits;
  }
  if (!(allowed & (1u << target.storage_memory_type))) {
    close(fd);
    return MakeStatus(MESHVK_STATUS_UNAVAILABLE, "%s: the imported memory cannot use memory type %u (allowed 0x%x)",
                      where.c_str(), target.storage_memory_type, allowed);
  }
  // An opaque fd is imported with the exporter's exact allocation size.
  VkImportMemoryFdInfoKHR import{VK_STRUCTURE_TYPE_IMPORT_MEMORY_FD_INFO_KHR};
  import.handleType = type;
  import.fd = fd;
  VkMemoryAllocateInfo allocate{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO};
  allocate.pNext = &import;
  allocate.allocationSize = exported->allocation_size;
  allocate.memoryTypeIndex = target.storage_memory_type;
  VkResult result = target.vk.vkAllocateMemory(target.device, &allocate, nullptr, &view->memory);
  if (result != VK_SUCCESS) {
    close(fd);  // a successful import owns the fd; a failed one leaves it to us
    return MakeStatus(MESHVK_STATUS_UNAVAILABLE, "%s: vkAllocateMemory(import %s) refused: %s", where.c_str(),
                      type == VK_EXTERNAL_MEMORY_HANDLE_TYPE_DMA_BUF_BIT_EXT ? "dma-buf" : "opaque fd",
                      VkResultName(result));
  }
  MESHVK_VK_RETURN_IF_ERROR(target.vk.vkBindBufferMemory(target.device, view->buffer, view->memory, 0),
                            where + ": vkBindBufferMemory");
  view->allocation_size = 0;  // the exporter's memory: counted on its device
  return Status();
}

}  // namespace meshvk

extern "C" {

meshvk_status_t meshvk_buffer_import(meshvk_buffer_t* buffer, uint32_t process, meshvk_buffer_t** out_view) {
  using meshvk::MakeStatus;
  const char* what = "meshvk_buffer_import";
  if (!out_view) return MakeStatus(MESHVK_STATUS_INVALID_ARGUMENT, "%s: out_view is NULL", what).ToC();
  *out_view = nullptr;
  if (!buffer) return MakeStatus(MESHVK_STATUS_INVALID_ARGUMENT, "%s: buffer is NULL", what).ToC();
  meshvk_device_set_t* set = buffer->set;
  meshvk::Status status = set->CheckProcess(process, what);
  if (!status.ok()) return status.ToC();
  if (set->processes[process].logical_device == set->processes[buffer->process].logical_device) {
    return MakeStatus(MESHVK_STATUS_INVALID_ARGUMENT,
                      "%s: %s shares the VkDevice of the buffer's owner %s: use the buffer itself", what,
                      set->Where(process).c_str(), set->Where(buffer->process).c_str())
        .ToC();
  }
  if (!buffer->export_handle_type) {
    return MakeStatus(MESHVK_STATUS_FAILED_PRECONDITION, "%s: the %llu-byte buffer of %s was not created exportable",
                      what, static_cast<unsigned long long>(buffer->size), set->Where(buffer->process).c_str())
        .ToC();
  }
  auto* view = new meshvk_buffer_t();
  meshvk_device_set_retain(set);
  view->set = set;
  view->process = process;
  view->size = buffer->size;
  meshvk_buffer_retain(buffer);
  view->imported_from = buffer;
  status = meshvk::ImportBuffer(buffer, view);
  if (!status.ok()) {
    meshvk_buffer_release(view);
    return status.ToC();
  }
  *out_view = view;
  return MESHVK_OK;
}

}  // extern "C"

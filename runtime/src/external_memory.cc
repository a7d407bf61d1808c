// External memory between the VkDevices of a set (see external_memory.h).
#include "external_memory.h"

#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>

#include "buffer.h"
#include "vulkan/vk_status.h"

namespace meshvk {
namespace {

constexpr VkBufferUsageFlags kShardUsage =
    VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_SRC_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT;
constexpr auto kHostAllocation = VK_EXTERNAL_MEMORY_HANDLE_TYPE_HOST_ALLOCATION_BIT_EXT;
// Transparent huge pages for large host allocations: a copy of hundreds of
// MiB through 4 KiB pages spends its time in TLB misses (THP is "madvise" on
// common distributions, so it has to be asked for).
constexpr uint64_t kHugePage = 2ull << 20;

uint64_t RoundUp(uint64_t n, uint64_t to) { return (n + to - 1) / to * to; }

// The alignment of a host allocation every VkDevice of `set` may import
// (minImportedHostPointerAlignment: powers of two, so the largest), at least
// a page (it is mapped).
uint64_t HostAllocationAlignment(const meshvk_device_set_t& set) {
  uint64_t align = static_cast<uint64_t>(sysconf(_SC_PAGESIZE));
  for (const auto& device : set.devices) align = std::max(align, device->host_pointer_alignment);
  return align;
}

// Imports `bytes` of host memory at `pointer` on `device` as memory for
// `buffer` (created with the host-allocation handle type) and binds it.
// UNAVAILABLE when the driver does not take the pointer for shard memory.
Status ImportHostPointer(LogicalDevice& device, VkBuffer buffer, void* pointer, uint64_t bytes,
                         const std::string& where, VkDeviceMemory* out) {
  if (!device.vk.vkGetMemoryHostPointerPropertiesEXT || !device.host_pointer_alignment) {
    return MakeStatus(MESHVK_STATUS_UNAVAILABLE, "%s: VK_EXT_external_memory_host is not enabled", where.c_str());
  }
  VkMemoryRequirements requirements;
  device.vk.vkGetBufferMemoryRequirements(device.device, buffer, &requirements);
  VkMemoryHostPointerPropertiesEXT props{VK_STRUCTURE_TYPE_MEMORY_HOST_POINTER_PROPERTIES_EXT};
  VkResult result = device.vk.vkGetMemoryHostPointerPropertiesEXT(device.device, kHostAllocation, pointer, &props);
  const uint32_t allowed = result == VK_SUCCESS ? requirements.memoryTypeBits & props.memoryTypeBits : 0;
  if (!(allowed & (1u << device.storage_memory_type)) || requirements.size > bytes) {
    return MakeStatus(MESHVK_STATUS_UNAVAILABLE,
                      "%s: the host allocation cannot be memory type %u (vkGetMemoryHostPointerPropertiesEXT: %s, "
                      "allowed 0x%x; %llu bytes for %llu required)",
                      where.c_str(), device.storage_memory_type, VkResultName(result), allowed,
                      static_cast<unsigned long long>(bytes), static_cast<unsigned long long>(requirements.size));
  }
  VkImportMemoryHostPointerInfoEXT import{VK_STRUCTURE_TYPE_IMPORT_MEMORY_HOST_POINTER_INFO_EXT};
  import.handleType = kHostAllocation;
  import.pHostPointer = pointer;
  VkMemoryAllocateInfo allocate{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO};
  allocate.pNext = &import;
  allocate.allocationSize = bytes;
  allocate.memoryTypeIndex = device.storage_memory_type;
  result = device.vk.vkAllocateMemory(device.device, &allocate, nullptr, out);
  if (result != VK_SUCCESS) {
    *out = VK_NULL_HANDLE;
    return MakeStatus(MESHVK_STATUS_UNAVAILABLE, "%s: vkAllocateMemory(import host allocation, %llu bytes) refused: %s",
                      where.c_str(), static_cast<unsigned long long>(bytes), VkResultName(result));
  }
  MESHVK_VK_RETURN_IF_ERROR(device.vk.vkBindBufferMemory(device.device, buffer, *out, 0),
                            where + ": vkBindBufferMemory");
  return Status();
}

}  // namespace

// `bytes` (rounded up to pages) of fresh anonymous memory at an
// address aligned to `alignment`; nullptr when the host has none.
void* MapHostPages(uint64_t bytes, uint64_t alignment) {
  bytes = RoundUp(bytes, static_cast<uint64_t>(sysconf(_SC_PAGESIZE)));
  const uint64_t extra = alignment > static_cast<uint64_t>(sysconf(_SC_PAGESIZE)) ? alignment : 0;
  void* raw = mmap(nullptr, bytes + extra, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (raw == MAP_FAILED) return nullptr;
  const uintptr_t base = reinterpret_cast<uintptr_t>(raw);
  const uintptr_t start = RoundUp(base, alignment);
  if (start > base) munmap(raw, start - base);
  if (base + extra > start) munmap(reinterpret_cast<void*>(start + bytes), base + extra - start);
  void* out = reinterpret_cast<void*>(start);
  if (bytes >= kHugePage) madvise(out, bytes, MADV_HUGEPAGE);  // advice: fine if refused
  return out;
}

void UnmapHostPages(void* pages, uint64_t bytes) {
  if (pages) munmap(pages, RoundUp(bytes, static_cast<uint64_t>(sysconf(_SC_PAGESIZE))));
}

bool ShardMemoryTakesHostPointers(const LogicalDevice& device) {
  const VkMemoryPropertyFlags host = VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT;
  const VkMemoryPropertyFlags flags = device.physical->memory.memoryTypes[device.storage_memory_type].propertyFlags;
  if ((flags & host) != host || !device.host_pointer_alignment || !device.vk.vkGetMemoryHostPointerPropertiesEXT)
    return false;
  const uint64_t page = static_cast<uint64_t>(sysconf(_SC_PAGESIZE));
  const uint64_t bytes = RoundUp(device.host_pointer_alignment, page);
  void* probe = MapHostPages(bytes, std::max(page, device.host_pointer_alignment));
  if (!probe) return false;
  VkMemoryHostPointerPropertiesEXT props{VK_STRUCTURE_TYPE_MEMORY_HOST_POINTER_PROPERTIES_EXT};
  const VkResult result = device.vk.vkGetMemoryHostPointerPropertiesEXT(device.device, kHostAllocation, probe, &props);
  UnmapHostPages(probe, bytes);
  return result == VK_SUCCESS && (props.memoryTypeBits & (1u << device.storage_memory_type));
}

Status ImportHostAllocation(meshvk_buffer_t* buffer, const VkMemoryRequirements& requirements) {
  meshvk_device_set_t* set = buffer->set;
  LogicalDevice& device = set->DeviceOf(buffer->process);
  const uint64_t bytes = RoundUp(requirements.size, HostAllocationAlignment(*set));
  const std::string where = set->Where(buffer->process) + ": a " + std::to_string(buffer->size) +
                            "-byte buffer in a host allocation other VkDevices import";
  void* pointer = MapHostPages(
      bytes, bytes >= kHugePage ? std::max(kHugePage, HostAllocationAlignment(*set)) : HostAllocationAlignment(*set));
  if (!pointer) {
    return MakeStatus(MESHVK_STATUS_RESOURCE_EXHAUSTED, "%s: mmap(%llu bytes) failed", where.c_str(),
                      static_cast<unsigned long long>(bytes));
  }
  Status status = ImportHostPointer(device, buffer->buffer, pointer, bytes, where, &buffer->memory);
  if (!status.ok() && buffer->memory) {
    device.vk.vkFreeMemory(device.device, buffer->memory, nullptr);
    buffer->memory = VK_NULL_HANDLE;
  }
  if (!status.ok()) {
    UnmapHostPages(pointer, bytes);
    return status;
  }
  buffer->host_allocation = pointer;
  buffer->host_allocation_bytes = bytes;
  return Status();
}

void FreeHostAllocation(meshvk_buffer_t* buffer) {
  UnmapHostPages(buffer->host_allocation, buffer->host_allocation_bytes);
  buffer->host_allocation = nullptr;
  buffer->host_allocation_bytes = 0;
}

Status ImportBuffer(meshvk_buffer_t* exported, meshvk_buffer_t* view) {
  meshvk_device_set_t* set = exported->set;
  LogicalDevice& source = set->DeviceOf(exported->process);
  LogicalDevice& target = set->DeviceOf(view->process);
  const std::string where = set->Where(view->process) + ": importing the memory of a " +
                            std::to_string(exported->allocation_size) + "-byte buffer of " +
                            set->Where(exported->process);
  const auto type = static_cast<VkExternalMemoryHandleTypeFlagBits>(exported->export_handle_type);
  if (type != kHostAllocation && (!source.vk.vkGetMemoryFdKHR || !target.vk.vkGetMemoryFdKHR)) {
    return MakeStatus(MESHVK_STATUS_UNAVAILABLE, "%s: VK_KHR_external_memory_fd is not enabled", where.c_str());
  }
  VkExternalMemoryBufferCreateInfo external{VK_STRUCTURE_TYPE_EXTERNAL_MEMORY_BUFFER_CREATE_INFO};
  external.handleTypes = type;
  VkBufferCreateInfo info{VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO};
  info.pNext = &external;
  info.size = exported->size;
  info.usage = kShardUsage;
  MESHVK_VK_RETURN_IF_ERROR(target.vk.vkCreateBuffer(target.device, &info, nullptr, &view->buffer),
                            where + ": vkCreateBuffer");
  if (type == kHostAllocation) {
    MESHVK_RETURN_IF_ERROR(ImportHostPointer(target, view->buffer, exported->host_allocation,
                                             exported->host_allocation_bytes, where, &view->memory));
    view->allocation_size = 0;  // the owner's host allocation: counted on its device
    return Status();
  }
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

meshvk_status_t meshvk_buffer_share(meshvk_buffer_t* buffer, uint32_t process, meshvk_buffer_t** out_view) {
  using meshvk::MakeStatus;
  const char* what = "meshvk_buffer_share";
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
  if (!buffer->export_handle_type && !buffer->share_refused.empty()) {
    // Created exportable, but the driver refused to share its memory: the
    // caller falls back as for a refused import.
    return MakeStatus(MESHVK_STATUS_UNAVAILABLE, "%s: %s", what, buffer->share_refused.c_str()).ToC();
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

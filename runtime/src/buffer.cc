// meshvk_buffer_t: a shard buffer in memory of its owning process's device.
#include "buffer.h"

#include <cstring>
#include <vector>

#include "base/structure.h"
#include "device_wait.h"
#include "external_memory.h"
#include "host_staging.h"
#include "vulkan/vk_status.h"

namespace meshvk {

Status CheckRange(const meshvk_buffer_t* buffer, uint64_t offset, uint64_t size, const char* what) {
  // Written so that offset + size cannot overflow.
  if (offset > buffer->size || size > buffer->size - offset) {
    return MakeStatus(MESHVK_STATUS_OUT_OF_RANGE,
                      "%s: bytes [%llu, %llu + %llu) leave a buffer of %llu bytes owned by "
                      "process %u",
                      what, static_cast<unsigned long long>(offset), static_cast<unsigned long long>(offset),
                      static_cast<unsigned long long>(size), static_cast<unsigned long long>(buffer->size),
                      buffer->process);
  }
  return Status();
}

namespace {

constexpr VkBufferUsageFlags kUsage =
    VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_SRC_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT;

void DestroyBuffer(meshvk_buffer_t* buffer) {
  meshvk_device_set_t* set = buffer->set;
  // A device that stopped answering may still read or write the memory
  // (device_wait.h): the buffer and its memory stay; only references go.
  const bool leaked = set && LeakIfUnresponsive(set->DeviceOf(buffer->process), (buffer->buffer && !buffer->imported) +
                                                                                    (buffer->memory != VK_NULL_HANDLE));
  if (set && !leaked) {
    LogicalDevice& device = set->DeviceOf(buffer->process);
    if (buffer->mapped) device.vk.vkUnmapMemory(device.device, buffer->memory);
    if (buffer->buffer && !buffer->imported) {
      device.vk.vkDestroyBuffer(device.device, buffer->buffer, nullptr);
    }
    if (buffer->memory) {
      device.vk.vkFreeMemory(device.device, buffer->memory, nullptr);
      if (buffer->staging) {
        device.staging_bytes -= buffer->allocation_size;
      } else {
        set->allocated_bytes[buffer->process] -= buffer->allocation_size;
      }
    }
    FreeHostAllocation(buffer);  // no device imports it any more
  }
  // After the import is freed. A view left alive on a device that stopped
  // answering keeps a host allocation it imported alive too (an fd's memory
  // the kernel keeps).
  if (!leaked || !buffer->imported_from || !buffer->imported_from->host_allocation)
    meshvk_buffer_release(buffer->imported_from);
  delete buffer;
  if (set) meshvk_device_set_release(set);
}

void CountStaging(LogicalDevice& device, uint64_t bytes) {
  uint64_t now = device.staging_bytes.fetch_add(bytes) + bytes;
  uint64_t peak = device.peak_staging_bytes.load();
  while (now > peak && !device.peak_staging_bytes.compare_exchange_weak(peak, now)) {
  }
}

// In a device group an allocation without a device mask gets an instance on
// every device; shard and staging memory exist only on the owner's device.
// `exports`: the exportable buffer's VkExportMemoryAllocateInfo, or NULL.
Status AllocateOnOwner(const meshvk_device_set_t& set, const Process& owner, LogicalDevice& device, VkDeviceSize size,
                       uint32_t memory_type, const std::string& where, const void* exports, VkDeviceMemory* out) {
  VkMemoryAllocateFlagsInfo flags{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_FLAGS_INFO};
  flags.pNext = exports;
  flags.flags = VK_MEMORY_ALLOCATE_DEVICE_MASK_BIT;
  flags.deviceMask = 1u << owner.device_index;
  VkMemoryAllocateInfo allocate{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO};
  allocate.pNext = set.is_group() ? &flags : exports;
  allocate.allocationSize = size;
  allocate.memoryTypeIndex = memory_type;
  VkResult result = device.vk.vkAllocateMemory(device.device, &allocate, nullptr, out);
  if (result != VK_SUCCESS && exports) {
    // An exportable allocation can fail where a plain one would not: say so.
    return MakeStatus(
        MESHVK_STATUS_RESOURCE_EXHAUSTED, "%s: vkAllocateMemory(%llu bytes, exportable as %s for another VkDevice): %s",
        where.c_str(), static_cast<unsigned long long>(size),
        device.export_handle_type == VK_EXTERNAL_MEMORY_HANDLE_TYPE_DMA_BUF_BIT_EXT ? "dma-buf" : "opaque fd",
        VkResultName(result));
  }
  MESHVK_VK_RETURN_IF_ERROR(result, where + ": vkAllocateMemory(" + std::to_string(size) + " bytes)");
  return Status();
}

Status CreateBuffer(meshvk_buffer_t* buffer, meshvk_buffer_flags_t flags) {
  meshvk_device_set_t* set = buffer->set;
  const uint32_t process = buffer->process;
  LogicalDevice& device = set->DeviceOf(process);
  const Process& owner = set->processes[process];
  const std::string where = set->Where(process);
  const auto size = static_cast<unsigned long long>(buffer->size);

  // Checked on the host: Vulkan forbids an allocation larger than the heap
  // (a validation error, not an error code), and would otherwise crash or
  // return a code that does not name the size.
  const PhysicalDevice& physical = *device.physical;
  uint64_t heap_size = physical.memory.memoryHeaps[device.storage_heap].size;
  uint64_t max_allocation = physical.maintenance3.maxMemoryAllocationSize;
  if (buffer->size > heap_size || buffer->size > max_allocation) {
    return MakeStatus(MESHVK_STATUS_RESOURCE_EXHAUSTED,
                      "%s: vkAllocateMemory(%llu bytes): larger than the device allows "
                      "(heap %u has %llu bytes, maxMemoryAllocationSize %llu)",
                      where.c_str(), size, device.storage_heap, static_cast<unsigned long long>(heap_size),
                      static_cast<unsigned long long>(max_allocation));
  }

  const bool exportable = flags & MESHVK_BUFFER_EXPORTABLE_BIT;
  if (exportable && !device.export_handle_type) {
    return MakeStatus(MESHVK_STATUS_UNAVAILABLE,
                      "%s: a %llu-byte exportable buffer: this device shares no external memory "
                      "handle type with another VkDevice of the set",
                      where.c_str(), size);
  }
  ExportChain exports(device.export_handle_type);
  // On devices whose memory is host memory, a buffer other VkDevices read is
  // a host allocation all of them import, not an exported allocation.
  const bool host_allocation =
      exportable && device.export_handle_type == VK_EXTERNAL_MEMORY_HANDLE_TYPE_HOST_ALLOCATION_BIT_EXT;
  VkBufferCreateInfo info{VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO};
  info.pNext = exportable ? &exports.buffer : nullptr;
  info.size = buffer->size;
  info.usage = kUsage;
  info.sharingMode = VK_SHARING_MODE_EXCLUSIVE;
  // Host-staged copies and host I/O of this buffer run on the device's
  // transfer family: CONCURRENT over both families rather than ownership
  // transfers, because a staging copy may follow or precede any command
  // buffer (which cannot know it, to release or acquire the buffer), and
  // buffers have no layout or compression that concurrent use would cost.
  // Exportable buffers stay EXCLUSIVE: each command buffer, on either family,
  // acquires them from VK_QUEUE_FAMILY_EXTERNAL (buffer.h).
  const uint32_t families[2] = {device.queue_family, device.transfer_family};
  if (!exportable && device.transfer_family != UINT32_MAX) {
    info.sharingMode = VK_SHARING_MODE_CONCURRENT;
    info.queueFamilyIndexCount = 2;
    info.pQueueFamilyIndices = families;
    buffer->concurrent = true;
  }
  MESHVK_VK_RETURN_IF_ERROR(device.vk.vkCreateBuffer(device.device, &info, nullptr, &buffer->buffer),
                            where + ": vkCreateBuffer(" + std::to_string(size) + " bytes)");
  VkMemoryRequirements requirements;
  device.vk.vkGetBufferMemoryRequirements(device.device, buffer->buffer, &requirements);
  if (!(requirements.memoryTypeBits & (1u << device.storage_memory_type))) {
    return MakeStatus(MESHVK_STATUS_INTERNAL, "%s: vkGetBufferMemoryRequirements: memory type %u not allowed",
                      where.c_str(), device.storage_memory_type);
  }
  if (requirements.size > heap_size || requirements.size > max_allocation) {
    return MakeStatus(MESHVK_STATUS_RESOURCE_EXHAUSTED,
                      "%s: vkAllocateMemory(%llu bytes): larger than the device allows", where.c_str(),
                      static_cast<unsigned long long>(requirements.size));
  }

  if (host_allocation) {
    Status imported = ImportHostAllocation(buffer, requirements);
    if (imported.code() == MESHVK_STATUS_UNAVAILABLE) {
      // The driver refused the host allocation: ordinary memory, which no
      // other VkDevice can import (they fall back to host staging, told why).
      buffer->share_refused = imported.message();
    } else {
      MESHVK_RETURN_IF_ERROR(imported);
    }
  }
  if (!buffer->memory) {
    MESHVK_RETURN_IF_ERROR(AllocateOnOwner(*set, owner, device, requirements.size, device.storage_memory_type, where,
                                           exportable && !host_allocation ? &exports.allocate : nullptr,
                                           &buffer->memory));
  }
  // A host allocation is counted as an ordinary allocation of the buffer
  // would be (its page rounding is not: see external_memory.h).
  buffer->allocation_size = requirements.size;
  buffer->export_handle_type = exportable && buffer->share_refused.empty() ? device.export_handle_type : 0;
  buffer->staging = flags & MESHVK_BUFFER_STAGING_BIT;
  if (buffer->staging) {
    CountStaging(device, requirements.size);
  } else {
    set->allocated_bytes[process] += requirements.size;
  }

  // Every device of the group binds the owner's memory instance: the buffer
  // handle is then also the peer view other devices read through.
  std::vector<uint32_t> device_indices(device.group_size(), owner.device_index);
  VkBindBufferMemoryDeviceGroupInfo group_bind{VK_STRUCTURE_TYPE_BIND_BUFFER_MEMORY_DEVICE_GROUP_INFO};
  group_bind.deviceIndexCount = static_cast<uint32_t>(device_indices.size());
  group_bind.pDeviceIndices = device_indices.data();
  VkBindBufferMemoryInfo bind{VK_STRUCTURE_TYPE_BIND_BUFFER_MEMORY_INFO};
  bind.pNext = set->is_group() ? &group_bind : nullptr;
  bind.buffer = buffer->buffer;
  bind.memory = buffer->memory;
  bind.memoryOffset = 0;
  if (!buffer->host_allocation) {  // an imported host allocation is bound already
    MESHVK_VK_RETURN_IF_ERROR(device.vk.vkBindBufferMemory2(device.device, 1, &bind), where + ": vkBindBufferMemory2");
  }
  if (device.storage_host_mappable) {
    MESHVK_VK_RETURN_IF_ERROR(
        device.vk.vkMapMemory(device.device, buffer->memory, 0, VK_WHOLE_SIZE, 0, &buffer->mapped),
        where + ": vkMapMemory");
  }
  return Status();
}

// Host <-> device for memory the host cannot map: bytes [offset, offset +
// size) of `buffer` to/from `host` through the chunked staging rings
// (host_staging.h); waits for the copies (the caller guarantees the device is
// not using the range).
Status StagedTransfer(meshvk_buffer_t* buffer, uint64_t offset, uint64_t size, void* host, bool to_device) {
  auto* bytes = static_cast<uint8_t*>(host);
  if (to_device) {
    return StageIn(buffer, offset, size, 0, UINT64_MAX, [bytes](uint8_t* chunk, uint64_t n, uint64_t at) {
      std::memcpy(chunk, bytes + at, n);
      return Status();
    });
  }
  return StageOut(buffer, offset, size, 0, UINT64_MAX, [bytes](const uint8_t* chunk, uint64_t n, uint64_t at) {
    std::memcpy(bytes + at, chunk, n);
    return Status();
  });
}

Status CheckBuffer(const meshvk_buffer_t* buffer, const void* data, const char* what) {
  if (!buffer || !data) {
    return MakeStatus(MESHVK_STATUS_INVALID_ARGUMENT, "%s: buffer or data is NULL", what);
  }
  return Status();
}

// Covered byte span of a strided access, or OUT_OF_RANGE.
Status StridedSpan(const meshvk_buffer_t* buffer, uint64_t offset, uint64_t pitch, uint64_t row_bytes, uint64_t rows,
                   uint64_t* span, const char* what) {
  *span = 0;
  if (rows == 0 || row_bytes == 0) return Status();
  if (rows > 1 && pitch < row_bytes) {
    return MakeStatus(MESHVK_STATUS_INVALID_ARGUMENT,
                      "%s: pitch %llu is smaller than a row of %llu bytes (rows would overlap)", what,
                      static_cast<unsigned long long>(pitch), static_cast<unsigned long long>(row_bytes));
  }
  // (rows - 1) * pitch + row_bytes, without overflow.
  if (rows - 1 > 0 && pitch > (UINT64_MAX - row_bytes) / (rows - 1)) {
    return MakeStatus(MESHVK_STATUS_OUT_OF_RANGE, "%s: %llu rows of pitch %llu overflow", what,
                      static_cast<unsigned long long>(rows), static_cast<unsigned long long>(pitch));
  }
  *span = (rows - 1) * pitch + row_bytes;
  return CheckRange(buffer, offset, *span, what);
}

// Strided host access. The device side has `device_pitch`, the host side
// `host_pitch`. Mapped memory is accessed row by row; otherwise the covered
// span goes through one staging transfer (read first when writing, so bytes
// between rows keep their values).
Status StridedAccess(meshvk_buffer_t* buffer, uint64_t offset, uint64_t device_pitch, uint8_t* host,
                     uint64_t host_pitch, uint64_t row_bytes, uint64_t rows, bool to_device, const char* what) {
  MESHVK_RETURN_IF_ERROR(CheckBuffer(buffer, host, what));
  uint64_t span = 0;
  MESHVK_RETURN_IF_ERROR(StridedSpan(buffer, offset, device_pitch, row_bytes, rows, &span, what));
  if (span == 0) return Status();
  if (buffer->mapped) {
    auto* device = static_cast<uint8_t*>(buffer->mapped) + offset;
    for (uint64_t r = 0; r < rows; ++r) {
      if (to_device) {
        std::memcpy(device + r * device_pitch, host + r * host_pitch, row_bytes);
      } else {
        std::memcpy(host + r * host_pitch, device + r * device_pitch, row_bytes);
      }
    }
    return Status();
  }
  std::vector<uint8_t> staged(span);
  bool contiguous_write = to_device && (rows == 1 || device_pitch == row_bytes);
  if (!contiguous_write) {
    MESHVK_RETURN_IF_ERROR(StagedTransfer(buffer, offset, span, staged.data(), false));
  }
  for (uint64_t r = 0; r < rows; ++r) {
    if (to_device) {
      std::memcpy(staged.data() + r * device_pitch, host + r * host_pitch, row_bytes);
    } else {
      std::memcpy(host + r * host_pitch, staged.data() + r * device_pitch, row_bytes);
    }
  }
  if (to_device) return StagedTransfer(buffer, offset, span, staged.data(), true);
  return Status();
}

}  // namespace
}  // namespace meshvk

using meshvk::MakeStatus;
using meshvk::Status;

extern "C" {

meshvk_status_t meshvk_buffer_create(meshvk_device_set_t* set, uint32_t process, uint64_t size,
                                     meshvk_buffer_t** out_buffer) {
  meshvk_buffer_create_info_t info = MESHVK_BUFFER_CREATE_INFO_INIT;
  info.process = process;
  info.size = size;
  return meshvk_buffer_create_with_info(set, &info, out_buffer);
}

meshvk_status_t meshvk_buffer_create_with_info(meshvk_device_set_t* set, const meshvk_buffer_create_info_t* info,
                                               meshvk_buffer_t** out_buffer) {
  if (Status checked =
          meshvk::CheckStructure(info, MESHVK_STRUCTURE_TYPE_BUFFER_CREATE_INFO, "meshvk_buffer_create: info");
      !checked.ok()) {
    if (out_buffer) *out_buffer = nullptr;
    return checked.ToC();
  }
  const uint32_t process = info->process;
  const uint64_t size = info->size;
  Status status = meshvk::CheckProcessCreate(set, process, out_buffer, "meshvk_buffer_create", "out_buffer");
  if (!status.ok()) return status.ToC();
  if (size == 0) {
    return MakeStatus(MESHVK_STATUS_INVALID_ARGUMENT, "meshvk_buffer_create: %s: size is 0",
                      set->Where(process).c_str())
        .ToC();
  }
  auto* buffer = new meshvk_buffer_t();
  meshvk_device_set_retain(set);
  buffer->set = set;
  buffer->process = process;
  buffer->size = size;
  status = meshvk::CreateBuffer(buffer, info->flags);
  if (!status.ok()) {
    meshvk::DestroyBuffer(buffer);
    return status.ToC();
  }
  *out_buffer = buffer;
  return MESHVK_OK;
}

void meshvk_buffer_retain(meshvk_buffer_t* buffer) {
  if (buffer) buffer->refs.fetch_add(1);
}

void meshvk_buffer_release(meshvk_buffer_t* buffer) {
  if (buffer && buffer->refs.fetch_sub(1) == 1) meshvk::DestroyBuffer(buffer);
}

uint64_t meshvk_buffer_size(const meshvk_buffer_t* buffer) { return buffer ? buffer->size : 0; }

uint32_t meshvk_buffer_process(const meshvk_buffer_t* buffer) { return buffer ? buffer->process : MESHVK_NO_PROCESS; }

uint64_t meshvk_buffer_allocation_size(const meshvk_buffer_t* buffer) { return buffer ? buffer->allocation_size : 0; }

meshvk_status_t meshvk_buffer_write(meshvk_buffer_t* buffer, uint64_t offset, const void* data, uint64_t size) {
  return meshvk::StridedAccess(buffer, offset, size, static_cast<uint8_t*>(const_cast<void*>(data)), size, size, 1,
                               true, "meshvk_buffer_write")
      .ToC();
}

meshvk_status_t meshvk_buffer_read(meshvk_buffer_t* buffer, uint64_t offset, void* out_data, uint64_t size) {
  return meshvk::StridedAccess(buffer, offset, size, static_cast<uint8_t*>(out_data), size, size, 1, false,
                               "meshvk_buffer_read")
      .ToC();
}

meshvk_status_t meshvk_buffer_write_strided(meshvk_buffer_t* buffer, uint64_t offset, uint64_t dst_pitch,
                                            const void* data, uint64_t src_pitch, uint64_t row_bytes, uint64_t rows) {
  return meshvk::StridedAccess(buffer, offset, dst_pitch, static_cast<uint8_t*>(const_cast<void*>(data)), src_pitch,
                               row_bytes, rows, true, "meshvk_buffer_write_strided")
      .ToC();
}

meshvk_status_t meshvk_buffer_read_strided(meshvk_buffer_t* buffer, uint64_t offset, uint64_t src_pitch, void* out_data,
                                           uint64_t dst_pitch, uint64_t row_bytes, uint64_t rows) {
  return meshvk::StridedAccess(buffer, offset, src_pitch, static_cast<uint8_t*>(out_data), dst_pitch, row_bytes, rows,
                               false, "meshvk_buffer_read_strided")
      .ToC();
}

void* meshvk_buffer_host_address(meshvk_buffer_t* buffer) { return buffer ? buffer->mapped : nullptr; }

}  // extern "C"

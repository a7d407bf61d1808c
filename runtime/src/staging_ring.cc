// Staging rings and their cache (see host_staging.h): host-visible slots on
// one device, each with a command buffer and a fence, on the compute queue or
// the device's transfer-only queue (LogicalDevice::transfer_family).
#include <algorithm>

#include "device_wait.h"  // MarkIfUnanswered, CountLeaked
#include "host_staging.h"
#include "vulkan/vk_status.h"

namespace meshvk {
namespace {

// A host-visible, host-coherent memory type the staging buffer may use.
int HostVisibleType(const VkPhysicalDeviceMemoryProperties& memory, uint32_t allowed) {
  const VkMemoryPropertyFlags wanted = VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT;
  // Cached memory first: the host reads staged chunks back.
  for (uint32_t pass = 0; pass < 2; ++pass) {
    VkMemoryPropertyFlags want = wanted | (pass == 0 ? VK_MEMORY_PROPERTY_HOST_CACHED_BIT : 0);
    for (uint32_t t = 0; t < memory.memoryTypeCount; ++t) {
      if ((allowed & (1u << t)) && (memory.memoryTypes[t].propertyFlags & want) == want) {
        return static_cast<int>(t);
      }
    }
  }
  return -1;
}

}  // namespace

Status StagingRing::Create(const StagingDevice& device, uint64_t chunk_bytes, std::unique_ptr<StagingRing>* out,
                           uint32_t slots, uint8_t* host_memory) {
  std::unique_ptr<StagingRing> ring(new StagingRing(device));
  const auto& vk = *device.vk;
  const VkDevice dev = device.device;
  const std::string where = device.where + ": host staging (" + std::to_string(slots) + " x " +
                            std::to_string(chunk_bytes) + " bytes" +
                            (host_memory ? ", imported host allocation)" : ")");
  ring->chunk_ = chunk_bytes;
  ring->command_buffers_.assign(slots, VK_NULL_HANDLE);
  ring->fences_.assign(slots, VK_NULL_HANDLE);
  ring->pending_.assign(slots, 0);
  VkExternalMemoryBufferCreateInfo external{VK_STRUCTURE_TYPE_EXTERNAL_MEMORY_BUFFER_CREATE_INFO};
  external.handleTypes = VK_EXTERNAL_MEMORY_HANDLE_TYPE_HOST_ALLOCATION_BIT_EXT;
  VkBufferCreateInfo info{VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO};
  info.pNext = host_memory ? &external : nullptr;
  info.size = uint64_t{slots} * chunk_bytes;
  info.usage = VK_BUFFER_USAGE_TRANSFER_SRC_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT;
  MESHVK_VK_RETURN_IF_ERROR(vk.vkCreateBuffer(dev, &info, nullptr, &ring->buffer_), where + ": vkCreateBuffer");
  VkMemoryRequirements requirements;
  vk.vkGetBufferMemoryRequirements(dev, ring->buffer_, &requirements);
  uint32_t allowed = requirements.memoryTypeBits;
  VkImportMemoryHostPointerInfoEXT import{VK_STRUCTURE_TYPE_IMPORT_MEMORY_HOST_POINTER_INFO_EXT};
  if (host_memory) {
    // The imported size must be a multiple of the alignment and cover the buffer.
    const uint64_t align = device.host_pointer_alignment;
    if (!align || reinterpret_cast<uintptr_t>(host_memory) % align || info.size % align ||
        requirements.size > info.size) {
      return MakeStatus(MESHVK_STATUS_UNAVAILABLE, "%s: the host allocation does not fit the buffer's requirements",
                        where.c_str());
    }
    VkMemoryHostPointerPropertiesEXT host{VK_STRUCTURE_TYPE_MEMORY_HOST_POINTER_PROPERTIES_EXT};
    MESHVK_VK_RETURN_IF_ERROR(vk.vkGetMemoryHostPointerPropertiesEXT(
                                  dev, VK_EXTERNAL_MEMORY_HANDLE_TYPE_HOST_ALLOCATION_BIT_EXT, host_memory, &host),
                              where + ": vkGetMemoryHostPointerPropertiesEXT");
    allowed &= host.memoryTypeBits;
    import.handleType = VK_EXTERNAL_MEMORY_HANDLE_TYPE_HOST_ALLOCATION_BIT_EXT;
    import.pHostPointer = host_memory;
  }
  int type = HostVisibleType(*device.memory, allowed);
  if (type < 0 && host_memory) {
    // Imported memory need not be mappable: the host holds the pointer.
    for (uint32_t t = 0; t < device.memory->memoryTypeCount && type < 0; ++t)
      if (allowed & (1u << t)) type = static_cast<int>(t);
  }
  if (type < 0) {
    return MakeStatus(MESHVK_STATUS_UNAVAILABLE, "%s: no host-visible memory type", where.c_str());
  }
  // In a device group the staging memory exists only on the owner's device.
  VkMemoryAllocateFlagsInfo flags{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_FLAGS_INFO};
  flags.flags = VK_MEMORY_ALLOCATE_DEVICE_MASK_BIT;
  flags.deviceMask = device.device_mask;
  flags.pNext = host_memory ? &import : nullptr;
  VkMemoryAllocateInfo allocate{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO};
  allocate.pNext = device.device_mask ? static_cast<const void*>(&flags) : flags.pNext;
  allocate.allocationSize = host_memory ? info.size : requirements.size;
  allocate.memoryTypeIndex = static_cast<uint32_t>(type);
  MESHVK_VK_RETURN_IF_ERROR(vk.vkAllocateMemory(dev, &allocate, nullptr, &ring->memory_),
                            where + ": vkAllocateMemory(" + std::to_string(allocate.allocationSize) + " bytes)");
  if (!host_memory) {  // an imported host allocation is counted once, by its owner
    ring->counted_ = requirements.size;
    AddStagingBytes(device, ring->counted_);
  }
  MESHVK_VK_RETURN_IF_ERROR(vk.vkBindBufferMemory(dev, ring->buffer_, ring->memory_, 0),
                            where + ": vkBindBufferMemory");
  if (host_memory) {
    ring->mapped_ = host_memory;
    ring->host_imported_ = true;
  } else {
    void* mapped = nullptr;
    MESHVK_VK_RETURN_IF_ERROR(vk.vkMapMemory(dev, ring->memory_, 0, VK_WHOLE_SIZE, 0, &mapped),
                              where + ": vkMapMemory");
    ring->mapped_ = static_cast<uint8_t*>(mapped);
  }

  VkCommandPoolCreateInfo pool_info{VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO};
  pool_info.flags = VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT | VK_COMMAND_POOL_CREATE_TRANSIENT_BIT;
  pool_info.queueFamilyIndex = device.queue_family;
  MESHVK_VK_RETURN_IF_ERROR(vk.vkCreateCommandPool(dev, &pool_info, nullptr, &ring->pool_),
                            where + ": vkCreateCommandPool");
  VkCommandBufferAllocateInfo cb_info{VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO};
  cb_info.commandPool = ring->pool_;
  cb_info.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
  cb_info.commandBufferCount = slots;
  MESHVK_VK_RETURN_IF_ERROR(vk.vkAllocateCommandBuffers(dev, &cb_info, ring->command_buffers_.data()),
                            where + ": vkAllocateCommandBuffers");
  for (VkFence& fence : ring->fences_) {
    VkFenceCreateInfo fence_info{VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
    MESHVK_VK_RETURN_IF_ERROR(vk.vkCreateFence(dev, &fence_info, nullptr, &fence), where + ": vkCreateFence");
  }
  *out = std::move(ring);
  return Status();
}

StagingRing::~StagingRing() {
  const auto& vk = *device_.vk;
  const VkDevice dev = device_.device;
  // A pending copy must finish before its command buffer and memory go away.
  // On a device that stopped answering it may never finish: then the ring's
  // objects stay alive (device_wait.h).
  for (uint32_t slot = 0; slot < slots(); ++slot) {
    if (pending_[slot] && !Responsive()) break;
    if (pending_[slot]) (void)Wait(slot, UINT64_MAX);
  }
  if (!Responsive()) {
    CountLeaked(fences_.size() + 3);  // fences, pool, buffer, memory
    return;
  }
  for (VkFence fence : fences_) {
    if (fence) vk.vkDestroyFence(dev, fence, nullptr);
  }
  if (pool_) vk.vkDestroyCommandPool(dev, pool_, nullptr);
  if (buffer_) vk.vkDestroyBuffer(dev, buffer_, nullptr);
  if (memory_) vk.vkFreeMemory(dev, memory_, nullptr);
  if (counted_ && device_.staging_bytes) device_.staging_bytes->fetch_sub(counted_);
}

Status StagingRing::Submit(uint32_t slot, VkBuffer src, uint64_t src_offset, VkBuffer dst, uint64_t dst_offset,
                           uint64_t bytes, bool to_device) {
  const auto& vk = *device_.vk;
  const std::string where = device_.where + ": host staging chunk of " + std::to_string(bytes) + " bytes";
  VkCommandBuffer cb = command_buffers_[slot];
  MESHVK_VK_RETURN_IF_ERROR(vk.vkResetCommandBuffer(cb, 0), where + ": vkResetCommandBuffer");
  VkDeviceGroupCommandBufferBeginInfo group_begin{VK_STRUCTURE_TYPE_DEVICE_GROUP_COMMAND_BUFFER_BEGIN_INFO};
  group_begin.deviceMask = device_.device_mask;
  VkCommandBufferBeginInfo begin{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
  begin.pNext = device_.device_mask ? &group_begin : nullptr;
  begin.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT;
  MESHVK_VK_RETURN_IF_ERROR(vk.vkBeginCommandBuffer(cb, &begin), where + ": vkBeginCommandBuffer");
  // Earlier device work on the shard buffer (previous submissions) and the
  // host's writes into the slot come first.
  VkMemoryBarrier before{VK_STRUCTURE_TYPE_MEMORY_BARRIER};
  before.srcAccessMask = VK_ACCESS_MEMORY_WRITE_BIT | VK_ACCESS_HOST_WRITE_BIT;
  before.dstAccessMask = VK_ACCESS_TRANSFER_READ_BIT | VK_ACCESS_TRANSFER_WRITE_BIT;
  // A device buffer other VkDevices share is acquired from the external
  // family for the copy and released back after it (command_buffer.h); so is
  // the slot of a host allocation another VkDevice's ring imports too
  // (host_imported_), which that device writes or reads.
  VkBufferMemoryBarrier acquires[2] = {{VK_STRUCTURE_TYPE_BUFFER_MEMORY_BARRIER},
                                       {VK_STRUCTURE_TYPE_BUFFER_MEMORY_BARRIER}};
  uint32_t shared = 0;
  const uint64_t slot_offset = to_device ? src_offset : dst_offset;
  if (shard_shared_) {
    acquires[shared].dstAccessMask = to_device ? VK_ACCESS_TRANSFER_WRITE_BIT : VK_ACCESS_TRANSFER_READ_BIT;
    acquires[shared].buffer = to_device ? dst : src;
    acquires[shared].size = VK_WHOLE_SIZE;
    ++shared;
  }
  if (host_imported_) {
    acquires[shared].dstAccessMask = to_device ? VK_ACCESS_TRANSFER_READ_BIT : VK_ACCESS_TRANSFER_WRITE_BIT;
    acquires[shared].buffer = buffer_;
    acquires[shared].offset = slot_offset;
    acquires[shared].size = bytes;
    ++shared;
  }
  for (uint32_t i = 0; i < shared; ++i) {
    acquires[i].srcQueueFamilyIndex = VK_QUEUE_FAMILY_EXTERNAL;
    acquires[i].dstQueueFamilyIndex = device_.queue_family;
  }
  vk.vkCmdPipelineBarrier(cb, VK_PIPELINE_STAGE_ALL_COMMANDS_BIT | VK_PIPELINE_STAGE_HOST_BIT,
                          VK_PIPELINE_STAGE_TRANSFER_BIT, 0, 1, &before, shared, acquires, 0, nullptr);
  VkBufferCopy region{src_offset, dst_offset, bytes};
  vk.vkCmdCopyBuffer(cb, src, dst, 1, &region);
  // The host reads the slot (device -> host); later device work reads the
  // shard (host -> device).
  VkMemoryBarrier after{VK_STRUCTURE_TYPE_MEMORY_BARRIER};
  after.srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT;
  after.dstAccessMask = to_device ? VK_ACCESS_MEMORY_READ_BIT | VK_ACCESS_MEMORY_WRITE_BIT : VK_ACCESS_HOST_READ_BIT;
  // Each release hands over what this copy wrote in it (the shard when it is
  // the destination, the slot when it is).
  VkBufferMemoryBarrier releases[2];
  for (uint32_t i = 0; i < shared; ++i) {
    releases[i] = acquires[i];
    const bool written = acquires[i].buffer == dst;
    releases[i].srcAccessMask = written ? VK_ACCESS_TRANSFER_WRITE_BIT : 0;
    releases[i].dstAccessMask = 0;
    releases[i].srcQueueFamilyIndex = device_.queue_family;
    releases[i].dstQueueFamilyIndex = VK_QUEUE_FAMILY_EXTERNAL;
  }
  vk.vkCmdPipelineBarrier(cb, VK_PIPELINE_STAGE_TRANSFER_BIT,
                          to_device ? VK_PIPELINE_STAGE_ALL_COMMANDS_BIT : VK_PIPELINE_STAGE_HOST_BIT, 0, 1, &after,
                          shared, releases, 0, nullptr);
  MESHVK_VK_RETURN_IF_ERROR(vk.vkEndCommandBuffer(cb), where + ": vkEndCommandBuffer");
  MESHVK_VK_RETURN_IF_ERROR(vk.vkResetFences(device_.device, 1, &fences_[slot]), where + ": vkResetFences");
  const uint32_t mask = device_.device_mask;
  VkDeviceGroupSubmitInfo group_submit{VK_STRUCTURE_TYPE_DEVICE_GROUP_SUBMIT_INFO};
  group_submit.commandBufferCount = 1;
  group_submit.pCommandBufferDeviceMasks = &mask;
  VkSubmitInfo submit{VK_STRUCTURE_TYPE_SUBMIT_INFO};
  submit.pNext = mask ? &group_submit : nullptr;
  submit.commandBufferCount = 1;
  submit.pCommandBuffers = &cb;
  // On the transfer queue: after the compute queue's work so far, and
  // signalling the transfer timeline (StagingDevice).
  const bool transfer = device_.transfer_timeline != VK_NULL_HANDLE;
  uint64_t compute_done = 0, signal = 0;
  if (transfer) {
    std::lock_guard<std::mutex> lock(*device_.compute_lock);
    compute_done = *device_.compute_value;
  }
  const VkPipelineStageFlags wait_stage = VK_PIPELINE_STAGE_TRANSFER_BIT;
  VkTimelineSemaphoreSubmitInfo timeline{VK_STRUCTURE_TYPE_TIMELINE_SEMAPHORE_SUBMIT_INFO};
  timeline.waitSemaphoreValueCount = 1;
  timeline.pWaitSemaphoreValues = &compute_done;
  timeline.signalSemaphoreValueCount = 1;
  timeline.pSignalSemaphoreValues = &signal;
  if (transfer) {
    submit.pNext = &timeline;  // never in a device group (LogicalDevice::transfer_family)
    submit.waitSemaphoreCount = 1;
    submit.pWaitSemaphores = &device_.compute_timeline;
    submit.pWaitDstStageMask = &wait_stage;
    submit.signalSemaphoreCount = 1;
    submit.pSignalSemaphores = &device_.transfer_timeline;
  }
  {
    std::lock_guard<std::mutex> lock(*device_.queue_lock);
    if (transfer) signal = *device_.transfer_value + 1;
    const meshvk_queue_lock_t& app = device_.app_queue_lock;
    if (app.lock) app.lock(app.user_data, device_.queue);
    VkResult result = vk.vkQueueSubmit(device_.queue, 1, &submit, fences_[slot]);
    if (app.unlock) app.unlock(app.user_data, device_.queue);
    MESHVK_VK_RETURN_IF_ERROR(result, where + ": vkQueueSubmit");
    if (transfer) *device_.transfer_value = signal;
  }
  pending_[slot] = true;
  return Status();
}

Status StagingRing::SubmitOut(uint32_t slot, VkBuffer buffer, uint64_t offset, uint64_t bytes) {
  return Submit(slot, buffer, offset, buffer_, slot * chunk_, bytes, /*to_device=*/false);
}

Status StagingRing::SubmitIn(uint32_t slot, VkBuffer buffer, uint64_t offset, uint64_t bytes) {
  return Submit(slot, buffer_, slot * chunk_, buffer, offset, bytes, /*to_device=*/true);
}

bool StagingRing::idle() const {
  for (uint8_t pending : pending_)
    if (pending) return false;
  return true;
}

Status StagingRing::Wait(uint32_t slot, uint64_t timeout_ns) {
  if (!pending_[slot]) return Status();
  const std::string where = device_.where + ": host staging: vkWaitForFences";
  if (!Responsive()) {
    return MakeStatus(MESHVK_STATUS_DEVICE_LOST,
                      "%s: not waited on: the device stopped answering earlier (timed out or lost)", where.c_str());
  }
  const uint64_t bound = std::min(timeout_ns, device_.device_timeout_ns);
  VkResult result = device_.vk->vkWaitForFences(device_.device, 1, &fences_[slot], VK_TRUE, bound);
  MarkIfUnanswered(device_.unresponsive, result, bound == device_.device_timeout_ns);
  MESHVK_VK_RETURN_IF_ERROR(result, where + " (timeout " + std::to_string(bound / 1000000) + " ms)");
  pending_[slot] = false;
  return Status();
}

Status StagingRingCache::Take(const StagingDevice& device, uint64_t chunk, std::unique_ptr<StagingRing>* out) {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    for (size_t i = 0; i < idle_.size(); ++i) {
      // The same queue and, in a device group, the same device: a ring of
      // another device would reach this one's memory as a peer.
      if (idle_[i]->chunk() >= chunk && idle_[i]->queue() == device.queue &&
          idle_[i]->device_mask() == device.device_mask) {
        *out = std::move(idle_[i]);
        idle_.erase(idle_.begin() + static_cast<long>(i));
        return Status();
      }
    }
  }
  // Cached rings are full size, so a later larger transfer can reuse them.
  return StagingRing::Create(device, std::max<uint64_t>(chunk, device.chunk_bytes), out);
}

void StagingRingCache::Trim(size_t keep) {
  std::vector<std::unique_ptr<StagingRing>> freed;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    while (idle_.size() > keep) {
      freed.push_back(std::move(idle_.back()));
      idle_.pop_back();
    }
  }  // destroyed outside the lock
}

void StagingRingCache::Give(std::unique_ptr<StagingRing> ring) {
  if (!ring || !ring->idle()) return;  // a failed transfer's ring is freed (its destructor waits)
  std::lock_guard<std::mutex> lock(mutex_);
  // Two idle rings per device of a group (Take matches the device mask).
  size_t same_device = 0;
  for (const auto& idle : idle_) same_device += idle->device_mask() == ring->device_mask();
  if (same_device < 2) idle_.push_back(std::move(ring));
}

}  // namespace meshvk

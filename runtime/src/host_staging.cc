// Host staging: chunked, double-buffered transfers between device memory and
// host memory (see host_staging.h).
#include "host_staging.h"

#include <algorithm>
#include <cstdlib>
#include <cstring>

#include "buffer.h"
#include "device_wait.h"      // DeviceTimeoutNs: the one bound of device waits
#include "external_memory.h"  // MapHostPages
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

void AddStaging(const StagingDevice& device, uint64_t bytes) {
  if (!device.staging_bytes) return;
  uint64_t now = device.staging_bytes->fetch_add(bytes) + bytes;
  if (!device.peak_staging_bytes) return;
  uint64_t peak = device.peak_staging_bytes->load();
  while (now > peak && !device.peak_staging_bytes->compare_exchange_weak(peak, now)) {
  }
}

}  // namespace

StagedBuffer StagedBufferOf(meshvk_buffer_t* buffer) {
  meshvk_device_set_t* set = buffer->set;
  LogicalDevice& device = set->DeviceOf(buffer->process);
  const Process& owner = set->processes[buffer->process];
  StagedBuffer out;
  out.handle = buffer->buffer;
  out.offset = buffer->base_offset;
  out.mapped = static_cast<uint8_t*>(buffer->mapped);
  out.shared = SharedWithOtherDevices(buffer);
  StagingDevice& d = out.device;
  d.vk = &device.vk;
  d.device = device.device;
  d.queue = device.queues[owner.queue_index];
  d.queue_lock = &device.queue_locks[owner.queue_index];
  d.app_queue_lock = device.app_queue_lock;
  d.queue_family = device.queue_family;
  if (StagesOnTransferQueue(buffer)) {  // the copy engine, ordered with the compute queue by timelines
    const uint32_t timeline = device.timeline_index(owner.queue_index, owner.device_index);
    d.compute_timeline = device.queue_timelines[timeline];
    d.compute_value = &device.queue_timeline_values[timeline];
    d.compute_lock = d.queue_lock;
    d.queue = device.transfer_queue;
    d.queue_lock = &device.transfer_queue_lock;
    d.app_queue_lock = {};  // meshvk's own VkDevice
    d.queue_family = device.transfer_family;
    d.transfer_timeline = device.transfer_timeline;
    d.transfer_value = &device.transfer_timeline_value;
  }
  d.device_mask = set->is_group() ? 1u << owner.device_index : 0;
  d.memory = &device.physical->memory;
  d.staging_bytes = &device.staging_bytes;
  d.peak_staging_bytes = &device.peak_staging_bytes;
  d.where = set->Where(buffer->process);
  d.cache = device.staging_rings;
  d.host_pointer_alignment = device.host_pointer_alignment;
  d.unresponsive = &device.unresponsive;
  d.device_timeout_ns = device.timeout_ns;
  d.chunk_bytes = StagingChunkBytesFor(device.physical->properties.deviceType);
  return out;
}

uint64_t StagingChunkBytesFor(VkPhysicalDeviceType type) {
  return type == VK_PHYSICAL_DEVICE_TYPE_CPU ? kCpuStagingChunkBytes : kGpuStagingChunkBytes;
}

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
    AddStaging(device, ring->counted_);
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

namespace {

// A ring for one transfer: from the device's cache when it has one, given
// back when the transfer ends.
class RingLease {
 public:
  ~RingLease() {
    if (cache_) cache_->Give(std::move(ring_));
  }
  Status Acquire(const StagingDevice& device, uint64_t chunk) {
    cache_ = device.cache;
    return cache_ ? cache_->Take(device, chunk, &ring_) : StagingRing::Create(device, chunk, &ring_);
  }
  StagingRing* get() const { return ring_.get(); }

 private:
  StagingRingCache* cache_ = nullptr;
  std::unique_ptr<StagingRing> ring_;
};

// One chunked transfer. The source is device memory through `out` (chunk i in
// slot i % 2) or, without a ring, the host through `read`; the destination is
// device memory through `in` or the host through `write`. While the host
// moves chunk i, the source device already fills chunk i + 1 and the
// destination device still drains chunk i - 1.
Status Pump(uint64_t size, uint64_t chunk, uint64_t timeout, StagingRing* out, VkBuffer src, uint64_t src_offset,
            const ChunkSource& read, StagingRing* in, VkBuffer dst, uint64_t dst_offset, const ChunkSink& write) {
  const uint64_t n = (size + chunk - 1) / chunk;
  auto bytes = [&](uint64_t i) { return std::min(chunk, size - i * chunk); };
  if (out && n > 0) MESHVK_RETURN_IF_ERROR(out->SubmitOut(0, src, src_offset, bytes(0)));
  for (uint64_t i = 0; i < n; ++i) {
    const uint32_t slot = static_cast<uint32_t>(i % 2);
    if (out && i + 1 < n) {
      const uint32_t next = 1 - slot;  // chunk i - 1's slot: the host is done with it
      MESHVK_RETURN_IF_ERROR(out->Wait(next, timeout));
      MESHVK_RETURN_IF_ERROR(out->SubmitOut(next, src, src_offset + (i + 1) * chunk, bytes(i + 1)));
    }
    const uint8_t* from = nullptr;
    if (out) {
      MESHVK_RETURN_IF_ERROR(out->Wait(slot, timeout));
      from = out->data(slot);
    }
    if (!in) {
      MESHVK_RETURN_IF_ERROR(write(from, bytes(i), i * chunk));
      continue;
    }
    MESHVK_RETURN_IF_ERROR(in->Wait(slot, timeout));  // chunk i - 2 has left this slot
    uint8_t* to = in->data(slot);
    if (out) {
      std::memcpy(to, from, bytes(i));
    } else {
      MESHVK_RETURN_IF_ERROR(read(to, bytes(i), i * chunk));
    }
    MESHVK_RETURN_IF_ERROR(in->SubmitIn(slot, dst, dst_offset + i * chunk, bytes(i)));
  }
  if (in) {
    MESHVK_RETURN_IF_ERROR(in->Wait(0, timeout));
    MESHVK_RETURN_IF_ERROR(in->Wait(1, timeout));
  }
  return Status();
}

// Slots of a host allocation shared by two devices: four (at most as many as
// the transfer has chunks), the size of two staging rings, so the
// destination's staging stays within its documented two rings. Four let the
// source device run up to three chunks ahead: with two it had at most one
// queued, so each of its chunks waited for its queue thread to wake up (on
// the layer's separate devices, 256 MiB: the host waited 70 ms of ~125 ms for
// the source's copies with two slots, 5 ms with four; eight, 8 MiB, fall out
// of the caches and were slower).
constexpr uint32_t kSharedSlots = 4;

// One chunked transfer through a host allocation both rings import: chunk i
// goes device A -> slot i % slots -> device B. The host only submits and
// waits; it never touches the bytes, so each byte is copied twice, not three
// times, and the two device copies overlap. The order keeps both devices fed:
// B's copy of chunk i is submitted as soon as A filled it, before the host
// waits for B's copy of chunk i - 1 (so B never idles while the host wakes up
// and submits), and that wait frees the slot A refills with chunk
// i - 1 + slots (so A runs up to slots - 1 chunks ahead).
Status PumpShared(uint64_t size, uint64_t chunk, uint64_t timeout, StagingRing* out, VkBuffer src, uint64_t src_offset,
                  StagingRing* in, VkBuffer dst, uint64_t dst_offset) {
  const uint64_t n = (size + chunk - 1) / chunk;
  const uint32_t slots = out->slots();
  auto bytes = [&](uint64_t i) { return std::min(chunk, size - i * chunk); };
  auto slot = [&](uint64_t i) { return static_cast<uint32_t>(i % slots); };
  for (uint64_t i = 0; i < n && i < slots; ++i)
    MESHVK_RETURN_IF_ERROR(out->SubmitOut(slot(i), src, src_offset + i * chunk, bytes(i)));
  for (uint64_t i = 0; i < n; ++i) {
    MESHVK_RETURN_IF_ERROR(out->Wait(slot(i), timeout));
    MESHVK_RETURN_IF_ERROR(in->SubmitIn(slot(i), dst, dst_offset + i * chunk, bytes(i)));
    if (i == 0) continue;
    const uint64_t next = i - 1 + slots;  // goes where chunk i - 1 was
    MESHVK_RETURN_IF_ERROR(in->Wait(slot(i - 1), timeout));
    if (next < n) MESHVK_RETURN_IF_ERROR(out->SubmitOut(slot(next), src, src_offset + next * chunk, bytes(next)));
  }
  for (uint32_t k = 0; k < slots; ++k) MESHVK_RETURN_IF_ERROR(in->Wait(k, timeout));
  return Status();
}

// The host allocation two rings import, counted as the destination's
// staging memory while it lives. Freed after both rings (declare it first);
// kept when a device that stopped answering may still write it.
class HostAllocation {
 public:
  HostAllocation(const StagingDevice& owner, const StagingDevice& other, uint64_t alignment, uint64_t bytes)
      : owner_(owner), other_(other) {
    // Huge pages where it is large enough: a fresh allocation per transfer
    // then faults in 2 MiB at a time, not 4 KiB.
    data_ = static_cast<uint8_t*>(MapHostPages(bytes, std::max<uint64_t>(alignment, 2ull << 20)));
    if (data_) bytes_ = bytes, AddStaging(owner_, bytes_);
  }
  ~HostAllocation() {
    for (const StagingDevice* d : {&owner_, &other_}) {
      if (d->unresponsive && *d->unresponsive) {
        CountLeaked(1);
        return;
      }
    }
    UnmapHostPages(data_, bytes_);
    if (bytes_ && owner_.staging_bytes) owner_.staging_bytes->fetch_sub(bytes_);
  }
  HostAllocation(const HostAllocation&) = delete;
  HostAllocation& operator=(const HostAllocation&) = delete;
  uint8_t* data() const { return data_; }

 private:
  const StagingDevice& owner_;
  const StagingDevice& other_;
  uint8_t* data_ = nullptr;
  uint64_t bytes_ = 0;
};

// Device A -> one host allocation imported on both devices -> device B
// (VK_EXT_external_memory_host on both). *used is false when the devices
// cannot share a host allocation (nothing was transferred: the caller takes
// the memcpy rings); a failure after the first submission is returned.
Status CopyThroughSharedHostMemory(const StagedBuffer& from, uint64_t src_offset, const StagedBuffer& to,
                                   uint64_t dst_offset, uint64_t size, uint64_t chunk, uint64_t timeout, bool* used) {
  *used = false;
  const uint64_t align = std::max(from.device.host_pointer_alignment, to.device.host_pointer_alignment);
  if (!from.device.host_pointer_alignment || !to.device.host_pointer_alignment ||
      from.device.device == to.device.device || size <= chunk || chunk % align) {
    return Status();
  }
  const auto slots = static_cast<uint32_t>(std::min<uint64_t>(kSharedSlots, (size + chunk - 1) / chunk));
  // The allocation takes the place of the destination's cached rings (one
  // ring per two slots), so its staging stays within two rings.
  if (to.device.cache) to.device.cache->Trim(slots > 2 ? 0 : 1);
  HostAllocation host(to.device, from.device, align, slots * chunk);  // outlives both rings (declared first)
  if (!host.data()) return Status();
  std::unique_ptr<StagingRing> out, in;
  if (!StagingRing::Create(from.device, chunk, &out, slots, host.data()).ok() ||
      !StagingRing::Create(to.device, chunk, &in, slots, host.data()).ok()) {
    return Status();  // a refused import: the memcpy rings still work
  }
  *used = true;
  out->set_shard_shared(from.shared);
  in->set_shard_shared(to.shared);
  return PumpShared(size, chunk, timeout, out.get(), from.handle, from.offset + src_offset, in.get(), to.handle,
                    to.offset + dst_offset);
}

Status CheckStaged(meshvk_buffer_t* buffer, uint64_t offset, uint64_t size, const char* what) {
  if (!buffer) return MakeStatus(MESHVK_STATUS_INVALID_ARGUMENT, "%s: buffer is NULL", what);
  return CheckRange(buffer, offset, size, what);
}

// `chunk_bytes`, or when it is 0 the smaller of the devices' own chunks.
uint64_t ChunkFor(uint64_t chunk_bytes, uint64_t size, const StagingDevice& a, const StagingDevice& b) {
  uint64_t chunk = chunk_bytes ? chunk_bytes : std::min(a.chunk_bytes, b.chunk_bytes);
  // Staging for a small transfer is only as large as the transfer.
  return std::max<uint64_t>(4, std::min(chunk, (size + 3) / 4 * 4));
}

}  // namespace

Status StageOut(meshvk_buffer_t* buffer, uint64_t offset, uint64_t size, uint64_t chunk_bytes, uint64_t timeout_ns,
                const ChunkSink& sink) {
  MESHVK_RETURN_IF_ERROR(CheckStaged(buffer, offset, size, "host staging out"));
  if (size == 0) return Status();
  StagedBuffer staged = StagedBufferOf(buffer);
  if (staged.mapped) return sink(staged.mapped + offset, size, 0);
  const uint64_t chunk = ChunkFor(chunk_bytes, size, staged.device, staged.device);
  RingLease out;
  MESHVK_RETURN_IF_ERROR(out.Acquire(staged.device, chunk));
  out.get()->set_shard_shared(staged.shared);
  return Pump(size, chunk, timeout_ns, out.get(), staged.handle, staged.offset + offset, nullptr, nullptr,
              VK_NULL_HANDLE, 0, sink);
}

Status StageIn(meshvk_buffer_t* buffer, uint64_t offset, uint64_t size, uint64_t chunk_bytes, uint64_t timeout_ns,
               const ChunkSource& source) {
  MESHVK_RETURN_IF_ERROR(CheckStaged(buffer, offset, size, "host staging in"));
  if (size == 0) return Status();
  StagedBuffer staged = StagedBufferOf(buffer);
  if (staged.mapped) return source(staged.mapped + offset, size, 0);
  const uint64_t chunk = ChunkFor(chunk_bytes, size, staged.device, staged.device);
  RingLease in;
  MESHVK_RETURN_IF_ERROR(in.Acquire(staged.device, chunk));
  in.get()->set_shard_shared(staged.shared);
  return Pump(size, chunk, timeout_ns, nullptr, VK_NULL_HANDLE, 0, source, in.get(), staged.handle,
              staged.offset + offset, nullptr);
}

Status CopyHostStaged(meshvk_buffer_t* src, uint64_t src_offset, meshvk_buffer_t* dst, uint64_t dst_offset,
                      uint64_t size, uint64_t chunk_bytes, uint64_t timeout_ns) {
  const char* what = "meshvk_buffer_copy_host_staged";
  MESHVK_RETURN_IF_ERROR(CheckStaged(src, src_offset, size, what));
  MESHVK_RETURN_IF_ERROR(CheckStaged(dst, dst_offset, size, what));
  if (src->set != dst->set) {
    return MakeStatus(MESHVK_STATUS_INVALID_ARGUMENT, "%s: the buffers belong to different sets", what);
  }
  if (size == 0) return Status();
  StagedBuffer from = StagedBufferOf(src);
  StagedBuffer to = StagedBufferOf(dst);
  // Mappable ends skip their ring: one memcpy when both are mappable.
  if (from.mapped) {
    const uint8_t* bytes = from.mapped + src_offset;
    return StageIn(dst, dst_offset, size, chunk_bytes, timeout_ns, [bytes](uint8_t* chunk, uint64_t n, uint64_t at) {
      std::memcpy(chunk, bytes + at, n);
      return Status();
    });
  }
  if (to.mapped) {
    uint8_t* bytes = to.mapped + dst_offset;
    return StageOut(src, src_offset, size, chunk_bytes, timeout_ns,
                    [bytes](const uint8_t* chunk, uint64_t n, uint64_t at) {
                      std::memcpy(bytes + at, chunk, n);
                      return Status();
                    });
  }
  const uint64_t chunk = ChunkFor(chunk_bytes, size, from.device, to.device);
  const uint64_t timeout = timeout_ns;
  bool shared = false;
  MESHVK_RETURN_IF_ERROR(CopyThroughSharedHostMemory(from, src_offset, to, dst_offset, size, chunk, timeout, &shared));
  if (shared) return Status();
  RingLease out, in;
  MESHVK_RETURN_IF_ERROR(out.Acquire(from.device, chunk));
  MESHVK_RETURN_IF_ERROR(in.Acquire(to.device, chunk));
  out.get()->set_shard_shared(from.shared);
  in.get()->set_shard_shared(to.shared);
  return Pump(size, chunk, timeout, out.get(), from.handle, from.offset + src_offset, nullptr, in.get(), to.handle,
              to.offset + dst_offset, nullptr);
}

}  // namespace meshvk

extern "C" {

meshvk_status_t meshvk_buffer_copy_host_staged(meshvk_buffer_t* src, uint64_t src_offset, meshvk_buffer_t* dst,
                                               uint64_t dst_offset, uint64_t size, meshvk_timeout_t timeout_ns) {
  return meshvk::CopyHostStaged(src, src_offset, dst, dst_offset, size, 0, timeout_ns).ToC();
}

}  // extern "C"

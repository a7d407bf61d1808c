// meshvk_command_buffer_t: one process's recorded stream, with barriers
// derived from buffer hazards and its own device timing. Submission: queue.cc.
#include "command_buffer.h"

#include <algorithm>
#include <cstring>

#include "buffer.h"
#include "builtin_executables.h"
#include "device_wait.h"
#include "executable.h"
#include "vulkan/vk_status.h"

namespace meshvk {
namespace {

constexpr uint8_t kRead = 1;
constexpr uint8_t kWrite = 2;
constexpr uint32_t kSetsPerPool = 64;

constexpr VkPipelineStageFlags kWorkStages = VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT | VK_PIPELINE_STAGE_TRANSFER_BIT;
constexpr VkAccessFlags kWriteAccess = VK_ACCESS_SHADER_WRITE_BIT | VK_ACCESS_TRANSFER_WRITE_BIT;
constexpr VkAccessFlags kAnyAccess =
    VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT | VK_ACCESS_TRANSFER_READ_BIT | VK_ACCESS_TRANSFER_WRITE_BIT;

LogicalDevice& DeviceOf(const meshvk_command_buffer_t* cb) { return cb->set->DeviceOf(cb->process); }

void MemoryBarrier(meshvk_command_buffer_t* cb, VkPipelineStageFlags src_stages, VkAccessFlags src_access,
                   VkPipelineStageFlags dst_stages, VkAccessFlags dst_access) {
  VkMemoryBarrier barrier{VK_STRUCTURE_TYPE_MEMORY_BARRIER};
  barrier.srcAccessMask = src_access;
  barrier.dstAccessMask = dst_access;
  DeviceOf(cb).vk.vkCmdPipelineBarrier(cb->command_buffer, src_stages, dst_stages, 0, 1, &barrier, 0, nullptr, 0,
                                       nullptr);
}

// Records that the next command reads `reads` and writes `writes`, first
// emitting a barrier when that conflicts with work since the last barrier
// (read-after-write, write-after-write, write-after-read). The barrier is
// global, so it clears all pending accesses.
void TrackAccess(meshvk_command_buffer_t* cb, const std::vector<const meshvk_buffer_t*>& reads,
                 const std::vector<const meshvk_buffer_t*>& writes) {
  bool hazard = false;
  for (const auto* buffer : reads) {
    auto it = cb->pending.find(buffer);
    if (it != cb->pending.end() && (it->second & kWrite)) hazard = true;
  }
  for (const auto* buffer : writes) {
    if (cb->pending.count(buffer)) hazard = true;
  }
  if (hazard) {
    MemoryBarrier(cb, kWorkStages, kWriteAccess, kWorkStages, kAnyAccess);
    cb->pending.clear();
  }
  for (const auto* buffer : reads) cb->pending[buffer] |= kRead;
  for (const auto* buffer : writes) cb->pending[buffer] |= kWrite;
}

void Retain(meshvk_command_buffer_t* cb, meshvk_buffer_t* buffer) {
  if (std::find(cb->buffers.begin(), cb->buffers.end(), buffer) != cb->buffers.end()) return;
  meshvk_buffer_retain(buffer);
  cb->buffers.push_back(buffer);
}

void Retain(meshvk_command_buffer_t* cb, meshvk_executable_t* executable) {
  if (std::find(cb->executables.begin(), cb->executables.end(), executable) != cb->executables.end()) {
    return;
  }
  meshvk_executable_retain(executable);
  cb->executables.push_back(executable);
}

Status CheckRecording(const meshvk_command_buffer_t* cb, const char* what) {
  if (!cb) return MakeStatus(MESHVK_STATUS_INVALID_ARGUMENT, "%s: command buffer is NULL", what);
  if (cb->broken) {
    return MakeStatus(MESHVK_STATUS_FAILED_PRECONDITION,
                      "%s: %s: an earlier recording call failed; the command buffer is unusable", what,
                      cb->set->Where(cb->process).c_str());
  }
  if (cb->ended) {
    return MakeStatus(MESHVK_STATUS_FAILED_PRECONDITION,
                      "%s: %s: recording has ended (meshvk_command_buffer_end was called)", what,
                      cb->set->Where(cb->process).c_str());
  }
  return Status();
}

Status CheckSameSet(const meshvk_command_buffer_t* cb, const meshvk_buffer_t* buffer, const char* what,
                    const char* role) {
  if (!buffer) return MakeStatus(MESHVK_STATUS_INVALID_ARGUMENT, "%s: %s buffer is NULL", what, role);
  if (buffer->set != cb->set) {
    return MakeStatus(MESHVK_STATUS_INVALID_ARGUMENT, "%s: %s buffer belongs to another device set", what, role);
  }
  return Status();
}

// A buffer this process uses: from the same set, reachable with `required`
// peer features when another process owns it.
Status CheckBufferUse(const meshvk_command_buffer_t* cb, const meshvk_buffer_t* buffer, uint32_t required,
                      const char* what, const char* role) {
  MESHVK_RETURN_IF_ERROR(CheckSameSet(cb, buffer, what, role));
  if (buffer->process == cb->process) return Status();
  return cb->set->CheckPeerAccess(cb->process, buffer->process, required, what);
}

Status CheckOwnBuffer(const meshvk_command_buffer_t* cb, const meshvk_buffer_t* buffer, const char* what) {
  MESHVK_RETURN_IF_ERROR(CheckSameSet(cb, buffer, what, "destination"));
  if (buffer->process != cb->process) {
    return MakeStatus(MESHVK_STATUS_INVALID_ARGUMENT,
                      "%s: destination buffer belongs to process %u, not to %s (copies pull "
                      "into the recording process)",
                      what, buffer->process, cb->set->Where(cb->process).c_str());
  }
  return Status();
}

Status AllocateDescriptorSet(meshvk_command_buffer_t* cb, const meshvk_executable_t* executable, VkDescriptorSet* out) {
  LogicalDevice& device = DeviceOf(cb);
  const uint32_t needed = std::max(1u, executable->binding_count);
  if (cb->pool_sets_left == 0 || cb->pool_descriptors_left < needed) {
    VkDescriptorPoolSize size{VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, std::max(needed, 16u) * kSetsPerPool};
    VkDescriptorPoolCreateInfo info{VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO};
    info.maxSets = kSetsPerPool;
    info.poolSizeCount = 1;
    info.pPoolSizes = &size;
    VkDescriptorPool pool = VK_NULL_HANDLE;
    MESHVK_VK_RETURN_IF_ERROR(device.vk.vkCreateDescriptorPool(device.device, &info, nullptr, &pool),
                              cb->set->Where(cb->process) + ": vkCreateDescriptorPool");
    cb->descriptor_pools.push_back(pool);
    cb->pool_sets_left = kSetsPerPool;
    cb->pool_descriptors_left = size.descriptorCount;
  }
  const size_t d = cb->set->processes[cb->process].logical_device;
  VkDescriptorSetAllocateInfo info{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO};
  info.descriptorPool = cb->descriptor_pools.back();
  info.descriptorSetCount = 1;
  info.pSetLayouts = &executable->per_device[d].set_layout;
  MESHVK_VK_RETURN_IF_ERROR(device.vk.vkAllocateDescriptorSets(device.device, &info, out),
                            cb->set->Where(cb->process) + ": vkAllocateDescriptorSets");
  cb->pool_sets_left -= 1;
  cb->pool_descriptors_left -= needed;
  return Status();
}

// Bytes a binding covers: its range, or for range 0 the rest of the buffer
// from its offset (0 at or past the end, refused by CheckDispatch). The one
// place the core resolves range 0.
uint64_t BindingRange(const meshvk_binding_t& binding) {
  if (binding.range) return binding.range;
  return binding.offset < binding.buffer->size ? binding.buffer->size - binding.offset : 0;
}

Status CheckDispatch(const meshvk_command_buffer_t* cb, const meshvk_dispatch_info_t& info, const char* what) {
  const meshvk_executable_t* executable = info.executable;
  if (!executable) return MakeStatus(MESHVK_STATUS_INVALID_ARGUMENT, "%s: executable is NULL", what);
  if (executable->set != cb->set) {
    return MakeStatus(MESHVK_STATUS_INVALID_ARGUMENT, "%s: executable belongs to another device set", what);
  }
  if (info.binding_count != executable->binding_count || (info.binding_count > 0 && !info.bindings)) {
    return MakeStatus(MESHVK_STATUS_INVALID_ARGUMENT, "%s: %u binding(s) given, the executable has %u", what,
                      info.binding_count, executable->binding_count);
  }
  if (info.push_constant_size != executable->push_constant_size ||
      (info.push_constant_size > 0 && !info.push_constants)) {
    return MakeStatus(MESHVK_STATUS_INVALID_ARGUMENT, "%s: %u push constant bytes given, the executable takes %u", what,
                      info.push_constant_size, executable->push_constant_size);
  }
  const VkPhysicalDeviceLimits& limits = DeviceOf(cb).physical->properties.limits;
  for (int d = 0; d < 3; ++d) {
    uint64_t end = static_cast<uint64_t>(info.workgroup_base[d]) + info.workgroup_count[d];
    if (info.workgroup_count[d] == 0 || end > limits.maxComputeWorkGroupCount[d]) {
      return MakeStatus(MESHVK_STATUS_OUT_OF_RANGE,
                        "%s: %s: workgroup count %u (base %u) in dimension %d, the device "
                        "allows 1..%u",
                        what, cb->set->Where(cb->process).c_str(), info.workgroup_count[d], info.workgroup_base[d], d,
                        limits.maxComputeWorkGroupCount[d]);
    }
  }
  for (uint32_t b = 0; b < info.binding_count; ++b) {
    const meshvk_binding_t& binding = info.bindings[b];
    uint32_t required =
        VK_PEER_MEMORY_FEATURE_GENERIC_SRC_BIT | (binding.writes ? VK_PEER_MEMORY_FEATURE_GENERIC_DST_BIT : 0);
    std::string role = "binding " + std::to_string(b);
    MESHVK_RETURN_IF_ERROR(CheckBufferUse(cb, binding.buffer, required, what, role.c_str()));
    if (binding.offset % limits.minStorageBufferOffsetAlignment != 0) {
      return MakeStatus(MESHVK_STATUS_INVALID_ARGUMENT, "%s: binding %u offset %llu is not a multiple of %llu", what, b,
                        static_cast<unsigned long long>(binding.offset),
                        static_cast<unsigned long long>(limits.minStorageBufferOffsetAlignment));
    }
    uint64_t range = BindingRange(binding);
    if (range == 0) {
      return MakeStatus(MESHVK_STATUS_OUT_OF_RANGE, "%s: binding %u offset %llu is at or past the end of %llu bytes",
                        what, b, static_cast<unsigned long long>(binding.offset),
                        static_cast<unsigned long long>(binding.buffer->size));
    }
    MESHVK_RETURN_IF_ERROR(
        CheckRange(binding.buffer, binding.offset, range, (std::string(what) + ": " + role).c_str()));
    if (range > limits.maxStorageBufferRange) {
      return MakeStatus(MESHVK_STATUS_OUT_OF_RANGE, "%s: binding %u range %llu bytes exceeds maxStorageBufferRange %u",
                        what, b, static_cast<unsigned long long>(range), limits.maxStorageBufferRange);
    }
  }
  return Status();
}

// Records a checked dispatch: descriptors, hazard barrier, push constants,
// vkCmdDispatch or vkCmdDispatchBase.
Status RecordDispatch(meshvk_command_buffer_t* cb, const meshvk_dispatch_info_t& info) {
  meshvk_executable_t* executable = info.executable;
  LogicalDevice& device = DeviceOf(cb);
  const size_t d = cb->set->processes[cb->process].logical_device;
  VkDescriptorSet descriptor_set = VK_NULL_HANDLE;
  if (info.binding_count > 0) {
    MESHVK_RETURN_IF_ERROR(AllocateDescriptorSet(cb, executable, &descriptor_set));
    std::vector<VkDescriptorBufferInfo> buffers(info.binding_count);
    std::vector<VkWriteDescriptorSet> writes(info.binding_count);
    for (uint32_t b = 0; b < info.binding_count; ++b) {
      const meshvk_binding_t& binding = info.bindings[b];
      buffers[b].buffer = binding.buffer->buffer;
      buffers[b].offset = binding.buffer->base_offset + binding.offset;
      buffers[b].range = BindingRange(binding);
      writes[b] = {VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET};
      writes[b].dstSet = descriptor_set;
      writes[b].dstBinding = b;
      writes[b].descriptorCount = 1;
      writes[b].descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
      writes[b].pBufferInfo = &buffers[b];
    }
    device.vk.vkUpdateDescriptorSets(device.device, info.binding_count, writes.data(), 0, nullptr);
  }
  std::vector<const meshvk_buffer_t*> reads, written;
  for (uint32_t b = 0; b < info.binding_count; ++b) {
    reads.push_back(info.bindings[b].buffer);
    if (info.bindings[b].writes) written.push_back(info.bindings[b].buffer);
  }
  TrackAccess(cb, reads, written);
  for (uint32_t b = 0; b < info.binding_count; ++b) Retain(cb, info.bindings[b].buffer);
  Retain(cb, executable);

  VkCommandBuffer command_buffer = cb->command_buffer;
  const auto& objects = executable->per_device[d];
  device.vk.vkCmdBindPipeline(command_buffer, VK_PIPELINE_BIND_POINT_COMPUTE, objects.pipeline);
  if (descriptor_set) {
    device.vk.vkCmdBindDescriptorSets(command_buffer, VK_PIPELINE_BIND_POINT_COMPUTE, objects.layout, 0, 1,
                                      &descriptor_set, 0, nullptr);
  }
  if (info.push_constant_size > 0) {
    device.vk.vkCmdPushConstants(command_buffer, objects.layout, VK_SHADER_STAGE_COMPUTE_BIT, 0,
                                 info.push_constant_size, info.push_constants);
  }
  const uint32_t* base = info.workgroup_base;
  const uint32_t* count = info.workgroup_count;
  if (base[0] || base[1] || base[2]) {
    device.vk.vkCmdDispatchBase(command_buffer, base[0], base[1], base[2], count[0], count[1], count[2]);
  } else {
    device.vk.vkCmdDispatch(command_buffer, count[0], count[1], count[2]);
  }
  return Status();
}

// Workgroups for a grid-stride built-in over `items`: enough to cover them,
// clamped to the device limit (the loop covers the rest).
uint32_t BuiltinWorkgroups(const meshvk_command_buffer_t* cb, uint64_t items) {
  uint64_t groups = (items + kBuiltinWorkgroupSize - 1) / kBuiltinWorkgroupSize;
  uint64_t limit = DeviceOf(cb).physical->properties.limits.maxComputeWorkGroupCount[0];
  return static_cast<uint32_t>(std::max<uint64_t>(1, std::min(groups, limit)));
}

// Records a 1-D grid-stride built-in over `items` with the given bindings and
// push block (checked like any caller's dispatch).
Status DispatchBuiltin(meshvk_command_buffer_t* cb, meshvk_builtin_t builtin, const meshvk_binding_t* bindings,
                       uint32_t binding_count, const void* push, uint32_t push_size, uint64_t items, const char* what) {
  meshvk_executable_t* executable = nullptr;
  MESHVK_RETURN_IF_ERROR(GetBuiltin(cb->set, builtin, &executable));
  meshvk_dispatch_info_t info = {};
  info.executable = executable;
  info.bindings = bindings;
  info.binding_count = binding_count;
  info.push_constants = push;
  info.push_constant_size = push_size;
  info.workgroup_count[0] = BuiltinWorkgroups(cb, items);
  info.workgroup_count[1] = info.workgroup_count[2] = 1;
  Status status = CheckDispatch(cb, info, what);
  if (status.ok()) status = RecordDispatch(cb, info);
  meshvk_executable_release(executable);
  return status;
}

// Marks the command buffer unusable when a Vulkan call failed mid-recording.
Status Recorded(meshvk_command_buffer_t* cb, Status status) {
  if (!status.ok() && status.code() != MESHVK_STATUS_INVALID_ARGUMENT && status.code() != MESHVK_STATUS_OUT_OF_RANGE) {
    cb->broken = true;
  }
  return status;
}

Status Fill(meshvk_command_buffer_t* cb, meshvk_buffer_t* dst, uint64_t offset, uint64_t size, uint32_t value) {
  const char* what = "meshvk_command_buffer_fill";
  MESHVK_RETURN_IF_ERROR(CheckRecording(cb, what));
  MESHVK_RETURN_IF_ERROR(CheckOwnBuffer(cb, dst, what));
  if (size == 0 || size % 4 != 0 || offset % 4 != 0) {
    return MakeStatus(MESHVK_STATUS_INVALID_ARGUMENT, "%s: offset %llu and size %llu must be multiples of 4, size > 0",
                      what, static_cast<unsigned long long>(offset), static_cast<unsigned long long>(size));
  }
  MESHVK_RETURN_IF_ERROR(CheckRange(dst, offset, size, what));
  TrackAccess(cb, {}, {dst});
  Retain(cb, dst);
  DeviceOf(cb).vk.vkCmdFillBuffer(cb->command_buffer, dst->buffer, dst->base_offset + offset, size, value);
  return Status();
}

Status Copy(meshvk_command_buffer_t* cb, meshvk_buffer_t* src, uint64_t src_offset, meshvk_buffer_t* dst,
            uint64_t dst_offset, uint64_t size) {
  const char* what = "meshvk_command_buffer_copy";
  MESHVK_RETURN_IF_ERROR(CheckRecording(cb, what));
  MESHVK_RETURN_IF_ERROR(CheckOwnBuffer(cb, dst, what));
  MESHVK_RETURN_IF_ERROR(CheckBufferUse(cb, src, VK_PEER_MEMORY_FEATURE_COPY_SRC_BIT, what, "source"));
  if (size == 0) return MakeStatus(MESHVK_STATUS_INVALID_ARGUMENT, "%s: size is 0", what);
  MESHVK_RETURN_IF_ERROR(CheckRange(src, src_offset, size, "meshvk_command_buffer_copy source"));
  MESHVK_RETURN_IF_ERROR(CheckRange(dst, dst_offset, size, "meshvk_command_buffer_copy destination"));
  if (src == dst && src_offset < dst_offset + size && dst_offset < src_offset + size) {
    return MakeStatus(MESHVK_STATUS_INVALID_ARGUMENT,
                      "%s: source [%llu, +%llu) and destination [%llu, +%llu) overlap in one "
                      "buffer",
                      what, static_cast<unsigned long long>(src_offset), static_cast<unsigned long long>(size),
                      static_cast<unsigned long long>(dst_offset), static_cast<unsigned long long>(size));
  }
  TrackAccess(cb, {src}, {dst});
  Retain(cb, src);
  Retain(cb, dst);
  VkBufferCopy region{src->base_offset + src_offset, dst->base_offset + dst_offset, size};
  DeviceOf(cb).vk.vkCmdCopyBuffer(cb->command_buffer, src->buffer, dst->buffer, 1, &region);
  return Status();
}

// Highest word index a strided region touches on one side, or an error.
Status RegionLastWord(const meshvk_strided_region_t& region, bool src, uint64_t* out) {
  uint64_t last = src ? region.src_offset_words : region.dst_offset_words;
  const uint32_t* stride = src ? region.src_stride : region.dst_stride;
  for (int d = 0; d < 3; ++d) last += static_cast<uint64_t>(region.count[d] - 1) * stride[d];
  *out = last;
  return Status();
}

Status CopyStrided(meshvk_command_buffer_t* cb, meshvk_buffer_t* src, meshvk_buffer_t* dst,
                   const meshvk_strided_region_t* region) {
  const char* what = "meshvk_command_buffer_copy_strided";
  MESHVK_RETURN_IF_ERROR(CheckRecording(cb, what));
  if (!region) return MakeStatus(MESHVK_STATUS_INVALID_ARGUMENT, "%s: region is NULL", what);
  MESHVK_RETURN_IF_ERROR(CheckOwnBuffer(cb, dst, what));
  MESHVK_RETURN_IF_ERROR(CheckBufferUse(cb, src, VK_PEER_MEMORY_FEATURE_GENERIC_SRC_BIT, what, "source"));
  uint64_t total = 1;
  for (int d = 0; d < 3; ++d) {
    if (region->count[d] == 0) {
      return MakeStatus(MESHVK_STATUS_INVALID_ARGUMENT, "%s: count[%d] is 0 (use 1 for unused dimensions)", what, d);
    }
    total *= region->count[d];
  }
  if (total > (1ull << 31)) {
    return MakeStatus(MESHVK_STATUS_OUT_OF_RANGE, "%s: %llu words exceed the 2^31 limit", what,
                      static_cast<unsigned long long>(total));
  }
  const VkPhysicalDeviceLimits& limits = DeviceOf(cb).physical->properties.limits;
  const uint64_t src_words = std::min<uint64_t>(src->size, limits.maxStorageBufferRange) / 4;
  const uint64_t dst_words = std::min<uint64_t>(dst->size, limits.maxStorageBufferRange) / 4;
  uint64_t src_last = 0, dst_last = 0;
  MESHVK_RETURN_IF_ERROR(RegionLastWord(*region, true, &src_last));
  MESHVK_RETURN_IF_ERROR(RegionLastWord(*region, false, &dst_last));
  if (src_last >= src_words || dst_last >= dst_words) {
    bool src_side = src_last >= src_words;
    return MakeStatus(
        MESHVK_STATUS_OUT_OF_RANGE,
        "%s: %s word %llu is outside the %llu addressable words of its buffer "
        "(process %u)",
        what, src_side ? "source" : "destination", static_cast<unsigned long long>(src_side ? src_last : dst_last),
        static_cast<unsigned long long>(src_side ? src_words : dst_words), src_side ? src->process : dst->process);
  }
  if (src == dst && region->src_offset_words <= dst_last && region->dst_offset_words <= src_last) {
    return MakeStatus(
        MESHVK_STATUS_INVALID_ARGUMENT,
        "%s: source words [%llu, %llu] and destination words [%llu, %llu] overlap "
        "in one buffer",
        what, static_cast<unsigned long long>(region->src_offset_words), static_cast<unsigned long long>(src_last),
        static_cast<unsigned long long>(region->dst_offset_words), static_cast<unsigned long long>(dst_last));
  }
  // Each side binds only the words the region spans (from its first word,
  // rounded down to the storage-buffer offset alignment, to its last), so the
  // copy's footprint is what it touches, not the whole buffer: other commands
  // may use the rest of a shared buffer at the same time (the emulation
  // layer's race check sees these ranges too).
  const uint64_t align_words = std::max<uint64_t>(1, limits.minStorageBufferOffsetAlignment / 4);
  const uint64_t src_base = region->src_offset_words / align_words * align_words;
  const uint64_t dst_base = region->dst_offset_words / align_words * align_words;
  // The layout of the push block in shaders/strided_copy.comp, offsets
  // relative to the bound ranges; they fit 32 bits because they are below
  // maxStorageBufferRange / 4.
  uint32_t push[11] = {static_cast<uint32_t>(region->src_offset_words - src_base),
                       static_cast<uint32_t>(region->dst_offset_words - dst_base)};
  for (int d = 0; d < 3; ++d) {
    push[2 + d] = region->count[d];
    push[5 + d] = region->src_stride[d];
    push[8 + d] = region->dst_stride[d];
  }
  meshvk_binding_t bindings[2] = {{src, src_base * 4, (src_last + 1 - src_base) * 4, 0},
                                  {dst, dst_base * 4, (dst_last + 1 - dst_base) * 4, 1}};
  return DispatchBuiltin(cb, MESHVK_BUILTIN_STRIDED_COPY, bindings, 2, push, sizeof(push), total, what);
}

Status SumF32(meshvk_command_buffer_t* cb, meshvk_buffer_t* const* srcs, uint32_t src_count, meshvk_buffer_t* dst,
              uint64_t count) {
  const char* what = "meshvk_command_buffer_sum_f32";
  MESHVK_RETURN_IF_ERROR(CheckRecording(cb, what));
  if (!srcs || src_count < 1 || src_count > 8) {
    return MakeStatus(MESHVK_STATUS_INVALID_ARGUMENT, "%s: %u sources, expected 1..8", what, src_count);
  }
  if (count == 0 || count > UINT32_MAX) {
    return MakeStatus(MESHVK_STATUS_INVALID_ARGUMENT, "%s: count %llu, expected 1..2^32-1", what,
                      static_cast<unsigned long long>(count));
  }
  MESHVK_RETURN_IF_ERROR(CheckOwnBuffer(cb, dst, what));
  meshvk_binding_t bindings[9] = {};
  bindings[0] = {dst, 0, count * 4, 1};
  for (uint32_t s = 0; s < 8; ++s) {
    // Unused bindings still need a valid descriptor: they repeat source 0.
    bindings[1 + s] = {srcs[s < src_count ? s : 0], 0, count * 4, 0};
  }
  uint32_t push[2] = {static_cast<uint32_t>(count), src_count};
  return DispatchBuiltin(cb, MESHVK_BUILTIN_SUM_F32, bindings, 9, push, sizeof(push), count, what);
}

// Every command buffer measures itself where the queue family has timestamps:
// two queries, reset by the command buffer itself, so a replay needs no
// host-side reset and the recorded buffer stays immutable. The first is
// written after the opening barrier, the second before the closing one.
Status BeginTimestamps(meshvk_command_buffer_t* cb) {
  LogicalDevice& device = DeviceOf(cb);
  const PhysicalDevice* physical = device.physical;
  uint32_t bits = physical->queue_families[device.queue_family].timestampValidBits;
  if (bits == 0 || physical->properties.limits.timestampPeriod <= 0) return Status();
  cb->timestamp_mask = bits >= 64 ? ~0ull : ((1ull << bits) - 1);
  cb->timestamp_period_ns = physical->properties.limits.timestampPeriod;
  VkQueryPoolCreateInfo info{VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO};
  info.queryType = VK_QUERY_TYPE_TIMESTAMP;
  info.queryCount = 2;
  MESHVK_VK_RETURN_IF_ERROR(device.vk.vkCreateQueryPool(device.device, &info, nullptr, &cb->timestamps),
                            cb->set->Where(cb->process) + ": vkCreateQueryPool(timestamps)");
  device.vk.vkCmdResetQueryPool(cb->command_buffer, cb->timestamps, 0, 2);
  device.vk.vkCmdWriteTimestamp(cb->command_buffer, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, cb->timestamps, 0);
  return Status();
}

Status DeviceTime(const meshvk_command_buffer_t* cb, uint64_t* out_ns) {
  const char* what = "meshvk_command_buffer_device_time";
  if (!cb || !out_ns) {
    return MakeStatus(MESHVK_STATUS_INVALID_ARGUMENT, "%s: command buffer or out_ns is NULL", what);
  }
  *out_ns = 0;
  if (!cb->timestamps) {
    return MakeStatus(MESHVK_STATUS_UNAVAILABLE, "%s: %s: the queue family has no timestamps", what,
                      cb->set->Where(cb->process).c_str());
  }
  if (cb->last_submit_value == 0) {
    return MakeStatus(MESHVK_STATUS_FAILED_PRECONDITION, "%s: %s: never submitted", what,
                      cb->set->Where(cb->process).c_str());
  }
  LogicalDevice& device = DeviceOf(cb);
  uint64_t values[2] = {0, 0};
  MESHVK_VK_RETURN_IF_ERROR(
      device.vk.vkGetQueryPoolResults(device.device, cb->timestamps, 0, 2, sizeof(values), values, sizeof(uint64_t),
                                      VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WAIT_BIT),
      cb->set->Where(cb->process) + ": vkGetQueryPoolResults(timestamps)");
  const uint64_t mask = cb->timestamp_mask;
  uint64_t ticks = ((values[1] & mask) - (values[0] & mask)) & mask;
  *out_ns = static_cast<uint64_t>(ticks * cb->timestamp_period_ns);
  return Status();
}

Status Begin(meshvk_command_buffer_t* cb) {
  LogicalDevice& device = DeviceOf(cb);
  const Process& process = cb->set->processes[cb->process];
  const std::string where = cb->set->Where(cb->process);
  VkCommandPoolCreateInfo pool_info{VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO};
  pool_info.queueFamilyIndex = device.queue_family;
  MESHVK_VK_RETURN_IF_ERROR(device.vk.vkCreateCommandPool(device.device, &pool_info, nullptr, &cb->pool),
                            where + ": vkCreateCommandPool");
  VkCommandBufferAllocateInfo allocate{VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO};
  allocate.commandPool = cb->pool;
  allocate.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
  allocate.commandBufferCount = 1;
  MESHVK_VK_RETURN_IF_ERROR(device.vk.vkAllocateCommandBuffers(device.device, &allocate, &cb->command_buffer),
                            where + ": vkAllocateCommandBuffers");
  const uint32_t mask = 1u << process.device_index;
  VkDeviceGroupCommandBufferBeginInfo group_begin{VK_STRUCTURE_TYPE_DEVICE_GROUP_COMMAND_BUFFER_BEGIN_INFO};
  group_begin.deviceMask = mask;
  VkCommandBufferBeginInfo begin{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
  begin.pNext = cb->set->is_group() ? &group_begin : nullptr;
  // Replays may be queued back to back while an earlier one is pending.
  begin.flags = VK_COMMAND_BUFFER_USAGE_SIMULTANEOUS_USE_BIT;
  MESHVK_VK_RETURN_IF_ERROR(device.vk.vkBeginCommandBuffer(cb->command_buffer, &begin),
                            where + ": vkBeginCommandBuffer");
  if (cb->set->is_group()) device.vk.vkCmdSetDeviceMask(cb->command_buffer, mask);
  // Orders this stream after earlier submissions on the queue (a replay of
  // this very buffer included): the first scope of a barrier reaches back
  // through submission order.
  MemoryBarrier(cb, kWorkStages, kWriteAccess, kWorkStages, kAnyAccess);
  return BeginTimestamps(cb);
}

Status End(meshvk_command_buffer_t* cb) {
  MESHVK_RETURN_IF_ERROR(CheckRecording(cb, "meshvk_command_buffer_end"));
  if (cb->timestamps) {
    DeviceOf(cb).vk.vkCmdWriteTimestamp(cb->command_buffer, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, cb->timestamps, 1);
  }
  // Device writes become visible to host reads (meshvk_buffer_read) once the
  // submission completes.
  MemoryBarrier(cb, kWorkStages, kWriteAccess, VK_PIPELINE_STAGE_HOST_BIT, VK_ACCESS_HOST_READ_BIT);
  cb->pending.clear();
  MESHVK_VK_RETURN_IF_ERROR(DeviceOf(cb).vk.vkEndCommandBuffer(cb->command_buffer),
                            cb->set->Where(cb->process) + ": vkEndCommandBuffer");
  cb->ended = true;
  return Status();
}

void DestroyCommandBuffer(meshvk_command_buffer_t* cb) {
  meshvk_device_set_t* set = cb->set;
  LogicalDevice& device = DeviceOf(cb);
  if (cb->last_submit_value > 0) {
    // Destroying a pending command buffer is undefined: wait for the last
    // submission (an error here means the device is lost; nothing to wait for).
    const Process& process = set->processes[cb->process];
    VkSemaphore timeline = device.queue_timelines[device.timeline_index(process.queue_index, process.device_index)];
    VkSemaphoreWaitInfo wait{VK_STRUCTURE_TYPE_SEMAPHORE_WAIT_INFO};
    wait.semaphoreCount = 1;
    wait.pSemaphores = &timeline;
    wait.pValues = &cb->last_submit_value;
    // Bounded; an unanswered device is not waited on (device_wait.h): the
    // release then goes ahead without waiting, as teardown must not hang.
    std::string where = set->Where(cb->process) + ": command buffer release";
    if (WaitSemaphores(device, wait, DeviceTimeoutNs(), where + ": vkWaitSemaphores").ok()) {
      // Lavapipe (Mesa 22.3) still touches a command buffer on its queue thread
      // after signalling the submission's semaphores: freeing the pool right
      // after the wait crashed its queue thread when 3+ Vulkan processes shared
      // the 2 CPUs (3 of 4 runs of RingTest x15; 0 of 8 with this wait). The
      // spec does not need it; it only costs a queue drain on release.
      DrainQueue(device, process.queue_index, where);
    }
  }
  // After a timeout or a lost device the submission may still be running
  // (or never end): its pools stay alive (device_wait.h).
  if (!LeakIfUnresponsive(device, cb->descriptor_pools.size() + (cb->pool != VK_NULL_HANDLE) +
                                      (cb->timestamps != VK_NULL_HANDLE) + cb->trace_pools.size())) {
    for (VkDescriptorPool pool : cb->descriptor_pools) {
      device.vk.vkDestroyDescriptorPool(device.device, pool, nullptr);
    }
    if (cb->pool) device.vk.vkDestroyCommandPool(device.device, cb->pool, nullptr);
    if (cb->timestamps) device.vk.vkDestroyQueryPool(device.device, cb->timestamps, nullptr);
    DestroyTraceTimestamps(cb);
  }
  for (auto* buffer : cb->buffers) meshvk_buffer_release(buffer);
  for (auto* executable : cb->executables) meshvk_executable_release(executable);
  delete cb;
  meshvk_device_set_release(set);
}

}  // namespace
}  // namespace meshvk

using meshvk::MakeStatus;
using meshvk::Status;

extern "C" {

meshvk_status_t meshvk_command_buffer_create(meshvk_device_set_t* set, uint32_t process,
                                             meshvk_command_buffer_t** out_command_buffer) {
  Status status = meshvk::CheckProcessCreate(set, process, out_command_buffer, "meshvk_command_buffer_create",
                                             "out_command_buffer");
  if (!status.ok()) return status.ToC();
  auto* cb = new meshvk_command_buffer_t();
  meshvk_device_set_retain(set);
  cb->set = set;
  cb->process = process;
  status = meshvk::Begin(cb);
  if (!status.ok()) {
    meshvk::DestroyCommandBuffer(cb);
    return status.ToC();
  }
  *out_command_buffer = cb;
  return MESHVK_OK;
}

void meshvk_command_buffer_release(meshvk_command_buffer_t* command_buffer) {
  if (command_buffer) meshvk::DestroyCommandBuffer(command_buffer);
}

meshvk_status_t meshvk_command_buffer_fill(meshvk_command_buffer_t* cb, meshvk_buffer_t* dst, uint64_t offset,
                                           uint64_t size, uint32_t value) {
  return meshvk::Fill(cb, dst, offset, size, value).ToC();
}

meshvk_status_t meshvk_command_buffer_copy(meshvk_command_buffer_t* cb, meshvk_buffer_t* src, uint64_t src_offset,
                                           meshvk_buffer_t* dst, uint64_t dst_offset, uint64_t size) {
  return meshvk::Copy(cb, src, src_offset, dst, dst_offset, size).ToC();
}

meshvk_status_t meshvk_command_buffer_copy_strided(meshvk_command_buffer_t* cb, meshvk_buffer_t* src,
                                                   meshvk_buffer_t* dst, const meshvk_strided_region_t* region) {
  Status status = meshvk::CopyStrided(cb, src, dst, region);
  return (cb ? meshvk::Recorded(cb, std::move(status)) : std::move(status)).ToC();
}

meshvk_status_t meshvk_command_buffer_dispatch(meshvk_command_buffer_t* cb, const meshvk_dispatch_info_t* info) {
  const char* what = "meshvk_command_buffer_dispatch";
  Status status = meshvk::CheckRecording(cb, what);
  if (status.ok() && !info) {
    status = MakeStatus(MESHVK_STATUS_INVALID_ARGUMENT, "%s: info is NULL", what);
  }
  if (status.ok()) status = meshvk::CheckDispatch(cb, *info, what);
  if (status.ok()) status = meshvk::Recorded(cb, meshvk::RecordDispatch(cb, *info));
  return status.ToC();
}

meshvk_status_t meshvk_command_buffer_sum_f32(meshvk_command_buffer_t* cb, meshvk_buffer_t* const* srcs,
                                              uint32_t src_count, meshvk_buffer_t* dst, uint64_t count) {
  Status status = meshvk::SumF32(cb, srcs, src_count, dst, count);
  return (cb ? meshvk::Recorded(cb, std::move(status)) : std::move(status)).ToC();
}

meshvk_status_t meshvk_command_buffer_barrier(meshvk_command_buffer_t* cb) {
  Status status = meshvk::CheckRecording(cb, "meshvk_command_buffer_barrier");
  if (!status.ok()) return status.ToC();
  meshvk::MemoryBarrier(cb, meshvk::kWorkStages, meshvk::kWriteAccess, meshvk::kWorkStages, meshvk::kAnyAccess);
  cb->pending.clear();
  return MESHVK_OK;
}

meshvk_status_t meshvk_command_buffer_device_time(const meshvk_command_buffer_t* cb, uint64_t* out_ns) {
  return meshvk::DeviceTime(cb, out_ns).ToC();
}

meshvk_status_t meshvk_command_buffer_end(meshvk_command_buffer_t* cb) {
  Status status = meshvk::End(cb);
  if (!status.ok() && cb && !cb->ended && status.code() != MESHVK_STATUS_FAILED_PRECONDITION) {
    cb->broken = true;
  }
  return status.ToC();
}

}  // extern "C"

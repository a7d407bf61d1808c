// Dispatches of a command buffer (see command_buffer.h): the checks against
// the executable and the device limits, descriptor sets from the command
// buffer's own pools, and the built-in kernels (strided copy, sum) recorded
// through the same path as any caller's dispatch.
#include <algorithm>
#include <string>
#include <vector>

#include "base/structure.h"
#include "buffer.h"
#include "builtin_executables.h"
#include "command_buffer.h"
#include "executable.h"
#include "vulkan/vk_status.h"

namespace meshvk {
namespace {

constexpr uint32_t kSetsPerPool = 64;

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

}  // namespace

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

namespace {

// Workgroups for a grid-stride built-in over `items`: enough to cover them,
// clamped to the device limit (the loop covers the rest).
uint32_t BuiltinWorkgroups(const meshvk_command_buffer_t* cb, uint64_t items) {
  uint64_t groups = (items + kBuiltinWorkgroupSize - 1) / kBuiltinWorkgroupSize;
  uint64_t limit = DeviceOf(cb).physical->properties.limits.maxComputeWorkGroupCount[0];
  return static_cast<uint32_t>(std::max<uint64_t>(1, std::min(groups, limit)));
}

}  // namespace

Status DispatchBuiltin(meshvk_command_buffer_t* cb, meshvk_builtin_t builtin, const meshvk_binding_t* bindings,
                       uint32_t binding_count, const void* push, uint32_t push_size, uint64_t items, const char* what) {
  meshvk_executable_t* executable = nullptr;
  MESHVK_RETURN_IF_ERROR(GetBuiltin(cb->set, builtin, &executable));
  meshvk_dispatch_info_t info = MESHVK_DISPATCH_INFO_INIT;
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

}  // namespace meshvk

using meshvk::MakeStatus;
using meshvk::Status;

extern "C" {

meshvk_status_t meshvk_command_buffer_dispatch(meshvk_command_buffer_t* cb, const meshvk_dispatch_info_t* info) {
  const char* what = "meshvk_command_buffer_dispatch";
  Status status = meshvk::CheckRecording(cb, what);
  if (status.ok())
    status = meshvk::CheckStructure(info, MESHVK_STRUCTURE_TYPE_DISPATCH_INFO, "meshvk_command_buffer_dispatch: info");
  if (status.ok()) status = meshvk::CheckDispatch(cb, *info, what);
  if (status.ok()) status = meshvk::Recorded(cb, meshvk::RecordDispatch(cb, *info));
  return status.ToC();
}

}  // extern "C"

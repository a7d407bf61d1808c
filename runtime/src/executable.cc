// meshvk_executable_t: SPIR-V checked (spirv_check.h), then one compute
// pipeline per VkDevice of the set. Built-ins: builtin_executables.cc.
#include "executable.h"

#include <algorithm>
#include <chrono>
#include <cstring>
#include <string>
#include <vector>

#include "base/structure.h"
#include "device_wait.h"  // LeakIfUnresponsive
#include "spirv_check.h"
#include "vulkan/vk_status.h"

namespace meshvk {

void DestroyExecutable(meshvk_executable_t* executable) {
  meshvk_device_set_t* set = executable->set;
  for (size_t d = 0; d < executable->per_device.size(); ++d) {
    LogicalDevice& device = *set->devices[d];
    auto& objects = executable->per_device[d];
    // A device that stopped answering may still run the pipeline (device_wait.h).
    if (LeakIfUnresponsive(device, (objects.pipeline != VK_NULL_HANDLE) + (objects.layout != VK_NULL_HANDLE) +
                                       (objects.set_layout != VK_NULL_HANDLE)))
      continue;
    if (objects.pipeline) device.vk.vkDestroyPipeline(device.device, objects.pipeline, nullptr);
    if (objects.layout) {
      device.vk.vkDestroyPipelineLayout(device.device, objects.layout, nullptr);
    }
    if (objects.set_layout) {
      device.vk.vkDestroyDescriptorSetLayout(device.device, objects.set_layout, nullptr);
    }
  }
  delete executable;
}

namespace {

Status CreatePipelines(meshvk_executable_t* executable, const std::vector<uint32_t>& words, const char* entry_point) {
  meshvk_device_set_t* set = executable->set;
  executable->per_device.resize(set->devices.size());
  for (size_t d = 0; d < set->devices.size(); ++d) {
    LogicalDevice& device = *set->devices[d];
    auto& vk = device.vk;
    auto& objects = executable->per_device[d];
    std::string where = set->instance->DeviceName(device.physical_indices[0]) + ": meshvk_executable_create: ";

    std::vector<VkDescriptorSetLayoutBinding> bindings(executable->binding_count);
    for (uint32_t b = 0; b < executable->binding_count; ++b) {
      bindings[b] = {};
      bindings[b].binding = b;
      bindings[b].descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
      bindings[b].descriptorCount = 1;
      bindings[b].stageFlags = VK_SHADER_STAGE_COMPUTE_BIT;
    }
    VkDescriptorSetLayoutCreateInfo set_layout{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO};
    set_layout.bindingCount = executable->binding_count;
    set_layout.pBindings = bindings.data();
    MESHVK_VK_RETURN_IF_ERROR(vk.vkCreateDescriptorSetLayout(device.device, &set_layout, nullptr, &objects.set_layout),
                              where + "vkCreateDescriptorSetLayout");

    VkPushConstantRange push{VK_SHADER_STAGE_COMPUTE_BIT, 0, executable->push_constant_size};
    VkPipelineLayoutCreateInfo layout{VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO};
    layout.setLayoutCount = 1;
    layout.pSetLayouts = &objects.set_layout;
    layout.pushConstantRangeCount = executable->push_constant_size ? 1 : 0;
    layout.pPushConstantRanges = &push;
    MESHVK_VK_RETURN_IF_ERROR(vk.vkCreatePipelineLayout(device.device, &layout, nullptr, &objects.layout),
                              where + "vkCreatePipelineLayout");

    VkShaderModuleCreateInfo module_info{VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO};
    module_info.codeSize = words.size() * sizeof(uint32_t);
    module_info.pCode = words.data();
    VkShaderModule module = VK_NULL_HANDLE;
    MESHVK_VK_RETURN_IF_ERROR(vk.vkCreateShaderModule(device.device, &module_info, nullptr, &module),
                              where + "vkCreateShaderModule");
    VkComputePipelineCreateInfo pipeline{VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO};
    // DISPATCH_BASE on every pipeline: vkCmdDispatchBase with a nonzero base
    // needs it, on device groups and single devices alike.
    pipeline.flags = VK_PIPELINE_CREATE_DISPATCH_BASE_BIT;
    pipeline.stage.sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO;
    pipeline.stage.stage = VK_SHADER_STAGE_COMPUTE_BIT;
    pipeline.stage.module = module;
    pipeline.stage.pName = entry_point;
    pipeline.layout = objects.layout;
    // Vulkan 1.3's creation feedback says whether the pipeline came from the
    // cache (meshvk_pipeline_cache_stats_t::cache_hits).
    VkPipelineCreationFeedback feedback{};
    VkPipelineCreationFeedbackCreateInfo feedback_info{VK_STRUCTURE_TYPE_PIPELINE_CREATION_FEEDBACK_CREATE_INFO};
    feedback_info.pPipelineCreationFeedback = &feedback;
    if (device.api_version >= VK_API_VERSION_1_3 && device.pipeline_cache != VK_NULL_HANDLE)
      pipeline.pNext = &feedback_info;
    const auto start = std::chrono::steady_clock::now();
    VkResult result =
        vk.vkCreateComputePipelines(device.device, device.pipeline_cache, 1, &pipeline, nullptr, &objects.pipeline);
    device.cache_counters.create_ns += static_cast<uint64_t>(
        std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now() - start).count());
    vk.vkDestroyShaderModule(device.device, module, nullptr);
    MESHVK_VK_RETURN_IF_ERROR(result, where + "vkCreateComputePipelines");
    ++device.cache_counters.pipelines;
    if ((feedback.flags & VK_PIPELINE_CREATION_FEEDBACK_VALID_BIT) &&
        (feedback.flags & VK_PIPELINE_CREATION_FEEDBACK_APPLICATION_PIPELINE_CACHE_HIT_BIT))
      ++device.cache_counters.hits;
  }
  return Status();
}

Status CheckCreateInfo(const meshvk_device_set_t* set, const meshvk_executable_create_info_t& info) {
  if (info.push_constant_size % 4 != 0) {
    return MakeStatus(MESHVK_STATUS_INVALID_ARGUMENT,
                      "meshvk_executable_create: push_constant_size %u is not a multiple of 4",
                      info.push_constant_size);
  }
  for (const auto& device : set->devices) {
    const VkPhysicalDeviceLimits& limits = device->physical->properties.limits;
    if (info.push_constant_size > limits.maxPushConstantsSize) {
      return MakeStatus(MESHVK_STATUS_OUT_OF_RANGE, "meshvk_executable_create: %u push constant bytes, %s allows %u",
                        info.push_constant_size, set->instance->DeviceName(device->physical_indices[0]).c_str(),
                        limits.maxPushConstantsSize);
    }
    if (info.binding_count > limits.maxPerStageDescriptorStorageBuffers) {
      return MakeStatus(MESHVK_STATUS_OUT_OF_RANGE,
                        "meshvk_executable_create: %u storage buffer bindings, %s allows %u", info.binding_count,
                        set->instance->DeviceName(device->physical_indices[0]).c_str(),
                        limits.maxPerStageDescriptorStorageBuffers);
    }
  }
  return Status();
}

}  // namespace

Status CreateExecutable(meshvk_executable_t* executable, const meshvk_executable_create_info_t& info) {
  MESHVK_RETURN_IF_ERROR(CheckCreateInfo(executable->set, info));
  // The lowest Vulkan version of the set's devices decides the SPIR-V
  // environment, so SPIR-V 1.4+ (valid on Vulkan 1.2+) is not rejected.
  uint32_t api = VK_API_VERSION_1_3;
  for (const auto& device : executable->set->devices) api = std::min(api, device->api_version);
  MESHVK_RETURN_IF_ERROR(CheckSpirv(info, api).WithContext("meshvk_executable_create"));
  // Copied: the caller's pointer need not be 4-byte aligned.
  std::vector<uint32_t> words(info.spirv_size / 4);
  std::memcpy(words.data(), info.spirv, info.spirv_size);
  const char* entry_point = info.entry_point ? info.entry_point : "main";
  executable->binding_count = info.binding_count;
  executable->push_constant_size = info.push_constant_size;
  std::memcpy(executable->workgroup_size, info.workgroup_size, sizeof(info.workgroup_size));
  return CreatePipelines(executable, words, entry_point);
}

}  // namespace meshvk

using meshvk::MakeStatus;
using meshvk::Status;

extern "C" {

meshvk_status_t meshvk_executable_create(meshvk_device_set_t* set, const meshvk_executable_create_info_t* info,
                                         meshvk_executable_t** out_executable) {
  if (!out_executable) {
    return MakeStatus(MESHVK_STATUS_INVALID_ARGUMENT, "meshvk_executable_create: out_executable is NULL").ToC();
  }
  *out_executable = nullptr;
  if (!set) return MakeStatus(MESHVK_STATUS_INVALID_ARGUMENT, "meshvk_executable_create: set is NULL").ToC();
  if (Status checked =
          meshvk::CheckStructure(info, MESHVK_STRUCTURE_TYPE_EXECUTABLE_CREATE_INFO, "meshvk_executable_create: info");
      !checked.ok())
    return checked.ToC();
  auto* executable = new meshvk_executable_t();
  executable->set = set;
  Status status = meshvk::CreateExecutable(executable, *info);
  if (!status.ok()) {
    meshvk::DestroyExecutable(executable);
    return status.ToC();
  }
  meshvk_device_set_retain(set);
  *out_executable = executable;
  return MESHVK_OK;
}

void meshvk_executable_retain(meshvk_executable_t* executable) {
  if (!executable) return;
  executable->refs.fetch_add(1);
  if (executable->builtin) meshvk_device_set_retain(executable->set);
}

void meshvk_executable_release(meshvk_executable_t* executable) {
  if (!executable) return;
  meshvk_device_set_t* set = executable->set;
  if (executable->builtin) {
    // The cache keeps the last reference; the set destroys it.
    executable->refs.fetch_sub(1);
    meshvk_device_set_release(set);
    return;
  }
  if (executable->refs.fetch_sub(1) == 1) {
    meshvk::DestroyExecutable(executable);
    meshvk_device_set_release(set);
  }
}

uint32_t meshvk_executable_binding_count(const meshvk_executable_t* executable) {
  return executable ? executable->binding_count : 0;
}

uint32_t meshvk_executable_push_constant_size(const meshvk_executable_t* executable) {
  return executable ? executable->push_constant_size : 0;
}

}  // extern "C"

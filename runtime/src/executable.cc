// meshvk_executable_t: SPIR-V validated with SPIRV-Tools, then one compute
// pipeline per VkDevice of the set.
#include "executable.h"

#include <spirv-tools/libspirv.hpp>

#include <cstring>
#include <string>
#include <unordered_map>
#include <unordered_set>

#include "meshvk_builtin_shaders.h"
#include "module/spirv_check.h"
#include "vulkan/vk_status.h"

namespace meshvk {

void DestroyExecutable(meshvk_executable_t* executable) {
  meshvk_device_set_t* set = executable->set;
  for (size_t d = 0; d < executable->per_device.size(); ++d) {
    LogicalDevice& device = *set->devices[d];
    auto& objects = executable->per_device[d];
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

// The SPIR-V environment matching the Vulkan version the set's devices speak,
// so SPIR-V 1.4+ (valid on Vulkan 1.2+) is not rejected as "too new".
spv_target_env TargetEnv(const meshvk_device_set_t* set) {
  uint32_t api = VK_API_VERSION_1_3;
  for (const auto& device : set->devices) api = std::min(api, device->api_version);
  if (api >= VK_API_VERSION_1_3) return SPV_ENV_VULKAN_1_3;
  if (api >= VK_API_VERSION_1_2) return SPV_ENV_VULKAN_1_2;
  return SPV_ENV_VULKAN_1_1;
}

// The layout meshvk creates is fixed: set 0, bindings 0..n-1, all storage
// buffers. A shader declaring anything else would be a pipeline layout
// mismatch (undefined behaviour, a validation error), so it is refused here
// with a message naming the binding. Runs after validation (well formed).
Status CheckDescriptorBindings(const std::vector<uint32_t>& words, uint32_t binding_count) {
  constexpr uint32_t kOpTypePointer = 32, kOpVariable = 59, kOpDecorate = 71;
  constexpr uint32_t kDecorationBufferBlock = 3, kDecorationBinding = 33,
                     kDecorationDescriptorSet = 34;
  constexpr uint32_t kStorageUniform = 2, kStorageBuffer = 12;
  std::unordered_map<uint32_t, uint32_t> binding, descriptor_set, pointee, variable_type,
      variable_class;
  std::unordered_set<uint32_t> buffer_blocks;
  for (size_t i = 5; i < words.size();) {
    uint32_t count = words[i] >> 16, opcode = words[i] & 0xffff;
    if (count == 0 || i + count > words.size()) break;
    if (opcode == kOpDecorate && count >= 3) {
      uint32_t target = words[i + 1], decoration = words[i + 2];
      if (decoration == kDecorationBinding && count >= 4) binding[target] = words[i + 3];
      if (decoration == kDecorationDescriptorSet && count >= 4) descriptor_set[target] = words[i + 3];
      if (decoration == kDecorationBufferBlock) buffer_blocks.insert(target);
    } else if (opcode == kOpTypePointer && count >= 4) {
      pointee[words[i + 1]] = words[i + 3];
    } else if (opcode == kOpVariable && count >= 4) {
      variable_type[words[i + 2]] = words[i + 1];
      variable_class[words[i + 2]] = words[i + 3];
    }
    i += count;
  }
  for (const auto& [id, number] : binding) {
    uint32_t set = descriptor_set.count(id) ? descriptor_set[id] : 0;
    if (set != 0 || number >= binding_count) {
      return MakeStatus(MESHVK_STATUS_INVALID_ARGUMENT,
                        "meshvk_executable_create: the shader uses set %u binding %u; the "
                        "executable declares set 0 bindings 0..%d",
                        set, number, static_cast<int>(binding_count) - 1);
    }
    uint32_t storage = variable_class.count(id) ? variable_class[id] : 0;
    uint32_t block = pointee.count(variable_type[id]) ? pointee[variable_type[id]] : 0;
    bool is_storage_buffer = storage == kStorageBuffer ||
                             (storage == kStorageUniform && buffer_blocks.count(block));
    if (!is_storage_buffer) {
      return MakeStatus(MESHVK_STATUS_INVALID_ARGUMENT,
                        "meshvk_executable_create: binding %u is not a storage buffer (storage "
                        "class %u); meshvk binds only storage buffers",
                        number, storage);
    }
  }
  return Status();
}

Status ValidateSpirv(const meshvk_device_set_t* set, const std::vector<uint32_t>& words,
                     const char* entry_point) {
  spvtools::SpirvTools tools(TargetEnv(set));
  std::string diagnostics;
  tools.SetMessageConsumer([&diagnostics](spv_message_level_t, const char*,
                                          const spv_position_t& position, const char* message) {
    if (!diagnostics.empty()) diagnostics += "; ";
    diagnostics += "word " + std::to_string(position.index) + ": " + message;
  });
  if (!tools.Validate(words.data(), words.size())) {
    return MakeStatus(MESHVK_STATUS_INVALID_ARGUMENT,
                      "meshvk_executable_create: SPIR-V does not validate (%s): %s",
                      spvTargetEnvDescription(TargetEnv(set)), diagnostics.c_str());
  }
  uint32_t entry_id = 0;
  if (!module::FindComputeEntryPoint(words.data(), words.size(), entry_point, &entry_id)) {
    return MakeStatus(MESHVK_STATUS_INVALID_ARGUMENT,
                      "meshvk_executable_create: SPIR-V has no GLCompute entry point '%s'",
                      entry_point);
  }
  return Status();
}

Status CreatePipelines(meshvk_executable_t* executable, const std::vector<uint32_t>& words,
                       const char* entry_point) {
  meshvk_device_set_t* set = executable->set;
  executable->per_device.resize(set->devices.size());
  for (size_t d = 0; d < set->devices.size(); ++d) {
    LogicalDevice& device = *set->devices[d];
    auto& vk = device.vk;
    auto& objects = executable->per_device[d];
    std::string where = set->instance->DeviceName(device.physical_indices[0]) +
                        ": meshvk_executable_create: ";

    std::vector<VkDescriptorSetLayoutBinding> bindings(executable->binding_count);
    for (uint32_t b = 0; b < executable->binding_count; ++b) {
      bindings[b] = {};
      bindings[b].binding = b;
      bindings[b].descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
      bindings[b].descriptorCount = 1;
      bindings[b].stageFlags = VK_SHADER_STAGE_COMPUTE_BIT;
    }
    VkDescriptorSetLayoutCreateInfo set_layout{
        VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO};
    set_layout.bindingCount = executable->binding_count;
    set_layout.pBindings = bindings.data();
    MESHVK_VK_RETURN_IF_ERROR(
        vk.vkCreateDescriptorSetLayout(device.device, &set_layout, nullptr, &objects.set_layout),
        where + "vkCreateDescriptorSetLayout");

    VkPushConstantRange push{VK_SHADER_STAGE_COMPUTE_BIT, 0, executable->push_constant_size};
    VkPipelineLayoutCreateInfo layout{VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO};
    layout.setLayoutCount = 1;
    layout.pSetLayouts = &objects.set_layout;
    layout.pushConstantRangeCount = executable->push_constant_size ? 1 : 0;
    layout.pPushConstantRanges = &push;
    MESHVK_VK_RETURN_IF_ERROR(
        vk.vkCreatePipelineLayout(device.device, &layout, nullptr, &objects.layout),
        where + "vkCreatePipelineLayout");

    VkShaderModuleCreateInfo module_info{VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO};
    module_info.codeSize = words.size() * sizeof(uint32_t);
    module_info.pCode = words.data();
    VkShaderModule module = VK_NULL_HANDLE;
    MESHVK_VK_RETURN_IF_ERROR(vk.vkCreateShaderModule(device.device, &module_info, nullptr,
                                                      &module),
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
    VkResult result = vk.vkCreateComputePipelines(device.device, VK_NULL_HANDLE, 1, &pipeline,
                                                  nullptr, &objects.pipeline);
    vk.vkDestroyShaderModule(device.device, module, nullptr);
    MESHVK_VK_RETURN_IF_ERROR(result, where + "vkCreateComputePipelines");
  }
  return Status();
}

Status CheckCreateInfo(const meshvk_device_set_t* set, const meshvk_executable_create_info_t& info) {
  if (!info.spirv || info.spirv_size == 0 || info.spirv_size % 4 != 0) {
    return MakeStatus(MESHVK_STATUS_INVALID_ARGUMENT,
                      "meshvk_executable_create: SPIR-V must be a non-empty multiple of 4 bytes "
                      "(got %zu bytes)",
                      info.spirv_size);
  }
  if (info.push_constant_size % 4 != 0) {
    return MakeStatus(MESHVK_STATUS_INVALID_ARGUMENT,
                      "meshvk_executable_create: push_constant_size %u is not a multiple of 4",
                      info.push_constant_size);
  }
  for (const auto& device : set->devices) {
    const VkPhysicalDeviceLimits& limits = device->physical->properties.limits;
    if (info.push_constant_size > limits.maxPushConstantsSize) {
      return MakeStatus(MESHVK_STATUS_OUT_OF_RANGE,
                        "meshvk_executable_create: %u push constant bytes, %s allows %u",
                        info.push_constant_size,
                        set->instance->DeviceName(device->physical_indices[0]).c_str(),
                        limits.maxPushConstantsSize);
    }
    if (info.binding_count > limits.maxPerStageDescriptorStorageBuffers) {
      return MakeStatus(MESHVK_STATUS_OUT_OF_RANGE,
                        "meshvk_executable_create: %u storage buffer bindings, %s allows %u",
                        info.binding_count,
                        set->instance->DeviceName(device->physical_indices[0]).c_str(),
                        limits.maxPerStageDescriptorStorageBuffers);
    }
  }
  return Status();
}

Status CreateExecutable(meshvk_executable_t* executable,
                        const meshvk_executable_create_info_t& info) {
  MESHVK_RETURN_IF_ERROR(CheckCreateInfo(executable->set, info));
  // Copied: the caller's pointer need not be 4-byte aligned.
  std::vector<uint32_t> words(info.spirv_size / 4);
  std::memcpy(words.data(), info.spirv, info.spirv_size);
  const char* entry_point = info.entry_point ? info.entry_point : "main";
  MESHVK_RETURN_IF_ERROR(ValidateSpirv(executable->set, words, entry_point));
  MESHVK_RETURN_IF_ERROR(CheckDescriptorBindings(words, info.binding_count));
  executable->binding_count = info.binding_count;
  executable->push_constant_size = info.push_constant_size;
  std::memcpy(executable->workgroup_size, info.workgroup_size, sizeof(info.workgroup_size));
  return CreatePipelines(executable, words, entry_point);
}

struct BuiltinSpec {
  const uint32_t* words;
  size_t word_count;
  uint32_t binding_count;
  uint32_t push_constant_size;
};

BuiltinSpec GetBuiltinSpec(meshvk_builtin_t builtin) {
  namespace spirv = meshvk::builtin_spirv;
  switch (builtin) {
    case MESHVK_BUILTIN_FILL:
      return {spirv::fill, spirv::fill_word_count, 1, 3 * 4};
    case MESHVK_BUILTIN_STRIDED_COPY:
      return {spirv::strided_copy, spirv::strided_copy_word_count, 2, 11 * 4};
    case MESHVK_BUILTIN_SUM_F32:
    default:
      return {spirv::sum_f32, spirv::sum_f32_word_count, 9, 2 * 4};
  }
}

}  // namespace
}  // namespace meshvk

using meshvk::MakeStatus;
using meshvk::Status;

extern "C" {

meshvk_status_t meshvk_executable_create(meshvk_device_set_t* set,
                                         const meshvk_executable_create_info_t* info,
                                         meshvk_executable_t** out_executable) {
  if (!out_executable) {
    return MakeStatus(MESHVK_STATUS_INVALID_ARGUMENT,
                      "meshvk_executable_create: out_executable is NULL")
        .ToC();
  }
  *out_executable = nullptr;
  if (!set || !info) {
    return MakeStatus(MESHVK_STATUS_INVALID_ARGUMENT,
                      "meshvk_executable_create: set or info is NULL")
        .ToC();
  }
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

meshvk_status_t meshvk_executable_builtin(meshvk_device_set_t* set, meshvk_builtin_t builtin,
                                          meshvk_executable_t** out_executable) {
  if (!out_executable) {
    return MakeStatus(MESHVK_STATUS_INVALID_ARGUMENT,
                      "meshvk_executable_builtin: out_executable is NULL")
        .ToC();
  }
  *out_executable = nullptr;
  if (!set) {
    return MakeStatus(MESHVK_STATUS_INVALID_ARGUMENT, "meshvk_executable_builtin: set is NULL")
        .ToC();
  }
  if (builtin < 0 || builtin >= MESHVK_BUILTIN_COUNT) {
    return MakeStatus(MESHVK_STATUS_OUT_OF_RANGE, "meshvk_executable_builtin: built-in %d of %d",
                      static_cast<int>(builtin), MESHVK_BUILTIN_COUNT)
        .ToC();
  }
  std::lock_guard<std::mutex> lock(set->builtin_mutex);
  meshvk_executable_t*& cached = set->builtins[builtin];
  if (!cached) {
    meshvk::BuiltinSpec spec = meshvk::GetBuiltinSpec(builtin);
    meshvk_executable_create_info_t info = {};
    info.spirv = spec.words;
    info.spirv_size = spec.word_count * sizeof(uint32_t);
    info.binding_count = spec.binding_count;
    info.push_constant_size = spec.push_constant_size;
    info.workgroup_size[0] = 64;
    info.workgroup_size[1] = 1;
    info.workgroup_size[2] = 1;
    auto* executable = new meshvk_executable_t();
    executable->set = set;
    executable->builtin = true;
    Status status = meshvk::CreateExecutable(executable, info);
    if (!status.ok()) {
      meshvk::DestroyExecutable(executable);
      return std::move(status).WithContext("built-in " + std::to_string(builtin)).ToC();
    }
    cached = executable;
  }
  meshvk_executable_retain(cached);
  *out_executable = cached;
  return MESHVK_OK;
}

}  // extern "C"

// SPIR-V checks (see spirv_check.h). The validator catches malformed modules;
// the scans catch a well-formed module that does not match what its caller
// says about it (entry point name, workgroup size, bindings), which the
// validator cannot know and which Vulkan would treat as undefined behaviour.
#include "spirv_check.h"

#include <cstring>
#include <spirv-tools/libspirv.hpp>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "base/structure.h"
#include "meshvk/vulkan.h"

namespace meshvk {
namespace {

// Reads a SPIR-V literal string starting at words[0], at most `max_words`.
std::string ReadString(const uint32_t* words, size_t max_words) {
  std::string out;
  for (size_t i = 0; i < max_words; ++i) {
    char bytes[4];
    std::memcpy(bytes, &words[i], 4);
    for (char c : bytes) {
      if (c == '\0') return out;
      out.push_back(c);
    }
  }
  return out;
}

// The SPIR-V environment of a Vulkan version (VK_MAKE_API_VERSION layout), so
// SPIR-V 1.4+ (valid on Vulkan 1.2+) is not rejected as "too new".
spv_target_env TargetEnv(uint32_t vulkan_api_version) {
  uint32_t major = (vulkan_api_version >> 22) & 0x7f, minor = (vulkan_api_version >> 12) & 0x3ff;
  if (major > 1 || (major == 1 && minor >= 3)) return SPV_ENV_VULKAN_1_3;
  if (major == 1 && minor == 2) return SPV_ENV_VULKAN_1_2;
  return SPV_ENV_VULKAN_1_1;
}

Status Validate(const std::vector<uint32_t>& words, spv_target_env env) {
  spvtools::SpirvTools tools(env);
  std::string first;  // one line: the validator's first message carries the reason
  tools.SetMessageConsumer(
      [&first](spv_message_level_t, const char*, const spv_position_t& position, const char* message) {
        if (!first.empty()) return;
        first = "word " + std::to_string(position.index) + ": " + message;
        size_t nl = first.find('\n');
        if (nl != std::string::npos) first.resize(nl);
      });
  if (tools.Validate(words.data(), words.size())) return Status();
  return MakeStatus(MESHVK_STATUS_INVALID_ARGUMENT, "SPIR-V validation failed (%s): %s", spvTargetEnvDescription(env),
                    first.c_str());
}

// The layout meshvk creates is fixed: set 0, bindings 0..n-1, all storage
// buffers. A shader declaring anything else would be a pipeline layout
// mismatch (undefined behaviour, a validation error).
Status CheckDescriptorBindings(const std::vector<uint32_t>& words, uint32_t binding_count) {
  std::unordered_map<uint32_t, uint32_t> binding, descriptor_set, pointee, variable_type, variable_class;
  std::unordered_set<uint32_t> buffer_blocks;
  ForEachInstruction(words.data(), words.size(), [&](uint32_t opcode, const uint32_t* w, uint32_t count) {
    if (opcode == spv::OpDecorate && count >= 3) {
      uint32_t target = w[1], decoration = w[2];
      if (decoration == spv::DecorationBinding && count >= 4) binding[target] = w[3];
      if (decoration == spv::DecorationDescriptorSet && count >= 4) descriptor_set[target] = w[3];
      if (decoration == spv::DecorationBufferBlock) buffer_blocks.insert(target);
    } else if (opcode == spv::OpTypePointer && count >= 4) {
      pointee[w[1]] = w[3];
    } else if (opcode == spv::OpVariable && count >= 4) {
      variable_type[w[2]] = w[1];
      variable_class[w[2]] = w[3];
    }
    return true;
  });
  for (const auto& [id, number] : binding) {
    uint32_t set = descriptor_set.count(id) ? descriptor_set[id] : 0;
    if (set != 0 || number >= binding_count) {
      return MakeStatus(MESHVK_STATUS_INVALID_ARGUMENT,
                        "the shader uses set %u binding %u; the executable declares set 0 bindings 0..%d", set, number,
                        static_cast<int>(binding_count) - 1);
    }
    uint32_t storage = variable_class.count(id) ? variable_class[id] : 0;
    uint32_t block = pointee.count(variable_type[id]) ? pointee[variable_type[id]] : 0;
    bool is_storage_buffer = storage == spv::StorageClassStorageBuffer ||
                             (storage == spv::StorageClassUniform && buffer_blocks.count(block));
    if (!is_storage_buffer) {
      return MakeStatus(MESHVK_STATUS_INVALID_ARGUMENT,
                        "binding %u is not a storage buffer (storage class %u); meshvk binds only storage buffers",
                        number, storage);
    }
  }
  return Status();
}

}  // namespace

bool FindComputeEntryPoint(const uint32_t* words, size_t word_count, const char* name, uint32_t* out_id) {
  bool found = false;
  ForEachInstruction(words, word_count, [&](uint32_t opcode, const uint32_t* w, uint32_t count) {
    found = opcode == spv::OpEntryPoint && count >= 4 && w[1] == spv::ExecutionModelGLCompute &&
            ReadString(&w[3], count - 3) == name;
    if (found) *out_id = w[2];
    return !found;
  });
  return found;
}

Status CheckSpirv(const meshvk_executable_create_info_t& info, uint32_t vulkan_api_version, KernelRules rules,
                  KernelLayout* out_layout) {
  if (!info.spirv || info.spirv_size == 0 || info.spirv_size % 4 != 0) {
    return MakeStatus(MESHVK_STATUS_INVALID_ARGUMENT, "SPIR-V must be a non-empty multiple of 4 bytes (got %zu bytes)",
                      info.spirv_size);
  }
  // Copied: the caller's pointer need not be 4-byte aligned.
  std::vector<uint32_t> words(info.spirv_size / 4);
  std::memcpy(words.data(), info.spirv, info.spirv_size);
  if (words.size() < 5 || words[0] != spv::MagicNumber)
    return MakeStatus(MESHVK_STATUS_INVALID_ARGUMENT, "not a SPIR-V module (bad magic number)");
  // The header's schema word is reserved (must be 0; the validator does not
  // look, lavapipe fails pipeline creation with VK_ERROR_UNKNOWN).
  if (words[4] != 0)
    return MakeStatus(MESHVK_STATUS_INVALID_ARGUMENT, "SPIR-V header: schema word is %u (reserved, must be 0)",
                      words[4]);
  MESHVK_RETURN_IF_ERROR(Validate(words, TargetEnv(vulkan_api_version)));
  // The validator accepted the module, so the instruction stream is well formed.
  const char* entry_point = info.entry_point ? info.entry_point : "main";
  uint32_t entry_id = 0;
  if (!FindComputeEntryPoint(words.data(), words.size(), entry_point, &entry_id))
    return MakeStatus(MESHVK_STATUS_INVALID_ARGUMENT, "no GLCompute entry point named '%s'", entry_point);
  MESHVK_RETURN_IF_ERROR(CheckKernelInterface(words, entry_id, entry_point, info, rules, out_layout));
  return CheckDescriptorBindings(words, info.binding_count);
}

}  // namespace meshvk

extern "C" {

meshvk_status_t meshvk_executable_check_spirv(const meshvk_executable_create_info_t* info,
                                              uint32_t vulkan_api_version) {
  meshvk::Status checked =
      meshvk::CheckStructure(info, MESHVK_STRUCTURE_TYPE_EXECUTABLE_CREATE_INFO, "meshvk_executable_check_spirv: info");
  if (!checked.ok()) return checked.ToC();
  return meshvk::CheckSpirv(*info, vulkan_api_version).ToC();
}

meshvk_status_t meshvk_executable_check_mvk_kernel(const meshvk_executable_create_info_t* info,
                                                   uint32_t vulkan_api_version, meshvk_spirv_layout_t* out_layout) {
  meshvk::Status checked = meshvk::CheckStructure(info, MESHVK_STRUCTURE_TYPE_EXECUTABLE_CREATE_INFO,
                                                  "meshvk_executable_check_mvk_kernel: info");
  if (checked.ok())
    checked = meshvk::CheckStructure(out_layout, MESHVK_STRUCTURE_TYPE_SPIRV_LAYOUT,
                                     "meshvk_executable_check_mvk_kernel: out_layout");
  if (!checked.ok()) return checked.ToC();
  meshvk::KernelLayout layout;
  meshvk::Status status = meshvk::CheckSpirv(*info, vulkan_api_version, meshvk::KernelRules::kMvkKernel, &layout);
  if (!status.ok()) return status.ToC();
  for (int d = 0; d < 3; ++d) out_layout->workgroup_size[d] = layout.workgroup_size[d];
  out_layout->push_constant_bytes = layout.push_constant_bytes;
  out_layout->workgroup_memory_bytes = layout.workgroup_memory_bytes;
  return MESHVK_OK;
}

}  // extern "C"

namespace meshvk {
namespace {

// OpCapability -> the Vulkan feature that enables it (SPIR-V spec, Vulkan
// spec appendix "SPIR-V capabilities").
void AddCapability(uint32_t capability, meshvk_shader_features_t* out) {
  switch (capability) {
    case spv::CapabilityFloat16:
      out->shader_float16 = 1;
      break;
    case spv::CapabilityFloat64:
      out->shader_float64 = 1;
      break;
    case spv::CapabilityInt64:
      out->shader_int64 = 1;
      break;
    case spv::CapabilityInt16:
      out->shader_int16 = 1;
      break;
    case spv::CapabilityInt8:
      out->shader_int8 = 1;
      break;
    case spv::CapabilityStorageBuffer16BitAccess:
    case spv::CapabilityUniformAndStorageBuffer16BitAccess:
      out->storage_buffer_16bit_access = 1;
      break;
    case spv::CapabilityStorageBuffer8BitAccess:
    case spv::CapabilityUniformAndStorageBuffer8BitAccess:
      out->storage_buffer_8bit_access = 1;
      break;
    case spv::CapabilityVulkanMemoryModel:
      out->vulkan_memory_model = 1;
      break;
    default:
      break;
  }
}

}  // namespace
}  // namespace meshvk

extern "C" {

meshvk_status_t meshvk_executable_spirv_features(const uint32_t* spirv, size_t size, meshvk_shader_features_t* out) {
  meshvk::Status checked =
      meshvk::CheckStructure(out, MESHVK_STRUCTURE_TYPE_SHADER_FEATURES, "meshvk_executable_spirv_features: out");
  if (!checked.ok()) return checked.ToC();
  if (!spirv || size < 20 || size % 4 != 0 || spirv[0] != spv::MagicNumber) {
    return meshvk::MakeStatus(MESHVK_STATUS_INVALID_ARGUMENT,
                              "meshvk_executable_spirv_features: not a SPIR-V module (or out is NULL)")
        .ToC();
  }
  meshvk::ForEachInstruction(spirv, size / 4, [out](uint32_t opcode, const uint32_t* w, uint32_t count) {
    if (opcode == spv::OpCapability && count >= 2) meshvk::AddCapability(w[1], out);
    return true;
  });
  return MESHVK_OK;
}

}  // extern "C"

// SPIR-V checks run before any SPIR-V reaches Vulkan: the SPIRV-Tools
// validator, the GLCompute entry point and its LocalSize, and the descriptor
// layout meshvk creates (set 0, storage buffers 0..n-1). One copy, used by
// meshvk_executable_create and, through meshvk_executable_check_spirv, by the
// .mvk loader. No Vulkan calls.
#ifndef MESHVK_RUNTIME_SRC_SPIRV_CHECK_H_
#define MESHVK_RUNTIME_SRC_SPIRV_CHECK_H_

#include <cstddef>
#include <cstdint>

#include "meshvk/executable.h"
#include "status.h"

namespace meshvk {

// OK when `info` describes a valid SPIR-V module (validated for
// `vulkan_api_version`, VK_API_VERSION_1_1..1_3; 0 means 1.1) with a GLCompute
// entry point named info->entry_point (NULL: "main") whose literal LocalSize
// equals info->workgroup_size (skipped when any of its entries is 0), and
// whose descriptors are all storage buffers in set 0 below
// info->binding_count. Otherwise INVALID_ARGUMENT with one line saying why.
Status CheckSpirv(const meshvk_executable_create_info_t& info, uint32_t vulkan_api_version);

// Finds the GLCompute OpEntryPoint named `name` in a well-formed module and
// sets *out_id to its function id.
bool FindComputeEntryPoint(const uint32_t* words, size_t word_count, const char* name, uint32_t* out_id);

}  // namespace meshvk

#endif  // MESHVK_RUNTIME_SRC_SPIRV_CHECK_H_

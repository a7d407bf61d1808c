// SPIR-V checks run before any SPIR-V reaches Vulkan: the SPIRV-Tools
// validator, the GLCompute entry point and its LocalSize, and the descriptor
// layout meshvk creates (set 0, storage buffers 0..n-1). One copy, used by
// meshvk_executable_create and, through meshvk_executable_check_spirv, by the
// .mvk loader. No Vulkan calls.
#ifndef MESHVK_RUNTIME_SRC_SPIRV_CHECK_H_
#define MESHVK_RUNTIME_SRC_SPIRV_CHECK_H_

#include <cstddef>
#include <cstdint>
#include <spirv/unified1/spirv.hpp>
#include <vector>

#include "meshvk/executable.h"
#include "status.h"

namespace meshvk {

// What a checked kernel's SPIR-V itself says about its layout.
struct KernelLayout {
  uint32_t workgroup_size[3] = {0, 0, 0};  // the size it runs with
  uint32_t push_constant_bytes = 0;        // its push-constant block (0: none)
  uint64_t workgroup_memory_bytes = 0;     // all its Workgroup variables
};

// kVulkan: what Vulkan allows a compute kernel bound the way meshvk binds it
// (meshvk_executable_create). kMvkKernel adds what every kernel in a .mvk is
// (CheckDenseLayout in spirv_check_interface.cc): each binding one densely
// packed array at Offset 0, a densely packed push-constant block, one
// variable per built-in (views of one binding may alias; a binding may be
// unused).
enum class KernelRules { kVulkan, kMvkKernel };

// OK when `info` describes a valid SPIR-V module (validated for
// `vulkan_api_version`, VK_API_VERSION_1_1..1_3; 0 means 1.1) with a GLCompute
// entry point named info->entry_point (NULL: "main") that is a meshvk kernel
// (CheckKernelInterface) and whose descriptors are all storage buffers in set
// 0 below info->binding_count. Otherwise INVALID_ARGUMENT with one line
// saying why. Fills *out_layout (may be null) when OK.
Status CheckSpirv(const meshvk_executable_create_info_t& info, uint32_t vulkan_api_version,
                  KernelRules rules = KernelRules::kVulkan, KernelLayout* out_layout = nullptr);

// The Vulkan rules the validator does not check, and what meshvk binds
// (spirv_check_interface.cc): only capabilities for compute, subgroups and
// the features the runtime enables; module-level variables only in
// StorageBuffer/Uniform (bindings), PushConstant (one block, which
// info.push_constant_size must cover), Workgroup, Private, or Input built-ins
// of compute with the type Vulkan requires, listed in the entry point's
// interface; BuiltIn nowhere else but the WorkgroupSize constant; the
// effective workgroup size (WorkgroupSize constant, else LocalSize or
// LocalSizeId) non-zero and equal to info.workgroup_size unless that has a
// 0; constant indices into vectors and arrays inside them. `words` passed the
// validator; `entry_id` is the entry point's function.
Status CheckKernelInterface(const std::vector<uint32_t>& words, uint32_t entry_id, const char* entry_point,
                            const meshvk_executable_create_info_t& info, KernelRules rules, KernelLayout* out_layout);

// Calls visit(opcode, w, count) for each instruction after the 5-word header,
// w pointing at its first word and count its word count, in order, until
// visit returns false or an instruction is malformed (word count 0, or past
// the end; the validator refuses such a module).
template <typename Visit>
void ForEachInstruction(const uint32_t* words, size_t word_count, Visit visit) {
  for (size_t i = 5; i < word_count;) {
    const uint32_t count = words[i] >> spv::WordCountShift, opcode = words[i] & spv::OpCodeMask;
    if (count == 0 || i + count > word_count || !visit(opcode, &words[i], count)) return;
    i += count;
  }
}

// Finds the GLCompute OpEntryPoint named `name` in a well-formed module and
// sets *out_id to its function id.
bool FindComputeEntryPoint(const uint32_t* words, size_t word_count, const char* name, uint32_t* out_id);

}  // namespace meshvk

#endif  // MESHVK_RUNTIME_SRC_SPIRV_CHECK_H_

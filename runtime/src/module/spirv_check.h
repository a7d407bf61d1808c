// SPIR-V checks the loader runs on every executable of an artifact: the
// SPIRV-Tools validator (Vulkan 1.1 environment) and a scan for the declared
// GLCompute entry point and its LocalSize. No Vulkan.
#ifndef MESHVK_RUNTIME_MODULE_SPIRV_CHECK_H_
#define MESHVK_RUNTIME_MODULE_SPIRV_CHECK_H_

#include <cstddef>
#include <cstdint>
#include <string>

namespace meshvk::module {

// Returns "" when `words` is a valid SPIR-V module with a GLCompute entry point
// named `entry_point` whose LocalSize (when declared with literals) equals
// `workgroup_size`; otherwise the reason (validator output or what is missing).
std::string CheckSpirv(const uint32_t* words, size_t word_count, const std::string& entry_point,
                       const uint32_t workgroup_size[3]);

// Finds the GLCompute OpEntryPoint named `name` in a module the validator
// accepted (a well-formed instruction stream) and sets *out_id to its
// function id. Shared with meshvk_executable_create, which must find the same
// entry point the loader checked.
bool FindComputeEntryPoint(const uint32_t* words, size_t word_count, const std::string& name,
                           uint32_t* out_id);

}  // namespace meshvk::module

#endif  // MESHVK_RUNTIME_MODULE_SPIRV_CHECK_H_

// Internal view of meshvk_executable_t (see meshvk/executable.h).
#ifndef MESHVK_RUNTIME_SRC_EXECUTABLE_H_
#define MESHVK_RUNTIME_SRC_EXECUTABLE_H_

#include <volk.h>

#include <atomic>
#include <vector>

#include "device_set.h"
#include "meshvk/executable.h"

struct meshvk_executable_s {
  std::atomic<uint32_t> refs{1};
  meshvk_device_set_t* set = nullptr;
  // A built-in lives in the set's cache and does not retain the set (that
  // would be a cycle); each reference handed out retains the set instead.
  bool builtin = false;
  uint32_t binding_count = 0;
  uint32_t push_constant_size = 0;
  uint32_t workgroup_size[3] = {};
  struct PerDevice {
    VkDescriptorSetLayout set_layout = VK_NULL_HANDLE;
    VkPipelineLayout layout = VK_NULL_HANDLE;
    VkPipeline pipeline = VK_NULL_HANDLE;
  };
  std::vector<PerDevice> per_device;  // indexed like set->devices
};

namespace meshvk {
// Checks `info` (spirv_check.h, device limits) and creates the pipelines of
// `executable`, whose `set` is filled in. On failure the caller destroys it.
Status CreateExecutable(meshvk_executable_t* executable, const meshvk_executable_create_info_t& info);
// Destroys the Vulkan objects and frees the executable (no set release).
void DestroyExecutable(meshvk_executable_t* executable);
}  // namespace meshvk

#endif  // MESHVK_RUNTIME_SRC_EXECUTABLE_H_

// VkResult -> Status: the ONE place Vulkan error codes become meshvk codes.
#ifndef MESHVK_RUNTIME_SRC_VULKAN_VK_STATUS_H_
#define MESHVK_RUNTIME_SRC_VULKAN_VK_STATUS_H_

#include <volk.h>

#include <string>

#include "status.h"

namespace meshvk {

// "VK_ERROR_OUT_OF_DEVICE_MEMORY" etc.
const char* VkResultName(VkResult result);

// OK for VK_SUCCESS (and other non-negative results except VK_TIMEOUT);
// otherwise a status whose message is "<where>: <VkResult name>".
//   out of host/device memory, fragmentation -> RESOURCE_EXHAUSTED
//   device lost                              -> DEVICE_LOST
//   VK_TIMEOUT                               -> DEADLINE_EXCEEDED
//   missing layer/extension/feature/driver   -> UNAVAILABLE
//   anything else                            -> INTERNAL
Status VkResultToStatus(VkResult result, const std::string& where);

}  // namespace meshvk

// Returns from the enclosing function when a Vulkan call fails; `where` says
// which process/device and which call ("process 1 (device 0): vkCreateBuffer").
#define MESHVK_VK_RETURN_IF_ERROR(call, where)                                                  \
  do {                                                                                          \
    VkResult _meshvk_vk_result = (call);                                                        \
    if (_meshvk_vk_result != VK_SUCCESS) {                                                      \
      ::meshvk::Status _meshvk_status = ::meshvk::VkResultToStatus(_meshvk_vk_result, (where)); \
      if (!_meshvk_status.ok()) return _meshvk_status;                                          \
    }                                                                                           \
  } while (0)

#endif  // MESHVK_RUNTIME_SRC_VULKAN_VK_STATUS_H_

// VkResult -> Status (see vk_status.h). Everything that calls Vulkan routes
// its result through here so that codes are mapped consistently.
#include "vulkan/vk_status.h"

namespace meshvk {

const char* VkResultName(VkResult result) {
  switch (result) {
#define MESHVK_CASE(name) \
  case name:              \
    return #name;
    MESHVK_CASE(VK_SUCCESS)
    MESHVK_CASE(VK_NOT_READY)
    MESHVK_CASE(VK_TIMEOUT)
    MESHVK_CASE(VK_EVENT_SET)
    MESHVK_CASE(VK_EVENT_RESET)
    MESHVK_CASE(VK_INCOMPLETE)
    MESHVK_CASE(VK_ERROR_OUT_OF_HOST_MEMORY)
    MESHVK_CASE(VK_ERROR_OUT_OF_DEVICE_MEMORY)
    MESHVK_CASE(VK_ERROR_INITIALIZATION_FAILED)
    MESHVK_CASE(VK_ERROR_DEVICE_LOST)
    MESHVK_CASE(VK_ERROR_MEMORY_MAP_FAILED)
    MESHVK_CASE(VK_ERROR_LAYER_NOT_PRESENT)
    MESHVK_CASE(VK_ERROR_EXTENSION_NOT_PRESENT)
    MESHVK_CASE(VK_ERROR_FEATURE_NOT_PRESENT)
    MESHVK_CASE(VK_ERROR_INCOMPATIBLE_DRIVER)
    MESHVK_CASE(VK_ERROR_TOO_MANY_OBJECTS)
    MESHVK_CASE(VK_ERROR_FORMAT_NOT_SUPPORTED)
    MESHVK_CASE(VK_ERROR_FRAGMENTED_POOL)
    MESHVK_CASE(VK_ERROR_UNKNOWN)
    MESHVK_CASE(VK_ERROR_OUT_OF_POOL_MEMORY)
    MESHVK_CASE(VK_ERROR_INVALID_EXTERNAL_HANDLE)
    MESHVK_CASE(VK_ERROR_FRAGMENTATION)
    MESHVK_CASE(VK_ERROR_INVALID_OPAQUE_CAPTURE_ADDRESS)
    MESHVK_CASE(VK_ERROR_VALIDATION_FAILED_EXT)
    MESHVK_CASE(VK_ERROR_INVALID_SHADER_NV)
#undef MESHVK_CASE
    default:
      return "VkResult(unknown)";
  }
}

Status VkResultToStatus(VkResult result, const std::string& where) {
  if (result == VK_SUCCESS) return Status();
  meshvk_status_code_t code;
  switch (result) {
    case VK_TIMEOUT:
      code = MESHVK_STATUS_DEADLINE_EXCEEDED;
      break;
    case VK_ERROR_OUT_OF_HOST_MEMORY:
    case VK_ERROR_OUT_OF_DEVICE_MEMORY:
    case VK_ERROR_OUT_OF_POOL_MEMORY:
    case VK_ERROR_FRAGMENTED_POOL:
    case VK_ERROR_FRAGMENTATION:
    case VK_ERROR_TOO_MANY_OBJECTS:
      code = MESHVK_STATUS_RESOURCE_EXHAUSTED;
      break;
    case VK_ERROR_DEVICE_LOST:
      code = MESHVK_STATUS_DEVICE_LOST;
      break;
    case VK_ERROR_LAYER_NOT_PRESENT:
    case VK_ERROR_EXTENSION_NOT_PRESENT:
    case VK_ERROR_FEATURE_NOT_PRESENT:
    case VK_ERROR_INCOMPATIBLE_DRIVER:
    case VK_ERROR_INITIALIZATION_FAILED:
      code = MESHVK_STATUS_UNAVAILABLE;
      break;
    default:
      // Other non-error results (VK_INCOMPLETE, VK_NOT_READY...) are handled
      // by the callers that expect them; reaching here with one is success.
      if (result > 0) return Status();
      code = MESHVK_STATUS_INTERNAL;
      break;
  }
  return Status(code, where + ": " + VkResultName(result));
}

}  // namespace meshvk

// volk loading (see loader.h).
#include "vulkan/loader.h"

#include <mutex>

#include "vulkan/vk_status.h"

namespace meshvk {

Status LoadVulkanLoader() {
  static std::once_flag once;
  static VkResult result = VK_ERROR_INITIALIZATION_FAILED;
  std::call_once(once, [] { result = volkInitialize(); });
  if (result != VK_SUCCESS) {
    return MakeStatus(MESHVK_STATUS_UNAVAILABLE, "volkInitialize: no Vulkan loader (libvulkan.so.1) found");
  }
  return Status();
}

void LoadInstanceFunctions(VkInstance instance) {
  static std::mutex mutex;
  std::lock_guard<std::mutex> lock(mutex);
  volkLoadInstanceOnly(instance);
}

void LoadDeviceTable(VkDevice device, VolkDeviceTable* table) { volkLoadDeviceTable(table, device); }

}  // namespace meshvk

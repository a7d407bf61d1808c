// Internal view of meshvk_instance_t (see meshvk/instance.h).
#ifndef MESHVK_RUNTIME_SRC_INSTANCE_H_
#define MESHVK_RUNTIME_SRC_INSTANCE_H_

#include <volk.h>

#include <atomic>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "meshvk/instance.h"
#include "status.h"

namespace meshvk {

// What the runtime needs to know about one physical device, queried once.
struct PhysicalDevice {
  VkPhysicalDevice handle = VK_NULL_HANDLE;
  VkPhysicalDeviceProperties properties{};
  VkPhysicalDeviceSubgroupProperties subgroup{};
  VkPhysicalDeviceMaintenance3Properties maintenance3{};
  VkPhysicalDeviceMemoryProperties memory{};
  std::vector<VkQueueFamilyProperties> queue_families;
  VkPhysicalDeviceFeatures features{};
  VkPhysicalDevice16BitStorageFeatures storage16{};
  VkPhysicalDeviceVulkan12Features vulkan12{};
  meshvk_physical_device_info_t info = MESHVK_PHYSICAL_DEVICE_INFO_INIT;  // the public view, filled once
  std::vector<meshvk_queue_family_info_t> public_queue_families;          // info.queue_families points here
};

// A device group's VkPeerMemoryFeatureFlags, [heap][local][remote].
struct GroupPeers {
  uint32_t device_count = 0, heap_count = 0;
  std::vector<uint32_t> features;
  uint32_t& at(uint32_t heap, uint32_t local, uint32_t remote) {
    return features[(size_t{heap} * device_count + local) * device_count + remote];
  }
};

// Index of the first queue family with compute support, or UINT32_MAX.
uint32_t FindComputeQueueFamily(const PhysicalDevice& device);
// The first queue family with transfer and neither compute nor graphics (a
// copy engine); UINT32_MAX when the device has none.
uint32_t FindTransferOnlyQueueFamily(const PhysicalDevice& device);

}  // namespace meshvk

struct meshvk_instance_s {
  std::atomic<uint32_t> references{1};  // device sets retain their instance
  VkInstance instance = VK_NULL_HANDLE;
  bool owns_instance = true;  // false: the application's (meshvk/vulkan.h)
  VkDebugUtilsMessengerEXT messenger = VK_NULL_HANDLE;
  uint32_t api_version = 0;
  bool validation = false;
  meshvk_message_callback_t callback = nullptr;
  void* callback_user_data = nullptr;
  std::atomic<uint64_t> message_count{0};
  std::vector<meshvk::PhysicalDevice> physical_devices;
  // Each group's members as indices into physical_devices.
  std::vector<std::vector<uint32_t>> groups;
  std::vector<uint32_t> group_subset_allocation;
  std::mutex group_info_mutex;
  std::vector<std::unique_ptr<meshvk::GroupPeers>> group_peer_cache;

  // "physical device 0 'llvmpipe (LLVM 15.0.6, 256 bits)'"
  std::string DeviceName(uint32_t physical_index) const;
};

namespace meshvk {
// Enumerates the physical devices and groups of instance->instance (whose
// instance functions are loaded) into the instance.
Status DiscoverDevices(meshvk_instance_t* instance);
}  // namespace meshvk

#endif  // MESHVK_RUNTIME_SRC_INSTANCE_H_

// LogicalDevice: one VkDevice over one physical device or a device group,
// created by meshvk (CreateLogicalDevice) or adopted from an application
// (adopt.cc), and set up alike (SetUpLogicalDevice): queue timelines, the
// storage memory type, peer features; and its teardown.
#include <algorithm>
#include <cstring>
#include <string>
#include <vector>

#include "device_set.h"
#include "device_wait.h"
#include "host_staging.h"
#include "pipeline_cache.h"
#include "vulkan/loader.h"
#include "vulkan/vk_status.h"

namespace meshvk {
namespace {

constexpr uint32_t kAllPeerFeatures = VK_PEER_MEMORY_FEATURE_COPY_SRC_BIT | VK_PEER_MEMORY_FEATURE_COPY_DST_BIT |
                                      VK_PEER_MEMORY_FEATURE_GENERIC_SRC_BIT | VK_PEER_MEMORY_FEATURE_GENERIC_DST_BIT;

// Features shaders may need: the compiler emits int64/float16/8-bit storage
// when the program uses those types, so enable whatever the device has.
// Timeline semaphores are required (cross-process ordering).
struct EnabledFeatures {
  VkPhysicalDeviceFeatures2 features2{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2};
  VkPhysicalDevice16BitStorageFeatures storage16{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_16BIT_STORAGE_FEATURES};
  VkPhysicalDeviceVulkan12Features vulkan12{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES};

  explicit EnabledFeatures(const PhysicalDevice& device) {
    features2.pNext = &storage16;
    storage16.pNext = &vulkan12;
    VkPhysicalDeviceFeatures& f = features2.features;
    f.shaderInt64 = device.features.shaderInt64;
    f.shaderInt16 = device.features.shaderInt16;
    f.shaderFloat64 = device.features.shaderFloat64;
    storage16.storageBuffer16BitAccess = device.storage16.storageBuffer16BitAccess;
    storage16.uniformAndStorageBuffer16BitAccess = device.storage16.uniformAndStorageBuffer16BitAccess;
    storage16.storagePushConstant16 = device.storage16.storagePushConstant16;
    vulkan12.shaderFloat16 = device.vulkan12.shaderFloat16;
    vulkan12.shaderInt8 = device.vulkan12.shaderInt8;
    vulkan12.storageBuffer8BitAccess = device.vulkan12.storageBuffer8BitAccess;
    vulkan12.uniformAndStorageBuffer8BitAccess = device.vulkan12.uniformAndStorageBuffer8BitAccess;
    vulkan12.storagePushConstant8 = device.vulkan12.storagePushConstant8;
    vulkan12.vulkanMemoryModel = device.vulkan12.vulkanMemoryModel;
    vulkan12.vulkanMemoryModelDeviceScope = device.vulkan12.vulkanMemoryModelDeviceScope;
    vulkan12.timelineSemaphore = VK_TRUE;
  }
};

// The memory type every shard buffer uses: device-local first (a host-visible
// one is mapped directly, otherwise host I/O goes through staging).
Status ChooseStorageMemory(meshvk_device_set_t* set, LogicalDevice* device) {
  VkBufferCreateInfo info{VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO};
  info.size = 4;
  info.usage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_SRC_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT;
  VkBuffer probe = VK_NULL_HANDLE;
  MESHVK_VK_RETURN_IF_ERROR(
      device->vk.vkCreateBuffer(device->device, &info, nullptr, &probe),
      set->instance->DeviceName(device->physical_indices[0]) + ": vkCreateBuffer (memory type probe)");
  VkMemoryRequirements requirements;
  device->vk.vkGetBufferMemoryRequirements(device->device, probe, &requirements);
  device->vk.vkDestroyBuffer(device->device, probe, nullptr);
  const VkPhysicalDeviceMemoryProperties& memory = device->physical->memory;
  int chosen = -1;
  for (uint32_t pass = 0; pass < 2 && chosen < 0; ++pass) {
    VkMemoryPropertyFlags wanted = pass == 0 ? VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT : 0;
    for (uint32_t t = 0; t < memory.memoryTypeCount; ++t) {
      if ((requirements.memoryTypeBits & (1u << t)) && (memory.memoryTypes[t].propertyFlags & wanted) == wanted) {
        chosen = static_cast<int>(t);
        break;
      }
    }
  }
  if (chosen < 0) {
    return MakeStatus(MESHVK_STATUS_UNAVAILABLE, "%s: no memory type for storage buffers",
                      set->instance->DeviceName(device->physical_indices[0]).c_str());
  }
  device->storage_memory_type = static_cast<uint32_t>(chosen);
  device->storage_heap = memory.memoryTypes[chosen].heapIndex;
  const VkMemoryPropertyFlags mappable = VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT;
  device->storage_host_mappable = (memory.memoryTypes[chosen].propertyFlags & mappable) == mappable;
  return Status();
}

}  // namespace

// Creates one VkDevice over `members` (a group when members.size() > 1 or
// `as_group`) with `queue_count` queues of the first compute family.
Status CreateLogicalDevice(meshvk_device_set_t* set, const std::vector<uint32_t>& members, bool as_group,
                           uint32_t queue_count, const std::vector<const char*>& extensions, LogicalDevice* out) {
  meshvk_instance_t* instance = set->instance;
  out->physical_indices = members;
  out->physical = &instance->physical_devices[members[0]];
  const PhysicalDevice& physical = *out->physical;
  std::string name = instance->DeviceName(members[0]);
  out->api_version = std::min(instance->api_version, physical.properties.apiVersion);
  if (out->api_version < VK_API_VERSION_1_2 || !physical.vulkan12.timelineSemaphore) {
    return MakeStatus(MESHVK_STATUS_UNAVAILABLE, "%s: meshvk needs Vulkan 1.2 with timeline semaphores", name.c_str());
  }
  out->queue_family = FindComputeQueueFamily(physical);
  if (out->queue_family == UINT32_MAX) {
    return MakeStatus(MESHVK_STATUS_UNAVAILABLE, "%s: no compute queue family", name.c_str());
  }
  queue_count = std::max(1u, std::min(queue_count, physical.queue_families[out->queue_family].queueCount));
  std::vector<float> priorities(queue_count, 1.0f);
  VkDeviceQueueCreateInfo queue_infos[2] = {{VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO},
                                            {VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO}};
  queue_infos[0].queueFamilyIndex = out->queue_family;
  queue_infos[0].queueCount = queue_count;
  queue_infos[0].pQueuePriorities = priorities.data();
  // One queue of a copy engine for the copies between VkDevices (device_set.h).
  // Not in a device group: its staging copies carry device masks the
  // transfer family's timelines would have to follow per device.
  if (!as_group && members.size() == 1) out->transfer_family = FindTransferOnlyQueueFamily(physical);
  queue_infos[1].queueFamilyIndex = out->transfer_family;
  queue_infos[1].queueCount = 1;
  queue_infos[1].pQueuePriorities = priorities.data();

  EnabledFeatures features(physical);
  std::vector<VkPhysicalDevice> handles;
  for (uint32_t m : members) handles.push_back(instance->physical_devices[m].handle);
  VkDeviceGroupDeviceCreateInfo group_info{VK_STRUCTURE_TYPE_DEVICE_GROUP_DEVICE_CREATE_INFO};
  group_info.physicalDeviceCount = static_cast<uint32_t>(handles.size());
  group_info.pPhysicalDevices = handles.data();
  if (as_group) features.vulkan12.pNext = &group_info;

  VkDeviceCreateInfo create{VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO};
  create.pNext = &features.features2;
  create.queueCreateInfoCount = out->transfer_family == UINT32_MAX ? 1 : 2;
  create.pQueueCreateInfos = queue_infos;
  create.enabledExtensionCount = static_cast<uint32_t>(extensions.size());
  create.ppEnabledExtensionNames = extensions.data();
  MESHVK_VK_RETURN_IF_ERROR(
      vkCreateDevice(physical.handle, &create, nullptr, &out->device),
      name + ": vkCreateDevice" +
          (as_group ? " (device group of " + std::to_string(members.size()) + ")" : std::string()));
  LoadDeviceTable(out->device, &out->vk);
  for (const char* e : extensions) {
    out->external_memory_fd |= !std::strcmp(e, VK_KHR_EXTERNAL_MEMORY_FD_EXTENSION_NAME);
    out->external_semaphore_fd |= !std::strcmp(e, VK_KHR_EXTERNAL_SEMAPHORE_FD_EXTENSION_NAME);
  }

  out->queues.resize(queue_count);
  for (uint32_t q = 0; q < queue_count; ++q) {
    out->vk.vkGetDeviceQueue(out->device, out->queue_family, q, &out->queues[q]);
  }
  if (out->transfer_family != UINT32_MAX) {
    out->vk.vkGetDeviceQueue(out->device, out->transfer_family, 0, &out->transfer_queue);
  }
  return SetUpLogicalDevice(set, out);
}

void DestroyLogicalDevice(LogicalDevice* device) {
  if (!device->device) return;
  // Bounded, skipped for a device that stopped answering, and only meshvk's
  // own submissions on an application's device (device_wait.h).
  (void)DrainDevice(*device, "device destruction");
  delete device->staging_rings;  // its rings live on this VkDevice (each leaks itself if it must)
  device->staging_rings = nullptr;
  // A device that stopped answering keeps its timelines and itself
  // (device_wait.h): vkDestroyDevice with work in flight is undefined.
  if (LeakIfUnresponsive(*device, device->queue_timelines.size() + (device->transfer_timeline != VK_NULL_HANDLE) +
                                      device->owns_device)) {
    device->device = VK_NULL_HANDLE;
    return;
  }
  SaveAndDestroyPipelineCache(device);
  for (VkSemaphore semaphore : device->queue_timelines) {
    if (semaphore) device->vk.vkDestroySemaphore(device->device, semaphore, nullptr);
  }
  if (device->transfer_timeline) device->vk.vkDestroySemaphore(device->device, device->transfer_timeline, nullptr);
  if (device->owns_device) device->vk.vkDestroyDevice(device->device, nullptr);
  device->device = VK_NULL_HANDLE;
}

Status SetUpLogicalDevice(meshvk_device_set_t* set, LogicalDevice* out) {
  const std::string name = set->instance->DeviceName(out->physical_indices[0]);
  CreatePipelineCache(out, set->pipeline_cache_directory);
  const uint32_t queue_count = static_cast<uint32_t>(out->queues.size());
  out->queue_locks.reset(new std::mutex[queue_count]);
  const uint32_t timelines = queue_count * out->group_size();
  out->queue_timelines.assign(timelines, VK_NULL_HANDLE);
  out->queue_timeline_values.assign(timelines, 0);
  for (uint32_t q = 0; q < timelines; ++q) {
    VkSemaphoreTypeCreateInfo type{VK_STRUCTURE_TYPE_SEMAPHORE_TYPE_CREATE_INFO};
    type.semaphoreType = VK_SEMAPHORE_TYPE_TIMELINE;
    VkSemaphoreCreateInfo semaphore{VK_STRUCTURE_TYPE_SEMAPHORE_CREATE_INFO};
    semaphore.pNext = &type;
    MESHVK_VK_RETURN_IF_ERROR(out->vk.vkCreateSemaphore(out->device, &semaphore, nullptr, &out->queue_timelines[q]),
                              name + ": vkCreateSemaphore (queue timeline)");
  }
  if (out->transfer_queue) {
    VkSemaphoreTypeCreateInfo type{VK_STRUCTURE_TYPE_SEMAPHORE_TYPE_CREATE_INFO};
    type.semaphoreType = VK_SEMAPHORE_TYPE_TIMELINE;
    VkSemaphoreCreateInfo semaphore{VK_STRUCTURE_TYPE_SEMAPHORE_CREATE_INFO};
    semaphore.pNext = &type;
    MESHVK_VK_RETURN_IF_ERROR(out->vk.vkCreateSemaphore(out->device, &semaphore, nullptr, &out->transfer_timeline),
                              name + ": vkCreateSemaphore (transfer queue timeline)");
  }
  MESHVK_RETURN_IF_ERROR(ChooseStorageMemory(set, out));
  out->staging_rings = new StagingRingCache();

  // Peer features for the heap shard buffers live in. vkGetDeviceGroupPeer-
  // MemoryFeatures is only defined for two different devices of the group.
  const uint32_t d = out->group_size();
  out->peer.assign(static_cast<size_t>(d) * d, kAllPeerFeatures);
  for (uint32_t local = 0; local < d; ++local) {
    for (uint32_t remote = 0; remote < d; ++remote) {
      if (local == remote) continue;
      VkPeerMemoryFeatureFlags flags = 0;
      out->vk.vkGetDeviceGroupPeerMemoryFeatures(out->device, out->storage_heap, local, remote, &flags);
      out->peer[local * d + remote] = flags;
    }
  }
  return Status();
}

}  // namespace meshvk

// meshvk_instance_t: the VkInstance, validation routing and device discovery.
#include "instance.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "api_version.h"
#include "base/structure.h"
#include "device_wait.h"  // CountLeaked
#include "vulkan/loader.h"
#include "vulkan/vk_status.h"

namespace meshvk {

uint32_t FindComputeQueueFamily(const PhysicalDevice& device) {
  for (uint32_t i = 0; i < device.queue_families.size(); ++i) {
    if (device.queue_families[i].queueFlags & VK_QUEUE_COMPUTE_BIT) return i;
  }
  return UINT32_MAX;
}

uint32_t FindTransferOnlyQueueFamily(const PhysicalDevice& device) {
  for (uint32_t i = 0; i < device.queue_families.size(); ++i) {
    const VkQueueFlags flags = device.queue_families[i].queueFlags;
    if ((flags & VK_QUEUE_TRANSFER_BIT) && !(flags & (VK_QUEUE_COMPUTE_BIT | VK_QUEUE_GRAPHICS_BIT)) &&
        device.queue_families[i].queueCount > 0) {
      return i;
    }
  }
  return UINT32_MAX;
}

namespace {

constexpr const char* kValidationLayer = "VK_LAYER_KHRONOS_validation";

VKAPI_ATTR VkBool32 VKAPI_CALL OnDebugMessage(VkDebugUtilsMessageSeverityFlagBitsEXT severity,
                                              VkDebugUtilsMessageTypeFlagsEXT types,
                                              const VkDebugUtilsMessengerCallbackDataEXT* data, void* user_data) {
  // GENERAL warnings are the loader's chatter (e.g. "env var VK_INSTANCE_LAYERS
  // defined"), not findings about this program's use of Vulkan; loader errors
  // and every validation/performance message are reported.
  const VkDebugUtilsMessageTypeFlagsEXT findings =
      VK_DEBUG_UTILS_MESSAGE_TYPE_VALIDATION_BIT_EXT | VK_DEBUG_UTILS_MESSAGE_TYPE_PERFORMANCE_BIT_EXT;
  if (!(types & findings) && !(severity & VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT)) {
    return VK_FALSE;
  }
  auto* instance = static_cast<meshvk_instance_t*>(user_data);
  meshvk_message_severity_t level = (severity & VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT) ? MESHVK_MESSAGE_ERROR
                                    : (severity & VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT)
                                        ? MESHVK_MESSAGE_WARNING
                                        : MESHVK_MESSAGE_INFO;
  if (level == MESHVK_MESSAGE_INFO) return VK_FALSE;
  instance->message_count.fetch_add(1);
  const char* text = data && data->pMessage ? data->pMessage : "(no message)";
  if (instance->callback) {
    instance->callback(level, text, instance->callback_user_data);
  } else {
    std::fprintf(stderr, "meshvk validation %s: %s\n", level == MESHVK_MESSAGE_ERROR ? "error" : "warning", text);
  }
  // VK_FALSE: the call proceeds as it would without the layer.
  return VK_FALSE;
}

bool HasLayer(const char* name) {
  uint32_t count = 0;
  vkEnumerateInstanceLayerProperties(&count, nullptr);
  std::vector<VkLayerProperties> layers(count);
  vkEnumerateInstanceLayerProperties(&count, layers.data());
  for (const auto& layer : layers) {
    if (std::strcmp(layer.layerName, name) == 0) return true;
  }
  return false;
}

void QueryPhysicalDevice(VkPhysicalDevice handle, uint32_t instance_api, PhysicalDevice* out) {
  out->handle = handle;
  out->subgroup.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SUBGROUP_PROPERTIES;
  out->maintenance3.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MAINTENANCE_3_PROPERTIES;
  out->maintenance3.pNext = &out->subgroup;
  VkPhysicalDeviceIDProperties ids{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_ID_PROPERTIES};
  VkPhysicalDeviceDriverProperties driver{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DRIVER_PROPERTIES};
  out->subgroup.pNext = &ids;
  VkPhysicalDeviceProperties plain{};
  vkGetPhysicalDeviceProperties(handle, &plain);
  // The driver properties struct may only be chained for a 1.2 device on a
  // 1.2 instance (as the 1.2 feature structs below).
  if (std::min(instance_api, plain.apiVersion) >= VK_API_VERSION_1_2) ids.pNext = &driver;
  VkPhysicalDeviceProperties2 properties2{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2};
  properties2.pNext = &out->maintenance3;
  vkGetPhysicalDeviceProperties2(handle, &properties2);
  out->properties = properties2.properties;
  out->subgroup.pNext = nullptr;  // the chain's other links are locals

  // Vulkan 1.2 feature structs may only be chained when both the instance and
  // the device speak 1.2.
  uint32_t api = std::min(instance_api, out->properties.apiVersion);
  out->storage16.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_16BIT_STORAGE_FEATURES;
  out->vulkan12.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES;
  VkPhysicalDeviceFeatures2 features2{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2};
  features2.pNext = &out->storage16;
  if (api >= VK_API_VERSION_1_2) out->storage16.pNext = &out->vulkan12;
  vkGetPhysicalDeviceFeatures2(handle, &features2);
  out->features = features2.features;

  vkGetPhysicalDeviceMemoryProperties(handle, &out->memory);
  uint32_t family_count = 0;
  vkGetPhysicalDeviceQueueFamilyProperties(handle, &family_count, nullptr);
  out->queue_families.resize(family_count);
  vkGetPhysicalDeviceQueueFamilyProperties(handle, &family_count, out->queue_families.data());

  meshvk_physical_device_info_t& info = out->info;
  std::snprintf(info.name, sizeof(info.name), "%s", out->properties.deviceName);
  info.vendor_id = out->properties.vendorID;
  info.device_id = out->properties.deviceID;
  info.device_type = out->properties.deviceType;
  info.api_version = out->properties.apiVersion;
  info.timestamp_period_ns = out->properties.limits.timestampPeriod;
  info.shader_float16 = out->vulkan12.shaderFloat16;
  info.storage_buffer_16bit = out->storage16.storageBuffer16BitAccess;
  info.shader_float64 = out->features.shaderFloat64;
  std::memcpy(info.device_uuid, ids.deviceUUID, VK_UUID_SIZE);
  std::memcpy(info.driver_uuid, ids.driverUUID, VK_UUID_SIZE);
  info.driver_id = ids.pNext ? driver.driverID : 0;
  std::snprintf(info.driver_name, sizeof(info.driver_name), "%s", ids.pNext ? driver.driverName : "");
  out->public_queue_families.resize(family_count);
  for (uint32_t i = 0; i < family_count; ++i) {
    out->public_queue_families[i].queue_flags = out->queue_families[i].queueFlags;
    out->public_queue_families[i].queue_count = out->queue_families[i].queueCount;
    out->public_queue_families[i].timestamp_valid_bits = out->queue_families[i].timestampValidBits;
  }
  info.type = MESHVK_STRUCTURE_TYPE_PHYSICAL_DEVICE_INFO;
  info.limits.type = MESHVK_STRUCTURE_TYPE_DEVICE_LIMITS;
  info.queue_family_count = family_count;
  info.queue_families = out->public_queue_families.data();
  info.heap_count = std::min<uint32_t>(out->memory.memoryHeapCount, MESHVK_MAX_HEAPS);
  for (uint32_t i = 0; i < info.heap_count; ++i) {
    info.heap_sizes[i] = out->memory.memoryHeaps[i].size;
    info.heap_flags[i] = out->memory.memoryHeaps[i].flags;
  }
  const VkPhysicalDeviceLimits& limits = out->properties.limits;
  for (int d = 0; d < 3; ++d) {
    info.limits.max_workgroup_size[d] = limits.maxComputeWorkGroupSize[d];
    info.limits.max_workgroup_count[d] = limits.maxComputeWorkGroupCount[d];
  }
  info.limits.max_workgroup_invocations = limits.maxComputeWorkGroupInvocations;
  info.limits.max_shared_memory_bytes = limits.maxComputeSharedMemorySize;
  info.limits.subgroup_size = out->subgroup.subgroupSize;
  info.limits.max_push_constants_bytes = limits.maxPushConstantsSize;
  info.limits.max_storage_buffer_range = limits.maxStorageBufferRange;
  info.limits.max_memory_allocation_size = out->maintenance3.maxMemoryAllocationSize;
  info.limits.min_storage_buffer_offset_alignment = limits.minStorageBufferOffsetAlignment;
}

Status Discover(meshvk_instance_t* instance) {
  uint32_t count = 0;
  MESHVK_VK_RETURN_IF_ERROR(vkEnumeratePhysicalDevices(instance->instance, &count, nullptr),
                            "vkEnumeratePhysicalDevices");
  std::vector<VkPhysicalDevice> handles(count);
  MESHVK_VK_RETURN_IF_ERROR(vkEnumeratePhysicalDevices(instance->instance, &count, handles.data()),
                            "vkEnumeratePhysicalDevices");
  handles.resize(count);
  instance->physical_devices.resize(count);
  for (uint32_t i = 0; i < count; ++i) {
    QueryPhysicalDevice(handles[i], instance->api_version, &instance->physical_devices[i]);
  }

  uint32_t group_count = 0;
  MESHVK_VK_RETURN_IF_ERROR(vkEnumeratePhysicalDeviceGroups(instance->instance, &group_count, nullptr),
                            "vkEnumeratePhysicalDeviceGroups");
  std::vector<VkPhysicalDeviceGroupProperties> groups(group_count,
                                                      {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_GROUP_PROPERTIES});
  MESHVK_VK_RETURN_IF_ERROR(vkEnumeratePhysicalDeviceGroups(instance->instance, &group_count, groups.data()),
                            "vkEnumeratePhysicalDeviceGroups");
  groups.resize(group_count);
  for (const auto& group : groups) {
    std::vector<uint32_t> members;
    for (uint32_t m = 0; m < group.physicalDeviceCount; ++m) {
      auto it = std::find(handles.begin(), handles.end(), group.physicalDevices[m]);
      if (it == handles.end()) {
        return MakeStatus(MESHVK_STATUS_INTERNAL,
                          "vkEnumeratePhysicalDeviceGroups: group member %u is not among "
                          "the %u enumerated physical devices",
                          m, count);
      }
      members.push_back(static_cast<uint32_t>(it - handles.begin()));
    }
    instance->groups.push_back(std::move(members));
    instance->group_subset_allocation.push_back(group.subsetAllocation);
  }
  instance->group_peer_cache.resize(instance->groups.size());
  return Status();
}

Status CreateInstance(const meshvk_instance_create_info_t* info, meshvk_instance_t* out) {
  MESHVK_RETURN_IF_ERROR(LoadVulkanLoader());
  uint32_t loader_version = volkGetInstanceVersion();
  if (loader_version < VK_API_VERSION_1_1) {
    return MakeStatus(MESHVK_STATUS_UNAVAILABLE, "vkCreateInstance: the Vulkan loader supports %u.%u, meshvk needs 1.1",
                      VK_API_VERSION_MAJOR(loader_version), VK_API_VERSION_MINOR(loader_version));
  }
  out->api_version = std::min<uint32_t>(loader_version, VK_API_VERSION_1_3);

  const meshvk_instance_flags_t flags = info->flags;
  out->validation = flags & MESHVK_INSTANCE_VALIDATION_BIT;
  bool sync_validation = out->validation && (flags & MESHVK_INSTANCE_SYNC_VALIDATION_BIT);
  out->callback = info->message_callback;
  out->callback_user_data = info->message_user_data;

  std::vector<const char*> layers;
  std::vector<const char*> extensions;
  if (out->validation) {
    if (!HasLayer(kValidationLayer)) {
      return MakeStatus(MESHVK_STATUS_UNAVAILABLE,
                        "vkCreateInstance: validation requested but %s is not installed "
                        "(Debian package vulkan-validationlayers)",
                        kValidationLayer);
    }
    layers.push_back(kValidationLayer);
    extensions.push_back(VK_EXT_DEBUG_UTILS_EXTENSION_NAME);
    if (sync_validation) extensions.push_back(VK_EXT_VALIDATION_FEATURES_EXTENSION_NAME);
  }

  VkApplicationInfo app{VK_STRUCTURE_TYPE_APPLICATION_INFO};
  app.pApplicationName = info->application_name ? info->application_name : "meshvk";
  app.pEngineName = "meshvk";
  app.apiVersion = out->api_version;

  // Chained into vkCreateInstance too, so messages from instance creation and
  // destruction reach the callback.
  VkDebugUtilsMessengerCreateInfoEXT messenger_info{VK_STRUCTURE_TYPE_DEBUG_UTILS_MESSENGER_CREATE_INFO_EXT};
  messenger_info.messageSeverity =
      VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT | VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT;
  messenger_info.messageType = VK_DEBUG_UTILS_MESSAGE_TYPE_GENERAL_BIT_EXT |
                               VK_DEBUG_UTILS_MESSAGE_TYPE_VALIDATION_BIT_EXT |
                               VK_DEBUG_UTILS_MESSAGE_TYPE_PERFORMANCE_BIT_EXT;
  messenger_info.pfnUserCallback = OnDebugMessage;
  messenger_info.pUserData = out;
  VkValidationFeatureEnableEXT sync_feature = VK_VALIDATION_FEATURE_ENABLE_SYNCHRONIZATION_VALIDATION_EXT;
  VkValidationFeaturesEXT validation_features{VK_STRUCTURE_TYPE_VALIDATION_FEATURES_EXT};
  validation_features.enabledValidationFeatureCount = 1;
  validation_features.pEnabledValidationFeatures = &sync_feature;
  if (sync_validation) validation_features.pNext = &messenger_info;

  VkInstanceCreateInfo create{VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO};
  create.pApplicationInfo = &app;
  create.enabledLayerCount = static_cast<uint32_t>(layers.size());
  create.ppEnabledLayerNames = layers.data();
  create.enabledExtensionCount = static_cast<uint32_t>(extensions.size());
  create.ppEnabledExtensionNames = extensions.data();
  if (sync_validation) {
    create.pNext = &validation_features;
  } else if (out->validation) {
    create.pNext = &messenger_info;
  }
  MESHVK_VK_RETURN_IF_ERROR(vkCreateInstance(&create, nullptr, &out->instance), "vkCreateInstance");
  LoadInstanceFunctions(out->instance);
  if (out->validation) {
    MESHVK_VK_RETURN_IF_ERROR(vkCreateDebugUtilsMessengerEXT(out->instance, &messenger_info, nullptr, &out->messenger),
                              "vkCreateDebugUtilsMessengerEXT");
  }
  return Discover(out);
}

// Peer features need a VkDevice over the group; a size-1 group has no peers.
Status QueryGroupPeers(meshvk_instance_t* instance, uint32_t index, GroupPeers* out) {
  const std::vector<uint32_t>& members = instance->groups[index];
  const PhysicalDevice& first = instance->physical_devices[members[0]];
  out->device_count = static_cast<uint32_t>(members.size());
  out->heap_count = std::min<uint32_t>(first.memory.memoryHeapCount, MESHVK_MAX_HEAPS);
  out->features.assign(size_t{out->heap_count} * out->device_count * out->device_count, 0);
  const uint32_t all = VK_PEER_MEMORY_FEATURE_COPY_SRC_BIT | VK_PEER_MEMORY_FEATURE_COPY_DST_BIT |
                       VK_PEER_MEMORY_FEATURE_GENERIC_SRC_BIT | VK_PEER_MEMORY_FEATURE_GENERIC_DST_BIT;
  for (uint32_t heap = 0; heap < out->heap_count; ++heap) {
    for (uint32_t d = 0; d < members.size(); ++d) out->at(heap, d, d) = all;
  }
  if (members.size() < 2) return Status();

  uint32_t family = FindComputeQueueFamily(first);
  if (family == UINT32_MAX) {
    return MakeStatus(MESHVK_STATUS_UNAVAILABLE, "device group %u: no compute queue family", index);
  }
  std::vector<VkPhysicalDevice> handles;
  for (uint32_t m : members) handles.push_back(instance->physical_devices[m].handle);
  VkDeviceGroupDeviceCreateInfo group_info{VK_STRUCTURE_TYPE_DEVICE_GROUP_DEVICE_CREATE_INFO};
  group_info.physicalDeviceCount = static_cast<uint32_t>(handles.size());
  group_info.pPhysicalDevices = handles.data();
  float priority = 1.0f;
  VkDeviceQueueCreateInfo queue{VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO};
  queue.queueFamilyIndex = family;
  queue.queueCount = 1;
  queue.pQueuePriorities = &priority;
  VkDeviceCreateInfo create{VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO};
  create.pNext = &group_info;
  create.queueCreateInfoCount = 1;
  create.pQueueCreateInfos = &queue;
  VkDevice device = VK_NULL_HANDLE;
  MESHVK_VK_RETURN_IF_ERROR(vkCreateDevice(handles[0], &create, nullptr, &device),
                            "device group " + std::to_string(index) + ": vkCreateDevice (peer feature query)");
  VolkDeviceTable table;
  LoadDeviceTable(device, &table);
  for (uint32_t heap = 0; heap < out->heap_count; ++heap) {
    for (uint32_t local = 0; local < members.size(); ++local) {
      for (uint32_t remote = 0; remote < members.size(); ++remote) {
        if (local == remote) continue;
        VkPeerMemoryFeatureFlags flags = 0;
        table.vkGetDeviceGroupPeerMemoryFeatures(device, heap, local, remote, &flags);
        out->at(heap, local, remote) = flags;
      }
    }
  }
  table.vkDestroyDevice(device, nullptr);
  return Status();
}

}  // namespace

Status DiscoverDevices(meshvk_instance_t* instance) { return Discover(instance); }

}  // namespace meshvk

std::string meshvk_instance_s::DeviceName(uint32_t physical_index) const {
  std::string name = "physical device " + std::to_string(physical_index);
  if (physical_index < physical_devices.size()) {
    name += std::string(" '") + physical_devices[physical_index].info.name + "'";
  }
  return name;
}

using meshvk::MakeStatus;
using meshvk::Status;

extern "C" {

meshvk_status_t meshvk_instance_create(const meshvk_instance_create_info_t* info, meshvk_instance_t** out_instance) {
  if (!out_instance) {
    return MakeStatus(MESHVK_STATUS_INVALID_ARGUMENT, "meshvk_instance_create: out_instance is NULL").ToC();
  }
  *out_instance = nullptr;
  Status checked =
      meshvk::CheckStructure(info, MESHVK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO, "meshvk_instance_create: info");
  if (checked.ok()) checked = meshvk::CheckHeaderVersion(info->api_version, "meshvk_instance_create");
  if (!checked.ok()) return checked.ToC();
  auto instance = std::make_unique<meshvk_instance_t>();
  Status status = meshvk::CreateInstance(info, instance.get());
  if (!status.ok()) {
    meshvk_instance_release(instance.release());
    return status.ToC();
  }
  *out_instance = instance.release();
  return MESHVK_OK;
}

void meshvk_instance_retain(meshvk_instance_t* instance) {
  if (instance) instance->references.fetch_add(1);
}

void meshvk_instance_release(meshvk_instance_t* instance) {
  if (!instance || instance->references.fetch_sub(1) != 1) return;
  if (instance->messenger) {
    vkDestroyDebugUtilsMessengerEXT(instance->instance, instance->messenger, nullptr);
  }
  if (instance->instance && instance->owns_instance) {
    // A VkDevice left alive after it stopped answering (device_wait.h) is a
    // child of the instance, which must then stay too.
    if (meshvk_leaked_object_count() > 0) {
      meshvk::CountLeaked(1);
    } else {
      vkDestroyInstance(instance->instance, nullptr);
    }
  }
  delete instance;
}

uint64_t meshvk_instance_message_count(const meshvk_instance_t* instance) {
  return instance ? instance->message_count.load() : 0;
}

uint32_t meshvk_instance_physical_device_count(const meshvk_instance_t* instance) {
  return instance ? static_cast<uint32_t>(instance->physical_devices.size()) : 0;
}

meshvk_status_t meshvk_instance_physical_device_info(const meshvk_instance_t* instance, uint32_t index,
                                                     meshvk_physical_device_info_t* out_info) {
  if (!instance || !out_info) {
    return MakeStatus(MESHVK_STATUS_INVALID_ARGUMENT,
                      "meshvk_instance_physical_device_info: instance or out_info is NULL")
        .ToC();
  }
  if (index >= instance->physical_devices.size()) {
    return MakeStatus(MESHVK_STATUS_OUT_OF_RANGE, "meshvk_instance_physical_device_info: physical device %u of %zu",
                      index, instance->physical_devices.size())
        .ToC();
  }
  Status checked = meshvk::CheckStructure(out_info, MESHVK_STRUCTURE_TYPE_PHYSICAL_DEVICE_INFO,
                                          "meshvk_instance_physical_device_info: out_info");
  if (!checked.ok()) return checked.ToC();
  meshvk::FillKeepingHeader(out_info, instance->physical_devices[index].info);
  return MESHVK_OK;
}

uint32_t meshvk_instance_device_group_count(const meshvk_instance_t* instance) {
  return instance ? static_cast<uint32_t>(instance->groups.size()) : 0;
}

meshvk_status_t meshvk_instance_device_group_info(meshvk_instance_t* instance, uint32_t index,
                                                  meshvk_device_group_info_t* out_info) {
  if (!instance) {
    return MakeStatus(MESHVK_STATUS_INVALID_ARGUMENT, "meshvk_instance_device_group_info: instance is NULL").ToC();
  }
  Status checked = meshvk::CheckStructure(out_info, MESHVK_STRUCTURE_TYPE_DEVICE_GROUP_INFO,
                                          "meshvk_instance_device_group_info: out_info");
  if (!checked.ok()) return checked.ToC();
  if (index >= instance->groups.size()) {
    return MakeStatus(MESHVK_STATUS_OUT_OF_RANGE, "meshvk_instance_device_group_info: device group %u of %zu", index,
                      instance->groups.size())
        .ToC();
  }
  const std::vector<uint32_t>& members = instance->groups[index];
  meshvk_device_group_info_t info = MESHVK_DEVICE_GROUP_INFO_INIT;
  info.device_count = static_cast<uint32_t>(members.size());
  for (uint32_t i = 0; i < members.size(); ++i) info.physical_devices[i] = members[i];
  info.subset_allocation = instance->group_subset_allocation[index];
  info.heap_count = std::min<uint32_t>(instance->physical_devices[members[0]].memory.memoryHeapCount, MESHVK_MAX_HEAPS);
  meshvk::FillKeepingHeader(out_info, info);
  return MESHVK_OK;
}

meshvk_status_t meshvk_instance_device_group_peer_features(meshvk_instance_t* instance, uint32_t index, uint32_t heap,
                                                           uint32_t local, uint32_t remote, uint32_t* out_features) {
  if (!instance || !out_features) {
    return MakeStatus(MESHVK_STATUS_INVALID_ARGUMENT,
                      "meshvk_instance_device_group_peer_features: instance or out_features is NULL")
        .ToC();
  }
  *out_features = 0;
  if (index >= instance->groups.size()) {
    return MakeStatus(MESHVK_STATUS_OUT_OF_RANGE, "meshvk_instance_device_group_peer_features: device group %u of %zu",
                      index, instance->groups.size())
        .ToC();
  }
  std::lock_guard<std::mutex> lock(instance->group_info_mutex);
  auto& cached = instance->group_peer_cache[index];
  if (!cached) {
    auto peers = std::make_unique<meshvk::GroupPeers>();
    Status status = meshvk::QueryGroupPeers(instance, index, peers.get());
    if (!status.ok()) return status.ToC();
    cached = std::move(peers);
  }
  if (heap >= cached->heap_count || local >= cached->device_count || remote >= cached->device_count) {
    return MakeStatus(MESHVK_STATUS_OUT_OF_RANGE,
                      "meshvk_instance_device_group_peer_features: heap %u, devices %u and %u of a group of %u "
                      "devices with %u heaps",
                      heap, local, remote, cached->device_count, cached->heap_count)
        .ToC();
  }
  *out_features = cached->at(heap, local, remote);
  return MESHVK_OK;
}

const char* meshvk_physical_device_type_name(uint32_t device_type) {
  switch (device_type) {
    case VK_PHYSICAL_DEVICE_TYPE_INTEGRATED_GPU:
      return "integrated-gpu";
    case VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU:
      return "discrete-gpu";
    case VK_PHYSICAL_DEVICE_TYPE_VIRTUAL_GPU:
      return "virtual-gpu";
    case VK_PHYSICAL_DEVICE_TYPE_CPU:
      return "cpu";
    default:
      return "other";
  }
}

}  // extern "C"

// Copy paths between devices (see copy_path.h).
#include "copy_path.h"

#include <cstring>

#include "base/structure.h"
#include "device_set.h"

namespace meshvk {
namespace {

constexpr VkBufferUsageFlags kShardUsage =
    VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_SRC_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT;

void QueryBufferHandle(VkPhysicalDevice device, VkExternalMemoryHandleTypeFlagBits type, bool* exportable,
                       bool* importable) {
  VkPhysicalDeviceExternalBufferInfo info{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_EXTERNAL_BUFFER_INFO};
  info.usage = kShardUsage;
  info.handleType = type;
  VkExternalBufferProperties props{VK_STRUCTURE_TYPE_EXTERNAL_BUFFER_PROPERTIES};
  vkGetPhysicalDeviceExternalBufferProperties(device, &info, &props);
  const VkExternalMemoryFeatureFlags features = props.externalMemoryProperties.externalMemoryFeatures;
  *exportable = features & VK_EXTERNAL_MEMORY_FEATURE_EXPORTABLE_BIT;
  *importable = features & VK_EXTERNAL_MEMORY_FEATURE_IMPORTABLE_BIT;
}

std::string Short(const meshvk_instance_t* instance, uint32_t physical) {
  return "device " + std::to_string(physical) + " ('" + instance->physical_devices[physical].properties.deviceName +
         "')";
}

}  // namespace

SharingCapabilities QuerySharing(const meshvk_instance_t* instance, uint32_t physical) {
  SharingCapabilities caps;
  VkPhysicalDevice device = instance->physical_devices[physical].handle;
  uint32_t count = 0;
  vkEnumerateDeviceExtensionProperties(device, nullptr, &count, nullptr);
  std::vector<VkExtensionProperties> extensions(count);
  if (count) vkEnumerateDeviceExtensionProperties(device, nullptr, &count, extensions.data());
  extensions.resize(count);
  for (const VkExtensionProperties& e : extensions) {
    if (!std::strcmp(e.extensionName, VK_KHR_EXTERNAL_MEMORY_FD_EXTENSION_NAME)) caps.memory_fd_extension = true;
    if (!std::strcmp(e.extensionName, VK_EXT_EXTERNAL_MEMORY_DMA_BUF_EXTENSION_NAME)) caps.dma_buf_extension = true;
    if (!std::strcmp(e.extensionName, VK_KHR_EXTERNAL_SEMAPHORE_FD_EXTENSION_NAME)) caps.semaphore_fd_extension = true;
    if (!std::strcmp(e.extensionName, VK_EXT_EXTERNAL_MEMORY_HOST_EXTENSION_NAME)) caps.memory_host_extension = true;
  }
  if (caps.memory_fd_extension) {
    QueryBufferHandle(device, VK_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD_BIT, &caps.opaque_fd_export,
                      &caps.opaque_fd_import);
  }
  if (caps.memory_fd_extension && caps.dma_buf_extension) {
    QueryBufferHandle(device, VK_EXTERNAL_MEMORY_HANDLE_TYPE_DMA_BUF_BIT_EXT, &caps.dma_buf_export,
                      &caps.dma_buf_import);
  }
  if (caps.memory_host_extension) {
    bool exportable = false;  // host allocations are imported, never exported
    QueryBufferHandle(device, VK_EXTERNAL_MEMORY_HANDLE_TYPE_HOST_ALLOCATION_BIT_EXT, &exportable,
                      &caps.host_allocation_import);
  }
  const VkPhysicalDeviceMemoryProperties& memory = instance->physical_devices[physical].memory;
  const VkMemoryPropertyFlags mappable = VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT;
  uint32_t device_local = 0, device_local_host = 0;
  for (uint32_t t = 0; t < memory.memoryTypeCount; ++t) {
    const VkMemoryPropertyFlags flags = memory.memoryTypes[t].propertyFlags;
    if (!(flags & VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT)) continue;
    ++device_local;
    if ((flags & mappable) == mappable) ++device_local_host;
  }
  caps.memory_is_host = device_local > 0 && device_local == device_local_host;
  if (caps.semaphore_fd_extension) {
    VkSemaphoreTypeCreateInfo type{VK_STRUCTURE_TYPE_SEMAPHORE_TYPE_CREATE_INFO};
    type.semaphoreType = VK_SEMAPHORE_TYPE_TIMELINE;
    VkPhysicalDeviceExternalSemaphoreInfo info{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_EXTERNAL_SEMAPHORE_INFO};
    info.pNext = &type;
    info.handleType = VK_EXTERNAL_SEMAPHORE_HANDLE_TYPE_OPAQUE_FD_BIT;
    VkExternalSemaphoreProperties props{VK_STRUCTURE_TYPE_EXTERNAL_SEMAPHORE_PROPERTIES};
    vkGetPhysicalDeviceExternalSemaphoreProperties(device, &info, &props);
    const VkExternalSemaphoreFeatureFlags both =
        VK_EXTERNAL_SEMAPHORE_FEATURE_EXPORTABLE_BIT | VK_EXTERNAL_SEMAPHORE_FEATURE_IMPORTABLE_BIT;
    caps.timeline_fd = (props.externalSemaphoreFeatures & both) == both;
  }
  VkPhysicalDeviceIDProperties ids{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_ID_PROPERTIES};
  VkPhysicalDeviceExternalMemoryHostPropertiesEXT host{
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_EXTERNAL_MEMORY_HOST_PROPERTIES_EXT};
  if (caps.memory_host_extension) ids.pNext = &host;
  VkPhysicalDeviceProperties2 props{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2};
  props.pNext = &ids;
  vkGetPhysicalDeviceProperties2(device, &props);
  caps.host_pointer_alignment = caps.memory_host_extension ? host.minImportedHostPointerAlignment : 0;
  std::memcpy(caps.device_uuid, ids.deviceUUID, VK_UUID_SIZE);
  std::memcpy(caps.driver_uuid, ids.driverUUID, VK_UUID_SIZE);
  return caps;
}

void SetReason(meshvk_copy_path_info_t* out, const std::string& text) {
  std::snprintf(out->reason, sizeof out->reason, "%s", text.c_str());
}

void ChoosePairPath(const meshvk_instance_t* instance, uint32_t src, uint32_t dst, meshvk_copy_path_info_t* out,
                    bool host_allocation) {
  *out = meshvk_copy_path_info_t{};
  if (src == dst) {
    out->path = MESHVK_COPY_PATH_SAME_DEVICE;
    SetReason(out, "the same physical device");
    return;
  }
  const SharingCapabilities from = QuerySharing(instance, src);
  const SharingCapabilities to = QuerySharing(instance, dst);
  const std::string a = Short(instance, src), b = Short(instance, dst);
  // Opaque fds are only valid between devices with the same deviceUUID and
  // driverUUID (the spec's rule for VK_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD_BIT
  // and for semaphores' opaque fds alike).
  const bool same_uuids = !std::memcmp(from.device_uuid, to.device_uuid, VK_UUID_SIZE) &&
                          !std::memcmp(from.driver_uuid, to.driver_uuid, VK_UUID_SIZE);
  out->external_semaphores = from.timeline_fd && to.timeline_fd && same_uuids;
  // Where both devices' memory is host memory, a shard the peer reads lives in
  // one host allocation both import: ordinary memory for both, where an
  // exported allocation may be slower (lavapipe backs it with a memfd).
  if (host_allocation && from.memory_is_host && to.memory_is_host && from.host_allocation_import &&
      to.host_allocation_import) {
    out->path = MESHVK_COPY_PATH_EXTERNAL_MEMORY;
    out->handle_type = VK_EXTERNAL_MEMORY_HANDLE_TYPE_HOST_ALLOCATION_BIT_EXT;
    SetReason(out, "host allocation: the memory of " + a + " and " + b +
                       " is host memory (every device-local type host-visible) and both import host pointers "
                       "(VK_EXT_external_memory_host)");
    return;
  }
  if (from.opaque_fd_export && to.opaque_fd_import && same_uuids) {
    out->path = MESHVK_COPY_PATH_EXTERNAL_MEMORY;
    out->handle_type = VK_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD_BIT;
    SetReason(out, "opaque fd: deviceUUID and driverUUID match, " + a + " exports and " + b + " imports it");
    return;
  }
  if (from.dma_buf_export && to.dma_buf_import) {
    out->path = MESHVK_COPY_PATH_EXTERNAL_MEMORY;
    out->handle_type = VK_EXTERNAL_MEMORY_HANDLE_TYPE_DMA_BUF_BIT_EXT;
    SetReason(out, "dma-buf: " + a + " exports and " + b + " imports it");
    return;
  }
  out->path = MESHVK_COPY_PATH_HOST_STAGING;
  std::string why;
  if (!from.memory_fd_extension) {
    why = a + " has no VK_KHR_external_memory_fd";
  } else if (!to.memory_fd_extension) {
    why = b + " has no VK_KHR_external_memory_fd";
  } else if (!from.opaque_fd_export || !to.opaque_fd_import) {
    why = "opaque fd is not exportable from " + a + " or not importable into " + b;
  } else {
    why = "deviceUUID/driverUUID differ (an opaque fd needs them equal)";
  }
  if (from.memory_fd_extension && to.memory_fd_extension && !(from.dma_buf_export && to.dma_buf_import))
    why += "; no dma-buf export/import between them";
  // Staging then goes through one host allocation both devices import, so
  // each device's copy engine moves the bytes (host_staging.cc,
  // CopyThroughSharedHostMemory); else the host copies between two rings.
  if (from.host_allocation_import && to.host_allocation_import && from.host_pointer_alignment &&
      to.host_pointer_alignment)
    why += "; staged through host memory both import (VK_EXT_external_memory_host): device copies, no host memcpy";
  else
    why += "; staged by host memcpy between the devices' staging buffers";
  SetReason(out, why);
}

namespace {

// The path between VkDevices `a` and `b` of `set`, from what their drivers
// report and what the set could enable on them.
meshvk_copy_path_info_t ChooseForDevices(const meshvk_device_set_t* set, size_t a, size_t b, bool host_allocation) {
  const LogicalDevice& src = *set->devices[a];
  const LogicalDevice& dst = *set->devices[b];
  meshvk_copy_path_info_t path = MESHVK_COPY_PATH_INFO_INIT;
  ChoosePairPath(set->instance, src.physical_indices[0], dst.physical_indices[0], &path, host_allocation);
  // Shared semaphores need the fd extension enabled on both VkDevices.
  path.external_semaphores = path.external_semaphores && src.external_semaphore_fd && dst.external_semaphore_fd;
  if (path.path != MESHVK_COPY_PATH_EXTERNAL_MEMORY) return path;
  if (path.handle_type == VK_EXTERNAL_MEMORY_HANDLE_TYPE_HOST_ALLOCATION_BIT_EXT) {
    // The VkDevices confirm it: their shard memory type takes host pointers.
    if (src.host_memory_shards && dst.host_memory_shards) return path;
    return ChooseForDevices(set, a, b, false);
  }
  if (!src.external_memory_fd || !dst.external_memory_fd) {
    path.path = MESHVK_COPY_PATH_HOST_STAGING;
    path.handle_type = 0;
    SetReason(&path, "VK_KHR_external_memory_fd could not be enabled on both VkDevices");
  }
  return path;
}

}  // namespace

void ChooseSetPairPaths(meshvk_device_set_t* set) {
  const size_t n = set->devices.size();
  set->pair_paths.assign(n * n, meshvk_copy_path_info_t{});
  auto at = [&](size_t a, size_t b) -> meshvk_copy_path_info_t& { return set->pair_paths[a * n + b]; };
  for (size_t a = 0; a < n; ++a)
    for (size_t b = 0; b < n; ++b)
      if (a != b) at(a, b) = ChooseForDevices(set, a, b, true);
  // A device exports one handle type: host allocations only when every reader
  // takes them (a host allocation cannot be exported as an fd).
  for (size_t a = 0; a < n; ++a) {
    bool other = false;
    for (size_t b = 0; b < n; ++b)
      other |= a != b && at(a, b).path == MESHVK_COPY_PATH_EXTERNAL_MEMORY &&
               at(a, b).handle_type != VK_EXTERNAL_MEMORY_HANDLE_TYPE_HOST_ALLOCATION_BIT_EXT;
    for (size_t b = 0; b < n && other; ++b)
      if (a != b && at(a, b).handle_type == VK_EXTERNAL_MEMORY_HANDLE_TYPE_HOST_ALLOCATION_BIT_EXT)
        at(a, b) = ChooseForDevices(set, a, b, false);
  }
  // Otherwise an opaque fd if any reader takes it.
  for (size_t a = 0; a < n; ++a) {
    LogicalDevice& src = *set->devices[a];
    for (size_t b = 0; b < n; ++b) {
      if (a == b || at(a, b).path != MESHVK_COPY_PATH_EXTERNAL_MEMORY) continue;
      if (src.export_handle_type != VK_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD_BIT)
        src.export_handle_type = at(a, b).handle_type;
    }
  }
  // Readers of one device must agree on its handle type: a pair whose
  // exporter settled on another type than the pair chose goes through the host.
  for (size_t a = 0; a < n; ++a) {
    for (size_t b = 0; b < n; ++b) {
      meshvk_copy_path_info_t& path = at(a, b);
      if (a != b && path.path == MESHVK_COPY_PATH_EXTERNAL_MEMORY &&
          path.handle_type != set->devices[a]->export_handle_type) {
        path.path = MESHVK_COPY_PATH_HOST_STAGING;
        path.handle_type = 0;
        SetReason(&path, "the source device exports another handle type to its other readers");
      }
    }
  }
}

std::vector<const char*> SharingExtensions(const SharingCapabilities& caps) {
  std::vector<const char*> out;
  if (caps.memory_fd_extension) out.push_back(VK_KHR_EXTERNAL_MEMORY_FD_EXTENSION_NAME);
  if (caps.memory_fd_extension && caps.dma_buf_extension) out.push_back(VK_EXT_EXTERNAL_MEMORY_DMA_BUF_EXTENSION_NAME);
  if (caps.memory_host_extension) out.push_back(VK_EXT_EXTERNAL_MEMORY_HOST_EXTENSION_NAME);
  if (caps.semaphore_fd_extension && caps.timeline_fd) out.push_back(VK_KHR_EXTERNAL_SEMAPHORE_FD_EXTENSION_NAME);
  return out;
}

}  // namespace meshvk

extern "C" {

const char* meshvk_copy_path_name(meshvk_copy_path_t path) {
  switch (path) {
    case MESHVK_COPY_PATH_SAME_DEVICE:
      return "same device";
    case MESHVK_COPY_PATH_GROUP_PEER:
      return "group peer memory";
    case MESHVK_COPY_PATH_EXTERNAL_MEMORY:
      return "external memory";
    case MESHVK_COPY_PATH_HOST_STAGING:
      return "host staging";
    default:
      return "none";
  }
}

meshvk_status_t meshvk_instance_copy_path(const meshvk_instance_t* instance, uint32_t src, uint32_t dst,
                                          meshvk_copy_path_info_t* out_info) {
  if (!instance) {
    return meshvk::MakeStatus(MESHVK_STATUS_INVALID_ARGUMENT, "meshvk_instance_copy_path: instance is NULL").ToC();
  }
  meshvk::Status checked =
      meshvk::CheckStructure(out_info, MESHVK_STRUCTURE_TYPE_COPY_PATH_INFO, "meshvk_instance_copy_path: out_info");
  if (!checked.ok()) return checked.ToC();
  meshvk::FillKeepingHeader(out_info, meshvk_copy_path_info_t{});
  const size_t n = instance->physical_devices.size();
  if (src >= n || dst >= n) {
    return meshvk::MakeStatus(MESHVK_STATUS_OUT_OF_RANGE, "meshvk_instance_copy_path: devices %u -> %u, there are %zu",
                              src, dst, n)
        .ToC();
  }
  meshvk_copy_path_info_t path = MESHVK_COPY_PATH_INFO_INIT;
  meshvk::ChoosePairPath(instance, src, dst, &path);
  meshvk::FillKeepingHeader(out_info, path);
  return MESHVK_OK;
}

meshvk_status_t meshvk_device_set_copy_path(const meshvk_device_set_t* set, uint32_t src, uint32_t dst,
                                            meshvk_copy_path_info_t* out_info) {
  if (!set) {
    return meshvk::MakeStatus(MESHVK_STATUS_INVALID_ARGUMENT, "meshvk_device_set_copy_path: set is NULL").ToC();
  }
  meshvk::Status checked =
      meshvk::CheckStructure(out_info, MESHVK_STRUCTURE_TYPE_COPY_PATH_INFO, "meshvk_device_set_copy_path: out_info");
  if (!checked.ok()) return checked.ToC();
  meshvk::FillKeepingHeader(out_info, meshvk_copy_path_info_t{});
  for (uint32_t p : {src, dst}) {
    meshvk::Status status = set->CheckProcess(p, "meshvk_device_set_copy_path");
    if (!status.ok()) return status.ToC();
  }
  meshvk::FillKeepingHeader(out_info, set->CopyPath(src, dst));
  return MESHVK_OK;
}

}  // extern "C"

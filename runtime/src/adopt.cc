// meshvk/vulkan.h: running on an application's Vulkan objects. Imported
// objects go into the same internal structures as created ones, marked as not
// owned, so every other part of the runtime treats them alike; only creation,
// destruction and idle-waits differ (owns_instance, owns_device, imported).
#include <algorithm>
#include <map>
#include <memory>
#include <string>

#include "api_version.h"
#include "base/structure.h"
#include "buffer.h"
#include "copy_path.h"
#include "device_set.h"
#include "instance.h"
#include "meshvk/vulkan.h"
#include "semaphore.h"
#include "vulkan/loader.h"
#include "vulkan/vk_status.h"

namespace meshvk {
namespace {

Status AdoptInstance(const meshvk_instance_import_info_t& info, meshvk_instance_t* out) {
  if (!info.instance) {
    return MakeStatus(MESHVK_STATUS_INVALID_ARGUMENT, "meshvk_instance_import: instance is NULL");
  }
  if (info.api_version < VK_API_VERSION_1_2) {
    return MakeStatus(MESHVK_STATUS_UNAVAILABLE,
                      "meshvk_instance_import: the instance speaks Vulkan %u.%u, meshvk "
                      "needs 1.2 (meshvk_vulkan_requirements)",
                      VK_API_VERSION_MAJOR(info.api_version), VK_API_VERSION_MINOR(info.api_version));
  }
  // volk's global entry points: the system loader unless the application
  // brings its own vkGetInstanceProcAddr (and no loader is loaded yet).
  Status loaded = LoadVulkanLoader();
  if (!loaded.ok()) {
    if (!info.get_instance_proc_addr) return loaded;
    volkInitializeCustom(info.get_instance_proc_addr);
  }
  out->instance = info.instance;
  out->owns_instance = false;
  out->api_version = std::min<uint32_t>(info.api_version, VK_API_VERSION_1_3);
  LoadInstanceFunctions(out->instance);
  return DiscoverDevices(out);
}

// Index of `handle` among the instance's physical devices, or UINT32_MAX.
uint32_t PhysicalIndex(const meshvk_instance_t* instance, VkPhysicalDevice handle) {
  for (uint32_t i = 0; i < instance->physical_devices.size(); ++i) {
    if (instance->physical_devices[i].handle == handle) return i;
  }
  return UINT32_MAX;
}

Status AdoptDevice(meshvk_device_set_t* set, const meshvk_imported_device_t& app, uint32_t index,
                   const meshvk_queue_lock_t& queue_lock, LogicalDevice* out) {
  const std::string what = "meshvk_device_set_import: devices[" + std::to_string(index) + "]";
  if (!app.device || !app.physical_devices || app.physical_device_count == 0 || !app.queues || app.queue_count == 0) {
    return MakeStatus(MESHVK_STATUS_INVALID_ARGUMENT, "%s: device, physical_devices and queues must be given",
                      what.c_str());
  }
  for (uint32_t m = 0; m < app.physical_device_count; ++m) {
    uint32_t physical = PhysicalIndex(set->instance, app.physical_devices[m]);
    if (physical == UINT32_MAX) {
      return MakeStatus(MESHVK_STATUS_INVALID_ARGUMENT,
                        "%s: physical_devices[%u] is not a physical device of the instance", what.c_str(), m);
    }
    out->physical_indices.push_back(physical);
  }
  out->physical = &set->instance->physical_devices[out->physical_indices[0]];
  const PhysicalDevice& physical = *out->physical;
  out->api_version = std::min({set->instance->api_version, physical.properties.apiVersion, app.api_version});
  if (out->api_version < VK_API_VERSION_1_2) {
    return MakeStatus(MESHVK_STATUS_UNAVAILABLE, "%s: api_version below 1.2 (meshvk needs timeline semaphores)",
                      what.c_str());
  }
  if (app.queue_family >= physical.queue_families.size() ||
      !(physical.queue_families[app.queue_family].queueFlags & VK_QUEUE_COMPUTE_BIT)) {
    return MakeStatus(MESHVK_STATUS_UNAVAILABLE, "%s: queue family %u has no compute queues", what.c_str(),
                      app.queue_family);
  }
  for (uint32_t q = 0; q < app.queue_count; ++q) {
    if (!app.queues[q]) return MakeStatus(MESHVK_STATUS_INVALID_ARGUMENT, "%s: queues[%u] is NULL", what.c_str(), q);
  }
  out->device = app.device;
  out->owns_device = false;
  out->app_queue_lock = queue_lock;
  out->queue_family = app.queue_family;
  out->queues.assign(app.queues, app.queues + app.queue_count);
  LoadDeviceTable(out->device, &out->vk);
  return SetUpLogicalDevice(set, out);
}

Status AdoptSet(const meshvk_device_set_import_info_t& info, meshvk_device_set_t* set) {
  const char* what = "meshvk_device_set_import";
  if (info.process_count == 0 || !info.devices || info.device_count == 0) {
    return MakeStatus(MESHVK_STATUS_INVALID_ARGUMENT, "%s: process_count and devices must be >= 1", what);
  }
  if (!info.queue_lock.lock != !info.queue_lock.unlock) {
    return MakeStatus(MESHVK_STATUS_INVALID_ARGUMENT, "%s: queue_lock needs both lock and unlock (or neither)", what);
  }
  bool group = info.device_count == 1 && info.devices[0].physical_device_count > 1;
  for (uint32_t d = 0; d < info.device_count && info.device_count > 1; ++d) {
    if (info.devices[d].physical_device_count > 1) {
      return MakeStatus(MESHVK_STATUS_INVALID_ARGUMENT,
                        "%s: devices[%u] spans a device group; a group must be the only device", what, d);
    }
  }
  set->topology = group ? MESHVK_TOPOLOGY_DEVICE_GROUP : MESHVK_TOPOLOGY_LOGICAL;
  set->processes.resize(info.process_count);
  set->allocated_bytes.reset(new std::atomic<uint64_t>[info.process_count]);
  for (uint32_t p = 0; p < info.process_count; ++p) set->allocated_bytes[p] = 0;
  for (uint32_t d = 0; d < info.device_count; ++d) {
    auto device = std::make_unique<LogicalDevice>();
    Status status = AdoptDevice(set, info.devices[d], d, info.queue_lock, device.get());
    set->devices.push_back(std::move(device));
    MESHVK_RETURN_IF_ERROR(status);
  }
  std::vector<uint32_t> users(info.device_count, 0);  // processes per device so far
  for (uint32_t p = 0; p < info.process_count; ++p) {
    uint32_t d = info.process_devices ? info.process_devices[p] : p % info.device_count;
    if (d >= info.device_count) {
      return MakeStatus(MESHVK_STATUS_INVALID_ARGUMENT, "%s: process %u mapped to device %u, there are %u", what, p, d,
                        info.device_count);
    }
    const LogicalDevice& device = *set->devices[d];
    Process& process = set->processes[p];
    process.logical_device = d;
    process.device_index = group ? p % device.group_size() : 0;
    process.physical_device = device.physical_indices[process.device_index];
    process.queue_index = users[d]++ % static_cast<uint32_t>(device.queues.size());
  }
  // Between adopted VkDevices: through host staging. meshvk cannot ask a
  // VkDevice which extensions it was created with, so it never assumes
  // VK_KHR_external_memory_fd there.
  const size_t n = set->devices.size();
  set->pair_paths.assign(n * n, meshvk_copy_path_info_t{});
  for (size_t a = 0; a < n; ++a) {
    for (size_t b = 0; b < n; ++b) {
      if (a == b) continue;
      meshvk_copy_path_info_t& path = set->pair_paths[a * n + b];
      path.path = MESHVK_COPY_PATH_HOST_STAGING;
      SetReason(&path, "adopted VkDevices: meshvk does not know whether the application enabled external memory");
    }
  }
  return Status();
}

}  // namespace
}  // namespace meshvk

using meshvk::MakeStatus;
using meshvk::Status;

extern "C" {

meshvk_status_t meshvk_instance_import(const meshvk_instance_import_info_t* info, meshvk_instance_t** out_instance) {
  if (!out_instance) {
    return MakeStatus(MESHVK_STATUS_INVALID_ARGUMENT, "meshvk_instance_import: out_instance is NULL").ToC();
  }
  *out_instance = nullptr;
  Status checked =
      meshvk::CheckStructure(info, MESHVK_STRUCTURE_TYPE_INSTANCE_IMPORT_INFO, "meshvk_instance_import: info");
  if (checked.ok()) checked = meshvk::CheckHeaderVersion(info->meshvk_api_version, "meshvk_instance_import");
  if (!checked.ok()) return checked.ToC();
  auto instance = std::make_unique<meshvk_instance_t>();
  Status status = meshvk::AdoptInstance(*info, instance.get());
  if (!status.ok()) {
    meshvk_instance_release(instance.release());
    return status.ToC();
  }
  *out_instance = instance.release();
  return MESHVK_OK;
}

VkInstance meshvk_instance_vk_instance(const meshvk_instance_t* instance) {
  return instance ? instance->instance : VK_NULL_HANDLE;
}

meshvk_status_t meshvk_vulkan_requirements(meshvk_topology_t topology, const meshvk_shader_features_t* shader_features,
                                           meshvk_vulkan_requirements_t* out) {
  Status checked =
      meshvk::CheckStructure(out, MESHVK_STRUCTURE_TYPE_VULKAN_REQUIREMENTS, "meshvk_vulkan_requirements: out");
  if (checked.ok() && shader_features)
    checked = meshvk::CheckStructure(shader_features, MESHVK_STRUCTURE_TYPE_SHADER_FEATURES,
                                     "meshvk_vulkan_requirements: shader_features");
  if (!checked.ok()) return checked.ToC();
  if (topology != MESHVK_TOPOLOGY_AUTO && topology != MESHVK_TOPOLOGY_LOGICAL &&
      topology != MESHVK_TOPOLOGY_DEVICE_GROUP) {
    return MakeStatus(MESHVK_STATUS_INVALID_ARGUMENT, "meshvk_vulkan_requirements: unknown topology %d",
                      static_cast<int>(topology))
        .ToC();
  }
  meshvk_vulkan_requirements_t requirements = MESHVK_VULKAN_REQUIREMENTS_INIT;
  // Device groups (and vkCmdDispatchBase, device masks) are core in 1.1, timeline
  // semaphores in 1.2: no extension is needed on either topology.
  requirements.api_version = VK_API_VERSION_1_2;
  requirements.timeline_semaphore = 1;
  requirements.queue_flags = VK_QUEUE_COMPUTE_BIT | VK_QUEUE_TRANSFER_BIT;
  requirements.shader.type = MESHVK_STRUCTURE_TYPE_SHADER_FEATURES;
  if (shader_features) meshvk::FillKeepingHeader(&requirements.shader, *shader_features);
  meshvk::FillKeepingHeader(out, requirements);
  return MESHVK_OK;
}

meshvk_status_t meshvk_device_set_import(meshvk_instance_t* instance, const meshvk_device_set_import_info_t* info,
                                         meshvk_device_set_t** out_set) {
  if (!out_set || !instance) {
    return MakeStatus(MESHVK_STATUS_INVALID_ARGUMENT, "meshvk_device_set_import: instance or out_set is NULL").ToC();
  }
  *out_set = nullptr;
  Status status =
      meshvk::CheckStructure(info, MESHVK_STRUCTURE_TYPE_DEVICE_SET_IMPORT_INFO, "meshvk_device_set_import: info");
  if (!status.ok()) return status.ToC();
  auto* set = new meshvk_device_set_t();
  meshvk_instance_retain(instance);
  set->instance = instance;
  status = meshvk::TakeChainedOptions(info, set);
  if (status.ok()) status = meshvk::AdoptSet(*info, set);
  if (!status.ok()) {
    meshvk::DestroySet(set);
    return status.ToC();
  }
  meshvk::ApplyDeviceTimeout(set);
  *out_set = set;
  return MESHVK_OK;
}

meshvk_status_t meshvk_device_set_process_vulkan(const meshvk_device_set_t* set, uint32_t process,
                                                 meshvk_process_vulkan_t* out) {
  if (!set) {
    return MakeStatus(MESHVK_STATUS_INVALID_ARGUMENT, "meshvk_device_set_process_vulkan: set is NULL").ToC();
  }
  Status status =
      meshvk::CheckStructure(out, MESHVK_STRUCTURE_TYPE_PROCESS_VULKAN, "meshvk_device_set_process_vulkan: out");
  if (status.ok()) status = set->CheckProcess(process, "meshvk_device_set_process_vulkan");
  if (!status.ok()) return status.ToC();
  const meshvk::Process& p = set->processes[process];
  const meshvk::LogicalDevice& device = *set->devices[p.logical_device];
  meshvk_process_vulkan_t handles = MESHVK_PROCESS_VULKAN_INIT;
  handles.physical_device = set->instance->physical_devices[p.physical_device].handle;
  handles.device = device.device;
  handles.queue = device.queues[p.queue_index];
  handles.queue_family = device.queue_family;
  handles.device_mask = 1u << p.device_index;
  meshvk::FillKeepingHeader(out, handles);
  return MESHVK_OK;
}

meshvk_status_t meshvk_buffer_import(meshvk_device_set_t* set, const meshvk_buffer_import_info_t* info,
                                     meshvk_buffer_t** out_buffer) {
  const char* what = "meshvk_buffer_import";
  if (out_buffer) *out_buffer = nullptr;
  Status status = meshvk::CheckStructure(info, MESHVK_STRUCTURE_TYPE_BUFFER_IMPORT_INFO, "meshvk_buffer_import: info");
  if (!status.ok()) return status.ToC();
  const uint32_t process = info->process;
  const VkBuffer buffer = info->buffer;
  const VkDeviceSize offset = info->offset, range = info->range;
  status = meshvk::CheckProcessCreate(set, process, out_buffer, what, "out_buffer");
  if (!status.ok()) return status.ToC();
  if (!buffer || range == 0) {
    return MakeStatus(MESHVK_STATUS_INVALID_ARGUMENT, "%s: buffer is NULL or range is 0", what).ToC();
  }
  const VkPhysicalDeviceLimits& limits = set->DeviceOf(process).physical->properties.limits;
  if (offset % limits.minStorageBufferOffsetAlignment != 0) {
    return MakeStatus(MESHVK_STATUS_INVALID_ARGUMENT, "%s: offset %llu is not a multiple of %llu", what,
                      static_cast<unsigned long long>(offset),
                      static_cast<unsigned long long>(limits.minStorageBufferOffsetAlignment))
        .ToC();
  }
  auto* imported = new meshvk_buffer_t();
  meshvk_device_set_retain(set);
  imported->set = set;
  imported->process = process;
  imported->size = range;
  imported->allocation_size = 0;  // the application's memory
  imported->buffer = buffer;
  imported->imported = true;
  imported->base_offset = offset;
  *out_buffer = imported;
  return MESHVK_OK;
}

VkBuffer meshvk_buffer_vk_buffer(const meshvk_buffer_t* buffer, VkDeviceSize* out_offset) {
  if (out_offset) *out_offset = buffer ? buffer->base_offset : 0;
  return buffer ? buffer->buffer : VK_NULL_HANDLE;
}

meshvk_status_t meshvk_semaphore_import(meshvk_device_set_t* set, uint32_t process, VkSemaphore semaphore,
                                        meshvk_semaphore_t** out_semaphore) {
  const char* what = "meshvk_semaphore_import";
  Status status = meshvk::CheckProcessCreate(set, process, out_semaphore, what, "out_semaphore");
  if (!status.ok()) return status.ToC();
  if (!semaphore) return MakeStatus(MESHVK_STATUS_INVALID_ARGUMENT, "%s: semaphore is NULL", what).ToC();
  auto* imported = new meshvk_semaphore_t();
  meshvk_device_set_retain(set);
  imported->set = set;
  imported->process = process;
  imported->semaphore = semaphore;
  imported->imported = true;
  *out_semaphore = imported;
  return MESHVK_OK;
}

VkSemaphore meshvk_semaphore_vk_semaphore(const meshvk_semaphore_t* semaphore) {
  return semaphore ? semaphore->semaphore : VK_NULL_HANDLE;
}

}  // extern "C"

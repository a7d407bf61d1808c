// Copy paths and process names (see copy_path.h).
#include "copy_path.h"

namespace meshvk_run {

std::string CopyPathName(const meshvk_device_set_t* set, uint32_t src, uint32_t dst) {
  if (src == dst) return "local";
  // The runtime decides the path (meshvk_device_set_copy_path): one source of truth.
  meshvk_copy_path_info_t info = MESHVK_COPY_PATH_INFO_INIT;
  if (meshvk_status_t status = meshvk_device_set_copy_path(set, src, dst, &info)) {
    meshvk_status_free(status);
    return "unknown";
  }
  return meshvk_copy_path_name(info.path);
}

std::string ProcessTrackName(meshvk_instance_t* instance, const meshvk_device_set_t* set, uint32_t process) {
  std::string name = "process " + std::to_string(process);
  meshvk_process_info_t info = MESHVK_PROCESS_INFO_INIT;
  if (meshvk_status_t status = meshvk_device_set_process_info(set, process, &info)) {
    meshvk_status_free(status);
    return name;
  }
  meshvk_physical_device_info_t device = MESHVK_PHYSICAL_DEVICE_INFO_INIT;
  std::string device_name = "physical device " + std::to_string(info.physical_device);
  if (instance) {
    if (meshvk_status_t status = meshvk_instance_physical_device_info(instance, info.physical_device, &device))
      meshvk_status_free(status);
    else
      device_name = device.name;
  }
  return name + " (" + device_name + ", VkDevice " + std::to_string(info.logical_device) + ", device index " +
         std::to_string(info.device_index) + ")";
}

}  // namespace meshvk_run

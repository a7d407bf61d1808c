// Sizing a dynamic grid in mesh-vk-run (see grid_variant.h).
#include "grid_variant.h"

#include <cstdio>
#include <memory>

#include "device_flags.h"
#include "meshvk/meshvk.h"
#include "meshvk_environment.h"
#include "status_text.h"

namespace meshvk_run {
namespace {

// The device count of group `group`, from a short-lived instance: the run's
// own instance is created later, after every input is checked. Without
// Vulkan the count is 0 and no error: that instance then reports it (exit 3).
std::string GroupDeviceCount(uint32_t group, uint32_t* count) {
  *count = 0;
  meshvk_instance_t* instance = nullptr;
  if (meshvk_status_t status = meshvk_environment_create_instance(&instance)) {
    meshvk_status_free(status);
    return "";
  }
  const uint32_t groups = meshvk_instance_device_group_count(instance);
  std::string error;
  if (group < groups) {
    meshvk_device_group_info_t info = MESHVK_DEVICE_GROUP_INFO_INIT;
    if (meshvk_status_t status = meshvk_instance_device_group_info(instance, group, &info)) {
      error = StatusText(status);
      meshvk_status_free(status);
    } else {
      *count = info.device_count;
    }
  } else {
    error = MachineHas(groups, "device group");
  }
  meshvk_instance_release(instance);
  return error.empty() ? "" : "--devices=group:" + std::to_string(group) + ": " + error;
}

}  // namespace

std::string DynamicGridProcesses(const DeviceChoice& devices, uint32_t rank_count, uint32_t* processes,
                                 std::string* source) {
  *processes = 0;
  *source = "";
  if (devices.processes != 0) {
    *source = "--devices=" + std::to_string(devices.processes);
    *processes = devices.processes;
  } else if (!devices.physical_devices.empty()) {
    std::string list;
    for (uint32_t d : devices.physical_devices) list += (list.empty() ? "" : ",") + std::to_string(d);
    *source = "--devices=" + list + " (" + std::to_string(devices.physical_devices.size()) + " devices)";
    *processes = static_cast<uint32_t>(devices.physical_devices.size());
  } else if (devices.group >= 0) {
    const auto group = static_cast<uint32_t>(devices.group);
    if (std::string error = GroupDeviceCount(group, processes); !error.empty()) return error;
    *source = "--devices=group:" + std::to_string(group) + " (" + std::to_string(*processes) + " devices)";
  } else if (rank_count > 0) {
    *source = std::to_string(rank_count) + " MPI ranks";
    *processes = rank_count;
  }
  return "";
}

std::string SelectGridVariant(const std::string& path, const DeviceChoice& devices, uint32_t rank_count,
                              bool print_plan, meshvk_module_t** module) {
  const uint32_t plans = meshvk_module_variant_count(*module);
  if (plans == 0) return "";
  std::string held;
  for (uint32_t i = 0; i < plans; ++i)
    held +=
        (i ? (i + 1 == plans ? " and " : ", ") : "") + std::to_string(meshvk_module_variant_process_count(*module, i));
  std::string source;
  uint32_t processes = 0;
  if (std::string error = DynamicGridProcesses(devices, rank_count, &processes, &source); !error.empty()) return error;
  if (processes == 0)
    return path + ": a dynamic grid with plans for " + held +
           " processes: choose one with --devices=N (or list the devices to run on)";
  meshvk_module_t* plan = nullptr;
  if (meshvk_status_t status = meshvk_module_select_process_count(*module, processes, &plan)) {
    meshvk_status_free(status);
    return source + ": " + path + " has no plan for " + std::to_string(processes) + " processes (it holds plans for " +
           held + " processes; recompile with mesh-vk-compile --grid-sizes to add one)";
  }
  meshvk_module_release(*module);
  *module = plan;
  if (print_plan) {
    std::printf("dynamic grid: running the plan for %u processes (%s) of %s, which holds plans for %s processes\n",
                processes, source.c_str(), path.c_str(), held.c_str());
    std::fflush(stdout);
  }
  return "";
}

}  // namespace meshvk_run

// Sizing a dynamic grid in mesh-vk-run (see grid_variant.h).
#include "grid_variant.h"

#include <cstdio>

namespace meshvk_run {

uint32_t DynamicGridProcesses(const DeviceChoice& devices, uint32_t rank_count, std::string* source) {
  if (devices.processes != 0) {
    *source = "--devices=" + std::to_string(devices.processes);
    return devices.processes;
  }
  if (!devices.physical_devices.empty()) {
    std::string list;
    for (uint32_t d : devices.physical_devices) list += (list.empty() ? "" : ",") + std::to_string(d);
    *source = "--devices=" + list + " (" + std::to_string(devices.physical_devices.size()) + " devices)";
    return static_cast<uint32_t>(devices.physical_devices.size());
  }
  if (rank_count > 0) {
    *source = std::to_string(rank_count) + " MPI ranks";
    return rank_count;
  }
  *source = "";
  return 0;
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
  uint32_t processes = DynamicGridProcesses(devices, rank_count, &source);
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

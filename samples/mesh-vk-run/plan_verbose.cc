// mesh-vk-run's -v/-vv lines about the plan and the device set (plan_verbose.h).
#include "plan_verbose.h"

#include <map>
#include <string>
#include <utility>

#include "copy_path.h"
#include "meshvk/trace.h"
#include "plan_graph.h"
#include "plan_print.h"
#include "verbose.h"

namespace meshvk_run {

// -v: the device of each process and the copies by path; -vv: each
// dispatch's kernel and workgroup count.
void ReportPlanDecisions(const meshvk_module_t* module, uint32_t function, const meshvk_device_set_t* set,
                         uint32_t process_count) {
  if (Verbosity() < 1) return;
  Verbose(1, "device set: %s, %u processes, %u phases", TopologyText(meshvk_device_set_topology(set)), process_count,
          meshvk_module_function_phase_count(module, function));
  for (uint32_t p = 0; p < process_count; ++p) {
    meshvk_process_info_t info = MESHVK_PROCESS_INFO_INIT;
    if (meshvk_status_t status = meshvk_device_set_process_info(set, p, &info)) {
      meshvk_status_free(status);
      continue;
    }
    Verbose(1, "process %u: physical device %u, VkDevice %u, device index %u, queue family %u queue %u", p,
            info.physical_device, info.logical_device, info.device_index, info.queue_family, info.queue_index);
  }
  std::map<std::string, std::pair<uint32_t, uint64_t>> paths;  // path -> (copies, bytes)
  for (uint32_t p = 0; p < process_count; ++p) {
    for (uint32_t c = 0; c < meshvk_module_command_count(module, function, p); ++c) {
      meshvk_command_info_t info = MESHVK_COMMAND_INFO_INIT;
      if (meshvk_status_t status = meshvk_module_command_info(module, function, p, c, &info)) {
        meshvk_status_free(status);
        continue;
      }
      if (info.kind == MESHVK_TRACE_COPY) {
        auto& entry = paths[CopyPathName(set, info.peer, p)];
        ++entry.first;
        entry.second += info.bytes;
      } else if (info.kind == MESHVK_TRACE_DISPATCH) {
        Verbose(2, "process %u command %u: %s, %ux%ux%u workgroups, phase %u, %llu bytes bound, %llu FLOP", p, c,
                KernelName(info.name, info.executable).c_str(), info.workgroup_count[0], info.workgroup_count[1],
                info.workgroup_count[2], info.phase, static_cast<unsigned long long>(info.bytes),
                static_cast<unsigned long long>(info.flops));
      }
    }
  }
  for (const auto& [name, entry] : paths)
    Verbose(1, "copies by path: %s: %u copies, %llu bytes", name.c_str(), entry.first,
            static_cast<unsigned long long>(entry.second));
}

// -vv: the path between every two processes on different VkDevices, and why.
void ReportCopyPaths(const meshvk_device_set_t* set, uint32_t process_count) {
  if (Verbosity() < 2) return;
  for (uint32_t p = 0; p < process_count; ++p) {
    for (uint32_t q = 0; q < process_count; ++q) {
      meshvk_copy_path_info_t path = MESHVK_COPY_PATH_INFO_INIT;
      if (p == q || meshvk_device_set_copy_path(set, q, p, &path) != MESHVK_OK) continue;
      if (path.path == MESHVK_COPY_PATH_EXTERNAL_MEMORY || path.path == MESHVK_COPY_PATH_HOST_STAGING)
        Verbose(2, "copies %u -> %u: %s: %s; sync: %s", q, p, meshvk_copy_path_name(path.path), path.reason,
                path.external_semaphores && path.path == MESHVK_COPY_PATH_EXTERNAL_MEMORY
                    ? "device waits (shared timeline semaphore)"
                    : "host waits");
    }
  }
}

}  // namespace meshvk_run

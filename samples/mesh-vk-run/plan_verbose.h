// mesh-vk-run's -v/-vv lines about the plan and the device set: which device
// runs each process, the copies by path, each dispatch, and the path between
// every two processes on different VkDevices. Both print nothing below
// their verbosity level.
#ifndef MESHVK_SAMPLES_MESH_VK_RUN_PLAN_VERBOSE_H_
#define MESHVK_SAMPLES_MESH_VK_RUN_PLAN_VERBOSE_H_

#include <cstdint>

#include "meshvk/device_set.h"
#include "meshvk/module.h"

namespace meshvk_run {

// -v: the device of each process and the copies by path; -vv: each
// dispatch's kernel and workgroup count.
void ReportPlanDecisions(const meshvk_module_t* module, uint32_t function, const meshvk_device_set_t* set,
                         uint32_t process_count);
// -vv: the path between every two processes on different VkDevices, and why.
void ReportCopyPaths(const meshvk_device_set_t* set, uint32_t process_count);

}  // namespace meshvk_run

#endif  // MESHVK_SAMPLES_MESH_VK_RUN_PLAN_VERBOSE_H_

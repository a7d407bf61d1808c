// Words for where a process runs and which path a copy between two processes
// takes on a device set, shared by --trace and --plan-graph.
#ifndef MESHVK_SAMPLES_MESH_VK_RUN_COPY_PATH_H_
#define MESHVK_SAMPLES_MESH_VK_RUN_COPY_PATH_H_

#include <cstdint>
#include <string>

#include "meshvk/device_set.h"
#include "meshvk/instance.h"

namespace meshvk_run {

// "local" (one process), "same device" (two processes on one device of one
// VkDevice), "group peer" (two devices of a device group), "cross VkDevice"
// (external memory or host staging between VkDevices).
std::string CopyPathName(const meshvk_device_set_t* set, uint32_t src, uint32_t dst);
// "process 1 (llvmpipe ..., VkDevice 0, device index 0)".
std::string ProcessTrackName(meshvk_instance_t* instance, const meshvk_device_set_t* set, uint32_t process);

}  // namespace meshvk_run

#endif  // MESHVK_SAMPLES_MESH_VK_RUN_COPY_PATH_H_

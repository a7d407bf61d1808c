// mesh-vk-run --list-devices: what Vulkan shows meshvk on this machine.
#ifndef MESHVK_SAMPLES_MESH_VK_RUN_LIST_DEVICES_H_
#define MESHVK_SAMPLES_MESH_VK_RUN_LIST_DEVICES_H_

#include <cstdio>

#include "meshvk/instance.h"

namespace meshvk_run {

// Prints physical devices (limits, queue families, heaps), device groups and
// each group's peer-memory feature matrix to `out`. Returns the first error.
meshvk_status_t ListDevices(meshvk_instance_t* instance, FILE* out);

}  // namespace meshvk_run

#endif  // MESHVK_SAMPLES_MESH_VK_RUN_LIST_DEVICES_H_

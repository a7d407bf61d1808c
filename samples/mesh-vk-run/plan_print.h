// --print-plan: per process its device, bytes allocated by kind, dispatches,
// copies and bytes copied in from peers (of `function`); then the totals.
#ifndef MESHVK_SAMPLES_MESH_VK_RUN_PLAN_PRINT_H_
#define MESHVK_SAMPLES_MESH_VK_RUN_PLAN_PRINT_H_

#include <cstdio>

#include "meshvk/module.h"

namespace meshvk_run {

// "device group", "logical devices", "independent devices": how a set's
// topology reads in mesh-vk-run's output.
const char* TopologyText(meshvk_topology_t topology);

// `set` and `instance` may be NULL (then devices are not named); with
// `program` (may be NULL) each process also gets the bytes that arrive by each
// copy path (same device, group peer memory, external memory, host staging)
// and the staging memory its device holds.
void PrintPlan(FILE* out, const meshvk_module_t* module, uint32_t function, const meshvk_instance_t* instance,
               const meshvk_device_set_t* set, const meshvk_program_t* program = nullptr);

}  // namespace meshvk_run

#endif  // MESHVK_SAMPLES_MESH_VK_RUN_PLAN_PRINT_H_

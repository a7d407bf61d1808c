// --print-plan: per process its device, bytes allocated by kind, dispatches,
// copies and bytes copied in from peers (of `function`); then the totals.
#ifndef MESHVK_SAMPLES_MESH_VK_RUN_PLAN_PRINT_H_
#define MESHVK_SAMPLES_MESH_VK_RUN_PLAN_PRINT_H_

#include <cstdio>

#include "meshvk/module.h"

namespace meshvk_run {

// `set` and `instance` may be NULL (then devices are not named).
void PrintPlan(FILE* out, const meshvk_module_t* module, uint32_t function, const meshvk_instance_t* instance,
               const meshvk_device_set_t* set);

}  // namespace meshvk_run

#endif  // MESHVK_SAMPLES_MESH_VK_RUN_PLAN_PRINT_H_

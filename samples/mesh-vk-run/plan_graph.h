// --plan-graph=FILE.dot (mesh-vk-run and mesh-vk-compile): the plan of one
// function as a Graphviz picture. Each process is a cluster, each of its
// phases a cluster inside it; dispatches (by kernel name) and fills are
// nodes; every planned copy is ONE edge (class="copy") from the command that
// produced its bytes (or the process's inputs) to the first command that
// consumes them (or the process's results), labelled with its bytes and the
// path it takes. Render with `dot -Tsvg FILE.dot -o plan.svg`.
//
// Written from the loaded module (public API only), so both tools share it:
// mesh-vk-compile loads the artifact it just emitted; mesh-vk-run passes its
// device set so copy paths name the real topology.
#ifndef MESHVK_SAMPLES_MESH_VK_RUN_PLAN_GRAPH_H_
#define MESHVK_SAMPLES_MESH_VK_RUN_PLAN_GRAPH_H_

#include <cstdint>
#include <string>

#include "meshvk/meshvk.h"
#include "meshvk/module.h"

namespace meshvk_run {

// Where a copy's bytes come from and go to, in the plan's own terms: the
// producer is the copy's dependency on the source process (the artifact's
// deps) or, for a local copy, the previous non-copy command of its stream;
// the consumer is the next non-copy command after it in the destination
// process's stream (streams run in order). {UINT32_MAX, 0}: none (the
// process's inputs / results). Copies feeding copies are walked through.
struct CommandRef {
  uint32_t process = UINT32_MAX;
  uint32_t command = 0;
  bool valid() const { return process != UINT32_MAX; }
};
void FindCopyEnds(const meshvk_module_t* module, uint32_t function, uint32_t process, uint32_t command,
                  CommandRef* producer, CommandRef* consumer);
// "kernel_3" (or the entry point when it is not "main").
std::string KernelName(const char* entry_point, uint32_t executable);

// `set` may be NULL (no devices): copies are then "local" or "peer".
std::string PlanGraphDot(const meshvk_module_t* module, uint32_t function, const meshvk_device_set_t* set);

// Writes the DOT text to `path` (one line in *error on failure).
bool WritePlanGraph(const std::string& path, const meshvk_module_t* module, uint32_t function,
                    const meshvk_device_set_t* set, std::string* error);

}  // namespace meshvk_run

#endif  // MESHVK_SAMPLES_MESH_VK_RUN_PLAN_GRAPH_H_

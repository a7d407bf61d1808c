// How mesh-vk-run sizes a dynamic grid (`shard.grid @g(shape = ?)`), for a
// .mlir it compiles and for a .mvk holding one plan per process count
// (mesh-vk-compile without --grid-shape): one decision for both.
#ifndef MESHVK_SAMPLES_MESH_VK_RUN_GRID_VARIANT_H_
#define MESHVK_SAMPLES_MESH_VK_RUN_GRID_VARIANT_H_

#include <cstdint>
#include <string>

#include "meshvk/module.h"
#include "run_program.h"

namespace meshvk_run {

// The process count the device flags ask for: --devices=N; else one process
// per listed device (--devices=0,2) or per device of the group
// (--devices=group:G, asked of Vulkan); else, under mpirun (`rank_count` > 0),
// one process per rank. 0: none given. `*source` says where it came from
// ("--devices=4", "--devices=0,2 (2 devices)", "--devices=group:0 (4
// devices)", "2 MPI ranks"). Returns "" or one error line (no such group, no
// Vulkan); `*processes` is then 0.
std::string DynamicGridProcesses(const DeviceChoice& devices, uint32_t rank_count, uint32_t* processes,
                                 std::string* source);

// When *module is a set of plans: replaces it (releasing the set) by the plan
// for DynamicGridProcesses and, with `print_plan`, prints which plan runs and
// which counts the file holds. A module of one plan is left as it is.
// Returns "" or one error line (a count the file lacks: the counts it holds).
std::string SelectGridVariant(const std::string& path, const DeviceChoice& devices, uint32_t rank_count,
                              bool print_plan, meshvk_module_t** module);

}  // namespace meshvk_run

#endif  // MESHVK_SAMPLES_MESH_VK_RUN_GRID_VARIANT_H_

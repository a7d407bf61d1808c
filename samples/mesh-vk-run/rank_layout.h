// Which grid processes each MPI rank runs (--rank-axes), with no MPI
// dependency: the layout is pure arithmetic on the grid shape.
//
// Processes are numbered row-major over the grid (the artifact's order). The
// rank axes' coordinates of a process, numbered row-major among the rank
// axes, are its rank: with a 2x2 grid and rank axes {0}, processes 0,1 run on
// rank 0 and 2,3 on rank 1; with rank axes {1}, processes 0,2 on rank 0.
#ifndef MESHVK_SAMPLES_MESH_VK_RUN_RANK_LAYOUT_H_
#define MESHVK_SAMPLES_MESH_VK_RUN_RANK_LAYOUT_H_

#include <cstdint>
#include <string>
#include <vector>

#include "meshvk/module.h"

namespace meshvk_run {

struct RankLayout {
  std::vector<uint32_t> axes;          // grid axes across ranks, ascending
  std::vector<uint32_t> process_rank;  // [grid process]
};

// The number of ranks the environment says this process was started among
// (OpenMPI's OMPI_COMM_WORLD_SIZE, else PMI_SIZE / PMIX_SIZE of other
// launchers); 0 when not started by an MPI launcher.
uint32_t LauncherRankCount();

// `flag`: "" (default: the outermost axes whose product is rank_count) or a
// comma list of axes ("0", "1", "0,1"). False with a one-line *error when the
// axes do not exist or their product is not rank_count.
bool ChooseRankLayout(const meshvk_grid_info_t& grid, uint32_t rank_count, const std::string& flag, RankLayout* out,
                      std::string* error);

// "axis 0 (size 2)" style text of the rank axes, for --print-plan.
std::string RankAxesText(const meshvk_grid_info_t& grid, const RankLayout& layout);

// --print-plan: one line per collective group the runtime runs through the
// transport under this layout (meshvk_module_rank_collectives), or one line
// saying none does (cross-rank copies then go point to point).
void PrintRankCollectives(const meshvk_module_t* module, uint32_t function, const uint32_t* process_rank,
                          uint32_t rank_count);

}  // namespace meshvk_run

#endif  // MESHVK_SAMPLES_MESH_VK_RUN_RANK_LAYOUT_H_

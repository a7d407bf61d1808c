// Which grid processes each MPI rank runs (--rank-axes), decided by the
// runtime (meshvk_module_rank_layout, meshvk/transport.h), and how
// --print-plan shows it.
#ifndef MESHVK_SAMPLES_MESH_VK_RUN_RANK_LAYOUT_H_
#define MESHVK_SAMPLES_MESH_VK_RUN_RANK_LAYOUT_H_

#include <cstdint>
#include <string>
#include <vector>

#include "meshvk/module.h"
#include "meshvk/transport.h"

namespace meshvk_run {

struct RankLayout {
  std::vector<uint32_t> axes;          // grid axes across ranks, ascending
  std::vector<uint32_t> process_rank;  // [grid process]
};

// `flag`: "" (default: the outermost axes whose product is rank_count) or a
// comma list of axes ("0", "1", "0,1"). False with a one-line *error when the
// axes do not exist or their product is not rank_count.
bool ChooseRankLayout(const meshvk_module_t* module, uint32_t rank_count, const std::string& flag, RankLayout* out,
                      std::string* error);

// "axis 0 (size 2)" style text of the rank axes, for --print-plan.
std::string RankAxesText(const meshvk_grid_info_t& grid, const RankLayout& layout);

// --print-plan: one line per collective group the runtime runs through the
// transport under this layout and mode (meshvk_module_rank_collectives), or one line
// saying none does (cross-rank copies then go point to point).
void PrintRankCollectives(const meshvk_module_t* module, uint32_t function, const uint32_t* process_rank,
                          uint32_t rank_count, meshvk_rank_collective_mode_t mode);

}  // namespace meshvk_run

#endif  // MESHVK_SAMPLES_MESH_VK_RUN_RANK_LAYOUT_H_

#include "rank_program.h"

#include <cstdio>
#include <cstdlib>

#include "meshvk_environment.h"

namespace meshvk_ranks {

meshvk_rank_collective_mode_t RankMode(const std::string& name) {
  meshvk_rank_collective_mode_t mode;
  if (meshvk_environment_rank_collective_mode_named(name.c_str(), &mode)) return mode;
  std::fprintf(stderr, "no rank collective mode named '%s'\n", name.c_str());
  std::abort();
}

meshvk_status_t CreateOnRanks(meshvk_module_t* module, meshvk_device_set_t* set, const meshvk_program_ranks_t* ranks,
                              meshvk_program_t** out) {
  meshvk_program_create_info_t info = MESHVK_PROGRAM_CREATE_INFO_INIT;
  info.next = ranks;
  info.module = module;
  info.set = set;
  return meshvk_program_create_with_info(&info, out);
}

}  // namespace meshvk_ranks

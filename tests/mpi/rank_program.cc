#include "rank_program.h"

#include <cstdlib>

namespace meshvk_ranks {
namespace {

// Before main, single-threaded: the one time the variable may be added.
const bool kRankModeVariable = [] { return setenv("MESHVK_RANK_COLLECTIVES", "", 0) == 0; }();

}  // namespace

void SetRankMode(const char* mode) {
  (void)kRankModeVariable;
  setenv("MESHVK_RANK_COLLECTIVES", mode, 1);  // overwrites in place: the array is not reallocated
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

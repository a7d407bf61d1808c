// Internal view of meshvk_module_t: the verified artifact bytes and its schedule.
#ifndef MESHVK_RUNTIME_MODULE_MODULE_H_
#define MESHVK_RUNTIME_MODULE_MODULE_H_

#include <atomic>
#include <cstdint>
#include <string>
#include <vector>

#include "meshvk/module.h"
#include "schedule.h"
#include "status.h"

struct meshvk_module_s {
  ~meshvk_module_s();
  std::atomic<uint32_t> references{1};
  std::vector<uint8_t> bytes;  // owned copy; artifact points into it
  const meshvk::mvk::Artifact* artifact = nullptr;
  meshvk::module::Schedule schedule;
  // A file of variants (format_version 2): one module per plan, each owning a
  // copy of its plan's bytes, referenced here (+1 each) in file order; the
  // module itself has no grid, functions or schedule. Empty for a plan.
  std::vector<meshvk_module_t*> variants;
  // Per function, its arguments then its results: the split axes that
  // meshvk_tensor_info_t points at (pointers into `bytes`).
  struct TensorAxes {
    std::vector<uint32_t> counts;
    std::vector<const uint32_t*> axes;
  };
  std::vector<std::vector<TensorAxes>> tensor_axes;
};

namespace meshvk::module {

// "the module holds plans for 1, 2, 4 processes (a dynamic grid)".
std::string VariantsText(const meshvk_module_t* module);

// Shard `shard` of argument (or result) `index` of `function` as the artifact
// places it: *view gets process, offset, rank, global_offset and shape
// (buffer untouched), *buffer_index the shard's buffer among its process's.
// OUT_OF_RANGE naming the bad index. Shared by meshvk_module_*_shard and
// meshvk_program_*_shard (which adds the program's buffer).
Status ShardViewOf(const meshvk_module_t* module, uint32_t function, uint32_t index, bool result, uint32_t shard,
                   meshvk_shard_view_t* view, uint32_t* buffer_index);

}  // namespace meshvk::module

#endif  // MESHVK_RUNTIME_MODULE_MODULE_H_

// The per-rank input layout of MESHVK_INVOKE_RANK_INPUTS_BIT (meshvk/module.h):
// an input then holds only the runs this rank's processes read
// (meshvk_module_rank_input_runs, in that order), each run's rows back to
// back, so a rank never needs the whole host tensor.
#ifndef MESHVK_RUNTIME_MODULE_RANK_INPUTS_H_
#define MESHVK_RUNTIME_MODULE_RANK_INPUTS_H_

#include <cstdint>
#include <map>
#include <tuple>

#include "meshvk/module.h"
#include "remote_copies.h"
#include "status.h"

namespace meshvk::module {

class RankInputLayout {
 public:
  // The runs of `argument` for this rank of `remote` (which must be enabled).
  Status Build(const meshvk_module_t* module, uint32_t function, uint32_t argument, const RemoteCopies& remote);
  // Bytes of the packed input: the sum of the runs' rows x row_bytes.
  uint64_t bytes() const { return bytes_; }
  // Where the run (host offset, row bytes, rows, pitch) of the dense tensor
  // starts in the packed input; its rows follow each other there (pitch
  // row_bytes). UINT64_MAX when it is not one of the rank's runs.
  uint64_t Find(uint64_t offset, uint64_t row_bytes, uint64_t rows, uint64_t pitch) const;

 private:
  std::map<std::tuple<uint64_t, uint64_t, uint64_t, uint64_t>, uint64_t> start_;
  uint64_t bytes_ = 0;
};

}  // namespace meshvk::module

#endif  // MESHVK_RUNTIME_MODULE_RANK_INPUTS_H_

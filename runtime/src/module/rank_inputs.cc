// Per-rank packed inputs (see rank_inputs.h). The runs come from the public
// meshvk_module_rank_input_runs, the one place that walks a rank's shards, so
// the caller that packed the input and the invoke that unpacks it agree.
#include "rank_inputs.h"

#include <vector>

#include "meshvk/transport.h"

namespace meshvk::module {

Status RankInputLayout::Build(const meshvk_module_t* module, uint32_t function, uint32_t argument,
                              const RemoteCopies& remote) {
  start_.clear();
  bytes_ = 0;
  const meshvk_transport_t* transport = remote.transport();
  uint32_t count = 0;
  MESHVK_RETURN_IF_ERROR(
      FromC(meshvk_module_rank_input_runs(module, function, argument, remote.process_rank(), transport->rank_count,
                                          transport->rank, nullptr, 0, &count),
            "runs of input " + std::to_string(argument)));
  std::vector<meshvk_host_run_t> runs(count);
  MESHVK_RETURN_IF_ERROR(
      FromC(meshvk_module_rank_input_runs(module, function, argument, remote.process_rank(), transport->rank_count,
                                          transport->rank, runs.data(), count, &count),
            "runs of input " + std::to_string(argument)));
  for (const meshvk_host_run_t& run : runs) {
    start_[{run.offset, run.row_bytes, run.rows, run.pitch}] = bytes_;
    bytes_ += run.rows * run.row_bytes;
  }
  return Status();
}

uint64_t RankInputLayout::Find(uint64_t offset, uint64_t row_bytes, uint64_t rows, uint64_t pitch) const {
  auto it = start_.find({offset, row_bytes, rows, pitch});
  return it == start_.end() ? UINT64_MAX : it->second;
}

}  // namespace meshvk::module

// Reading input data after program creation (see read_inputs.h).
#include "read_inputs.h"

#include <unistd.h>

#include <cstdio>

#include "meshvk/transport.h"
#include "status_text.h"

namespace meshvk_run {
namespace {

// Resident bytes of this process (/proc/self/statm), -1 when unknown.
int64_t ResidentBytes() {
  FILE* f = std::fopen("/proc/self/statm", "r");
  if (!f) return -1;
  long long size = 0, resident = -1;
  if (std::fscanf(f, "%lld %lld", &size, &resident) != 2) resident = -1;
  std::fclose(f);
  return resident < 0 ? -1 : resident * static_cast<int64_t>(sysconf(_SC_PAGESIZE));
}

}  // namespace

bool ReadInputData(const meshvk_module_t* module, uint32_t function, const uint32_t* process_rank, uint32_t rank_count,
                   uint32_t rank, const std::vector<TensorSource>& sources, std::vector<HostTensor>* inputs,
                   InputReadStats* stats, std::string* error) {
  const int64_t before = ResidentBytes();
  for (uint32_t i = 0; i < sources.size(); ++i) {
    meshvk_tensor_info_t info = MESHVK_TENSOR_INFO_INIT;
    meshvk_status_t info_status = meshvk_module_argument_info(module, function, i, &info);
    const bool named = !info_status && info.name && *info.name;
    meshvk_status_free(info_status);
    const std::string where =
        "--input[" + std::to_string(i) + "]" + (named ? " ('" + std::string(info.name) + "')" : "") + ": ";
    std::vector<meshvk_host_run_t> runs;
    if (process_rank) {
      uint32_t count = 0;
      meshvk_status_t status =
          meshvk_module_rank_input_runs(module, function, i, process_rank, rank_count, rank, nullptr, 0, &count);
      if (!status) {
        runs.resize(count);
        status = meshvk_module_rank_input_runs(module, function, i, process_rank, rank_count, rank, runs.data(), count,
                                               &count);
      }
      if (status) {
        *error = where + StatusText(status);
        meshvk_status_free(status);
        return false;
      }
    }
    if (!ReadTensorSource(sources[i], process_rank ? &runs : nullptr, &(*inputs)[i], &stats->bytes_read, error)) {
      *error = where + OneLine(*error);
      return false;
    }
    stats->whole_bytes += sources[i].data_bytes;
    stats->held_bytes += (*inputs)[i].data.size();
  }
  const int64_t after = ResidentBytes();
  stats->rss_growth = before < 0 || after < 0 ? -1 : after - before;
  return true;
}

}  // namespace meshvk_run

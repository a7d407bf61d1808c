// See ranks.h.
#include "ranks.h"

#include <mutex>
#include <string>

#include "errors.h"
#include "meshvk/transport_mpi.h"
#include "runtime.h"

namespace meshvk_py {
namespace {

std::mutex g_mutex;
meshvk_mpi_transport_t* g_mpi = nullptr;             // guarded by g_mutex
std::vector<std::weak_ptr<RuntimeCore>> g_runtimes;  // guarded by g_mutex

}  // namespace

bool LaunchedAmongRanks() { return meshvk_mpi_launcher_rank_count() > 1; }

const meshvk_transport_t* RankTransport() {
  std::lock_guard<std::mutex> lock(g_mutex);
  if (!g_mpi) Check(meshvk_mpi_transport_create(nullptr, nullptr, &g_mpi), "ranks: ");
  return meshvk_mpi_transport_get(g_mpi);
}

void RegisterRankRuntime(const std::shared_ptr<RuntimeCore>& runtime) {
  std::lock_guard<std::mutex> lock(g_mutex);
  g_runtimes.push_back(runtime);
}

void EndRanks() {
  std::vector<std::weak_ptr<RuntimeCore>> runtimes;
  {
    std::lock_guard<std::mutex> lock(g_mutex);
    runtimes.swap(g_runtimes);
  }
  for (const auto& weak : runtimes)
    if (std::shared_ptr<RuntimeCore> runtime = weak.lock()) runtime->Close();
  std::lock_guard<std::mutex> lock(g_mutex);
  meshvk_mpi_transport_release(g_mpi);
  g_mpi = nullptr;
}

std::vector<uint32_t> LayRanks(const meshvk_module_t* module, const meshvk_transport_t* transport,
                               const std::vector<uint32_t>& axes) {
  meshvk_grid_info_t grid = MESHVK_GRID_INFO_INIT;
  meshvk_status_free(meshvk_module_grid_info(module, &grid));
  std::vector<uint32_t> process_rank(grid.process_count);
  Check(meshvk_module_rank_layout(module, transport->rank_count, axes.data(), static_cast<uint32_t>(axes.size()),
                                  process_rank.data(), grid.process_count, nullptr, nullptr),
        "rank_axes: ");
  return process_rank;
}

void ShareResults(const meshvk_transport_t* transport, const std::vector<meshvk_host_output_t>& outputs) {
  std::vector<uint32_t> ranks(transport->rank_count);
  for (uint32_t r = 0; r < ranks.size(); ++r) ranks[r] = r;
  for (size_t i = 0; i < outputs.size(); ++i) {
    int code =
        transport->broadcast(transport->user, ranks.data(), transport->rank_count, 0, outputs[i].data, outputs[i].size);
    if (code)
      Raise(MESHVK_STATUS_INTERNAL, "ranks: broadcast of result " + std::to_string(i) + " from rank 0 failed (code " +
                                        std::to_string(code) + ")");
  }
}

}  // namespace meshvk_py

// Rank layout of a grid (see rank_layout.h).
#include "rank_layout.h"

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <sstream>

#include "meshvk/transport.h"

namespace meshvk_run {

bool ChooseRankLayout(const meshvk_module_t* module, uint32_t rank_count, const std::string& flag, RankLayout* out,
                      std::string* error) {
  meshvk_grid_info_t grid = MESHVK_GRID_INFO_INIT;
  meshvk_status_free(meshvk_module_grid_info(module, &grid));
  std::vector<uint32_t> axes;
  std::stringstream list(flag);
  for (std::string item; !flag.empty() && std::getline(list, item, ',');) {
    char* end = nullptr;
    unsigned long axis = std::strtoul(item.c_str(), &end, 10);
    if (item.empty() || *end || item[0] == '-' || axis > UINT32_MAX) {
      *error = "flag --rank-axes: expected a comma list of grid axes, got '" + flag + "'";
      return false;
    }
    axes.push_back(static_cast<uint32_t>(axis));
  }
  out->process_rank.assign(grid.process_count, 0);
  out->axes.assign(grid.rank, 0);
  uint32_t axis_count = 0;
  if (meshvk_status_t status =
          meshvk_module_rank_layout(module, rank_count, axes.data(), static_cast<uint32_t>(axes.size()),
                                    out->process_rank.data(), grid.process_count, out->axes.data(), &axis_count)) {
    *error = (flag.empty() ? std::string() : "flag --rank-axes=" + flag + ": ") + meshvk_status_message(status);
    meshvk_status_free(status);
    return false;
  }
  out->axes.resize(axis_count);
  return true;
}

std::string RankAxesText(const meshvk_grid_info_t& grid, const RankLayout& layout) {
  std::string text;
  for (uint32_t a : layout.axes)
    text += (text.empty() ? "" : ", ") + std::string("axis ") + std::to_string(a) + " (size " +
            std::to_string(grid.shape[a]) + ")";
  return text;
}

void PrintRankCollectives(const meshvk_module_t* module, uint32_t function, const uint32_t* process_rank,
                          uint32_t rank_count, meshvk_rank_collective_mode_t mode) {
  uint32_t count = 0;
  if (meshvk_status_t status =
          meshvk_module_rank_collectives(module, function, process_rank, rank_count, mode, nullptr, 0, &count)) {
    meshvk_status_free(status);
    return;
  }
  std::vector<meshvk_rank_collective_t> groups(count, meshvk_rank_collective_t MESHVK_RANK_COLLECTIVE_INIT);
  if (meshvk_status_t status = meshvk_module_rank_collectives(module, function, process_rank, rank_count, mode,
                                                              groups.data(), count, &count)) {
    meshvk_status_free(status);
    return;
  }
  if (groups.empty())
    std::printf("collectives through MPI collective calls: none (copies between ranks go point to point)\n");
  for (const meshvk_rank_collective_t& g : groups) {
    const unsigned long long bytes = g.bytes, sent = g.ring_bytes, received = g.received_bytes;
    if (g.call == MESHVK_TRANSPORT_ALL_REDUCE) {
      std::printf(
          "collective %u: all_reduce of %llu bytes over %u processes (first %u) on %u ranks: reduced on the host "
          "within each rank, then MPI_Allreduce among the ranks, chunk by chunk (ring: %llu bytes per rank)\n",
          g.collective, bytes, g.member_count, g.first_process, g.rank_count, sent);
      continue;
    }
    if (g.call == MESHVK_TRANSPORT_REDUCE_SCATTER) {
      std::printf(
          "collective %u: reduce_scatter of %llu-byte chunks over %u processes (first %u) on %u ranks: reduced on "
          "the host within each rank, one MPI_Reduce_scatter among the ranks (at most %llu bytes sent, %llu "
          "received per rank)\n",
          g.collective, bytes, g.member_count, g.first_process, g.rank_count, sent, received);
      continue;
    }
    const char* kind = g.kind == MESHVK_TRANSPORT_ALL_GATHER  ? "all_gather"
                       : g.kind == MESHVK_TRANSPORT_BROADCAST ? "broadcast"
                                                              : "all_to_all";
    const char* call = g.call == MESHVK_TRANSPORT_ALL_GATHER  ? "MPI_Allgatherv"
                       : g.call == MESHVK_TRANSPORT_BROADCAST ? "MPI_Bcast"
                                                              : "MPI_Alltoallv";
    // all_gather: where the blocks and landing buffers are host-mapped device
    // memory, point-to-point messages between them (all_gather_pieces).
    const char* mapped = g.call == MESHVK_TRANSPORT_ALL_GATHER
                             ? "sent from host-mapped device memory straight into the landing buffers (point-to-"
                               "point MPI), or else "
                             : "";
    std::printf(
        "collective %u: %s, %llu bytes of blocks between %u processes (first %u) on %u ranks: each block %sstaged "
        "out once for one %s among the ranks, received once per rank that reads it (at most %llu bytes sent, %llu "
        "received per rank)\n",
        g.collective, kind, bytes, g.member_count, g.first_process, g.rank_count, mapped, call, sent, received);
  }
}

}  // namespace meshvk_run

// Rank layout of a grid (see rank_layout.h).
#include "rank_layout.h"

#include <cstdio>
#include <cstdlib>
#include <sstream>

#include "meshvk/transport.h"

namespace meshvk_run {

uint32_t LauncherRankCount() {
  for (const char* name : {"OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "PMIX_SIZE"}) {
    const char* value = std::getenv(name);
    if (value && *value) return static_cast<uint32_t>(std::strtoul(value, nullptr, 10));
  }
  return 0;
}

bool ChooseRankLayout(const meshvk_grid_info_t& grid, uint32_t rank_count, const std::string& flag, RankLayout* out,
                      std::string* error) {
  std::string shape;
  for (uint32_t a = 0; a < grid.rank; ++a) shape += (a ? "x" : "") + std::to_string(grid.shape[a]);
  out->axes.clear();
  if (flag.empty()) {
    uint64_t product = 1;
    for (uint32_t a = 0; a < grid.rank && product < rank_count; ++a) {
      out->axes.push_back(a);
      product *= grid.shape[a];
    }
    if (product != rank_count) {
      *error = std::to_string(rank_count) + " ranks do not fit the " + shape +
               " grid: no outermost axes have that many processes (pass --rank-axes, or start " +
               "a matching number of ranks)";
      return false;
    }
  } else {
    std::stringstream list(flag);
    std::string item;
    while (std::getline(list, item, ',')) {
      char* end = nullptr;
      unsigned long axis = std::strtoul(item.c_str(), &end, 10);
      if (item.empty() || *end || axis >= grid.rank || (!out->axes.empty() && axis <= out->axes.back())) {
        *error = "flag --rank-axes: expected ascending grid axes below " + std::to_string(grid.rank) + " (the " +
                 shape + " grid), got '" + flag + "'";
        return false;
      }
      out->axes.push_back(static_cast<uint32_t>(axis));
    }
    uint64_t product = 1;
    for (uint32_t a : out->axes) product *= grid.shape[a];
    if (product != rank_count) {
      *error = "flag --rank-axes=" + flag + ": those axes of the " + shape + " grid hold " + std::to_string(product) +
               " processes, but " + std::to_string(rank_count) + " ranks were started";
      return false;
    }
  }
  out->process_rank.assign(grid.process_count, 0);
  for (uint32_t p = 0; p < grid.process_count; ++p) {
    // Row-major coordinates of p, then the rank axes' coordinates row-major.
    std::vector<uint32_t> coord(grid.rank);
    uint32_t rest = p;
    for (uint32_t a = grid.rank; a-- > 0;) {
      coord[a] = rest % grid.shape[a];
      rest /= grid.shape[a];
    }
    uint32_t rank = 0;
    for (uint32_t a : out->axes) rank = rank * grid.shape[a] + coord[a];
    out->process_rank[p] = rank;
  }
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
                          uint32_t rank_count) {
  uint32_t count = 0;
  if (meshvk_status_t status =
          meshvk_module_rank_collectives(module, function, process_rank, rank_count, nullptr, 0, &count)) {
    meshvk_status_free(status);
    return;
  }
  std::vector<meshvk_rank_collective_t> groups(count);
  if (meshvk_status_t status =
          meshvk_module_rank_collectives(module, function, process_rank, rank_count, groups.data(), count, &count)) {
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

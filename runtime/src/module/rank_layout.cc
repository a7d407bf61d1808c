// meshvk_module_rank_layout: which rank runs each grid process (see
// meshvk/transport.h). Pure arithmetic on the grid's shape, no device.
#include <string>
#include <vector>

#include "meshvk/module.h"
#include "meshvk/transport.h"
#include "status.h"

namespace {

std::string ShapeText(const meshvk_grid_info_t& grid) {
  std::string shape;
  for (uint32_t a = 0; a < grid.rank; ++a) shape += (a ? "x" : "") + std::to_string(grid.shape[a]);
  return shape;
}

// The outermost axes whose product is rank_count.
meshvk::Status DefaultAxes(const meshvk_grid_info_t& grid, uint32_t rank_count, std::vector<uint32_t>* axes) {
  uint64_t product = 1;
  for (uint32_t a = 0; a < grid.rank && product < rank_count; ++a) {
    axes->push_back(a);
    product *= grid.shape[a];
  }
  if (product == rank_count) return meshvk::Status();
  return meshvk::MakeStatus(MESHVK_STATUS_INVALID_ARGUMENT,
                            "%u ranks do not fit the %s grid: no outermost axes have that many processes (choose the "
                            "rank axes, or start a matching number of ranks)",
                            rank_count, ShapeText(grid).c_str());
}

meshvk::Status CheckAxes(const meshvk_grid_info_t& grid, uint32_t rank_count, const std::vector<uint32_t>& axes) {
  uint64_t product = 1;
  std::string list;
  for (size_t i = 0; i < axes.size(); ++i) {
    list += (i ? "," : "") + std::to_string(axes[i]);
    if (axes[i] >= grid.rank || (i && axes[i] <= axes[i - 1]))
      return meshvk::MakeStatus(MESHVK_STATUS_INVALID_ARGUMENT,
                                "rank axes must be ascending grid axes below %u (the %s grid)", grid.rank,
                                ShapeText(grid).c_str());
    product *= grid.shape[axes[i]];
  }
  if (product == rank_count) return meshvk::Status();
  return meshvk::MakeStatus(MESHVK_STATUS_INVALID_ARGUMENT,
                            "axes %s of the %s grid hold %llu processes, but there are %u ranks", list.c_str(),
                            ShapeText(grid).c_str(), static_cast<unsigned long long>(product), rank_count);
}

// Row-major coordinates of p, then the rank axes' coordinates row-major.
uint32_t RankOf(const meshvk_grid_info_t& grid, const std::vector<uint32_t>& axes, uint32_t p) {
  std::vector<uint32_t> coord(grid.rank);
  for (uint32_t a = grid.rank; a-- > 0;) {
    coord[a] = p % grid.shape[a];
    p /= grid.shape[a];
  }
  uint32_t rank = 0;
  for (uint32_t a : axes) rank = rank * grid.shape[a] + coord[a];
  return rank;
}

}  // namespace

extern "C" meshvk_status_t meshvk_module_rank_layout(const meshvk_module_t* module, uint32_t rank_count,
                                                     const uint32_t* axes, uint32_t axis_count, uint32_t* process_rank,
                                                     uint32_t process_count, uint32_t* out_axes,
                                                     uint32_t* out_axis_count) {
  using meshvk::MakeStatus;
  if (!module || !process_rank || (axis_count && !axes) || (out_axes && !out_axis_count))
    return MakeStatus(MESHVK_STATUS_INVALID_ARGUMENT, "module, process_rank, axes or out_axis_count is NULL").ToC();
  meshvk_grid_info_t grid = MESHVK_GRID_INFO_INIT;
  meshvk_module_grid_info(module, &grid);
  if (grid.rank == 0)
    return MakeStatus(MESHVK_STATUS_INVALID_ARGUMENT, "the module has no grid to lay over ranks").ToC();
  if (process_count != grid.process_count)
    return MakeStatus(MESHVK_STATUS_INVALID_ARGUMENT, "process_count is %u; the grid has %u processes", process_count,
                      grid.process_count)
        .ToC();
  if (rank_count == 0) return MakeStatus(MESHVK_STATUS_INVALID_ARGUMENT, "rank_count is 0").ToC();
  std::vector<uint32_t> chosen(axes, axes + axis_count);
  meshvk::Status status = axis_count ? CheckAxes(grid, rank_count, chosen) : DefaultAxes(grid, rank_count, &chosen);
  if (!status.ok()) return status.ToC();
  for (uint32_t p = 0; p < process_count; ++p) process_rank[p] = RankOf(grid, chosen, p);
  if (out_axes) {
    for (size_t i = 0; i < chosen.size(); ++i) out_axes[i] = chosen[i];
    *out_axis_count = static_cast<uint32_t>(chosen.size());
  }
  return MESHVK_OK;
}

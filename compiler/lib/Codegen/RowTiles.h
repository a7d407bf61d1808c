// Tiles of row kernels (internal to MeshVKCodegen; TileKernel.cpp asks for
// them first). A row kernel computes, per row, a reduction over the row's
// trailing dimensions (max, sum, mean, variance) and work that reads the
// reduced value broadcast back over the row: Softmax, LayerNorm, the
// attention chain, as meshvk-fuse-row-chains merges them. The usual tiles
// (a few elements per invocation) would recompute the reduction once per
// tile; a row tile gives each invocation whole rows, so each row's
// reductions are computed once and stay in invocation-private memory.
#ifndef MESHVK_LIB_CODEGEN_ROWTILES_H_
#define MESHVK_LIB_CODEGEN_ROWTILES_H_

#include <optional>

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Utils/Utils.h"

namespace meshvk::codegen {

struct RowTiles {
  llvm::SmallVector<int64_t> workgroupTile; // per loop of the root; 0 = whole
  llvm::SmallVector<int64_t> threadTile;    // 1 on row loops, 0 on the rest
  int64_t invocations = 1;
};

// Row tiles for `root` when a linalg op in its producer chain reads a row
// reduction's result broadcast along the row (the rows are `root`'s leading
// loops), its rows have static extents and are at most a few thousand
// elements (they live in private memory); otherwise none.
std::optional<RowTiles> planRowTiles(mlir::linalg::LinalgOp root, int64_t workgroupInvocations);

} // namespace meshvk::codegen

#endif // MESHVK_LIB_CODEGEN_ROWTILES_H_

//===- ShardingUtils.h - helpers shared by meshvk's sharding passes -*- C++
//-*-===//
//
// Internal to compiler/lib/Transforms: how meshvk reads a sharding (grid +
// split axes), where each process's shard of a tensor starts, and the
// uneven-split check that both the input check and the ABI recorder apply.
//
//===----------------------------------------------------------------------===//
#ifndef MESHVK_LIB_TRANSFORMS_SHARDINGUTILS_H
#define MESHVK_LIB_TRANSFORMS_SHARDINGUTILS_H

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Shard/IR/ShardOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"

namespace meshvk {

/// The process count along each tensor dimension, from the split axes.
inline llvm::SmallVector<int64_t> splitCounts(llvm::ArrayRef<int64_t> gridShape,
                                              llvm::ArrayRef<mlir::shard::GridAxesAttr> splitAxes,
                                              int64_t rank) {
  llvm::SmallVector<int64_t> counts(rank, 1);
  for (auto [dim, axes] : llvm::enumerate(splitAxes)) {
    if ((int64_t)dim >= rank)
      break;
    for (int16_t axis : axes.asArrayRef())
      if (axis >= 0 && axis < (int64_t)gridShape.size()) // else: check-sharding
        counts[dim] *= gridShape[axis];
  }
  return counts;
}

/// Row-major multi-index of linear process `p` on `gridShape`.
inline llvm::SmallVector<int64_t> processMultiIndex(llvm::ArrayRef<int64_t> gridShape, int64_t p) {
  llvm::SmallVector<int64_t> index(gridShape.size());
  for (int64_t a = (int64_t)gridShape.size() - 1; a >= 0; --a) {
    index[a] = p % gridShape[a];
    p /= gridShape[a];
  }
  return index;
}

inline int64_t gridSize(llvm::ArrayRef<int64_t> gridShape) {
  int64_t n = 1;
  for (int64_t s : gridShape)
    n *= s;
  return n;
}

/// First element of process `p`'s shard. Dimension d split over grid axes
/// [a0, a1, ...] is cut into prod(size(a_i)) equal blocks, a0 most significant
/// (upstream shard dialect convention).
inline llvm::SmallVector<int64_t> shardOffsets(llvm::ArrayRef<int64_t> shape,
                                               llvm::ArrayRef<int64_t> gridShape,
                                               llvm::ArrayRef<mlir::shard::GridAxesAttr> splitAxes,
                                               int64_t p) {
  llvm::SmallVector<int64_t> multi = processMultiIndex(gridShape, p);
  llvm::SmallVector<int64_t> counts = splitCounts(gridShape, splitAxes, shape.size());
  llvm::SmallVector<int64_t> offsets(shape.size(), 0);
  for (auto [dim, axes] : llvm::enumerate(splitAxes)) {
    if (dim >= shape.size())
      break;
    int64_t block = 0;
    for (int16_t axis : axes.asArrayRef())
      if (axis >= 0 && axis < (int64_t)gridShape.size())
        block = block * gridShape[axis] + multi[axis];
    offsets[dim] = block * (shape[dim] / counts[dim]);
  }
  return offsets;
}

/// "argument #1 of @f", "result #0 of @f" or "the result of 'linalg.matmul'".
inline std::string describeTensor(mlir::Value value) {
  std::string text;
  llvm::raw_string_ostream os(text);
  if (auto arg = llvm::dyn_cast<mlir::BlockArgument>(value)) {
    auto func = llvm::dyn_cast<mlir::func::FuncOp>(arg.getOwner()->getParentOp());
    os << "argument #" << arg.getArgNumber();
    if (func)
      os << " of @" << func.getSymName();
    return text;
  }
  mlir::Operation *def = value.getDefiningOp();
  // Look through annotations: name the tensor the user wrote.
  while (auto shardOp = llvm::dyn_cast_or_null<mlir::shard::ShardOp>(def)) {
    value = shardOp.getSrc();
    if (auto arg = llvm::dyn_cast<mlir::BlockArgument>(value))
      return describeTensor(arg);
    def = value.getDefiningOp();
  }
  os << "the result of '" << def->getName() << "'";
  return text;
}

/// Checks that every split dimension of `type` divides evenly. The error names
/// the tensor, the dimension, its size, the grid axes and the process count.
inline mlir::LogicalResult checkEvenSplit(mlir::Operation *at, mlir::Value tensor,
                                          mlir::ShapedType type, llvm::ArrayRef<int64_t> gridShape,
                                          llvm::ArrayRef<mlir::shard::GridAxesAttr> splitAxes) {
  llvm::SmallVector<int64_t> counts = splitCounts(gridShape, splitAxes, type.getRank());
  for (int64_t d = 0; d < type.getRank(); ++d) {
    int64_t size = type.getDimSize(d);
    if (counts[d] <= 1 || mlir::ShapedType::isDynamic(size) || size % counts[d] == 0)
      continue;
    auto diag = at->emitError() << describeTensor(tensor) << ": dimension " << d << " (size "
                                << size << ") does not divide evenly over grid axes [";
    llvm::interleaveComma(splitAxes[d].asArrayRef(), diag, [&](int16_t a) { diag << a; });
    diag << "] (" << counts[d]
         << " processes); uneven shards are not supported yet, pad the "
            "dimension to a multiple of "
         << counts[d];
    return mlir::failure();
  }
  return mlir::success();
}

/// The sharding op behind `shardOp`, or null if the sharding is not a plain
/// `shard.sharding` (block argument, get_sharding, ...).
inline mlir::shard::ShardingOp shardingOpOf(mlir::shard::ShardOp shardOp) {
  return shardOp.getSharding().getDefiningOp<mlir::shard::ShardingOp>();
}

} // namespace meshvk

#endif // MESHVK_LIB_TRANSFORMS_SHARDINGUTILS_H

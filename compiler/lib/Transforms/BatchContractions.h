//===- BatchContractions.h - batched matmuls read their operands in place -===//
//
// Internal to MeshVKTransforms (meshvk-fold-unit-reshapes): see
// BatchContractions.cpp.
//
//===----------------------------------------------------------------------===//
#ifndef MESHVK_LIB_TRANSFORMS_BATCHCONTRACTIONS_H
#define MESHVK_LIB_TRANSFORMS_BATCHCONTRACTIONS_H

#include "mlir/Dialect/Func/IR/FuncOps.h"

namespace meshvk {

/// In `plan` (unrolled, before outlining): each contraction whose batch loop
/// is read through collapse_shapes or written through an expand_shape
/// iterates the expanded loops, and each contraction input that a
/// permutation or broadcast produces is read at its source.
void expandBatchContractions(mlir::func::FuncOp plan);

} // namespace meshvk

#endif // MESHVK_LIB_TRANSFORMS_BATCHCONTRACTIONS_H

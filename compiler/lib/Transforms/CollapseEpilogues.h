//===- CollapseEpilogues.h - epilogues iterate their contraction's space -===//
//
// Internal to MeshVKTransforms (meshvk-fold-unit-reshapes): see
// CollapseEpilogues.cpp.
//
//===----------------------------------------------------------------------===//
#ifndef MESHVK_LIB_TRANSFORMS_COLLAPSEEPILOGUES_H
#define MESHVK_LIB_TRANSFORMS_COLLAPSEEPILOGUES_H

#include "mlir/Dialect/Func/IR/FuncOps.h"

namespace meshvk {

/// Collapses, in `plan` (unrolled, before outlining), each elementwise
/// linalg.generic that reads a contraction's result through an expand_shape
/// to the contraction's iteration space; the expand then follows it.
void collapseContractionEpilogues(mlir::func::FuncOp plan);

} // namespace meshvk

#endif // MESHVK_LIB_TRANSFORMS_COLLAPSEEPILOGUES_H

//===- ConvWindows.h - convolutions and poolings as window sums ----------===//
//
// Internal to compiler/lib/Transforms: meshvk-normalize-input's rewrite of
// stride-1, dilation-1 convolutions and poolings (linalg.conv_*,
// linalg.pooling_*, or any linalg op reading one input at `out + tap`) of a
// constant tensor.pad into one linalg.generic over shifted windows
// (meshvk.window) of the unpadded input: upstream's sharding interface takes
// projected permutations only, and windows exchange only borders.
//
//===----------------------------------------------------------------------===//
#ifndef MESHVK_LIB_TRANSFORMS_CONVWINDOWS_H
#define MESHVK_LIB_TRANSFORMS_CONVWINDOWS_H

#include "mlir/Dialect/Func/IR/FuncOps.h"

namespace meshvk {
/// Rewrites every such op of `func`; fails (one error) on a strided or
/// dilated one, or one whose input is not padded to keep its size.
mlir::LogicalResult decomposeWindowedOps(mlir::func::FuncOp func);
} // namespace meshvk

#endif // MESHVK_LIB_TRANSFORMS_CONVWINDOWS_H

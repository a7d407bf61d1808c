//===- ConvWindows.h - convolutions and poolings as window sums ----------===//
//
// Internal to compiler/lib/Transforms: meshvk-normalize-input's rewrite of
// convolutions and poolings (linalg.conv_*, linalg.pooling_*, or any linalg
// op reading one input at `out * stride + tap * dilation`), of a constant
// tensor.pad or of the input itself, into linalg.generics over shifted
// windows (meshvk.window) of the unpadded input: upstream's sharding
// interface takes projected permutations only, and windows exchange only
// borders.
//
//===----------------------------------------------------------------------===//
#ifndef MESHVK_LIB_TRANSFORMS_CONVWINDOWS_H
#define MESHVK_LIB_TRANSFORMS_CONVWINDOWS_H

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"

namespace meshvk {
/// The nested module holding the window ops' templates, and the roles
/// `meshvk.window_roles` gives a tap generic's inputs besides a template
/// argument (>= 1): the previous group's result, a tap's window of x.
inline constexpr llvm::StringLiteral kTemplatesModule = "meshvk_window_ops";
constexpr int64_t kAccumulatorRole = -1;
constexpr int64_t kImageRole = -2;

/// The add when `op`'s body yields `out + v` and reads `out` nowhere else
/// (a convolution, a sum pool), else null.
mlir::Operation *sumIntoOut(mlir::linalg::LinalgOp op);

/// Rewrites every such op of `func`; fails (one error) on one with more than
/// 121 taps, or a strided / size-changing one that another operand reads
/// along the output's window dimensions or that combines into a tensor that
/// is not a fill.
mlir::LogicalResult decomposeWindowedOps(mlir::func::FuncOp func);
} // namespace meshvk

#endif // MESHVK_LIB_TRANSFORMS_CONVWINDOWS_H

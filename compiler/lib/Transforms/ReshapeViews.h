//===- ReshapeViews.h - reshapes that are their operand's bytes -*- C++ -*-===//
//
// Internal to MeshVKTransforms (meshvk-plan-allocations). A row-major tensor
// and its tensor.collapse_shape / tensor.expand_shape hold the same bytes in
// the same order, so a kernel that only reshapes its operand would copy a
// buffer into another for nothing (the decoder had 17 such kernels a layer,
// around every matmul and attention head split). Such launches become views:
// the reshape itself, left in the plan, whose value lives in its operand's
// buffer.
//
//===----------------------------------------------------------------------===//
#ifndef MESHVK_LIB_TRANSFORMS_RESHAPEVIEWS_H
#define MESHVK_LIB_TRANSFORMS_RESHAPEVIEWS_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Operation.h"
#include "mlir/IR/Value.h"

namespace meshvk {

/// Whether `op` (may be null) makes a view: another value's bytes seen with
/// another shape, a tensor.collapse_shape or tensor.expand_shape in a plan.
bool isView(mlir::Operation *op);

/// The value whose buffer `value` lives in: through views, to the value that
/// owns a buffer (an argument, constant, empty, copy or kernel output).
mlir::Value viewedValue(mlir::Value value);

/// Replaces, in every plan of `module`, each launch of a kernel whose whole
/// body is one collapse or expand of its operand by that reshape of the
/// launch's operand, unless the operand's buffer is written in place later
/// (a copy into it: the view would see the new bytes); erases the kernels
/// left without launches.
void viewReshapeLaunches(mlir::ModuleOp module);

} // namespace meshvk

#endif // MESHVK_LIB_TRANSFORMS_RESHAPEVIEWS_H

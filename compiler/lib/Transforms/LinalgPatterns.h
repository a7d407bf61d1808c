//===- LinalgPatterns.h - linalg op shapes several passes recognize -------===//
//
// Internal to compiler/lib/Transforms: one definition of each linalg form
// that more than one pass matches, so the passes agree on what it is.
//
//===----------------------------------------------------------------------===//
#ifndef MESHVK_LIB_TRANSFORMS_LINALGPATTERNS_H
#define MESHVK_LIB_TRANSFORMS_LINALGPATTERNS_H

#include "mlir/IR/Operation.h"

namespace meshvk {

/// An all-parallel linalg.generic on tensors with one input and one init
/// whose body yields the input unchanged: it only moves elements (a copy, a
/// transpose, a broadcast). False for null.
bool yieldsItsInput(mlir::Operation *op);

/// A broadcast: such a generic whose input is read through fewer loops than
/// the output's (a convolution's bias spread over its output, as
/// tosa-to-linalg writes the accumulator). False for null.
bool isBroadcast(mlir::Operation *op);

} // namespace meshvk

#endif // MESHVK_LIB_TRANSFORMS_LINALGPATTERNS_H

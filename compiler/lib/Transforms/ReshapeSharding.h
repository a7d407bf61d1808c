//===- ReshapeSharding.h - sharding rule for expand/collapse_shape --------===//
//
// Internal to compiler/lib/Transforms: meshvk's sharding rule for
// tensor.expand_shape / collapse_shape whose split dimensions are untouched
// (MLIR 22 has none). meshvk-propagate-shardings registers it, so every
// pipeline that partitions has it.
//
//===----------------------------------------------------------------------===//
#ifndef MESHVK_LIB_TRANSFORMS_RESHAPESHARDING_H
#define MESHVK_LIB_TRANSFORMS_RESHAPESHARDING_H

#include "mlir/IR/DialectRegistry.h"

namespace meshvk {
void registerReshapeShardingModels(mlir::DialectRegistry &registry);
} // namespace meshvk

#endif // MESHVK_LIB_TRANSFORMS_RESHAPESHARDING_H

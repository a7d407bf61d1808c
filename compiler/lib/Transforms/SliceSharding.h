//===- SliceSharding.h - sharding rule for extract_slice/insert_slice -----===//
//
// Internal to compiler/lib/Transforms: meshvk's sharding rule for
// tensor.extract_slice / insert_slice (MLIR 22 has none). tensor.pad and
// tensor.concat reach partitioning as slices (meshvk-normalize-input
// decomposes them), so this rule covers them too. meshvk-propagate-shardings
// registers it, so every pipeline that partitions has it.
//
//===----------------------------------------------------------------------===//
#ifndef MESHVK_LIB_TRANSFORMS_SLICESHARDING_H
#define MESHVK_LIB_TRANSFORMS_SLICESHARDING_H

#include "mlir/IR/DialectRegistry.h"

namespace meshvk {
void registerSliceShardingModels(mlir::DialectRegistry &registry);
} // namespace meshvk

#endif // MESHVK_LIB_TRANSFORMS_SLICESHARDING_H

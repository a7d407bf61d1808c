//===- Passes.h - meshvk compiler passes ------------------------*- C++ -*-===//
#ifndef MESHVK_TRANSFORMS_PASSES_H
#define MESHVK_TRANSFORMS_PASSES_H

#include "meshvk/Dialect/MeshVKDialect.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Shard/IR/ShardDialect.h"
#include "mlir/Dialect/Shard/IR/ShardOps.h"
#include "mlir/Dialect/Shard/Transforms/Passes.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"

namespace meshvk {

#define GEN_PASS_DECL
#include "meshvk/Transforms/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "meshvk/Transforms/Passes.h.inc"

/// Registers `meshvk-partition` (checks, ABI, decomposition, upstream
/// propagation + partition, ABI verification), `meshvk-plan` (unroll,
/// collectives, outlining, allocation) and `meshvk-compile-plan` (both).
void registerMeshVKPipelines();

/// Adds the passes of `meshvk-partition` / `meshvk-plan` to `pm`;
/// `storeInF16` adds meshvk-store-in-f16 after the input passes.
void buildPartitionPipeline(mlir::OpPassManager &pm, bool storeInF16 = false);
void buildPlanPipeline(mlir::OpPassManager &pm);

} // namespace meshvk

#endif // MESHVK_TRANSFORMS_PASSES_H

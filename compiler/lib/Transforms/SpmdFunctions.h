//===- SpmdFunctions.h - functions written as per-process (SPMD) code -----===//
//
// Internal to compiler/lib/Transforms. A public function that uses shard ops
// (collectives, update_halo, process indices) but no shard.shard / shard.sharding
// annotation is SPMD code, as upstream's ShardToMPI tests write it: its body
// runs on every process of the one grid its shard ops name, on LOCAL shapes.
// How its arguments and results map to processes (compiler/README.md,
// "SPMD functions"): a tensor of rank >= 1 is process p's block of the global
// tensor whose dimension 0 stacks every process's block in linear process
// order (split_axes = [[0, 1, ...]] on dimension 0); a 0-d tensor is
// replicated (every process gets the same scalar; a 0-d result is read from
// process 0).
//
//===----------------------------------------------------------------------===//
#ifndef MESHVK_LIB_TRANSFORMS_SPMDFUNCTIONS_H
#define MESHVK_LIB_TRANSFORMS_SPMDFUNCTIONS_H

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/SymbolTable.h"

namespace meshvk {

/// A public function with a body whose shard ops are only collectives,
/// update_halo and process-index queries (at least one), and no annotations.
bool isSpmdFunction(mlir::func::FuncOp func);

/// Checks an SPMD function (one static grid, statically shaped tensors) and
/// attaches its `meshvk.abi` (the stacking convention above).
mlir::LogicalResult recordSpmdAbi(mlir::func::FuncOp func, mlir::SymbolTableCollection &symbols);

} // namespace meshvk

#endif // MESHVK_LIB_TRANSFORMS_SPMDFUNCTIONS_H

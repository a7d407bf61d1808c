//===- CollectiveLowering.h - one collective as plan copies -----*- C++ -*-===//
//
// Internal to compiler/lib/Transforms: meshvk-lower-collectives turns each
// collective (its op on every process of the unrolled plan) into peer copies
// and small reduction kernels. This header is the builder those plan ops are
// made with and the lowering of each collective family:
//   CollectiveGroups.cpp     the builder; all_gather, all_slice, all_to_all,
//                            broadcast, shift, the rooted gather / scatter /
//                            reduce, all_reduce and reduce_scatter
//   CollectiveNeighbors.cpp  meshvk.window and shard.update_halo (borders
//                            pulled from neighbours)
//   LowerCollectives.cpp     the pass: finds each collective's ops, checks
//                            its axes are peered, dispatches to the family,
//                            matches send / recv pairs, lowers local slices
//
//===----------------------------------------------------------------------===//
#ifndef MESHVK_LIB_TRANSFORMS_COLLECTIVELOWERING_H
#define MESHVK_LIB_TRANSFORMS_COLLECTIVELOWERING_H

#include "ShardingUtils.h"

#include "mlir/IR/Builders.h"

#include <string>

namespace meshvk {

/// Builds the plan ops of one collective and counts what each process pulls.
class CollectiveBuilder {
public:
  CollectiveBuilder(mlir::OpBuilder &b, mlir::Location loc, int64_t processes)
      : b(b), loc(loc), pulled(processes, 0) {}

  /// A fresh buffer of `type` on process `p`.
  mlir::Value empty(int64_t p, mlir::RankedTensorType type);

  /// Copies the box (`srcOffsets`, `sizes`) of `src` on `from` into `dest` on
  /// `to` at `destOffsets`; pulls when `from != to`.
  mlir::Value copy(mlir::Value src, int64_t from, mlir::Value dest, int64_t to,
                   llvm::ArrayRef<int64_t> srcOffsets, llvm::ArrayRef<int64_t> destOffsets,
                   llvm::ArrayRef<int64_t> sizes);

  /// A buffer on process `p` holding `value` everywhere (a small kernel).
  mlir::Value fill(int64_t p, mlir::RankedTensorType type, mlir::TypedAttr value);

  /// Whole of `src` (on `from`) into a fresh buffer on `to`.
  mlir::Value pullWhole(mlir::Value src, int64_t from, int64_t to);

  /// Elementwise reduction of `inputs` on process `p`: the small local kernel.
  /// Float max/min propagate NaN (arith.maximumf, as numpy and TOSA do)
  /// unless `ignoreNaN` (the partials were combined with arith.maxnumf).
  mlir::FailureOr<mlir::Value> reduce(mlir::Operation *at, int64_t p,
                                      llvm::ArrayRef<mlir::Value> inputs,
                                      mlir::shard::ReductionKind kind, bool ignoreNaN);

  /// Marks an op as part of the collective being lowered: the emitter tags its
  /// commands, so a runtime whose grid spans ranks can run the group through
  /// its transport instead.
  void tag(mlir::Operation *op);

  mlir::OpBuilder &b;
  int64_t id = 0;
  mlir::Location loc;
  llvm::SmallVector<int64_t> pulled;
};

/// One lowered collective: each process's result, the algorithm and group
/// size recorded on the plan (`meshvk.collectives`).
struct LoweredCollective {
  llvm::SmallVector<mlir::Value> results;
  std::string algorithm = "direct";
  int64_t groupSize = 0;
};

/// `ops[p]` is a collective's op on process p (static tensor types, its
/// first operand the tensor it moves).
using CollectiveOps = llvm::ArrayRef<mlir::Operation *>;

/// The lowering of one collective (`ops`, lowered with `l`) over the groups
/// on grid axes `axes`, one method per family, each called once
/// (CollectiveGroups.cpp). They leave `groupSize` 0 for the size of those
/// groups.
class GroupLowering {
public:
  GroupLowering(CollectiveBuilder &l, CollectiveOps ops, llvm::ArrayRef<int64_t> gridShape,
                llvm::ArrayRef<int16_t> axes);

  // Data movement within each group.
  mlir::FailureOr<LoweredCollective> allGather();
  mlir::FailureOr<LoweredCollective> allSlice();
  mlir::FailureOr<LoweredCollective> allToAll();
  mlir::FailureOr<LoweredCollective> broadcast();
  mlir::FailureOr<LoweredCollective> shift();
  /// The rooted gather, scatter and reduce: the root gathers / reduces, or
  /// hands out the chunks of its input.
  mlir::FailureOr<LoweredCollective> rooted();
  /// all_reduce and reduce_scatter: direct (every partial pulled whole) or
  /// reduce-scatter + all-gather; an all_reduce of at most `directMaxBytes`
  /// bytes stays direct.
  mlir::FailureOr<LoweredCollective> reduction(int64_t directMaxBytes);

private:
  mlir::Value input(int64_t p) const { return ops[p]->getOperand(0); }
  mlir::LogicalResult sameElementTypes() const;
  mlir::Value gatherInto(int64_t p, const ProcessGroup &g, int64_t axis);
  mlir::FailureOr<mlir::Value> reduceWhole(int64_t p, const ProcessGroup &g,
                                           mlir::shard::ReductionKind kind, bool ignoreNaN);

  CollectiveBuilder &l;
  CollectiveOps ops;
  llvm::ArrayRef<int64_t> gridShape;
  llvm::ArrayRef<int16_t> axes;
  mlir::Operation *op0;
  int64_t processes;
  mlir::RankedTensorType inType, outType;
  int64_t rank;
  llvm::SmallVector<int64_t> zero;
  LoweredCollective lowered; // one value per process
};

// Borders pulled from neighbours (CollectiveNeighbors.cpp); these set
// `groupSize` to the processes a split tensor spans.
/// meshvk.window (see its description in MeshVKOps.td).
mlir::FailureOr<LoweredCollective> lowerWindow(CollectiveBuilder &l, WindowOp op0,
                                               CollectiveOps ops,
                                               llvm::ArrayRef<int64_t> gridShape);
/// shard.update_halo (the semantics of upstream's MPI lowering).
mlir::FailureOr<LoweredCollective> lowerHalo(CollectiveBuilder &l, mlir::shard::UpdateHaloOp op0,
                                             CollectiveOps ops, llvm::ArrayRef<int64_t> gridShape);

} // namespace meshvk

#endif // MESHVK_LIB_TRANSFORMS_COLLECTIVELOWERING_H

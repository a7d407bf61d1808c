//===- CheckSharding.cpp - reject inputs the partitioner gets wrong -------===//
//
// Upstream sharding-propagation / shard-partition assert, crash or silently
// miscompile on several inputs. This pass runs first and turns each
// of them into one diagnostic at the offending op.
//
//===----------------------------------------------------------------------===//
#include "ShardingUtils.h"
#include "meshvk/Transforms/Passes.h"

#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Shard/Interfaces/ShardingInterface.h"

using namespace mlir;

namespace meshvk {
#define GEN_PASS_DEF_CHECKSHARDING
#include "meshvk/Transforms/Passes.h.inc"
} // namespace meshvk

namespace {

bool touchesTensors(Operation *op) {
  auto isTensor = [](Type t) { return isa<TensorType>(t); };
  return llvm::any_of(op->getOperandTypes(), isTensor) ||
         llvm::any_of(op->getResultTypes(), isTensor);
}

LogicalResult checkGrid(shard::GridOp grid) {
  if (llvm::any_of(grid.getShape(), ShapedType::isDynamic)) {
    return grid.emitError() << "grid @" << grid.getSymName()
                            << " has a dynamic shape; meshvk unrolls the grid "
                               "into one program per process and needs every "
                               "axis size to be static";
  }
  if (llvm::any_of(grid.getShape(), [](int64_t s) { return s < 1; }))
    return grid.emitError()
           << "grid @" << grid.getSymName() << " has an axis of size < 1";
  if (Attribute attr = grid->getAttr(meshvk::kPeeredAxesAttr)) {
    auto axes = dyn_cast<DenseI64ArrayAttr>(attr);
    if (!axes)
      return grid.emitError()
             << meshvk::kPeeredAxesAttr
             << " must be an array<i64: ...> of grid axes, got " << attr;
    for (int64_t axis : axes.asArrayRef())
      if (axis < 0 || axis >= grid.getRank())
        return grid.emitError() << meshvk::kPeeredAxesAttr << " names axis "
                                << axis << " but grid @" << grid.getSymName()
                                << " has " << grid.getRank() << " axes";
  }
  return success();
}

/// What the partitioner supports: the sharding interface, and for linalg only
/// projected-permutation indexing maps with one init.
LogicalResult checkOp(Operation *op) {
  if (isa<shard::ShardDialect>(op->getDialect()) || isa<func::ReturnOp>(op) ||
      !touchesTensors(op))
    return success();
  for (Value operand : op->getOperands())
    if (auto arg = dyn_cast<BlockArgument>(operand))
      if (!isa<TensorType>(arg.getType()) &&
          isa<func::FuncOp>(arg.getOwner()->getParentOp()))
        return op->emitError()
               << "'" << op->getName() << "' uses scalar function argument #"
               << arg.getArgNumber()
               << ": upstream sharding-propagation cannot shard scalars; pass "
                  "it as a tensor<1x...> or make it a constant";
  // meshvk's input is linalg/tensor/arith/math; other dialects may implement
  // the sharding interface for propagation without being partitioned
  // (tosa.matmul is left whole by shard-partition).
  if (!isa<linalg::LinalgDialect, tensor::TensorDialect, arith::ArithDialect,
           math::MathDialect>(op->getDialect()))
    return op->emitError()
           << "'" << op->getName()
           << "' cannot be partitioned: meshvk takes linalg, tensor, arith "
              "and math ops on tensors";
  if (!isa<shard::ShardingInterface>(op))
    return op->emitError()
           << "'" << op->getName()
           << "' cannot be partitioned: it does not implement the shard "
              "sharding interface (supported: linalg ops with projected-"
              "permutation maps, tensor.empty, elementwise ops)";
  if (auto linalgOp = dyn_cast<linalg::LinalgOp>(op)) {
    if (linalgOp.getNumDpsInits() != 1)
      return op->emitError()
             << "'" << op->getName() << "' cannot be partitioned: it has "
             << linalgOp.getNumDpsInits()
             << " outputs, the partitioner handles one";
    for (AffineMap map : linalgOp.getIndexingMapsArray())
      if (!map.isProjectedPermutation())
        return op->emitError()
               << "'" << op->getName()
               << "' cannot be partitioned: indexing map "
               << AffineMapAttr::get(map)
               << " is not a projected permutation (convolutions and "
                  "strided accesses are not supported yet)";
  }
  return success();
}

struct CheckShardingPass : meshvk::impl::CheckShardingBase<CheckShardingPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    SymbolTableCollection symbols;
    bool failed = false;
    for (auto grid : module.getOps<shard::GridOp>())
      failed |= mlir::failed(checkGrid(grid));

    for (auto func : module.getOps<func::FuncOp>()) {
      if (func.isExternal() || func->hasAttr(meshvk::kKernelAttr))
        continue;
      bool annotated = false;
      func.walk([&](Operation *op) {
        failed |= mlir::failed(checkOp(op));
        if (auto sharding = dyn_cast<shard::ShardingOp>(op)) {
          annotated = true;
          if (!sharding.getStaticHaloSizes().empty() ||
              !sharding.getDynamicHaloSizes().empty() ||
              !sharding.getStaticShardedDimsOffsets().empty() ||
              !sharding.getDynamicShardedDimsOffsets().empty()) {
            sharding.emitError("halo sizes and explicit shard offsets are "
                               "not supported yet");
            failed = true;
          }
        }
        auto shardOp = dyn_cast<shard::ShardOp>(op);
        if (!shardOp)
          return;
        shard::ShardingOp sharding = meshvk::shardingOpOf(shardOp);
        if (!sharding) {
          shardOp.emitError("the sharding must come from a shard.sharding op "
                            "in the same function");
          failed = true;
          return;
        }
        shard::GridOp grid =
            shard::getGridOrNull(sharding, sharding.getGridAttr(), symbols);
        if (!grid)
          return; // the sharding op's own verifier names the unknown grid
        auto type = dyn_cast<RankedTensorType>(shardOp.getType());
        if (!type || !type.hasStaticShape()) {
          shardOp.emitError("meshvk needs statically shaped tensors, got ")
              << shardOp.getType();
          failed = true;
          return;
        }
        // Axes must name grid axes, once each, and only tensor dimensions
        // that exist (the shard dialect's verifier does not check either).
        llvm::SmallDenseSet<int16_t> seen;
        for (auto [dim, axes] :
             llvm::enumerate(sharding.getSplitAxes().getAxes())) {
          if (!axes.asArrayRef().empty() && (int64_t)dim >= type.getRank()) {
            shardOp.emitError()
                << "split_axes names tensor dimension " << dim << " but "
                << shardOp.getType() << " has rank " << type.getRank();
            failed = true;
            return;
          }
          for (int16_t axis : axes.asArrayRef()) {
            if (axis < 0 || axis >= grid.getRank() ||
                !seen.insert(axis).second) {
              shardOp.emitError()
                  << "split_axes uses grid axis " << axis << " of @"
                  << grid.getSymName() << " (rank " << grid.getRank()
                  << ") out of range or more than once";
              failed = true;
              return;
            }
          }
        }
        failed |= mlir::failed(meshvk::checkEvenSplit(
            shardOp, shardOp.getSrc(), type, grid.getShape(),
            sharding.getSplitAxes().getAxes()));
      });
      bool hasTensors =
          llvm::any_of(func.getArgumentTypes(),
                       [](Type t) { return isa<TensorType>(t); }) ||
          llvm::any_of(func.getResultTypes(),
                       [](Type t) { return isa<TensorType>(t); });
      if (hasTensors && !annotated && func.isPublic()) {
        func.emitError() << "@" << func.getSymName()
                         << " has no shard annotations: annotate at least "
                            "one argument or result with shard.shard so the "
                            "compiler knows how to split it";
        failed = true;
      }
    }
    if (failed)
      signalPassFailure();
  }
};

} // namespace

//===- SpmdFunctions.cpp - per-process functions: detection and ABI -------===//
//
// SPMD functions skip propagation and partitioning (there is nothing to
// partition: the user wrote the per-process program and its collectives);
// their ABI is recorded here instead of by meshvk-record-abi's annotation
// reading, and from there they go through the same unroll-grid and
// lower-collectives as partitioned programs.
//
//===----------------------------------------------------------------------===//
#include "SpmdFunctions.h"

#include "ShardingUtils.h"
#include "meshvk/Dialect/MeshVKDialect.h"

#include "mlir/Dialect/Shard/IR/ShardDialect.h"
#include "mlir/IR/Builders.h"

using namespace mlir;

bool meshvk::isSpmdFunction(func::FuncOp func) {
  if (func.isExternal() || !func.isPublic() || isKernel(func))
    return false;
  bool perProcess = false, annotated = false;
  func.walk([&](Operation *op) {
    if (isa<shard::ShardOp, shard::ShardingOp, shard::GetShardingOp, shard::ShardShapeOp>(op))
      annotated = true;
    else if (isa<shard::ShardDialect>(op->getDialect()))
      perProcess = true;
  });
  return perProcess && !annotated;
}

namespace {

/// The grid an op of the shard dialect names (all of them call it `grid`).
FlatSymbolRefAttr gridOf(Operation *op) { return op->getAttrOfType<FlatSymbolRefAttr>("grid"); }

} // namespace

LogicalResult meshvk::recordSpmdAbi(func::FuncOp func, SymbolTableCollection &symbols) {
  shard::GridOp grid;
  WalkResult walk = func.walk([&](Operation *op) {
    if (!isa<shard::ShardDialect>(op->getDialect()))
      return WalkResult::advance();
    FlatSymbolRefAttr ref = gridOf(op);
    auto g = ref ? symbols.lookupNearestSymbolFrom<shard::GridOp>(op, ref) : shard::GridOp();
    if (!g) {
      op->emitError("'") << op->getName() << "' names no shard.grid of this module";
      return WalkResult::interrupt();
    }
    if (grid && g != grid) {
      op->emitError("SPMD function @")
          << func.getSymName() << " uses grids @" << grid.getSymName() << " and @" << g.getSymName()
          << "; one function runs on one grid";
      return WalkResult::interrupt();
    }
    grid = g;
    return WalkResult::advance();
  });
  if (walk.wasInterrupted())
    return failure();
  if (llvm::any_of(grid.getShape(), ShapedType::isDynamic))
    return grid.emitError() << "grid @" << grid.getSymName()
                            << " has a dynamic shape; meshvk unrolls the grid into one "
                               "program per process and needs every axis size to be static";
  ArrayRef<int64_t> gridShape = grid.getShape();
  int64_t processes = gridSize(gridShape);
  MLIRContext *ctx = func.getContext();
  Builder b(ctx);
  SmallVector<int16_t> allAxes;
  for (int64_t a = 0; a < (int64_t)gridShape.size(); ++a)
    allAxes.push_back(static_cast<int16_t>(a));

  auto describe = [&](Type type, StringRef what, unsigned i) -> FailureOr<Attribute> {
    auto local = dyn_cast<RankedTensorType>(type);
    if (!local)
      return Attribute(ValueAbiAttr::get(ctx, type, nullptr, nullptr, nullptr, nullptr));
    if (!local.hasStaticShape())
      return func.emitError() << what << " #" << i << " of SPMD function @" << func.getSymName()
                              << " has type " << type << "; meshvk needs statically shaped tensors",
             failure();
    SmallVector<shard::GridAxesAttr> split;
    if (local.getRank() > 0)
      split.push_back(shard::GridAxesAttr::get(ctx, allAxes));
    else
      split.push_back(shard::GridAxesAttr::get(ctx, {}));
    SmallVector<int64_t> global(local.getShape());
    if (!global.empty())
      global[0] *= processes;
    auto globalType = RankedTensorType::get(global, local.getElementType());
    SmallVector<Attribute> offsets;
    for (int64_t p = 0; p < processes; ++p)
      offsets.push_back(b.getDenseI64ArrayAttr(shardOffsets(global, gridShape, split, p)));
    return Attribute(ValueAbiAttr::get(ctx, globalType, shard::GridAxesArrayAttr::get(ctx, split),
                                       b.getDenseI64ArrayAttr(local.getShape()),
                                       b.getArrayAttr(offsets), /*shard_shapes=*/nullptr));
  };
  SmallVector<Attribute> args, results;
  for (auto [i, t] : llvm::enumerate(func.getArgumentTypes())) {
    FailureOr<Attribute> abi = describe(t, "argument", i);
    if (failed(abi))
      return failure();
    args.push_back(*abi);
  }
  for (auto [i, t] : llvm::enumerate(func.getResultTypes())) {
    FailureOr<Attribute> abi = describe(t, "result", i);
    if (failed(abi))
      return failure();
    results.push_back(*abi);
  }
  MeshVKDialect::AbiAttrHelper(ctx).setAttr(
      func, AbiAttr::get(ctx, FlatSymbolRefAttr::get(grid.getSymNameAttr()),
                         b.getDenseI64ArrayAttr(gridShape), b.getArrayAttr(args),
                         b.getArrayAttr(results)));
  return success();
}

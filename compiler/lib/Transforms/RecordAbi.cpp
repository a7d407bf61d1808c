//===- RecordAbi.cpp - record each public function's global signature -----===//
//
// meshvk-record-abi runs after sharding-propagation (every argument then
// carries a sharding) and before shard-partition (which rewrites signatures to
// local shard types). What it records, `#meshvk.abi`, is what the host needs
// to shard inputs and assemble outputs, and what meshvk-verify-abi checks the
// partitioned signature against.
//
//===----------------------------------------------------------------------===//
#include "ShardingUtils.h"
#include "SpmdFunctions.h"
#include "meshvk/Transforms/Passes.h"

#include "mlir/IR/Builders.h"

using namespace mlir;

namespace meshvk {
#define GEN_PASS_DEF_RECORDABI
#include "meshvk/Transforms/Passes.h.inc"
} // namespace meshvk

namespace {

/// The sharding an argument enters the function with: its first shard.shard
/// user (this is what shard-partition uses). Unused arguments are replicated.
FailureOr<shard::ShardingOp> argumentSharding(BlockArgument arg) {
  for (Operation *user : arg.getUsers())
    if (auto shardOp = dyn_cast<shard::ShardOp>(user))
      if (shard::ShardingOp sharding = meshvk::shardingOpOf(shardOp))
        return sharding;
  if (arg.use_empty())
    return shard::ShardingOp();
  return failure();
}

/// Whether a function's argument or result must carry a sharding. A 0-d
/// tensor (a scalar) has no dimension to split: propagation leaves it
/// unannotated and shard-partition does not need one, so it is replicated.
bool needsAnnotation(Type type) {
  auto tensor = dyn_cast<RankedTensorType>(type);
  return tensor && tensor.getRank() > 0;
}

meshvk::ValueAbiAttr describe(Builder &b, Type type, shard::ShardingOp sharding,
                              shard::GridOp grid) {
  auto tensor = dyn_cast<RankedTensorType>(type);
  if (!tensor)
    return meshvk::ValueAbiAttr::get(b.getContext(), type, nullptr, nullptr, nullptr, nullptr);
  ArrayRef<int64_t> gridShape = grid.getShape();
  ArrayRef<shard::GridAxesAttr> splitAxes;
  ArrayRef<int64_t> dimsOffsets;
  if (sharding) {
    splitAxes = sharding.getSplitAxes().getAxes();
    dimsOffsets = sharding.getStaticShardedDimsOffsets();
  }
  // The partitioned function's local type: upstream's own rule (`?` where
  // explicit offsets give processes different sizes).
  SmallVector<int64_t> local(tensor.getShape());
  if (sharding)
    local.assign(
        shard::shardShapedType(tensor, grid, shard::Sharding(sharding.getResult())).getShape());
  SmallVector<Attribute> offsets, shapes;
  for (int64_t p = 0, e = meshvk::gridSize(gridShape); p < e; ++p) {
    SmallVector<int64_t> offset, size;
    meshvk::shardBox(tensor.getShape(), gridShape, splitAxes, dimsOffsets, p, offset, size);
    offsets.push_back(b.getDenseI64ArrayAttr(offset));
    shapes.push_back(b.getDenseI64ArrayAttr(size));
  }
  return meshvk::ValueAbiAttr::get(
      b.getContext(), tensor,
      sharding ? sharding.getSplitAxesAttr()
               : shard::GridAxesArrayAttr::get(b.getContext(),
                                               {shard::GridAxesAttr::get(b.getContext(), {})}),
      b.getDenseI64ArrayAttr(local), b.getArrayAttr(offsets),
      dimsOffsets.empty() ? ArrayAttr() : b.getArrayAttr(shapes));
}

struct RecordAbiPass : meshvk::impl::RecordAbiBase<RecordAbiPass> {
  void runOnOperation() override {
    SymbolTableCollection symbols;
    bool failed = false;
    for (auto func : getOperation().getOps<func::FuncOp>()) {
      if (func.isExternal() || !func.isPublic() || meshvk::isKernel(func))
        continue;
      if (mlir::failed(record(func, symbols)))
        failed = true;
    }
    if (failed)
      signalPassFailure();
  }

  LogicalResult record(func::FuncOp func, SymbolTableCollection &symbols) {
    // Before anything that reads annotations: a tensor the runtime cannot
    // hold (an i1 mask, i64) is the reason, not a missing annotation that an
    // earlier rewrite of it caused.
    FunctionType type = func.getFunctionType();
    for (auto [what, types] : {std::pair<StringRef, TypeRange>{"argument", type.getInputs()},
                               std::pair<StringRef, TypeRange>{"result", type.getResults()}})
      for (auto [i, t] : llvm::enumerate(types))
        if (auto tensor = dyn_cast<RankedTensorType>(t);
            tensor && !meshvk::isStorableElementType(tensor.getElementType()))
          return func.emitOpError()
                 << what << " #" << i << " has element type " << tensor.getElementType()
                 << "; the runtime supports f32, f16 and i32";
    if (meshvk::isSpmdFunction(func))
      return meshvk::recordSpmdAbi(func, symbols);
    // One grid per function: the plan is unrolled over it.
    shard::GridOp grid;
    WalkResult walk = func.walk([&](shard::ShardingOp sharding) {
      shard::GridOp g = shard::getGridOrNull(sharding, sharding.getGridAttr(), symbols);
      if (!g) {
        sharding.emitError("unknown grid @") << sharding.getGrid();
        return WalkResult::interrupt();
      }
      if (grid && g != grid) {
        sharding.emitError("@") << func.getSymName() << " uses grids @" << grid.getSymName()
                                << " and @" << g.getSymName()
                                << "; one function must run on one grid";
        return WalkResult::interrupt();
      }
      grid = g;
      return WalkResult::advance();
    });
    if (walk.wasInterrupted())
      return failure();
    if (!grid)
      return func.emitError() << "@" << func.getSymName() << " has no shard annotations";
    ArrayRef<int64_t> gridShape = grid.getShape();
    Builder b(func.getContext());

    SmallVector<Attribute> args, results;
    for (BlockArgument arg : func.getArguments()) {
      FailureOr<shard::ShardingOp> sharding = argumentSharding(arg);
      if (needsAnnotation(arg.getType()) && mlir::failed(sharding))
        return func.emitError() << "argument #" << arg.getArgNumber() << " of @"
                                << func.getSymName()
                                << " has no sharding, and none could be propagated to it: "
                                   "annotate it with shard.shard";
      shard::ShardingOp s = mlir::succeeded(sharding) ? *sharding : nullptr;
      args.push_back(describe(b, arg.getType(), s, grid));
    }
    if (!func.getBody().hasOneBlock())
      return func.emitError("only single-block functions are supported");
    auto ret = dyn_cast<func::ReturnOp>(func.getBody().back().getTerminator());
    if (!ret)
      return func.emitError("the function must end in func.return");
    for (auto [i, value] : llvm::enumerate(ret.getOperands())) {
      auto shardOp = value.getDefiningOp<shard::ShardOp>();
      shard::ShardingOp s = shardOp ? meshvk::shardingOpOf(shardOp) : nullptr;
      if (needsAnnotation(value.getType()) && !s)
        return ret.emitError() << "result #" << i << " of @" << func.getSymName()
                               << " has no sharding: annotate the returned "
                                  "value with shard.shard";
      results.push_back(describe(b, value.getType(), s, grid));
    }
    // Every annotation of an uneven split carries its offsets by now
    // (meshvk-uneven-shards); upstream would assert on one that does not.
    WalkResult uneven = func.walk([&](shard::ShardOp shardOp) {
      shard::ShardingOp s = meshvk::shardingOpOf(shardOp);
      auto type = dyn_cast<RankedTensorType>(shardOp.getType());
      if (!s || !type || !s.getStaticShardedDimsOffsets().empty())
        return WalkResult::advance();
      SmallVector<int64_t> counts =
          meshvk::splitCounts(gridShape, s.getSplitAxes().getAxes(), type.getRank());
      for (int64_t d = 0; d < type.getRank(); ++d)
        if (type.getDimSize(d) % counts[d] != 0) {
          shardOp.emitError() << meshvk::describeTensor(shardOp.getSrc()) << ": dimension " << d
                              << " (size " << type.getDimSize(d) << ") does not divide over "
                              << counts[d]
                              << " processes and has no shard offsets (run "
                                 "meshvk-uneven-shards before meshvk-record-abi)";
          return WalkResult::interrupt();
        }
      return WalkResult::advance();
    });
    if (uneven.wasInterrupted())
      return failure();

    meshvk::MeshVKDialect::AbiAttrHelper(func.getContext())
        .setAttr(func, meshvk::AbiAttr::get(func.getContext(),
                                            FlatSymbolRefAttr::get(grid.getSymNameAttr()),
                                            b.getDenseI64ArrayAttr(gridShape), b.getArrayAttr(args),
                                            b.getArrayAttr(results)));
    return success();
  }
};

} // namespace

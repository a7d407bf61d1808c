//===- Abi.cpp - record and verify each public function's global ABI ------===//
//
// meshvk-record-abi runs after sharding-propagation (every argument then
// carries a sharding) and before shard-partition (which rewrites signatures to
// local shard types). meshvk-verify-abi runs after partitioning and checks the
// partitioned signature against the record: upstream can silently drop a
// resharding step and change a result's shape.
//
//===----------------------------------------------------------------------===//
#include "ShardingUtils.h"
#include "meshvk/Transforms/Passes.h"

#include "mlir/IR/Builders.h"

using namespace mlir;

namespace meshvk {
#define GEN_PASS_DEF_RECORDABI
#define GEN_PASS_DEF_VERIFYABI
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

DictionaryAttr describe(Builder &b, Type type, shard::ShardingOp sharding,
                        ArrayRef<int64_t> gridShape) {
  SmallVector<NamedAttribute> fields;
  fields.push_back(b.getNamedAttr("type", TypeAttr::get(type)));
  auto tensor = dyn_cast<RankedTensorType>(type);
  if (!tensor)
    return b.getDictionaryAttr(fields);
  ArrayRef<shard::GridAxesAttr> splitAxes;
  if (sharding)
    splitAxes = sharding.getSplitAxes().getAxes();
  fields.push_back(b.getNamedAttr(
      "split_axes",
      sharding ? Attribute(sharding.getSplitAxesAttr())
               : Attribute(shard::GridAxesArrayAttr::get(b.getContext(), {}))));
  SmallVector<int64_t> counts =
      meshvk::splitCounts(gridShape, splitAxes, tensor.getRank());
  SmallVector<int64_t> local(tensor.getShape());
  for (auto [size, count] : llvm::zip(local, counts))
    size /= count;
  fields.push_back(
      b.getNamedAttr("shard_shape", b.getDenseI64ArrayAttr(local)));
  SmallVector<Attribute> offsets;
  for (int64_t p = 0, e = meshvk::gridSize(gridShape); p < e; ++p)
    offsets.push_back(b.getDenseI64ArrayAttr(
        meshvk::shardOffsets(tensor.getShape(), gridShape, splitAxes, p)));
  fields.push_back(b.getNamedAttr("shard_offsets", b.getArrayAttr(offsets)));
  return b.getDictionaryAttr(fields);
}

struct RecordAbiPass : meshvk::impl::RecordAbiBase<RecordAbiPass> {
  void runOnOperation() override {
    SymbolTableCollection symbols;
    bool failed = false;
    for (auto func : getOperation().getOps<func::FuncOp>()) {
      if (func.isExternal() || !func.isPublic() ||
          func->hasAttr(meshvk::kKernelAttr))
        continue;
      if (mlir::failed(record(func, symbols)))
        failed = true;
    }
    if (failed)
      signalPassFailure();
  }

  LogicalResult record(func::FuncOp func, SymbolTableCollection &symbols) {
    // One grid per function: the plan is unrolled over it.
    shard::GridOp grid;
    WalkResult walk = func.walk([&](shard::ShardingOp sharding) {
      shard::GridOp g =
          shard::getGridOrNull(sharding, sharding.getGridAttr(), symbols);
      if (!g) {
        sharding.emitError("unknown grid @") << sharding.getGrid();
        return WalkResult::interrupt();
      }
      if (grid && g != grid) {
        sharding.emitError("@")
            << func.getSymName() << " uses grids @" << grid.getSymName()
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
      return func.emitError()
             << "@" << func.getSymName() << " has no shard annotations";
    ArrayRef<int64_t> gridShape = grid.getShape();
    Builder b(func.getContext());

    SmallVector<Attribute> args, results;
    for (BlockArgument arg : func.getArguments()) {
      FailureOr<shard::ShardingOp> sharding = argumentSharding(arg);
      if (isa<RankedTensorType>(arg.getType()) && mlir::failed(sharding))
        return func.emitError()
               << "argument #" << arg.getArgNumber() << " of @"
               << func.getSymName()
               << " has no sharding, and none could be propagated to it: "
                  "annotate it with shard.shard";
      shard::ShardingOp s = mlir::succeeded(sharding) ? *sharding : nullptr;
      if (s && mlir::failed(meshvk::checkEvenSplit(
                   func, arg, cast<ShapedType>(arg.getType()), gridShape,
                   s.getSplitAxes().getAxes())))
        return failure();
      args.push_back(describe(b, arg.getType(), s, gridShape));
    }
    if (!func.getBody().hasOneBlock())
      return func.emitError("only single-block functions are supported");
    auto ret = dyn_cast<func::ReturnOp>(func.getBody().back().getTerminator());
    if (!ret)
      return func.emitError("the function must end in func.return");
    for (auto [i, value] : llvm::enumerate(ret.getOperands())) {
      auto shardOp = value.getDefiningOp<shard::ShardOp>();
      shard::ShardingOp s = shardOp ? meshvk::shardingOpOf(shardOp) : nullptr;
      if (isa<RankedTensorType>(value.getType()) && !s)
        return ret.emitError()
               << "result #" << i << " of @" << func.getSymName()
               << " has no sharding: annotate the returned "
                  "value with shard.shard";
      results.push_back(describe(b, value.getType(), s, gridShape));
    }
    // Every propagated annotation must split evenly too.
    WalkResult uneven = func.walk([&](shard::ShardOp shardOp) {
      shard::ShardingOp s = meshvk::shardingOpOf(shardOp);
      auto type = dyn_cast<ShapedType>(shardOp.getType());
      if (s && type &&
          mlir::failed(meshvk::checkEvenSplit(shardOp, shardOp.getSrc(), type,
                                              gridShape,
                                              s.getSplitAxes().getAxes())))
        return WalkResult::interrupt();
      return WalkResult::advance();
    });
    if (uneven.wasInterrupted())
      return failure();

    func->setAttr(
        meshvk::kAbiAttr,
        b.getDictionaryAttr({
            b.getNamedAttr("grid",
                           FlatSymbolRefAttr::get(grid.getSymNameAttr())),
            b.getNamedAttr("grid_shape", b.getDenseI64ArrayAttr(gridShape)),
            b.getNamedAttr("args", b.getArrayAttr(args)),
            b.getNamedAttr("results", b.getArrayAttr(results)),
        }));
    return success();
  }
};

/// The local type recorded for one argument or result, or null if not a tensor.
Type localType(DictionaryAttr entry) {
  auto type = cast<TypeAttr>(entry.get("type")).getValue();
  auto tensor = dyn_cast<RankedTensorType>(type);
  if (!tensor)
    return type;
  auto shape = cast<DenseI64ArrayAttr>(entry.get("shard_shape"));
  return RankedTensorType::get(shape.asArrayRef(), tensor.getElementType());
}

struct VerifyAbiPass : meshvk::impl::VerifyAbiBase<VerifyAbiPass> {
  void runOnOperation() override {
    bool failed = false;
    for (auto func : getOperation().getOps<func::FuncOp>()) {
      auto abi = func->getAttrOfType<DictionaryAttr>(meshvk::kAbiAttr);
      if (!abi)
        continue;
      auto args = dyn_cast_or_null<ArrayAttr>(abi.get("args"));
      auto results = dyn_cast_or_null<ArrayAttr>(abi.get("results"));
      auto wellFormed = [](ArrayAttr entries) {
        return entries && llvm::all_of(entries, [](Attribute e) {
                 auto dict = dyn_cast<DictionaryAttr>(e);
                 if (!dict || !isa_and_nonnull<TypeAttr>(dict.get("type")))
                   return false;
                 auto tensor = dyn_cast<RankedTensorType>(
                     cast<TypeAttr>(dict.get("type")).getValue());
                 return !tensor || isa_and_nonnull<DenseI64ArrayAttr>(
                                       dict.get("shard_shape"));
               });
      };
      if (!wellFormed(args) || !wellFormed(results)) {
        func.emitError() << meshvk::kAbiAttr << " of @" << func.getSymName()
                         << " is malformed";
        failed = true;
        continue;
      }
      FunctionType type = func.getFunctionType();
      if (args.size() != type.getNumInputs() ||
          results.size() != type.getNumResults()) {
        func.emitError() << "partitioning changed the number of arguments or "
                            "results of @"
                         << func.getSymName();
        failed = true;
        continue;
      }
      auto check = [&](ArrayAttr entries, TypeRange actual, StringRef what) {
        for (auto [i, entry] : llvm::enumerate(entries)) {
          auto dict = cast<DictionaryAttr>(entry);
          Type expected = localType(dict);
          if (expected == actual[i])
            continue;
          auto diag = func.emitError()
                      << "partitioning broke the signature of @"
                      << func.getSymName() << ": " << what << " #" << i
                      << " should be the local shard " << expected
                      << " of the global " << dict.get("type");
          if (Attribute split = dict.get("split_axes"))
            diag << " split " << split;
          diag << " but is " << actual[i]
               << " (upstream shard-partition did not partition it as annotated: a dropped resharding step, or an op it cannot partition)";
          failed = true;
        }
      };
      check(args, type.getInputs(), "argument");
      check(results, type.getResults(), "result");
    }
    if (failed)
      signalPassFailure();
  }
};

} // namespace

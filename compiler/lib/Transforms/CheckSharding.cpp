//===- CheckSharding.cpp - reject inputs the partitioner gets wrong -------===//
//
// Upstream sharding-propagation / shard-partition assert, crash or silently
// miscompile on several inputs (uneven shards are made safe later, by
// meshvk-uneven-shards; their malformed offsets are refused here). This pass runs first and turns
// each of them into one diagnostic at the offending op.
//
//===----------------------------------------------------------------------===//
#include "ShardingUtils.h"
#include "SpmdFunctions.h"
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

/// The most processes a grid may have. The plan holds one copy of the
/// program per process and a collective among P processes becomes up to
/// P * (P - 1) copies, so compile time and memory grow with P * program
/// size and P^2 * collectives (README "Limits" gives measured numbers); the
/// runtime's artifact verifier accepts 4096 processes.
constexpr int64_t kMaxGridProcesses = 1024;

LogicalResult checkGrid(shard::GridOp grid) {
  if (llvm::any_of(grid.getShape(), ShapedType::isDynamic)) {
    return grid.emitError() << "grid @" << grid.getSymName()
                            << " has a dynamic shape; meshvk unrolls the grid "
                               "into one program per process and needs every "
                               "axis size to be static (mesh-vk-compile --grid-shape=N, "
                               "mesh-vk-run --devices=N)";
  }
  if (llvm::any_of(grid.getShape(), [](int64_t s) { return s < 1; }))
    return grid.emitError() << "grid @" << grid.getSymName() << " has an axis of size < 1";
  int64_t processes = 1;
  std::string shape;
  for (int64_t s : grid.getShape()) {
    // Saturating: no overflow for huge extents.
    processes = s > kMaxGridProcesses ? kMaxGridProcesses + 1
                                      : std::min<int64_t>(processes * s, kMaxGridProcesses + 1);
    shape += (shape.empty() ? "" : "x") + std::to_string(s);
  }
  if (processes > kMaxGridProcesses)
    return grid.emitError() << "grid @" << grid.getSymName() << " (shape " << shape
                            << ") has more than " << kMaxGridProcesses
                            << " processes; meshvk compiles one plan per process and accepts "
                               "at most "
                            << kMaxGridProcesses;
  return success();
}

/// Split axes must name axes of their grid, each once (the shard dialect's
/// verifier checks neither; everything after this pass indexes the grid's
/// shape with them).
LogicalResult checkSplitAxes(shard::ShardingOp sharding, SymbolTableCollection &symbols) {
  shard::GridOp grid = shard::getGridOrNull(sharding, sharding.getGridAttr(), symbols);
  if (!grid)
    return success(); // the sharding op's own verifier names the unknown grid
  int64_t rank = grid.getRank();
  llvm::SmallDenseSet<int16_t> seen;
  for (shard::GridAxesAttr dimAxes : sharding.getSplitAxes().getAxes())
    for (int16_t axis : dimAxes.asArrayRef()) {
      if (axis < 0 || axis >= rank)
        return sharding.emitError()
               << "sharding splits over grid axis " << axis << ", but @" << grid.getSymName()
               << " has " << rank << (rank == 1 ? " axis" : " axes") << " (shape "
               << grid.getShape() << ")";
      if (!seen.insert(axis).second)
        return sharding.emitError() << "sharding splits over grid axis " << axis << " of @"
                                    << grid.getSymName() << " more than once";
    }
  return success();
}

/// What the partitioner supports: the sharding interface, and for linalg only
/// projected-permutation indexing maps with one init.
LogicalResult checkOp(Operation *op) {
  // Collectives, halo updates and process indices belong in SPMD functions
  // (per-process code, no annotations; SpmdFunctions.h); mixed with
  // annotations of the global program they have no meaning.
  if (isa<shard::ShardDialect>(op->getDialect()) &&
      !isa<shard::ShardingOp, shard::ShardOp, shard::GridOp>(op))
    return op->emitError() << "'" << op->getName()
                           << "' in a function with shard.shard annotations: collectives "
                              "are per-process code; write them in an SPMD function (local "
                              "shapes, no shard.shard, see compiler/README.md \"SPMD "
                              "functions\"), or annotate the tensor with the sharding you "
                              "want instead (e.g. split_axes = [[]] after a split contraction "
                              "for an all-reduce)";
  if (isa<shard::ShardDialect>(op->getDialect()) || isa<func::ReturnOp>(op) || !touchesTensors(op))
    return success();
  for (Value operand : op->getOperands())
    if (auto arg = dyn_cast<BlockArgument>(operand))
      if (!isa<TensorType>(arg.getType()) && isa<func::FuncOp>(arg.getOwner()->getParentOp()))
        return op->emitError() << "'" << op->getName() << "' uses scalar function argument #"
                               << arg.getArgNumber()
                               << ": upstream sharding-propagation cannot shard scalars; pass "
                                  "it as a tensor<1x...> or make it a constant";
  // meshvk-normalize-input made non-splat constants of f32/f16/i32
  // meshvk.constant; upstream's arith.constant rule fails without a
  // diagnostic on the ones left (MLIR 22.1).
  if (auto constant = dyn_cast<arith::ConstantOp>(op))
    if (auto dense = dyn_cast<ElementsAttr>(constant.getValue());
        dense && isa<RankedTensorType>(constant.getType()) &&
        !(isa<DenseElementsAttr>(dense) && cast<DenseElementsAttr>(dense).isSplat())) {
      if (meshvk::isStorableElementType(
              cast<RankedTensorType>(constant.getType()).getElementType()))
        return op->emitError() << "a tensor constant whose elements differ (" << constant.getType()
                               << ") must be a meshvk.constant: run meshvk-normalize-input first";
      return op->emitError() << "a tensor constant whose elements differ (" << constant.getType()
                             << ") has an element type the runtime cannot store; constants "
                                "of f32, f16 and i32 are supported: convert it in the program "
                                "(arith.extsi / sitofp) or pass it as a function argument";
    }
  if (isa<meshvk::ConstantOp, meshvk::WindowOp>(op))
    return success();
  // A tensor read inside a linalg body (tosa.gather, tosa.reverse):
  // meshvk-prepare-generics annotated it replicated for the read, so the
  // partitioned body reads the whole tensor on every process.
  if (auto extract = dyn_cast<tensor::ExtractOp>(op);
      extract && extract->getParentOfType<linalg::LinalgOp>()) {
    auto whole = extract.getTensor().getDefiningOp<shard::ShardOp>();
    shard::ShardingOp sharding = whole ? meshvk::shardingOpOf(whole) : shard::ShardingOp();
    if (sharding && whole.getAnnotateForUsers() &&
        llvm::all_of(sharding.getSplitAxes().getAxes(),
                     [](shard::GridAxesAttr axes) { return axes.empty(); }))
      return success();
    return op->emitError("'tensor.extract' inside a linalg body reads a tensor that is not "
                         "replicated (a dynamic shape, or a function without shard "
                         "annotations): give the tensor a static shape");
  }
  // Strided and rank-expanding inserts have no copy lowering and no kernel.
  if (auto insert = dyn_cast<tensor::InsertSliceOp>(op)) {
    if (llvm::any_of(insert.getStaticStrides(), [](int64_t s) { return s != 1; }))
      return op->emitError("'tensor.insert_slice' with strides other than 1 is not supported: "
                           "insert unit-stride blocks, or build the result with linalg.generic");
    if (insert.getSourceType().getRank() != insert.getDestType().getRank())
      return op->emitError("'tensor.insert_slice' of a lower-rank source is not supported: "
                           "tensor.expand_shape the source to the destination's rank first");
  }
  // meshvk's input is linalg/tensor/arith/math; other dialects may implement
  // the sharding interface for propagation without being partitioned
  // (tosa.matmul is left whole by shard-partition).
  if (!isa<linalg::LinalgDialect, tensor::TensorDialect, arith::ArithDialect, math::MathDialect>(
          op->getDialect()))
    return op->emitError() << "'" << op->getName()
                           << "' cannot be partitioned: meshvk takes linalg, tensor, arith "
                              "and math ops on tensors";
  if (!isa<shard::ShardingInterface>(op))
    return op->emitError() << "'" << op->getName()
                           << "' cannot be partitioned: it does not implement the shard "
                              "sharding interface (supported: linalg ops with projected-"
                              "permutation maps, tensor.empty, elementwise ops)";
  if (auto linalgOp = dyn_cast<linalg::LinalgOp>(op)) {
    if (linalgOp.getNumDpsInits() != 1)
      return op->emitError() << "'" << op->getName() << "' cannot be partitioned: its "
                             << linalgOp.getNumDpsInits()
                             << " outputs depend on each other (a yield reads another "
                                "output's accumulator) and the partitioner handles one output; "
                                "write one generic per output (an argmax as tosa.argmax, or a "
                                "max reduction then a min-index reduction over x == max)";
    for (AffineMap map : linalgOp.getIndexingMapsArray())
      if (!map.isProjectedPermutation())
        return op->emitError() << "'" << op->getName() << "' cannot be partitioned: indexing map "
                               << AffineMapAttr::get(map)
                               << " is not a projected permutation (convolutions and "
                                  "strided accesses are not supported yet)";
  }
  return success();
}

/// One line for the first argument or result of public `func` the ABI cannot
/// move: not a ranked tensor without encoding, empty, or of more than 2^32
/// elements (the emitter's element count would wrap). True when it found one.
bool badSignature(func::FuncOp func) {
  bool bad = false;
  auto describe = [&](StringRef what, unsigned i, Type t, Location loc) {
    auto tensor = dyn_cast<RankedTensorType>(t);
    if (bad)
      return; // one line: the first offending type
    if (tensor && !tensor.getEncoding()) {
      uint64_t elements = 1;
      bool tooBig = false, empty = false;
      for (int64_t d : tensor.getShape()) {
        if (ShapedType::isDynamic(d))
          return; // the shard.shard check names dynamic shapes
        empty |= d == 0;
        tooBig |= d > 0 && elements > (uint64_t{1} << 32) / (uint64_t)d;
        if (!tooBig && d > 0)
          elements *= (uint64_t)d;
      }
      if (!empty && !tooBig)
        return;
      emitError(loc) << what << " #" << i << " of @" << func.getSymName() << " is " << t
                     << (empty ? ": an empty tensor (a dimension of size 0); meshvk needs "
                                 "at least one element"
                               : ": more than 2^32 elements, meshvk's limit per tensor");
      bad = true;
      return;
    }
    emitError(loc) << what << " #" << i << " of @" << func.getSymName() << " is " << t
                   << ": meshvk functions take and return ranked tensors without encoding"
                   << (t.isIntOrIndexOrFloat() ? " (a scalar is a 0-d tensor<...>)" : "");
    bad = true;
  };
  for (auto [i, t] : llvm::enumerate(func.getArgumentTypes()))
    describe("argument", i, t, func.getArgument(i).getLoc());
  for (auto [i, t] : llvm::enumerate(func.getResultTypes()))
    describe("result", i, t, func.getLoc());
  return bad;
}

/// Halos and offsets of a global program's annotation must be constants.
LogicalResult checkAnnotation(shard::ShardingOp sharding) {
  bool bad = false;
  if (!sharding.getStaticHaloSizes().empty() || !sharding.getDynamicHaloSizes().empty()) {
    // Upstream shard-partition crashes on ops whose operands carry
    // halos, and halo shards overlap (no block ABI for them);
    // meshvk-normalize-input drops constant ones, so these are SSA
    // values (or this pass runs alone).
    sharding.emitError("halo_sizes that are not constants are not supported in a "
                       "global program's annotations: "
                       "write the stencil as an SPMD function that calls "
                       "shard.update_halo (compiler/README.md \"SPMD functions\"), or "
                       "as tensor.pad + tensor.extract_slice windows of the global "
                       "tensor (each process then pulls only the borders its windows read)");
    bad = true;
  }
  if (!sharding.getDynamicShardedDimsOffsets().empty()) {
    sharding.emitError("sharded_dims_offsets given as SSA values are not supported: "
                       "write them as constants");
    bad = true;
  }
  return failure(bad);
}

/// A shard.shard: its sharding a shard.sharding op, its tensor static, its
/// split axes naming dimensions that exist, its uneven splits and written
/// offsets of a form meshvk-uneven-shards runs (`badGrids`' shards are not
/// cut: their grid was reported).
LogicalResult checkShard(shard::ShardOp shardOp, SymbolTableCollection &symbols,
                         const llvm::DenseSet<StringRef> &badGrids) {
  shard::ShardingOp sharding = meshvk::shardingOpOf(shardOp);
  if (!sharding)
    return shardOp.emitError("the sharding must come from a shard.sharding op "
                             "in the same function");
  shard::GridOp grid = shard::getGridOrNull(sharding, sharding.getGridAttr(), symbols);
  if (!grid)
    return success(); // the sharding op's own verifier names the unknown grid
  auto type = dyn_cast<RankedTensorType>(shardOp.getType());
  if (!type || !type.hasStaticShape())
    return shardOp.emitError("meshvk needs statically shaped tensors, got ") << shardOp.getType();
  // Split axes name only tensor dimensions that exist (the shard
  // dialect's verifier does not check it).
  for (auto [dim, axes] : llvm::enumerate(sharding.getSplitAxes().getAxes()))
    if (!axes.asArrayRef().empty() && (int64_t)dim >= type.getRank())
      return shardOp.emitError() << "split_axes names tensor dimension " << dim << " but "
                                 << shardOp.getType() << " has rank " << type.getRank();
  // Uneven splits and written offsets run (meshvk-uneven-shards); what
  // they cannot be is refused here with the rule they break.
  if (sharding.getDynamicShardedDimsOffsets().empty() && !badGrids.contains(grid.getSymName()))
    return meshvk::resolveShardOffsets(shardOp, shardOp.getSrc(), type, grid.getShape(),
                                       sharding.getSplitAxes().getAxes(),
                                       sharding.getStaticShardedDimsOffsets());
  return success();
}

/// Every op and annotation of a global function; a public one must move
/// tensors (a scalar, memref or vector argument has no shard and upstream
/// propagation stops at it) and annotate at least one of them.
LogicalResult checkFunction(func::FuncOp func, SymbolTableCollection &symbols,
                            const llvm::DenseSet<StringRef> &badGrids) {
  if (func.isPublic() && badSignature(func))
    return failure();
  bool failed = false, annotated = false;
  func.walk([&](Operation *op) {
    failed |= mlir::failed(checkOp(op));
    if (auto sharding = dyn_cast<shard::ShardingOp>(op)) {
      annotated = true;
      failed |= mlir::failed(checkAnnotation(sharding));
    }
    if (auto shardOp = dyn_cast<shard::ShardOp>(op))
      failed |= mlir::failed(checkShard(shardOp, symbols, badGrids));
  });
  bool hasTensors =
      llvm::any_of(func.getArgumentTypes(), [](Type t) { return isa<TensorType>(t); }) ||
      llvm::any_of(func.getResultTypes(), [](Type t) { return isa<TensorType>(t); });
  if (hasTensors && !annotated && func.isPublic()) {
    func.emitError() << "@" << func.getSymName()
                     << " has no shard annotations: annotate at least "
                        "one argument or result with shard.shard so the "
                        "compiler knows how to split it";
    failed = true;
  }
  return failure(failed);
}

struct CheckShardingPass : meshvk::impl::CheckShardingBase<CheckShardingPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    SymbolTableCollection symbols;
    bool failed = false;
    // Only grids the program uses: a module may declare others (upstream's
    // test files declare a dynamic grid next to static ones).
    llvm::DenseSet<StringRef> used;
    module.walk([&](shard::ShardingOp s) { used.insert(s.getGrid()); });
    llvm::DenseSet<StringRef> badGrids; // reported once; their shards are not cut
    for (auto grid : module.getOps<shard::GridOp>())
      if (used.contains(grid.getSymName()) && mlir::failed(checkGrid(grid))) {
        failed = true;
        badGrids.insert(grid.getSymName());
      }
    // First, so that no check below reads a grid axis that does not exist.
    WalkResult axes = module.walk([&](shard::ShardingOp sharding) {
      return mlir::failed(checkSplitAxes(sharding, symbols)) ? WalkResult::interrupt()
                                                             : WalkResult::advance();
    });
    if (axes.wasInterrupted())
      return signalPassFailure();
    for (auto func : module.getOps<func::FuncOp>()) {
      if (func.isExternal() || meshvk::isKernel(func) || meshvk::isSpmdFunction(func))
        continue; // SPMD functions: checked by meshvk::recordSpmdAbi
      failed |= mlir::failed(checkFunction(func, symbols, badGrids));
    }
    if (failed)
      signalPassFailure();
  }
};

} // namespace

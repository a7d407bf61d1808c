//===- UnrollGrid.cpp - SPMD function -> per-process straight-line plan ---===//
//
// The partitioned function is the program of every process. Unrolling it over
// the static grid gives each process its own copy in which the process index is
// a constant, so the branches shard-partition emits (e.g. "only process 0 keeps
// the accumulator init") fold away and each process's ops are a straight line.
// Collectives are tagged with one id shared by all processes' copies so that
// meshvk-lower-collectives can match them.
//
//===----------------------------------------------------------------------===//
#include "ShardingUtils.h"
#include "meshvk/Transforms/Passes.h"

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

using namespace mlir;

namespace meshvk {
#define GEN_PASS_DEF_UNROLLGRID
#include "meshvk/Transforms/Passes.h.inc"
} // namespace meshvk

namespace {

bool isCollective(Operation *op) {
  return isa<shard::AllGatherOp, shard::AllReduceOp, shard::AllSliceOp, shard::AllToAllOp,
             shard::BroadcastOp, shard::GatherOp, shard::ReduceOp, shard::ReduceScatterOp,
             shard::ScatterOp, shard::SendOp, shard::RecvOp, shard::ShiftOp, shard::UpdateHaloOp,
             meshvk::ReshardOp, meshvk::WindowOp>(op);
}

/// Process `p`'s sizes for a `shard.shard_shape` of its own shard (the only
/// form shard-partition emits: `device` is the process's multi-index).
FailureOr<SmallVector<int64_t>> shardShapeOn(shard::ShardShapeOp op, int64_t p,
                                             ArrayRef<int64_t> gridShape) {
  auto sharding = op.getSharding().getDefiningOp<shard::ShardingOp>();
  bool ownIndex = sharding && !llvm::is_contained(op.getDims(), ShapedType::kDynamic) &&
                  op.getDeviceDynamic().size() == gridShape.size();
  for (auto [axis, v] : llvm::enumerate(op.getDeviceDynamic())) {
    auto index = v.getDefiningOp<shard::ProcessMultiIndexOp>();
    ownIndex &= index && index.getAxes().empty() && cast<OpResult>(v).getResultNumber() == axis;
  }
  if (!ownIndex)
    return op.emitError("'shard.shard_shape' of another process's shard or of dynamic "
                        "dimensions is not supported");
  SmallVector<int64_t> offsets, sizes;
  meshvk::shardBox(op.getDims(), gridShape, sharding.getSplitAxes().getAxes(),
                   sharding.getStaticShardedDimsOffsets(), p, offsets, sizes);
  return sizes;
}

/// Offsets, sizes and strides of a slice that became constants on one
/// process (an uneven shard's extent) move into its static attributes, and an
/// extract_slice gets the static type they give.
template <typename SliceOp>
void foldConstantSliceOperands(SliceOp slice) {
  // A constant, or the extent of a dimension that is static on this process
  // (shard-partition sizes a slice of an uneven shard with tensor.dim).
  auto constantOf = [](OpFoldResult r) -> std::optional<int64_t> {
    if (std::optional<int64_t> c = getConstantIntValue(r))
      return c;
    auto dim = dyn_cast_if_present<Value>(r) ? cast<Value>(r).getDefiningOp<tensor::DimOp>()
                                             : tensor::DimOp();
    std::optional<int64_t> index = dim ? dim.getConstantIndex() : std::nullopt;
    auto source = dim ? dyn_cast<RankedTensorType>(dim.getSource().getType()) : nullptr;
    if (!index || !source || *index >= source.getRank() || source.isDynamicDim(*index))
      return std::nullopt;
    return source.getDimSize(*index);
  };
  auto fold = [&](SmallVector<OpFoldResult> mixed, MutableOperandRange range) {
    for (OpFoldResult &r : mixed)
      if (std::optional<int64_t> c = constantOf(r))
        r = Builder(slice.getContext()).getIndexAttr(*c);
    SmallVector<Value> dynamic;
    SmallVector<int64_t> statics;
    dispatchIndexOpFoldResults(mixed, dynamic, statics);
    range.assign(dynamic);
    return statics;
  };
  llvm::SmallBitVector dropped = slice.getDroppedDims();
  slice.setStaticOffsets(fold(slice.getMixedOffsets(), slice.getOffsetsMutable()));
  SmallVector<int64_t> sizes = fold(slice.getMixedSizes(), slice.getSizesMutable());
  slice.setStaticSizes(sizes);
  slice.setStaticStrides(fold(slice.getMixedStrides(), slice.getStridesMutable()));
  if constexpr (std::is_same_v<SliceOp, tensor::ExtractSliceOp>) {
    SmallVector<int64_t> shape;
    for (auto [d, size] : llvm::enumerate(sizes))
      if (!dropped.test(d))
        shape.push_back(size);
    slice.getResult().setType(slice.getType().clone(shape));
  }
}

/// A split meshvk.constant cloned for process `p` keeps only p's part of the
/// global value: each process's constant buffer holds what it reads.
LogicalResult cutConstantFor(meshvk::ConstantOp constant, int64_t p, ArrayRef<int64_t> gridShape) {
  if (!constant.getGridAttr())
    return success();
  RankedTensorType global = constant.getGlobalType();
  SmallVector<int64_t> offsets, sizes;
  meshvk::shardBox(global.getShape(), gridShape, constant.getSplitAxesAttr().getAxes(),
                   constant.getOffsetsAttr().asArrayRef(), p, offsets, sizes);
  std::optional<std::vector<char>> bytes = constant.getElementBytes();
  if (!bytes)
    return constant.emitError("the elements of this ")
           << global << " constant are not available (an elided dense_resource?)";
  // Copy the box row by row (runs along the last dimension).
  const int64_t rank = global.getRank(), width = global.getElementTypeBitWidth() / 8;
  SmallVector<int64_t> strides(rank, 1);
  for (int64_t d = rank - 2; d >= 0; --d)
    strides[d] = strides[d + 1] * global.getDimSize(d + 1);
  int64_t count = 1;
  for (int64_t s : sizes)
    count *= s;
  std::vector<char> part;
  part.reserve(count * width);
  int64_t run = rank ? sizes[rank - 1] : 1;
  SmallVector<int64_t> index(rank, 0); // within the box, last dimension stays 0
  for (int64_t done = 0; done < count; done += run) {
    int64_t at = 0;
    for (int64_t d = 0; d < rank; ++d)
      at += (offsets[d] + index[d]) * strides[d];
    part.insert(part.end(), bytes->begin() + at * width, bytes->begin() + (at + run) * width);
    for (int64_t d = rank - 2; d >= 0; --d) {
      if (++index[d] < sizes[d])
        break;
      index[d] = 0;
    }
  }
  auto type = RankedTensorType::get(sizes, global.getElementType());
  constant.setValueAttr(DenseElementsAttr::getFromRawBuffer(type, part));
  constant.removeGridAttr();
  constant.removeSplitAxesAttr();
  constant.removeOffsetsAttr();
  constant.getResult().setType(type);
  return success();
}

/// The static result shape of an expand_shape whose source became static on
/// one process (an uneven shard): in each reassociation group, the one
/// dynamic size is the source size over the group's static sizes (a group
/// of a split dimension and unit dimensions, as tosa.reduce_*'s lowering
/// keeps the reduced dimension). Constant output_shape operands are taken as
/// they are.
std::optional<SmallVector<int64_t>> staticExpandedShape(tensor::ExpandShapeOp expand,
                                                        RankedTensorType source) {
  SmallVector<int64_t> shape(expand.getResultType().getShape());
  SmallVector<OpFoldResult> mixed = expand.getMixedOutputShape();
  for (auto [d, size] : llvm::enumerate(mixed))
    if (std::optional<int64_t> c = getConstantIntValue(size))
      shape[d] = *c;
  for (auto [g, group] : llvm::enumerate(expand.getReassociationIndices())) {
    int64_t known = 1, unknown = -1;
    for (int64_t d : group) {
      if (!ShapedType::isDynamic(shape[d]))
        known *= shape[d];
      else if (unknown >= 0)
        return std::nullopt; // two dynamic sizes in one group
      else
        unknown = d;
    }
    if (unknown >= 0) {
      if (known == 0 || source.getDimSize(g) % known != 0)
        return std::nullopt;
      shape[unknown] = source.getDimSize(g) / known;
    }
  }
  return shape;
}

/// Uneven shards have dynamic sizes in the SPMD function; on one process
/// they are constants. Gives the results of `op` (cloned for process `p`,
/// operands already static) their static types, in place so that the
/// mappings to `op` stay valid. Nested ops first (scf.if branches).
LogicalResult refineToStatic(Operation *op, int64_t p) {
  auto isStatic = [](Type t) {
    auto shaped = dyn_cast<ShapedType>(t);
    return !shaped || shaped.hasStaticShape();
  };
  for (Region &region : op->getRegions())
    for (Operation &nested : region.getOps())
      if (failed(refineToStatic(&nested, p)))
        return failure();
  if (auto constant = dyn_cast<meshvk::ConstantOp>(op)) {
    auto plan = op->getParentOfType<func::FuncOp>();
    meshvk::AbiAttr abi = plan ? meshvk::getAbi(plan) : nullptr;
    if (!abi)
      return op->emitError("a constant outside a plan");
    return cutConstantFor(constant, p, abi.getGridShape().asArrayRef());
  }
  if (auto extract = dyn_cast<tensor::ExtractSliceOp>(op))
    foldConstantSliceOperands(extract);
  else if (auto insert = dyn_cast<tensor::InsertSliceOp>(op))
    foldConstantSliceOperands(insert);
  if (llvm::all_of(op->getResultTypes(), isStatic))
    return success();
  if (auto empty = dyn_cast<tensor::EmptyOp>(op)) {
    SmallVector<int64_t> shape;
    for (OpFoldResult size : empty.getMixedSizes()) {
      std::optional<int64_t> c = getConstantIntValue(size);
      if (!c)
        break;
      shape.push_back(*c);
    }
    if ((int64_t)shape.size() == empty.getType().getRank()) {
      empty->setOperands({});
      empty.getResult().setType(empty.getType().clone(shape));
      return success();
    }
  } else if (auto dps = dyn_cast<DestinationStyleOpInterface>(op)) {
    for (auto [result, init] : llvm::zip(op->getResults(), dps.getDpsInits()))
      result.setType(init.getType());
  } else if (auto reshard = dyn_cast<meshvk::ReshardOp>(op)) {
    auto plan = op->getParentOfType<func::FuncOp>();
    meshvk::AbiAttr abi = plan ? meshvk::getAbi(plan) : nullptr;
    if (abi) {
      SmallVector<int64_t> offsets, sizes;
      meshvk::shardBox(reshard.getGlobalShape(), abi.getGridShape().asArrayRef(),
                       reshard.getToSplitAxes().getAxes(), reshard.getToOffsets(), p, offsets,
                       sizes);
      auto type = cast<RankedTensorType>(reshard.getType());
      reshard.getResult().setType(type.clone(sizes));
    }
  } else if (isa<shard::AllReduceOp, meshvk::WindowOp>(op)) {
    op->getResult(0).setType(op->getOperand(0).getType());
  } else if (auto ifOp = dyn_cast<scf::IfOp>(op)) {
    if (ifOp.elseBlock())
      for (auto [result, a, b] : llvm::zip(ifOp.getResults(), ifOp.thenYield().getOperands(),
                                           ifOp.elseYield().getOperands()))
        if (a.getType() == b.getType())
          result.setType(a.getType());
  } else if (auto expand = dyn_cast<tensor::ExpandShapeOp>(op)) {
    if (auto source = dyn_cast<RankedTensorType>(expand.getSrcType());
        source && source.hasStaticShape()) {
      if (std::optional<SmallVector<int64_t>> shape = staticExpandedShape(expand, source)) {
        expand.getOutputShapeMutable().clear();
        expand.setStaticOutputShape(*shape);
        expand.getResult().setType(expand.getResultType().clone(*shape));
      }
    }
  } else if (auto collapse = dyn_cast<tensor::CollapseShapeOp>(op)) {
    if (auto source = dyn_cast<RankedTensorType>(collapse.getSrcType());
        source && source.hasStaticShape())
      collapse.getResult().setType(
          tensor::CollapseShapeOp::inferCollapsedType(source, collapse.getReassociationMaps()));
  } else if (auto cast = dyn_cast<tensor::CastOp>(op)) {
    if (isStatic(cast.getSource().getType()))
      cast.getResult().setType(cast.getSource().getType());
  }
  if (llvm::all_of(op->getResultTypes(), isStatic))
    return success();
  return op->emitError("'") << op->getName() << "' has a shape that differs per process (uneven "
                            << "shards) and meshvk cannot make it static on process " << p;
}

/// The constants that replace a process-index query on process `p`.
SmallVector<Value> constantsFor(Operation *op, ArrayRef<int64_t> multi, int64_t p,
                                ArrayRef<int64_t> gridShape) {
  SmallVector<int64_t> values;
  if (auto multiOp = dyn_cast<shard::ProcessMultiIndexOp>(op)) {
    ArrayRef<int16_t> axes = multiOp.getAxes();
    if (axes.empty())
      values.assign(multi.begin(), multi.end());
    for (int16_t axis : axes)
      values.push_back(multi[axis]);
  } else if (isa<shard::ProcessLinearIndexOp>(op)) {
    values.push_back(p);
  } else {
    ArrayRef<int16_t> axes = cast<shard::GridShapeOp>(op).getAxes();
    if (axes.empty())
      values.assign(gridShape.begin(), gridShape.end());
    for (int16_t axis : axes)
      values.push_back(gridShape[axis]);
  }
  OpBuilder at(op);
  SmallVector<Value> constants;
  for (int64_t v : values)
    constants.push_back(arith::ConstantIndexOp::create(at, op->getLoc(), v));
  return constants;
}

/// The unrolling of one SPMD function into its plan, step by step; the state
/// the steps share.
class GridUnroller {
public:
  GridUnroller(func::FuncOp spmd)
      : spmd(spmd), ctx(spmd.getContext()), abi(meshvk::getAbi(spmd)),
        gridShape(abi.getGridShape().asArrayRef()), processes(abi.getProcessCount()),
        builder(spmd) {}

  LogicalResult run() {
    if (failed(readGrid()) || failed(rejectUnplannable()))
      return failure();
    createPlan();
    if (failed(cloneOnEveryProcess()) || failed(returnShards()))
      return failure();
    spmd.erase();
    return foldProcessBranches();
  }

private:
  /// The grid the ABI names, and the grid axes whose devices share memory:
  /// decided here, once, for every later reader of the plan (all axes unless
  /// the grid says otherwise).
  LogicalResult readGrid() {
    FlatSymbolRefAttr gridRef = abi.getGrid();
    auto gridOp = SymbolTable::lookupNearestSymbolFrom<shard::GridOp>(spmd, gridRef);
    if (!gridOp || gridOp.getShape() != gridShape)
      return spmd.emitError(meshvk::MeshVKDialect::AbiAttrHelper::getNameStr())
             << " names grid " << gridRef << " with shape " << abi.getGridShape()
             << ", which is not a static shard.grid of this module";
    if (DenseI64ArrayAttr axes =
            meshvk::MeshVKDialect::PeeredMemoryAxesAttrHelper(ctx).getAttr(gridOp))
      peered.assign(axes.asArrayRef().begin(), axes.asArrayRef().end());
    else
      for (int64_t a = 0; a < (int64_t)gridShape.size(); ++a)
        peered.push_back(a);
    if (!spmd.getBody().hasOneBlock())
      return spmd.emitError("meshvk-unroll-grid needs a single-block function");
    return success();
  }

  /// Rejects what a plan cannot express before touching anything, and
  /// numbers the collectives (each process's copy keeps its number).
  LogicalResult rejectUnplannable() {
    int64_t nextCollective = 0;
    WalkResult bad = spmd.walk([&](Operation *op) {
      if (isa<shard::NeighborsLinearIndicesOp, shard::ShardOp, shard::GetShardingOp>(op) ||
          (isa<shard::ShardingOp, shard::ShardShapeOp>(op) &&
           op->getParentOp() != spmd.getOperation())) {
        op->emitError("'") << op->getName()
                           << "' is left after partitioning; meshvk cannot "
                              "unroll it into per-process plans";
        return WalkResult::interrupt();
      }
      if (isCollective(op)) {
        if (op->getParentOp() != spmd.getOperation()) {
          op->emitError("collectives inside control flow are not supported");
          return WalkResult::interrupt();
        }
        meshvk::MeshVKDialect::CollectiveIdAttrHelper(op->getContext())
            .setAttr(op,
                     IntegerAttr::get(IntegerType::get(op->getContext(), 64), nextCollective++));
      }
      return WalkResult::advance();
    });
    return failure(bad.wasInterrupted());
  }

  /// The plan function: every process's shard of every argument and result
  /// (each process's own static shard type: uneven shards differ), global
  /// index major, process minor.
  void createPlan() {
    FunctionType spmdType = spmd.getFunctionType();
    Builder b(ctx);
    SmallVector<Type> inputs;
    SmallVector<DictionaryAttr> argAttrs, resultAttrs;
    auto processType = [&](ArrayAttr entries, unsigned i, Type t, int64_t p) -> Type {
      auto entry = i < entries.size() ? dyn_cast<meshvk::ValueAbiAttr>(entries[i]) : nullptr;
      return entry && isa<RankedTensorType>(t) ? entry.getProcessShardType(p) : t;
    };
    for (auto [i, t] : llvm::enumerate(spmdType.getInputs()))
      for (int64_t p = 0; p < processes; ++p) {
        inputs.push_back(processType(abi.getArgs(), i, t, p));
        argAttrs.push_back(b.getDictionaryAttr(meshvk::processEntry(ctx, p)));
      }
    for (auto [i, t] : llvm::enumerate(spmdType.getResults()))
      for (int64_t p = 0; p < processes; ++p) {
        results.push_back(processType(abi.getResults(), i, t, p));
        resultAttrs.push_back(b.getDictionaryAttr(meshvk::processEntry(ctx, p)));
      }
    plan = func::FuncOp::create(builder, spmd.getLoc(), spmd.getSymName(),
                                builder.getFunctionType(inputs, results));
    plan.setVisibility(spmd.getVisibility());
    meshvk::MeshVKDialect::AbiAttrHelper(ctx).setAttr(plan, abi);
    meshvk::MeshVKDialect::PlanAttrHelper(ctx).setAttr(
        plan, meshvk::PlanAttr::get(ctx, abi.getGrid(), abi.getGridShape(),
                                    b.getDenseI64ArrayAttr(peered)));
    plan.setAllArgAttrs(argAttrs);
    plan.setAllResultAttrs(resultAttrs);
    body = plan.addEntryBlock();
    builder.setInsertionPointToStart(body);
  }

  /// Clones op by op, all processes at each step: every process's copy of a
  /// collective is then adjacent to the others, after all of their inputs, so
  /// the collective lowering can read any process's operand where it stands.
  LogicalResult cloneOnEveryProcess() {
    spmdReturn = dyn_cast<func::ReturnOp>(spmd.getBody().front().getTerminator());
    if (!spmdReturn)
      return spmd.emitError("the function must end in func.return");
    maps.resize(processes);
    for (int64_t p = 0; p < processes; ++p) {
      for (auto [i, arg] : llvm::enumerate(spmd.getArguments()))
        maps[p].map(arg, body->getArgument(i * processes + p));
      multis.push_back(meshvk::processMultiIndex(gridShape, p));
    }
    for (Operation &op : spmd.getBody().front().without_terminator()) {
      // Sharding descriptions are read where needed, never executed.
      if (isa<shard::ShardingOp>(op))
        continue;
      if (auto shapeOp = dyn_cast<shard::ShardShapeOp>(op)) {
        if (failed(foldShardShape(shapeOp)))
          return failure();
        continue;
      }
      for (int64_t p = 0; p < processes; ++p)
        if (failed(cloneOnProcess(op, p)))
          return failure();
    }
    return success();
  }

  /// A shard.shard_shape becomes each process's constant sizes.
  LogicalResult foldShardShape(shard::ShardShapeOp shapeOp) {
    for (int64_t p = 0; p < processes; ++p) {
      FailureOr<SmallVector<int64_t>> sizes = shardShapeOn(shapeOp, p, gridShape);
      if (failed(sizes))
        return failure();
      for (auto [result, size] : llvm::zip(shapeOp.getResults(), *sizes)) {
        auto c = arith::ConstantIndexOp::create(builder, shapeOp.getLoc(), size);
        meshvk::setProcess(c, p);
        maps[p].map(result, c.getResult());
      }
    }
    return success();
  }

  /// Process `p`'s copy of `op`, tagged with p, its process-index queries
  /// replaced by p's constants and its types refined to p's static shards.
  LogicalResult cloneOnProcess(Operation &op, int64_t p) {
    Operation *clone = builder.clone(op, maps[p]);
    SmallVector<Operation *> indexOps;
    clone->walk([&](Operation *nested) {
      meshvk::setProcess(nested, p);
      if (isa<shard::ProcessMultiIndexOp, shard::ProcessLinearIndexOp, shard::GridShapeOp>(nested))
        indexOps.push_back(nested);
    });
    for (Operation *indexOp : indexOps) {
      SmallVector<Value> constants = constantsFor(indexOp, multis[p], p, gridShape);
      if (indexOp == clone)
        for (auto [from, to] : llvm::zip(op.getResults(), constants))
          maps[p].map(from, to);
      indexOp->replaceAllUsesWith(constants);
      indexOp->erase();
    }
    if (!isa<shard::ProcessMultiIndexOp, shard::ProcessLinearIndexOp, shard::GridShapeOp>(op) &&
        failed(refineToStatic(clone, p)))
      return failure();
    return success();
  }

  /// The plan returns every process's shard of each result, of the shard
  /// type its signature promises.
  LogicalResult returnShards() {
    FunctionType spmdType = spmd.getFunctionType();
    SmallVector<SmallVector<Value>> returned(spmdType.getNumResults());
    for (auto [j, value] : llvm::enumerate(spmdReturn.getOperands()))
      for (int64_t p = 0; p < processes; ++p)
        returned[j].push_back(maps[p].lookupOrDefault(value));
    SmallVector<Value> flat;
    for (auto &perProcess : returned)
      flat.append(perProcess.begin(), perProcess.end());
    for (auto [i, value] : llvm::enumerate(flat))
      if (value.getType() != results[i])
        return spmdReturn.emitError()
               << "result #" << i / processes << " of process " << i % processes << " is "
               << value.getType() << " but its shard is " << results[i];
    func::ReturnOp::create(builder, spmd.getLoc(), flat);
    return success();
  }

  /// Folds the branches on the (now constant) process index. Only scf/arith
  /// simplifications: general canonicalization could build new ops without
  /// their process tag. Control flow that stays is refused.
  LogicalResult foldProcessBranches() {
    RewritePatternSet patterns(ctx);
    scf::IfOp::getCanonicalizationPatterns(patterns, ctx);
    arith::CmpIOp::getCanonicalizationPatterns(patterns, ctx);
    // Constants stay per process: CSE would share one process's tensor
    // constant with the others.
    (void)applyPatternsGreedily(plan, std::move(patterns),
                                GreedyRewriteConfig().enableConstantCSE(false));
    WalkResult leaked = plan.walk([&](Operation *op) {
      int64_t p = meshvk::getProcess(op);
      if (p < 0)
        return WalkResult::advance();
      if (isa<scf::IfOp, scf::ForOp, scf::WhileOp>(op)) {
        op->emitError("control flow that does not fold away on process ")
            << p << " is not supported yet";
        return WalkResult::interrupt();
      }
      return WalkResult::advance();
    });
    return failure(leaked.wasInterrupted());
  }

  func::FuncOp spmd;
  MLIRContext *ctx;
  meshvk::AbiAttr abi;
  ArrayRef<int64_t> gridShape;
  int64_t processes;
  OpBuilder builder;
  SmallVector<int64_t> peered;
  SmallVector<Type> results; // the plan's result types
  func::FuncOp plan;
  Block *body = nullptr;
  func::ReturnOp spmdReturn;
  SmallVector<IRMapping> maps; // per process: SPMD value -> its copy
  SmallVector<SmallVector<int64_t>> multis;
};

struct UnrollGridPass : meshvk::impl::UnrollGridBase<UnrollGridPass> {
  void runOnOperation() override {
    SmallVector<func::FuncOp> funcs;
    for (auto func : getOperation().getOps<func::FuncOp>())
      if (meshvk::getAbi(func) && !meshvk::getPlan(func))
        funcs.push_back(func);
    for (func::FuncOp func : funcs)
      if (failed(GridUnroller(func).run()))
        return signalPassFailure();
  }
};

} // namespace

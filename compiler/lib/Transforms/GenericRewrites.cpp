//===- GenericRewrites.cpp - generic bodies the partitioner gets right ----===//
//
// Two passes around linalg.generic bodies (Passes.td has the IR sketches):
//  * meshvk-lower-argmax: tosa.argmax as three single-output reductions
//    (tosa-to-linalg makes one generic with two outputs, which upstream's
//    sharding rule cannot take);
//  * meshvk-prepare-generics: generics of splat constants folded to their
//    value, multi-output generics split per output, loop indices
//    (linalg.index) read from an iota input so that they are global on split
//    dimensions, tensors read by tensor.extract in a body made replicated
//    for that read, with their indices clamped.
//
//===----------------------------------------------------------------------===//
#include "meshvk/Transforms/Passes.h"

#include "mlir/Dialect/Tosa/IR/TosaOps.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/Matchers.h"

#include <climits>

using namespace mlir;

namespace meshvk {
#define GEN_PASS_DEF_LOWERARGMAX
#define GEN_PASS_DEF_PREPAREGENERICS
#include "meshvk/Transforms/Passes.h.inc"
} // namespace meshvk

namespace {

//===----------------------------------------------------------------------===//
// tosa.argmax
//===----------------------------------------------------------------------===//

/// A reduction of `input` over `axis` into a fresh init filled with `init`.
/// `combine(b, loc, loopIndex, inputs..., acc)` gives the new accumulator.
Value reduceOverAxis(OpBuilder &b, Location loc, ValueRange inputs, ArrayRef<AffineMap> inputMaps,
                     int64_t rank, int64_t axis, RankedTensorType resultType, TypedAttr init,
                     function_ref<Value(OpBuilder &, Location, ValueRange)> combine) {
  Value scalar = arith::ConstantOp::create(b, loc, init);
  Value empty = tensor::EmptyOp::create(b, loc, resultType.getShape(), resultType.getElementType());
  Value filled = linalg::FillOp::create(b, loc, scalar, empty).getResult(0);
  SmallVector<AffineExpr> kept;
  for (int64_t d = 0; d < rank; ++d)
    if (d != axis)
      kept.push_back(b.getAffineDimExpr(d));
  SmallVector<AffineMap> maps(inputMaps);
  maps.push_back(AffineMap::get(rank, 0, kept, b.getContext()));
  SmallVector<utils::IteratorType> iterators(rank, utils::IteratorType::parallel);
  iterators[axis] = utils::IteratorType::reduction;
  auto generic =
      linalg::GenericOp::create(b, loc, TypeRange{resultType}, inputs, ValueRange{filled}, maps,
                                iterators, [&](OpBuilder &nb, Location l, ValueRange args) {
                                  linalg::YieldOp::create(nb, l, combine(nb, l, args));
                                });
  return generic.getResult(0);
}

LogicalResult lowerArgmax(tosa::ArgMaxOp op) {
  auto inputType = dyn_cast<RankedTensorType>(op.getInput().getType());
  auto resultType = dyn_cast<RankedTensorType>(op.getOutput().getType());
  // Left to tosa-to-linalg (and refused later by name): what the reductions
  // below cannot express exactly.
  if (!inputType || !resultType || !inputType.hasStaticShape() ||
      !resultType.getElementType().isInteger(32))
    return failure();
  Type elem = inputType.getElementType();
  auto floatType = dyn_cast<FloatType>(elem);
  if (!floatType && !elem.isSignlessInteger(32))
    return failure();
  int64_t rank = inputType.getRank();
  int64_t axis = op.getAxis();
  int64_t extent = inputType.getDimSize(axis);
  if (extent >= (int64_t{1} << 30))
    return op.emitError("tosa.argmax over an axis of ")
           << extent << " elements: meshvk's index key needs fewer than 2^30";
  // A nan_mode the parser could not read (a string, as older tosa wrote it)
  // leaves the property unset: TOSA's default, PROPAGATE (getNanMode() would
  // dereference the null attribute).
  tosa::NanPropagationModeAttr nanMode = op.getNanModeAttr();
  bool propagate = !nanMode || nanMode.getValue() == tosa::NanPropagationMode::PROPAGATE;
  OpBuilder b(op);
  Location loc = op.getLoc();
  AffineMap identity = b.getMultiDimIdentityMap(rank);
  auto reduced = RankedTensorType::get(resultType.getShape(), elem);
  auto i32 = b.getI32Type();

  // The maximum, NaNs read as -inf (every process combines the same way,
  // whatever NaN rule the cross-process max uses).
  TypedAttr lowest =
      floatType
          ? (TypedAttr)b.getFloatAttr(floatType, APFloat::getInf(floatType.getFloatSemantics(),
                                                                 /*Negative=*/true))
          : (TypedAttr)b.getI32IntegerAttr(INT32_MIN);
  Value max = reduceOverAxis(b, loc, op.getInput(), {identity}, rank, axis, reduced, lowest,
                             [&](OpBuilder &nb, Location l, ValueRange args) -> Value {
                               if (!floatType)
                                 return arith::MaxSIOp::create(nb, l, args[0], args[1]);
                               Value isNan = arith::CmpFOp::create(nb, l, arith::CmpFPredicate::UNO,
                                                                   args[0], args[0]);
                               Value neg = arith::ConstantOp::create(nb, l, lowest);
                               Value x = arith::SelectOp::create(nb, l, isNan, neg, args[0]);
                               return arith::MaximumFOp::create(nb, l, x, args[1]);
                             });

  // The first index that holds the answer: a NaN (PROPAGATE) ranks before
  // the maximum (key j versus j + extent), so one min-reduction finds both.
  auto indexType = RankedTensorType::get(resultType.getShape(), i32);
  SmallVector<AffineExpr> kept;
  for (int64_t d = 0; d < rank; ++d)
    if (d != axis)
      kept.push_back(b.getAffineDimExpr(d));
  AffineMap keptMap = AffineMap::get(rank, 0, kept, b.getContext());
  Value key = reduceOverAxis(
      b, loc, ValueRange{op.getInput(), max}, {identity, keptMap}, rank, axis, indexType,
      b.getI32IntegerAttr(INT32_MAX), [&](OpBuilder &nb, Location l, ValueRange args) -> Value {
        Value j = arith::IndexCastOp::create(nb, l, i32, linalg::IndexOp::create(nb, l, axis));
        Value none = arith::ConstantOp::create(nb, l, nb.getI32IntegerAttr(INT32_MAX));
        Value candidate;
        if (!floatType) {
          Value hit = arith::CmpIOp::create(nb, l, arith::CmpIPredicate::eq, args[0], args[1]);
          candidate = arith::SelectOp::create(nb, l, hit, j, none);
        } else {
          Value hit = arith::CmpFOp::create(nb, l, arith::CmpFPredicate::OEQ, args[0], args[1]);
          Value shift = arith::ConstantOp::create(nb, l, nb.getI32IntegerAttr(extent));
          Value shifted = arith::AddIOp::create(nb, l, j, shift);
          candidate = arith::SelectOp::create(nb, l, hit, shifted, none);
          if (propagate) {
            Value isNan = arith::CmpFOp::create(nb, l, arith::CmpFPredicate::UNO, args[0], args[0]);
            candidate = arith::SelectOp::create(nb, l, isNan, j, candidate);
          }
        }
        return arith::MinSIOp::create(nb, l, candidate, args[2]);
      });
  if (!floatType) {
    op.replaceAllUsesWith(key);
    op.erase();
    return success();
  }

  // Key -> index: j + extent -> j; no hit (every value NaN under IGNORE) -> 0.
  int64_t outRank = indexType.getRank();
  AffineMap outIdentity = b.getMultiDimIdentityMap(outRank);
  Value empty = tensor::EmptyOp::create(b, loc, indexType.getShape(), i32);
  auto fix = linalg::GenericOp::create(
      b, loc, TypeRange{indexType}, ValueRange{key}, ValueRange{empty},
      ArrayRef<AffineMap>{outIdentity, outIdentity},
      SmallVector<utils::IteratorType>(outRank, utils::IteratorType::parallel),
      [&](OpBuilder &nb, Location l, ValueRange args) {
        Value k = args[0];
        Value none = arith::ConstantOp::create(nb, l, nb.getI32IntegerAttr(INT32_MAX));
        Value shift = arith::ConstantOp::create(nb, l, nb.getI32IntegerAttr(extent));
        Value zero = arith::ConstantOp::create(nb, l, nb.getI32IntegerAttr(0));
        Value isShifted = arith::CmpIOp::create(nb, l, arith::CmpIPredicate::sge, k, shift);
        Value unshifted = arith::SubIOp::create(nb, l, k, shift);
        Value index = arith::SelectOp::create(nb, l, isShifted, unshifted, k);
        Value missing = arith::CmpIOp::create(nb, l, arith::CmpIPredicate::eq, k, none);
        linalg::YieldOp::create(nb, l,
                                ValueRange{arith::SelectOp::create(nb, l, missing, zero, index)});
      });
  op.replaceAllUsesWith(fix.getResult(0));
  op.erase();
  return success();
}

struct LowerArgmaxPass : meshvk::impl::LowerArgmaxBase<LowerArgmaxPass> {
  void runOnOperation() override {
    SmallVector<tosa::ArgMaxOp> ops;
    getOperation().walk([&](tosa::ArgMaxOp op) { ops.push_back(op); });
    for (tosa::ArgMaxOp op : ops)
      (void)lowerArgmax(op); // failure: tosa-to-linalg's form, refused later by name
  }
};

//===----------------------------------------------------------------------===//
// meshvk-prepare-generics
//===----------------------------------------------------------------------===//

/// Erases the ops of `block` whose results nothing uses and that have no
/// side effect, until none is left.
void eraseDeadBodyOps(Block &block) {
  bool changed = true;
  while (changed) {
    changed = false;
    SmallVector<Operation *> ops;
    for (Operation &op : block.without_terminator())
      ops.push_back(&op);
    for (Operation *op : llvm::reverse(ops))
      if (isOpTriviallyDead(op)) {
        op->erase();
        changed = true;
      }
  }
}

/// A copy of `op` (a generic) computing only output `keep`, with the inputs
/// its yield does not read dropped. nullptr when that yield reads another
/// output's accumulator (the outputs are not independent).
linalg::GenericOp cloneForOutput(linalg::GenericOp op, unsigned keep, OpBuilder &b) {
  // Work on a full clone, then prune it.
  b.setInsertionPoint(op);
  auto copy = cast<linalg::GenericOp>(b.clone(*op));
  Block &body = copy.getRegion().front();
  auto yield = cast<linalg::YieldOp>(body.getTerminator());
  b.setInsertionPoint(yield);
  linalg::YieldOp::create(b, yield.getLoc(), ValueRange{yield.getOperand(keep)});
  yield.erase();
  eraseDeadBodyOps(body);

  unsigned numInputs = copy.getNumDpsInputs();
  SmallVector<Value> inputs;
  SmallVector<AffineMap> maps;
  llvm::BitVector dropArgs(body.getNumArguments());
  for (unsigned i = 0; i < body.getNumArguments(); ++i) {
    if (i == numInputs + keep)
      continue;
    if (i >= numInputs && !body.getArgument(i).use_empty()) {
      copy.erase();
      return nullptr;
    }
    if (i >= numInputs || body.getArgument(i).use_empty()) {
      dropArgs.set(i);
      continue;
    }
    inputs.push_back(copy.getDpsInputs()[i]);
    maps.push_back(copy.getIndexingMapsArray()[i]);
  }
  maps.push_back(copy.getIndexingMapsArray()[numInputs + keep]);
  b.setInsertionPoint(copy);
  auto pruned = linalg::GenericOp::create(
      b, copy.getLoc(), TypeRange{copy.getResult(keep).getType()}, inputs,
      ValueRange{copy.getDpsInits()[keep]}, maps, copy.getIteratorTypesArray(),
      /*bodyBuild=*/nullptr);
  pruned->setDiscardableAttrs(copy->getDiscardableAttrDictionary());
  pruned.getRegion().takeBody(copy.getRegion());
  pruned.getRegion().front().eraseArguments(dropArgs);
  copy.erase();
  return pruned;
}

/// The element of `tensor` when it is a splat constant or a fill of a
/// constant (meshvk-normalize-input's form of a splat); none otherwise.
Attribute splatValue(Value tensor) {
  DenseElementsAttr dense;
  if (matchPattern(tensor, m_Constant(&dense)))
    return dense.isSplat() ? dense.getSplatValue<Attribute>() : Attribute();
  Attribute scalar;
  auto fill = tensor.getDefiningOp<linalg::FillOp>();
  if (fill && matchPattern(fill.getInputs()[0], m_Constant(&scalar)))
    return scalar;
  return {};
}

/// 0. The one value a generic computes when its inputs are splat constants
/// (or fills of constants), folded by its body ops' own folders (what
/// canonicalization does to them inside a kernel); none when an op does not
/// fold or the body reads its init. A GPT layer's attention scale (Pow,
/// Reciprocal, Mul of constants) was a kernel of its own that wrote one float.
Attribute foldedSplat(linalg::GenericOp op) {
  if (!op.hasPureTensorSemantics() || op.getNumDpsInits() != 1 || op.hasIndexSemantics() ||
      !cast<ShapedType>(op.getResultTypes()[0]).hasStaticShape())
    return {};
  DenseMap<Value, Attribute> known;
  for (OpOperand *input : op.getDpsInputOperands()) {
    Attribute splat = splatValue(input->get());
    if (!splat)
      return {};
    known[op.getMatchingBlockArgument(input)] = splat;
  }
  Block &body = op.getRegion().front();
  auto valueOf = [&](Value v) { return known.lookup(v); };
  for (Operation &inner : body.without_terminator()) {
    SmallVector<Attribute> operands = llvm::map_to_vector(inner.getOperands(), valueOf);
    SmallVector<OpFoldResult> folded;
    if (inner.getNumResults() != 1 || llvm::is_contained(operands, Attribute()) ||
        failed(inner.fold(operands, folded)) || folded.size() != 1)
      return {};
    Attribute value =
        isa<Attribute>(folded[0]) ? cast<Attribute>(folded[0]) : valueOf(cast<Value>(folded[0]));
    if (!value)
      return {};
    known[inner.getResult(0)] = value;
  }
  return valueOf(body.getTerminator()->getOperand(0));
}

/// Erases `op` and, transitively, the producers only it read.
void eraseWithDeadProducers(Operation *op) {
  SmallVector<Operation *> worklist = {op};
  while (!worklist.empty()) {
    Operation *dead = worklist.pop_back_val();
    llvm::SetVector<Operation *> producers;
    for (Value operand : dead->getOperands())
      if (Operation *def = operand.getDefiningOp())
        producers.insert(def);
    dead->erase();
    for (Operation *producer : producers)
      if (isOpTriviallyDead(producer))
        worklist.push_back(producer);
  }
}

/// Each generic of splat constants becomes a fill of the value it computes.
void foldConstantGenerics(func::FuncOp func, OpBuilder &b) {
  SmallVector<linalg::GenericOp> generics(func.getOps<linalg::GenericOp>());
  for (linalg::GenericOp op : generics) {
    auto type = cast<RankedTensorType>(op.getResultTypes()[0]);
    auto value = dyn_cast_or_null<TypedAttr>(foldedSplat(op));
    if (!value || value.getType() != type.getElementType())
      continue;
    b.setInsertionPoint(op);
    Value scalar = arith::ConstantOp::create(b, op.getLoc(), value);
    Value empty = tensor::EmptyOp::create(b, op.getLoc(), type.getShape(), type.getElementType());
    op.getResult(0).replaceAllUsesWith(
        linalg::FillOp::create(b, op.getLoc(), scalar, empty).getResult(0));
    // What only the generic read goes too: sharding propagation would
    // annotate a dead init, which shard-partition then fails on.
    eraseWithDeadProducers(op);
  }
}

/// 1. Several outputs with independent yields -> one generic per output.
void splitIndependentOutputs(func::FuncOp func, OpBuilder &b) {
  SmallVector<linalg::GenericOp> multi;
  func.walk([&](linalg::GenericOp op) {
    if (op.getNumDpsInits() > 1 && op.hasPureTensorSemantics())
      multi.push_back(op);
  });
  for (linalg::GenericOp op : multi) {
    SmallVector<linalg::GenericOp> parts;
    bool independent = true;
    for (unsigned k = 0; k < op.getNumDpsInits() && independent; ++k) {
      if (op.getResult(k).use_empty()) {
        parts.push_back(nullptr);
        continue;
      }
      linalg::GenericOp part = cloneForOutput(op, k, b);
      independent = part != nullptr;
      parts.push_back(part);
    }
    if (!independent) {
      for (linalg::GenericOp part : parts)
        if (part)
          part.erase();
      continue; // check-sharding refuses it by name
    }
    for (auto [k, part] : llvm::enumerate(parts))
      if (part)
        op.getResult(k).replaceAllUsesWith(part.getResult(0));
    op.erase();
  }
}

/// The grid of the function's annotations (the first sharding's), if any.
FlatSymbolRefAttr functionGrid(func::FuncOp func) {
  FlatSymbolRefAttr grid;
  func.walk([&](shard::ShardingOp op) {
    grid = op.getGridAttr();
    return WalkResult::interrupt();
  });
  return grid;
}

/// 3. Tensors read by tensor.extract in a body: replicated for the read,
/// indices clamped. `tensor.dim` of static sizes folded first (tosa.reverse
/// reads its extent that way; partitioned, it would be the shard's).
void replicateExtractedTensors(func::FuncOp func, OpBuilder &b) {
  SmallVector<tensor::DimOp> dims;
  func.walk([&](tensor::DimOp op) { dims.push_back(op); });
  for (tensor::DimOp op : dims) {
    auto type = dyn_cast<RankedTensorType>(op.getSource().getType());
    std::optional<int64_t> index = op.getConstantIndex();
    if (!type || !index || *index < 0 || *index >= type.getRank() || type.isDynamicDim(*index))
      continue;
    b.setInsertionPoint(op);
    op.replaceAllUsesWith(
        arith::ConstantIndexOp::create(b, op.getLoc(), type.getDimSize(*index)).getResult());
    op.erase();
  }

  FlatSymbolRefAttr grid = functionGrid(func);
  if (!grid)
    return;
  SmallVector<tensor::ExtractOp> extracts;
  func.walk([&](tensor::ExtractOp op) {
    auto generic = op->getParentOfType<linalg::GenericOp>();
    if (generic && !generic->isAncestor(op.getTensor().getParentBlock()->getParentOp()) &&
        isa<RankedTensorType>(op.getTensor().getType()))
      extracts.push_back(op);
  });
  shard::ShardingOp replicated;
  for (tensor::ExtractOp op : extracts) {
    auto generic = op->getParentOfType<linalg::GenericOp>();
    auto type = cast<RankedTensorType>(op.getTensor().getType());
    if (!type.hasStaticShape())
      continue; // check-sharding names the extract
    b.setInsertionPoint(generic);
    if (!replicated) {
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPointToStart(&func.getBody().front());
      replicated = shard::ShardingOp::create(
          b, func.getLoc(), grid,
          ArrayRef<shard::GridAxesAttr>{DenseI16ArrayAttr::get(b.getContext(), {})});
    }
    auto whole = shard::ShardOp::create(b, op.getLoc(), op.getTensor(), replicated,
                                        /*annotate_for_users=*/true);
    op.getTensorMutable().assign(whole.getResult());
    b.setInsertionPoint(op);
    for (auto [d, index] : llvm::enumerate(op.getIndices())) {
      if (index.getDefiningOp<linalg::IndexOp>() || index.getDefiningOp<arith::ConstantOp>())
        continue; // a loop index or a constant: in range by construction / checked below
      Value zero = arith::ConstantIndexOp::create(b, op.getLoc(), 0);
      Value last = arith::ConstantIndexOp::create(b, op.getLoc(), type.getDimSize(d) - 1);
      Value low = arith::MaxSIOp::create(b, op.getLoc(), index, zero);
      op.getIndicesMutable()[d].assign(arith::MinSIOp::create(b, op.getLoc(), low, last));
    }
  }
}

/// 2. linalg.index d -> index_cast of an i32 iota input read along d.
LogicalResult globalizeIndices(func::FuncOp func, OpBuilder &b) {
  SmallVector<linalg::GenericOp> generics;
  func.walk([&](linalg::GenericOp op) {
    if (op.hasPureTensorSemantics() &&
        op.getRegion()
            .walk([](linalg::IndexOp) { return WalkResult::interrupt(); })
            .wasInterrupted())
      generics.push_back(op);
  });
  for (linalg::GenericOp op : generics) {
    SmallVector<int64_t> ranges = op.getStaticLoopRanges();
    SmallVector<int64_t> dims; // loop dimensions read through linalg.index
    op.getRegion().walk([&](linalg::IndexOp index) {
      if (index->getParentOfType<linalg::GenericOp>() == op &&
          !llvm::is_contained(dims, (int64_t)index.getDim()))
        dims.push_back(index.getDim());
    });
    if (dims.empty())
      continue;
    for (int64_t d : dims)
      if (ShapedType::isDynamic(ranges[d]) || ranges[d] > INT32_MAX)
        return op.emitError("linalg.index ")
               << d << " over a loop of " << (ShapedType::isDynamic(ranges[d]) ? "dynamic" : "")
               << " extent: meshvk needs a static extent below 2^31";
    b.setInsertionPoint(op);
    SmallVector<Value> inputs(op.getDpsInputs());
    SmallVector<AffineMap> maps;
    for (OpOperand *in : op.getDpsInputOperands())
      maps.push_back(op.getMatchingIndexingMap(in));
    unsigned firstNew = inputs.size();
    for (int64_t d : dims) {
      SmallVector<int32_t> iota(ranges[d]);
      for (int64_t k = 0; k < ranges[d]; ++k)
        iota[k] = (int32_t)k;
      auto type = RankedTensorType::get({ranges[d]}, b.getI32Type());
      auto constant = meshvk::ConstantOp::create(b, op.getLoc(), type,
                                                 DenseElementsAttr::get(type, ArrayRef(iota)),
                                                 nullptr, nullptr, nullptr);
      inputs.push_back(constant.getResult());
      maps.push_back(AffineMap::get(op.getNumLoops(), 0, b.getAffineDimExpr(d), b.getContext()));
    }
    for (OpOperand &init : op.getDpsInitsMutable())
      maps.push_back(op.getMatchingIndexingMap(&init));
    auto rewritten =
        linalg::GenericOp::create(b, op.getLoc(), op.getResultTypes(), inputs, op.getDpsInits(),
                                  maps, op.getIteratorTypesArray(), /*bodyBuild=*/nullptr);
    rewritten->setDiscardableAttrs(op->getDiscardableAttrDictionary());
    rewritten.getRegion().takeBody(op.getRegion());
    Block &body = rewritten.getRegion().front();
    SmallVector<Value> iotaArgs;
    for (auto [k, d] : llvm::enumerate(dims))
      iotaArgs.push_back(body.insertArgument(firstNew + k, b.getI32Type(), op.getLoc()));
    SmallVector<linalg::IndexOp> indices;
    body.walk([&](linalg::IndexOp index) {
      if (index->getParentOfType<linalg::GenericOp>() == rewritten)
        indices.push_back(index);
    });
    for (linalg::IndexOp index : indices) {
      b.setInsertionPoint(index);
      Value arg = iotaArgs[llvm::find(dims, (int64_t)index.getDim()) - dims.begin()];
      index.replaceAllUsesWith(
          arith::IndexCastOp::create(b, index.getLoc(), b.getIndexType(), arg).getResult());
      index.erase();
    }
    op.replaceAllUsesWith(rewritten.getResults());
    op.erase();
  }
  return success();
}

struct PrepareGenericsPass : meshvk::impl::PrepareGenericsBase<PrepareGenericsPass> {
  void runOnOperation() override {
    OpBuilder b(&getContext());
    for (auto func : getOperation().getOps<func::FuncOp>()) {
      // Kernels and SPMD functions run as written, per process.
      if (func.isExternal() || meshvk::isKernel(func) || !functionGrid(func))
        continue;
      foldConstantGenerics(func, b);
      splitIndependentOutputs(func, b);
      replicateExtractedTensors(func, b);
      if (failed(globalizeIndices(func, b)))
        return signalPassFailure();
    }
  }
};

} // namespace

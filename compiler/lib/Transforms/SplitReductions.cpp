//===- SplitReductions.cpp - long reductions as partials + a combine ------===//
//
// The kernel tiler gives every OUTPUT element of a reduction to one
// invocation. A reduction with few outputs and long rows (a sum to a scalar,
// four row sums of a million elements) then runs on a handful of invocations
// while the rest of the device idles, and on lavapipe it is also wrong: a loop
// of llvmpipe stops after 65535 iterations (a 16M-element sum of ones gave
// 262140 before this pass). Such a reduction becomes, in the plan:
//
//   partials[out..., p] = reduce over chunk p of the split loop   (many outputs)
//   tail[out...]        = init (+) reduce over the rest of it     (only if ragged)
//   result[out...]      = tail (+) reduce over p of partials      (short rows)
//
// Each is an ordinary linalg op, so each becomes a kernel of its own, the
// partials tensor is a transient that meshvk-plan-allocations places, and the
// combine is split again if it is still long. Chunks are read through an
// indexing map (p * S + c) instead of a tensor.expand_shape: a reshape in a
// plan would be a copy kernel of the whole input.
//
//===----------------------------------------------------------------------===//
#include "meshvk/Transforms/Passes.h"

#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/Linalg/Utils/Utils.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/PatternMatch.h"

#include <algorithm>
#include <optional>

using namespace mlir;

namespace meshvk {
#define GEN_PASS_DEF_SPLITREDUCTIONS
#include "meshvk/Transforms/Passes.h.inc"
} // namespace meshvk

namespace {

/// How a reduction loop of range `length`, computing `outputs` elements, is
/// cut: `chunk` elements of it per partial, `partials` full chunks (the rest
/// is the tail). chunk == 0: leave the op as it is.
struct SplitPlan {
  int64_t chunk = 0;
  int64_t partials = 0;
};

SplitPlan planSplit(int64_t outputs, int64_t length, int64_t inner, int64_t fillOutputs,
                    int64_t minLength, int64_t minChunk, int64_t maxChunk) {
  // `inner`: elements of the other reduction loops each step of this one
  // reads; a chunk counts them too.
  int64_t total = length * inner;
  // A reduction shorter than minLength elements per output costs less on one
  // invocation than a second dispatch does.
  bool tooFew = outputs < fillOutputs && total >= minLength;
  bool tooLong = length > maxChunk;
  if (!tooFew && !tooLong)
    return {};
  // Enough partials to fill the device, none shorter than minChunk elements,
  // every loop at most maxChunk long (the loop limit).
  int64_t wanted = tooFew ? (fillOutputs + outputs - 1) / outputs : 1;
  int64_t partials = std::min(wanted, std::max<int64_t>(1, total / minChunk));
  partials = std::max(partials, (length + maxChunk - 1) / maxChunk);
  partials = std::min(partials, length);
  if (partials <= 1)
    return {};
  int64_t chunk = (length + partials - 1) / partials;
  // A multiple of 4 keeps chunks vec4-aligned (VectorAccess.cpp); a divisor
  // of the length close by leaves no tail op.
  if (chunk >= 8)
    chunk = (chunk + 3) / 4 * 4;
  for (int64_t c = chunk; c > chunk / 2 && c >= 4; c -= 4)
    if (length % c == 0) {
      chunk = c;
      break;
    }
  return {chunk, length / chunk};
}

/// The value that leaves the combiner's other operand unchanged. maxnumf and
/// minnumf get infinities, not upstream's NaN: they lower to GLSL FMax/FMin,
/// whose result for a NaN operand is undefined.
std::optional<TypedAttr> neutralOf(Operation *combiner) {
  if (isa<arith::MaxNumFOp, arith::MinNumFOp>(combiner)) {
    auto type = cast<FloatType>(combiner->getResult(0).getType());
    bool max = isa<arith::MaxNumFOp>(combiner);
    return TypedAttr(FloatAttr::get(type, APFloat::getInf(type.getFloatSemantics(), max)));
  }
  return arith::getNeutralElement(combiner);
}

/// The combiner of a reduction body: the op that yields `acc (+) f(inputs)`,
/// with the accumulator used nowhere else; null if the body is not one.
Operation *combinerOf(linalg::LinalgOp op) {
  Block &body = *op.getBlock();
  if (op.getNumDpsInits() != 1 || body.getNumArguments() != op->getNumOperands())
    return nullptr;
  BlockArgument acc = body.getArgument(op.getNumDpsInputs());
  auto yield = cast<linalg::YieldOp>(body.getTerminator());
  Operation *combiner = yield.getOperand(0).getDefiningOp();
  if (!combiner || combiner->getBlock() != &body || combiner->getNumOperands() != 2 ||
      combiner->getNumResults() != 1 || !acc.hasOneUse() || acc.use_begin()->getOwner() != combiner)
    return nullptr;
  if (!neutralOf(combiner) || !combiner->hasTrait<OpTrait::IsCommutative>())
    return nullptr;
  bool usesIndex = false;
  body.walk([&](linalg::IndexOp) { usesIndex = true; });
  return usesIndex ? nullptr : combiner;
}

/// `map` over `numDims` loops, loop `dim` read as `replacement`.
AffineMap substituteLoop(AffineMap map, unsigned numDims, unsigned dim, AffineExpr replacement) {
  MLIRContext *ctx = map.getContext();
  SmallVector<AffineExpr> dims;
  for (unsigned d = 0; d < map.getNumDims(); ++d)
    dims.push_back(d == dim ? replacement : getAffineDimExpr(d, ctx));
  return map.replaceDimsAndSymbols(dims, {}, numDims, 0);
}

struct SplitReductionsPass : meshvk::impl::SplitReductionsBase<SplitReductionsPass> {
  using SplitReductionsBase::SplitReductionsBase;

  void runOnOperation() override {
    for (auto plan : getOperation().getOps<func::FuncOp>()) {
      if (!meshvk::getPlan(plan))
        continue;
      // New combines are visited too: a combine still too long is split again.
      SmallVector<linalg::LinalgOp> work;
      plan.walk([&](linalg::LinalgOp op) { work.push_back(op); });
      while (!work.empty()) {
        linalg::LinalgOp op = work.pop_back_val();
        FailureOr<linalg::GenericOp> combine = split(op);
        if (failed(combine))
          return signalPassFailure();
        if (*combine)
          work.push_back(*combine);
      }
    }
  }

  /// The split loop: the longest reduction loop; null plan if none qualifies.
  SplitPlan choose(linalg::LinalgOp op, unsigned *dim) {
    SmallVector<int64_t> ranges = op.getStaticLoopRanges();
    int64_t outputs = 1, reduced = 1, longest = -1;
    for (auto [d, iter] : llvm::enumerate(op.getIteratorTypesArray())) {
      // Dynamic or empty (a 0-row shard: meshvk-outline-kernels drops it).
      if (ShapedType::isDynamic(ranges[d]) || ranges[d] <= 0)
        return {};
      if (linalg::isReductionIterator(iter)) {
        reduced *= ranges[d];
        if (longest < 0 || ranges[d] > ranges[longest])
          longest = d;
      } else {
        outputs *= ranges[d];
      }
    }
    if (longest < 0)
      return {};
    *dim = longest;
    return planSplit(outputs, ranges[longest], reduced / ranges[longest], fillOutputs, minLength,
                     minChunk, maxChunk);
  }

  /// Splits `named` if it is a long reduction; returns the combine (or null).
  FailureOr<linalg::GenericOp> split(linalg::LinalgOp named) {
    if (!named.hasPureTensorSemantics() || named.getNumDpsInits() != 1 ||
        meshvk::getProcess(named) < 0 || named.getNumReductionLoops() == 0)
      return linalg::GenericOp();
    AffineMap outMap = named.getMatchingIndexingMap(named.getDpsInitOperand(0));
    if (!outMap.isProjectedPermutation())
      return linalg::GenericOp();
    // Only generics and linalg.reduce: a matmul with a long K stays a matmul
    // (the tiler's register tiles want it).
    if (!isa<linalg::GenericOp, linalg::ReduceOp>(named))
      return linalg::GenericOp();
    Operation *combiner = combinerOf(named);
    unsigned dim = 0;
    SplitPlan plan = combiner ? choose(named, &dim) : SplitPlan{};
    if (!plan.chunk)
      return linalg::GenericOp();
    IRRewriter rw(named->getContext());
    rw.setInsertionPoint(named);
    auto op = dyn_cast<linalg::GenericOp>(named.getOperation());
    if (!op) {
      FailureOr<linalg::GenericOp> g = linalg::generalizeNamedOp(rw, named);
      if (failed(g))
        return named->emitOpError("cannot be generalized to split its reduction"), failure();
      op = *g;
      meshvk::setProcess(op, meshvk::getProcess(named));
      combiner = combinerOf(op);
    }
    return rewrite(rw, op, combiner, dim, plan);
  }

  linalg::GenericOp rewrite(IRRewriter &rw, linalg::GenericOp op, Operation *combiner, unsigned dim,
                            SplitPlan plan);
  Value partials(IRRewriter &rw, linalg::GenericOp op, Operation *combiner, unsigned dim,
                 SplitPlan plan);
  Value tail(IRRewriter &rw, linalg::GenericOp op, Operation *combiner, unsigned dim, int64_t start,
             int64_t length);
};

/// An op like `op` over (its loops, loop `dim` remapped by `replacement`) with
/// an extra unused input `extent` whose map (loop `dim`) gives that loop its
/// range, writing `init` through `outMap`.
linalg::GenericOp cloneWithLoop(IRRewriter &rw, linalg::GenericOp op, unsigned numLoops,
                                unsigned dim, AffineExpr replacement, Value extent, Value init,
                                AffineMap outMap, ArrayRef<utils::IteratorType> iterators) {
  MLIRContext *ctx = op.getContext();
  SmallVector<Value> inputs(op.getDpsInputs());
  SmallVector<AffineMap> maps;
  for (OpOperand *in : op.getDpsInputOperands())
    maps.push_back(substituteLoop(op.getMatchingIndexingMap(in), numLoops, dim, replacement));
  inputs.push_back(extent);
  maps.push_back(AffineMap::get(numLoops, 0, getAffineDimExpr(dim, ctx)));
  maps.push_back(outMap);
  auto g = linalg::GenericOp::create(rw, op.getLoc(), TypeRange{init.getType()}, inputs,
                                     ValueRange{init}, maps, iterators);
  IRMapping map;
  rw.cloneRegionBefore(op.getRegion(), g.getRegion(), g.getRegion().end(), map);
  Block &body = g.getRegion().front();
  Type extentElement = cast<RankedTensorType>(extent.getType()).getElementType();
  body.insertArgument(op.getNumDpsInputs(), extentElement, op.getLoc());
  meshvk::setProcess(g, meshvk::getProcess(op));
  return g;
}

/// A tensor of `shape` filled with the combiner's neutral element.
Value neutralFill(IRRewriter &rw, Operation *combiner, ArrayRef<int64_t> shape, int64_t process) {
  Location loc = combiner->getLoc();
  Type element = combiner->getResult(0).getType();
  auto empty = tensor::EmptyOp::create(rw, loc, shape, element);
  auto neutral = arith::ConstantOp::create(rw, loc, *neutralOf(combiner));
  auto fill = linalg::FillOp::create(rw, loc, neutral.getResult(), empty.getResult());
  for (Operation *o : {empty.getOperation(), neutral.getOperation(), fill.getOperation()})
    meshvk::setProcess(o, process);
  return fill.getResult(0);
}

/// A body yielding `combiner` (its kind and flags) of args[0] and args[1].
void yieldCombined(OpBuilder &b, Location loc, ValueRange args, Operation *combiner, Value accArg) {
  IRMapping map;
  for (Value operand : combiner->getOperands())
    map.map(operand, operand == accArg ? args[1] : args[0]);
  Operation *c = b.clone(*combiner, map);
  linalg::YieldOp::create(b, loc, c->getResult(0));
}

Value SplitReductionsPass::partials(IRRewriter &rw, linalg::GenericOp op, Operation *combiner,
                                    unsigned dim, SplitPlan plan) {
  MLIRContext *ctx = op.getContext();
  unsigned n = op.getNumLoops();
  auto outType = cast<RankedTensorType>(op.getDpsInits()[0].getType());
  SmallVector<int64_t> shape(outType.getShape());
  shape.push_back(plan.partials);
  // Loop n (new, parallel, innermost in the partials tensor: the combine
  // reads a row of them) numbers the chunk; loop `dim` runs inside it.
  Value init = neutralFill(rw, combiner, shape, meshvk::getProcess(op));
  Value extent = tensor::EmptyOp::create(rw, op.getLoc(), {plan.chunk}, outType.getElementType());
  meshvk::setProcess(extent.getDefiningOp(), meshvk::getProcess(op));
  AffineMap outMap = op.getMatchingIndexingMap(op.getDpsInitOperand(0));
  SmallVector<AffineExpr> outs(outMap.getResults());
  outs.push_back(getAffineDimExpr(n, ctx));
  SmallVector<utils::IteratorType> iterators = op.getIteratorTypesArray();
  iterators.push_back(utils::IteratorType::parallel);
  AffineExpr chunked = getAffineDimExpr(n, ctx) * plan.chunk + getAffineDimExpr(dim, ctx);
  return cloneWithLoop(rw, op, n + 1, dim, chunked, extent, init,
                       AffineMap::get(n + 1, 0, outs, ctx), iterators)
      .getResult(0);
}

// From a neutral fill, not the op's init: a kernel whose init is another
// kernel's output would read and write it through a temporary the kernel
// generator cannot place (an init is an input buffer, the result another).
Value SplitReductionsPass::tail(IRRewriter &rw, linalg::GenericOp op, Operation *combiner,
                                unsigned dim, int64_t start, int64_t length) {
  auto outType = cast<RankedTensorType>(op.getDpsInits()[0].getType());
  Value init = neutralFill(rw, combiner, outType.getShape(), meshvk::getProcess(op));
  Value extent = tensor::EmptyOp::create(rw, op.getLoc(), {length}, outType.getElementType());
  meshvk::setProcess(extent.getDefiningOp(), meshvk::getProcess(op));
  AffineExpr shifted = getAffineDimExpr(dim, op.getContext()) + start;
  return cloneWithLoop(rw, op, op.getNumLoops(), dim, shifted, extent, init,
                       op.getMatchingIndexingMap(op.getDpsInitOperand(0)),
                       op.getIteratorTypesArray())
      .getResult(0);
}

linalg::GenericOp SplitReductionsPass::rewrite(IRRewriter &rw, linalg::GenericOp op,
                                               Operation *combiner, unsigned dim, SplitPlan plan) {
  MLIRContext *ctx = op.getContext();
  int64_t process = meshvk::getProcess(op);
  Value parts = partials(rw, op, combiner, dim, plan);
  // result[out...] = init[out...] (+) partials[out..., q] over q.
  Value init = op.getDpsInits()[0];
  auto outType = cast<RankedTensorType>(init.getType());
  unsigned rank = outType.getRank();
  AffineMap identity = AffineMap::getMultiDimIdentityMap(rank, ctx);
  SmallVector<AffineExpr> dims;
  for (unsigned d = 0; d < rank; ++d)
    dims.push_back(getAffineDimExpr(d, ctx));
  AffineMap outMap = AffineMap::get(rank + 1, 0, dims, ctx);
  AffineMap inMap = AffineMap::getMultiDimIdentityMap(rank + 1, ctx);
  SmallVector<utils::IteratorType> iterators(rank, utils::IteratorType::parallel);
  iterators.push_back(utils::IteratorType::reduction);
  BlockArgument accArg = op.getRegion().front().getArgument(op.getNumDpsInputs());
  auto combine =
      linalg::GenericOp::create(rw, op.getLoc(), TypeRange{outType}, ValueRange{parts},
                                ValueRange{init}, ArrayRef<AffineMap>{inMap, outMap}, iterators,
                                [&](OpBuilder &b, Location loc, ValueRange args) {
                                  yieldCombined(b, loc, args, combiner, accArg);
                                });
  meshvk::setProcess(combine, process);
  Value result = combine.getResult(0);
  int64_t length = op.getStaticLoopRanges()[dim];
  if (int64_t rest = length - plan.chunk * plan.partials) {
    // result (+)= the tail's reduction, elementwise.
    Value t = tail(rw, op, combiner, dim, plan.chunk * plan.partials, rest);
    Value empty =
        tensor::EmptyOp::create(rw, op.getLoc(), outType.getShape(), outType.getElementType());
    meshvk::setProcess(empty.getDefiningOp(), process);
    SmallVector<utils::IteratorType> parallel(rank, utils::IteratorType::parallel);
    auto add = linalg::GenericOp::create(
        rw, op.getLoc(), TypeRange{outType}, ValueRange{t, result}, ValueRange{empty},
        ArrayRef<AffineMap>{identity, identity, identity}, parallel,
        [&](OpBuilder &b, Location loc, ValueRange args) {
          yieldCombined(b, loc, args.take_front(2), combiner, accArg);
        });
    meshvk::setProcess(add, process);
    result = add.getResult(0);
  }
  rw.replaceOp(op, result);
  return combine;
}

} // namespace

//===- ConvWindows.cpp - convolutions and poolings as window sums ---------===//
//
// A stride-1, dilation-1 convolution or pooling reads its (padded) input at
// `out + tap` on each window dimension: not a projected permutation, so
// upstream's linalg sharding interface cannot partition it. For each tap
// (a value of the window loops) the input it reads is a shifted window of
// the unpadded input, `x[out + tap - low]` or the pad value outside: a
// meshvk.window, split like the output and costing only the borders its
// shift reaches. The op becomes one linalg.generic over the remaining loops
// that takes every tap's window (and the matching slice of the filter) and
// applies the op's body once per tap, accumulating as the op did:
//
//   conv(pad(x), w)  ->  generic(window(x, -1), w[0], window(x, 0), w[1],
//                                window(x, +1), w[2]) { acc += x_t * w_t }
//
// so batch, channel and spatial splits all partition. An accumulator that
// is not a fresh fill (tosa.conv2d's bias) starts from zeros and is added
// after, as meshvk-normalize-input does for contractions.
//
//===----------------------------------------------------------------------===//
#include "ConvWindows.h"
#include "meshvk/Dialect/MeshVKDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Shard/IR/ShardOps.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/Matchers.h"

using namespace mlir;

namespace {

/// At most this many taps (a 8x8 window) per op: each tap is an operand.
constexpr int64_t kMaxTaps = 64;

/// A window dimension of the input: result `imageDim` of its map reads
/// `outLoop + tapLoop`.
struct WindowDim {
  int64_t imageDim;
  unsigned outLoop, tapLoop;
};

bool isFresh(Value init) {
  Operation *def = init.getDefiningOp();
  while (auto shardOp = dyn_cast_or_null<shard::ShardOp>(def))
    def = shardOp.getSrc().getDefiningOp();
  return isa_and_nonnull<tensor::EmptyOp, linalg::FillOp>(def);
}

/// Whether the body yields `out + something` (a convolution, a sum pool).
bool accumulatesBySum(linalg::LinalgOp op) {
  Block *body = op.getBlock();
  Value yielded = body->getTerminator()->getOperand(0);
  Operation *add = yielded.getDefiningOp();
  Value out = body->getArguments().back();
  return isa_and_nonnull<arith::AddFOp, arith::AddIOp>(add) &&
         llvm::is_contained(add->getOperands(), out);
}

/// Rewrites `op` when it is a windowed op of a padded input; success(false)
/// when it is not one (left to check-sharding), failure after an error.
FailureOr<bool> decomposeOne(linalg::LinalgOp op, OpBuilder &b) {
  if (!op.hasPureTensorSemantics() || op.getNumDpsInits() != 1 || op->getNumResults() != 1)
    return false;
  SmallVector<AffineMap> maps = op.getIndexingMapsArray();
  int64_t image = -1;
  for (OpOperand *input : op.getDpsInputOperands())
    if (!maps[input->getOperandNumber()].isProjectedPermutation()) {
      if (image >= 0)
        return false;
      image = input->getOperandNumber();
    }
  if (image < 0)
    return false;
  for (auto [i, map] : llvm::enumerate(maps))
    if ((int64_t)i != image && !map.isProjectedPermutation())
      return false;
  AffineMap outMap = maps.back();
  SmallVector<utils::IteratorType> iterators = op.getIteratorTypesArray();
  auto describe = [&]() { return "'" + op->getName().getStringRef().str() + "'"; };

  // Window dimensions: `out + tap`, out in the output, tap a reduction.
  SmallVector<WindowDim> windows;
  for (auto [i, expr] : llvm::enumerate(maps[image].getResults())) {
    if (isa<AffineDimExpr>(expr))
      continue;
    // `d + d` is a stride-1 window; `d * s + d * t` a strided or dilated
    // one; anything else (a broadcast's constant) is not a window at all.
    auto sum = dyn_cast<AffineBinaryOpExpr>(expr);
    auto scaledDim = [](AffineExpr e) {
      auto mul = dyn_cast<AffineBinaryOpExpr>(e);
      return isa<AffineDimExpr>(e) ||
             (mul && mul.getKind() == AffineExprKind::Mul &&
              ((isa<AffineDimExpr>(mul.getLHS()) && isa<AffineConstantExpr>(mul.getRHS())) ||
               (isa<AffineConstantExpr>(mul.getLHS()) && isa<AffineDimExpr>(mul.getRHS()))));
    };
    if (!sum || sum.getKind() != AffineExprKind::Add || !scaledDim(sum.getLHS()) ||
        !scaledDim(sum.getRHS()))
      return false;
    bool dimSum = isa<AffineDimExpr>(sum.getLHS()) && isa<AffineDimExpr>(sum.getRHS());
    if (!dimSum)
      return op->emitError() << describe() << " reads its input through "
                             << AffineMapAttr::get(maps[image])
                             << ", a strided or dilated window: not supported (meshvk runs "
                                "stride-1, dilation-1 convolutions and poolings, as sums of "
                                "shifted windows); write the stride-1 op and keep every n-th "
                                "element with a strided tensor.extract_slice",
             failure();
    auto lhs = cast<AffineDimExpr>(sum.getLHS()), rhs = cast<AffineDimExpr>(sum.getRHS());
    bool lhsOut = outMap.isFunctionOfDim(lhs.getPosition());
    bool rhsOut = outMap.isFunctionOfDim(rhs.getPosition());
    if (lhsOut == rhsOut)
      return false;
    WindowDim w{(int64_t)i, lhsOut ? lhs.getPosition() : rhs.getPosition(),
                lhsOut ? rhs.getPosition() : lhs.getPosition()};
    if (iterators[w.tapLoop] != utils::IteratorType::reduction)
      return false;
    windows.push_back(w);
  }
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  if (llvm::any_of(ranges, ShapedType::isDynamic))
    return false;
  for (Operation &inner : op.getBlock()->without_terminator())
    if (isa<linalg::IndexOp>(inner))
      return false;

  // The input must be a constant pad of x that keeps x's size on each
  // window dimension ('same' padding) and pads nothing else.
  Value padded = op->getOperand(image);
  auto pad = padded.getDefiningOp<tensor::PadOp>();
  TypedAttr padValue;
  auto refuseInput = [&]() {
    return op->emitError() << describe()
                           << " is supported only on a tensor.pad of its input with a constant "
                              "value that keeps the window dimensions' size ('same' padding: "
                              "each tap then reads a shifted window of the input); pad the "
                              "input so that the output keeps its size, then take the part "
                              "you need with tensor.extract_slice",
           failure();
  };
  if (!pad || !pad.getConstantPaddingValue() ||
      !matchPattern(pad.getConstantPaddingValue(), m_Constant(&padValue)) ||
      !pad.getSourceType().hasStaticShape() ||
      llvm::any_of(pad.getStaticLow(), ShapedType::isDynamic))
    return refuseInput();
  RankedTensorType xType = pad.getSourceType();
  ArrayRef<int64_t> low = pad.getStaticLow(), high = pad.getStaticHigh();
  for (auto [i, expr] : llvm::enumerate(maps[image].getResults())) {
    if (auto dim = dyn_cast<AffineDimExpr>(expr)) {
      if (low[i] != 0 || high[i] != 0 || xType.getDimSize(i) != ranges[dim.getPosition()])
        return refuseInput();
    }
  }
  int64_t taps = 1;
  for (const WindowDim &w : windows) {
    if (xType.getDimSize(w.imageDim) != ranges[w.outLoop])
      return refuseInput();
    taps *= ranges[w.tapLoop];
  }
  if (taps > kMaxTaps)
    return op->emitError() << describe() << " has " << taps
                           << " taps (window positions); meshvk decomposes windows of at most "
                           << kMaxTaps,
           failure();

  // Loops of the new op: all but the taps.
  MLIRContext *ctx = op->getContext();
  unsigned numLoops = op.getNumLoops();
  SmallVector<int64_t> newLoop(numLoops, -1);
  SmallVector<utils::IteratorType> newIterators;
  unsigned next = 0;
  for (unsigned d = 0; d < numLoops; ++d)
    if (llvm::none_of(windows, [&](const WindowDim &w) { return w.tapLoop == d; })) {
      newLoop[d] = next++;
      newIterators.push_back(iterators[d]);
    }
  Location loc = op.getLoc();
  b.setInsertionPoint(op);
  SmallVector<Value> inputs;
  SmallVector<AffineMap> newMaps;
  // Operand numbers of the op -> per tap, the new input index (-1: unused).
  SmallVector<SmallVector<int64_t>> inputOf(taps, SmallVector<int64_t>(op.getNumDpsInputs(), -1));
  Block *body = op.getBlock();
  for (int64_t t = 0; t < taps; ++t) {
    // The tap's value of each window loop (last window fastest).
    SmallVector<int64_t> tap(numLoops, 0);
    for (int64_t rest = t, k = (int64_t)windows.size() - 1; k >= 0; --k) {
      tap[windows[k].tapLoop] = rest % ranges[windows[k].tapLoop];
      rest /= ranges[windows[k].tapLoop];
    }
    for (OpOperand *input : op.getDpsInputOperands()) {
      unsigned n = input->getOperandNumber();
      if (!op.payloadUsesValueFromOperand(input))
        continue;
      AffineMap map = maps[n];
      if ((int64_t)n == image) {
        SmallVector<int64_t> shifts(xType.getRank(), 0);
        SmallVector<AffineExpr> results;
        for (auto [i, expr] : llvm::enumerate(map.getResults())) {
          auto window =
              llvm::find_if(windows, [&](const WindowDim &w) { return w.imageDim == (int64_t)i; });
          unsigned loop =
              window != windows.end() ? window->outLoop : cast<AffineDimExpr>(expr).getPosition();
          if (window != windows.end())
            shifts[i] = tap[window->tapLoop] - low[i];
          results.push_back(getAffineDimExpr(newLoop[loop], ctx));
        }
        Value shifted = pad.getSource();
        if (llvm::any_of(shifts, [](int64_t s) { return s != 0; }))
          shifted = meshvk::WindowOp::create(b, loc, xType, pad.getSource(),
                                             b.getDenseI64ArrayAttr(shifts), padValue, nullptr,
                                             nullptr, nullptr, nullptr);
        inputOf[t][n] = inputs.size();
        inputs.push_back(shifted);
        newMaps.push_back(AffineMap::get(next, 0, results, ctx));
        continue;
      }
      // Another input (a filter): the tap's slice when it has window loops.
      bool hasTap =
          llvm::any_of(windows, [&](const WindowDim &w) { return map.isFunctionOfDim(w.tapLoop); });
      if (!hasTap && t > 0) {
        inputOf[t][n] = inputOf[0][n];
        continue;
      }
      auto type = dyn_cast<RankedTensorType>(input->get().getType());
      if (hasTap && (!type || !type.hasStaticShape()))
        return false;
      // The tap's slice drops the window dimensions (rank-reducing): the
      // filter then reads through a projected permutation.
      Value value = input->get();
      SmallVector<AffineExpr> results;
      SmallVector<int64_t> offsets, sizes, kept;
      for (auto [i, expr] : llvm::enumerate(map.getResults())) {
        unsigned loop = cast<AffineDimExpr>(expr).getPosition();
        bool isTap = newLoop[loop] < 0;
        offsets.push_back(isTap ? tap[loop] : 0);
        sizes.push_back(isTap ? 1 : (type ? type.getDimSize(i) : 0));
        if (!isTap) {
          kept.push_back(sizes.back());
          results.push_back(getAffineDimExpr(newLoop[loop], ctx));
        }
      }
      if (hasTap) {
        auto attrs = [&](ArrayRef<int64_t> values) { return getAsIndexOpFoldResult(ctx, values); };
        SmallVector<int64_t> ones(offsets.size(), 1);
        value = tensor::ExtractSliceOp::create(b, loc,
                                               RankedTensorType::get(kept, type.getElementType()),
                                               value, attrs(offsets), attrs(sizes), attrs(ones));
      }
      inputOf[t][n] = inputs.size();
      inputs.push_back(value);
      newMaps.push_back(AffineMap::get(next, 0, results, ctx));
    }
  }
  SmallVector<AffineExpr> outResults;
  for (AffineExpr expr : outMap.getResults())
    outResults.push_back(getAffineDimExpr(newLoop[cast<AffineDimExpr>(expr).getPosition()], ctx));
  newMaps.push_back(AffineMap::get(next, 0, outResults, ctx));

  Value init = op.getDpsInits()[0];
  auto initType = cast<RankedTensorType>(init.getType());
  Value after; // added to the result when the accumulator started at zero
  if (!isFresh(init) && op.payloadUsesValueFromOperand(op.getDpsInitOperand(0)) &&
      accumulatesBySum(op)) {
    after = init;
    Value zero = arith::ConstantOp::create(b, loc, b.getZeroAttr(initType.getElementType()));
    Value empty = tensor::EmptyOp::create(b, loc, initType.getShape(), initType.getElementType());
    init = linalg::FillOp::create(b, loc, zero, empty).getResult(0);
  }
  auto generic = linalg::GenericOp::create(
      b, loc, TypeRange{op->getResult(0).getType()}, inputs, ValueRange{init}, newMaps,
      newIterators, [&](OpBuilder &nb, Location l, ValueRange args) {
        Value acc = args.back();
        for (int64_t t = 0; t < taps; ++t) {
          IRMapping mapping;
          for (OpOperand *input : op.getDpsInputOperands()) {
            int64_t k = inputOf[t][input->getOperandNumber()];
            if (k >= 0)
              mapping.map(body->getArgument(input->getOperandNumber()), args[k]);
          }
          mapping.map(body->getArguments().back(), acc);
          for (Operation &inner : body->without_terminator())
            nb.clone(inner, mapping);
          acc = mapping.lookupOrDefault(body->getTerminator()->getOperand(0));
        }
        linalg::YieldOp::create(nb, l, acc);
      });
  Value result = generic.getResult(0);
  if (after) {
    Value empty = tensor::EmptyOp::create(b, loc, initType.getShape(), initType.getElementType());
    result = linalg::AddOp::create(b, loc, TypeRange{initType}, ValueRange{result, after},
                                   ValueRange{empty})
                 ->getResult(0);
  }
  op->getResult(0).replaceAllUsesWith(result);
  op->erase();
  if (pad->use_empty())
    pad->erase();
  return true;
}

} // namespace

LogicalResult meshvk::decomposeWindowedOps(func::FuncOp func) {
  SmallVector<linalg::LinalgOp> ops;
  func.walk([&](linalg::LinalgOp op) { ops.push_back(op); });
  OpBuilder b(func.getContext());
  for (linalg::LinalgOp op : ops)
    if (failed(decomposeOne(op, b)))
      return failure();
  return success();
}

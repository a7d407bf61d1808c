//===- ConvWindows.cpp - convolutions and poolings as window sums ---------===//
//
// A convolution or pooling reads its (padded) input at
// `out * stride + tap * dilation` on each window dimension: not a projected
// permutation, so upstream's linalg sharding interface cannot partition it.
// For each tap (a value of the window loops) the input it reads at stride 1
// is a shifted window of the unpadded input, `x[e + tap * dilation - low]`
// or the pad value outside: a meshvk.window, split like the output and
// costing only the borders its shift reaches. The op becomes linalg.generics
// over the remaining loops that take the taps' windows (and the matching
// slices of the filter) and apply the op's body once per tap, accumulating
// as the op did (a few taps per generic, each continuing the previous one's
// accumulator: propagation's cost grows as 2^operands):
//
//   conv(pad(x), w)  ->  generic(window(x, -1), w[0], window(x, 0), w[1],
//                                window(x, +1), w[2]) { acc += x_t * w_t }
//
// so batch, channel and spatial splits all partition. Where the op's output
// is not x's size at stride 1 ('valid' or partial padding, strides), the
// generic computes the stride-1 outputs over x's extent and a strided
// tensor.extract_slice keeps the op's (`out * stride`): a split spatial
// dimension then moves the slice's data (meshvk's slice rule), batch and
// channel splits still move nothing. An accumulator that is not a fresh fill
// (tosa.conv2d's bias) starts from zeros and is added after, as
// meshvk-normalize-input does for contractions.
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

#include <limits>
#include <optional>

using namespace mlir;

namespace {

/// At most this many taps (an 11x11 window) per op: each group of taps is
/// an op (and a kernel).
constexpr int64_t kMaxTaps = 121;
/// Operands of one generic over a group of taps (accumulator included).
constexpr int64_t kMaxOperands = 9;

/// A window dimension of the input: result `imageDim` of its map reads
/// `outLoop * stride + tapLoop * dilation`.
struct WindowDim {
  int64_t imageDim;
  unsigned outLoop, tapLoop;
  int64_t stride, dilation;
};

/// `d`, `d * c` or `c * d` (c >= 1): the loop and its coefficient.
std::optional<std::pair<unsigned, int64_t>> scaledDim(AffineExpr e) {
  if (auto dim = dyn_cast<AffineDimExpr>(e))
    return std::make_pair(dim.getPosition(), int64_t{1});
  auto mul = dyn_cast<AffineBinaryOpExpr>(e);
  if (!mul || mul.getKind() != AffineExprKind::Mul)
    return std::nullopt;
  auto dim = dyn_cast<AffineDimExpr>(mul.getLHS());
  auto scale = dyn_cast<AffineConstantExpr>(mul.getRHS());
  if (!dim || !scale) {
    dim = dyn_cast<AffineDimExpr>(mul.getRHS());
    scale = dyn_cast<AffineConstantExpr>(mul.getLHS());
  }
  if (!dim || !scale || scale.getValue() < 1)
    return std::nullopt;
  return std::make_pair(dim.getPosition(), scale.getValue());
}

/// The fill or empty an init is (through shard.shard ops), or null.
Operation *freshInit(Value init) {
  Operation *def = init.getDefiningOp();
  while (auto shardOp = dyn_cast_or_null<shard::ShardOp>(def))
    def = shardOp.getSrc().getDefiningOp();
  return isa_and_nonnull<tensor::EmptyOp, linalg::FillOp>(def) ? def : nullptr;
}

/// The add when the body yields `out + v` and reads `out` nowhere else (a
/// convolution, a sum pool), else null.
Operation *sumIntoOut(linalg::LinalgOp op) {
  Block *body = op.getBlock();
  Operation *add = body->getTerminator()->getOperand(0).getDefiningOp();
  Value out = body->getArguments().back();
  if (!isa_and_nonnull<arith::AddFOp, arith::AddIOp>(add) || !out.hasOneUse() ||
      !llvm::is_contained(add->getOperands(), out) || add->getOperand(0) == add->getOperand(1))
    return nullptr;
  return add;
}

/// Whether `pad` is a constant pad of a static tensor that pads only the
/// window dimensions: the windows then read its source (shifted by `low`)
/// and its value outside.
bool padsOnlyWindows(tensor::PadOp pad, ArrayRef<WindowDim> windows) {
  if (!pad || !pad.getConstantPaddingValue() ||
      !matchPattern(pad.getConstantPaddingValue(), m_Constant()) ||
      !pad.getSourceType().hasStaticShape() ||
      llvm::any_of(pad.getStaticLow(), ShapedType::isDynamic) ||
      llvm::any_of(pad.getStaticHigh(), ShapedType::isDynamic))
    return false;
  for (int64_t i = 0; i < pad.getSourceType().getRank(); ++i)
    if ((pad.getStaticLow()[i] != 0 || pad.getStaticHigh()[i] != 0) &&
        llvm::none_of(windows, [&](const WindowDim &w) { return w.imageDim == i; }))
      return false;
  return true;
}

/// Rewrites `op` when it is a windowed op; success(false) when it is not one
/// (left to check-sharding), failure after an error.
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

  // Window dimensions: `out * stride + tap * dilation`, out in the output,
  // tap a reduction; anything else (a broadcast's constant) is not a window.
  SmallVector<WindowDim> windows;
  for (auto [i, expr] : llvm::enumerate(maps[image].getResults())) {
    if (isa<AffineDimExpr>(expr))
      continue;
    auto sum = dyn_cast<AffineBinaryOpExpr>(expr);
    if (!sum || sum.getKind() != AffineExprKind::Add)
      return false;
    auto lhs = scaledDim(sum.getLHS()), rhs = scaledDim(sum.getRHS());
    if (!lhs || !rhs)
      return false;
    bool lhsOut = outMap.isFunctionOfDim(lhs->first);
    if (lhsOut == outMap.isFunctionOfDim(rhs->first))
      return false;
    auto [out, tap] = lhsOut ? std::make_pair(*lhs, *rhs) : std::make_pair(*rhs, *lhs);
    if (iterators[tap.first] != utils::IteratorType::reduction ||
        llvm::any_of(windows, [&](const WindowDim &w) { return w.outLoop == out.first; }))
      return false;
    windows.push_back(WindowDim{(int64_t)i, out.first, tap.first, out.second, tap.second});
  }
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  if (llvm::any_of(ranges, ShapedType::isDynamic))
    return false;
  for (Operation &inner : op.getBlock()->without_terminator())
    if (isa<linalg::IndexOp>(inner))
      return false;

  // The tensor the windows shift: the source of a constant pad of the
  // window dimensions (its value read outside), else the input itself.
  Location loc = op.getLoc();
  MLIRContext *ctx = op->getContext();
  auto attrs = [&](ArrayRef<int64_t> values) { return getAsIndexOpFoldResult(ctx, values); };
  b.setInsertionPoint(op);
  auto pad = op->getOperand(image).getDefiningOp<tensor::PadOp>();
  if (!padsOnlyWindows(pad, windows))
    pad = nullptr;
  Value x = pad ? pad.getSource() : op->getOperand(image);
  auto xType = dyn_cast<RankedTensorType>(x.getType());
  if (!xType || !xType.hasStaticShape())
    return false;
  int64_t rank = xType.getRank();
  for (auto [i, expr] : llvm::enumerate(maps[image].getResults()))
    if (auto dim = dyn_cast<AffineDimExpr>(expr);
        dim && xType.getDimSize(i) != ranges[dim.getPosition()])
      return false;
  SmallVector<int64_t> low(rank, 0);
  TypedAttr padValue = b.getZeroAttr(xType.getElementType());
  if (pad) {
    low.assign(pad.getStaticLow().begin(), pad.getStaticLow().end());
    matchPattern(pad.getConstantPaddingValue(), m_Constant(&padValue));
  }
  // Output o of a window dimension is the taps' sum at e = o * stride of
  // the op run at stride 1 over x's extent (e + tap * dilation - low):
  // extended outputs, of which a strided extract_slice keeps the op's.
  // Where the padding reaches past x (o * stride beyond x's last element)
  // x is padded further on the high side first.
  SmallVector<int64_t> extendHigh(rank, 0);
  bool extended = false;
  for (const WindowDim &w : windows) {
    int64_t reach = (ranges[w.outLoop] - 1) * w.stride + 1;
    extendHigh[w.imageDim] = std::max<int64_t>(0, reach - xType.getDimSize(w.imageDim));
    extended = extended || w.stride != 1 || reach < xType.getDimSize(w.imageDim);
  }
  if (extended)
    for (auto [n, map] : llvm::enumerate(maps))
      if ((int64_t)n != image && n + 1 != maps.size() &&
          llvm::any_of(windows, [&](const WindowDim &w) { return map.isFunctionOfDim(w.outLoop); }))
        return op->emitError()
                   << describe() << " reads operand #" << n
                   << " along its output's window dimensions; meshvk runs a strided, "
                      "dilated or size-changing window only where no operand but the "
                      "input and the output does (write the op with 'same' padding and "
                      "stride 1, then take the part you need with tensor.extract_slice)",
               failure();
  int64_t taps = 1;
  for (const WindowDim &w : windows)
    taps *= ranges[w.tapLoop];
  if (taps > kMaxTaps)
    return op->emitError() << describe() << " has " << taps
                           << " taps (window positions); meshvk decomposes windows of at most "
                           << kMaxTaps,
           failure();
  if (llvm::any_of(extendHigh, [](int64_t e) { return e > 0; })) {
    SmallVector<int64_t> shape(xType.getShape());
    for (int64_t i = 0; i < rank; ++i)
      shape[i] += extendHigh[i];
    Value value = arith::ConstantOp::create(b, loc, padValue);
    x = tensor::PadOp::create(b, loc, RankedTensorType::get(shape, xType.getElementType()), x,
                              attrs(SmallVector<int64_t>(rank, 0)), attrs(extendHigh), value);
    xType = cast<RankedTensorType>(x.getType());
  }

  // Loops of the new op: all but the taps.
  unsigned numLoops = op.getNumLoops();
  SmallVector<int64_t> newLoop(numLoops, -1);
  SmallVector<utils::IteratorType> newIterators;
  unsigned next = 0;
  for (unsigned d = 0; d < numLoops; ++d)
    if (llvm::none_of(windows, [&](const WindowDim &w) { return w.tapLoop == d; })) {
      newLoop[d] = next++;
      newIterators.push_back(iterators[d]);
    }
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
        SmallVector<int64_t> shifts(rank, 0);
        SmallVector<AffineExpr> results;
        for (auto [i, expr] : llvm::enumerate(map.getResults())) {
          auto window =
              llvm::find_if(windows, [&](const WindowDim &w) { return w.imageDim == (int64_t)i; });
          unsigned loop =
              window != windows.end() ? window->outLoop : cast<AffineDimExpr>(expr).getPosition();
          if (window != windows.end())
            shifts[i] = tap[window->tapLoop] * window->dilation - low[i];
          results.push_back(getAffineDimExpr(newLoop[loop], ctx));
        }
        Value shifted = x;
        if (llvm::any_of(shifts, [](int64_t s) { return s != 0; }))
          shifted = meshvk::WindowOp::create(b, loc, xType, x, b.getDenseI64ArrayAttr(shifts),
                                             padValue, nullptr, nullptr, nullptr, nullptr);
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

  // The accumulator, over the extended outputs where the windows extend.
  Value init = op.getDpsInits()[0];
  auto initType = cast<RankedTensorType>(init.getType());
  SmallVector<int64_t> outShape(initType.getShape()), outStrides(initType.getRank(), 1);
  for (const WindowDim &w : windows) {
    unsigned d = *outMap.getResultPosition(getAffineDimExpr(w.outLoop, ctx));
    outShape[d] = xType.getDimSize(w.imageDim);
    outStrides[d] = w.stride;
  }
  auto accType = RankedTensorType::get(outShape, initType.getElementType());
  bool readsInit = op.payloadUsesValueFromOperand(op.getDpsInitOperand(0));
  Operation *fresh = freshInit(init);
  Value after; // added to the result when the accumulator started at zero
  auto filled = [&](Value value) -> Value {
    Value empty = tensor::EmptyOp::create(b, loc, accType.getShape(), accType.getElementType());
    return value ? linalg::FillOp::create(b, loc, value, empty).getResult(0) : empty;
  };
  auto zeros = [&]() {
    return filled(arith::ConstantOp::create(b, loc, b.getZeroAttr(accType.getElementType())));
  };
  Operation *sum = sumIntoOut(op);
  if (!fresh && readsInit && sum) {
    after = init;
    init = zeros();
  } else if (extended && (fresh || !readsInit)) {
    auto fill = dyn_cast_or_null<linalg::FillOp>(fresh);
    init = filled(fill && readsInit ? fill.getInputs()[0] : Value());
  } else if (extended) {
    return op->emitError() << describe()
                           << " combines its windows into a tensor that is not a fill (not by a "
                              "sum); meshvk runs a strided, dilated or size-changing window only "
                              "into a linalg.fill (write the op into a fill, then combine the "
                              "result with that tensor)",
           failure();
  }
  // The taps in groups of at most kMaxOperands operands, one generic each:
  // upstream's sharding propagation tries every combination of an op's
  // operands' shardings, 2^operands (a 3x3 convolution as one op of 18
  // operands took 0.9 GB, a 5x5 one ran out of memory). A group continues
  // the previous group's result (an input read like the output), except
  // where loops other than the taps reduce (a convolution's channels): each
  // reduction step starts from the output, so each group then sums into
  // zeros and the groups' sums are added (another reduction stays one op).
  bool reduces = llvm::is_contained(newIterators, utils::IteratorType::reduction);
  int64_t maxOperands = reduces && !sum ? std::numeric_limits<int64_t>::max() : kMaxOperands;
  AffineMap accMap = newMaps.back();
  Value outArg = body->getArguments().back();
  unsigned termIndex = sum && sum->getOperand(0) == outArg ? 1 : 0;
  // `acc + term` with the op's own add (its type and flags).
  auto addTo = [&](OpBuilder &nb, Value acc, Value term) {
    IRMapping mapping;
    mapping.map(outArg, acc);
    mapping.map(sum->getOperand(termIndex), term);
    return nb.clone(*sum, mapping)->getResult(0);
  };
  Value acc; // the groups' result so far
  for (int64_t first = 0; first < taps;) {
    bool continues = acc && !reduces;
    SmallVector<Value> groupInputs;
    SmallVector<AffineMap> groupMaps;
    DenseMap<int64_t, int64_t> position; // index in `inputs` -> in the group's inputs
    if (continues) {
      groupInputs.push_back(acc);
      groupMaps.push_back(accMap);
    }
    int64_t last = first;
    for (; last < taps; ++last) {
      SmallVector<int64_t> fresh;
      for (int64_t k : inputOf[last])
        if (k >= 0 && !position.count(k) && !llvm::is_contained(fresh, k))
          fresh.push_back(k);
      if (last > first && (int64_t)(groupInputs.size() + fresh.size()) + 1 > maxOperands)
        break;
      for (int64_t k : fresh) {
        position[k] = groupInputs.size();
        groupInputs.push_back(inputs[k]);
        groupMaps.push_back(newMaps[k]);
      }
    }
    groupMaps.push_back(accMap);
    Value out = !acc ? init : continues ? filled(Value()) : zeros();
    auto generic = linalg::GenericOp::create(
        b, loc, TypeRange{accType}, groupInputs, ValueRange{out}, groupMaps, newIterators,
        [&](OpBuilder &nb, Location l, ValueRange args) {
          Value running = continues ? args.front() : args.back();
          // A sum adds the taps' terms first and the total to `out` once, so
          // the body stays `out + v` (the combiner partitioning recognizes
          // when another loop, the channels, is split).
          Value total;
          for (int64_t t = first; t < last; ++t) {
            IRMapping mapping;
            for (OpOperand *input : op.getDpsInputOperands()) {
              int64_t k = inputOf[t][input->getOperandNumber()];
              if (k >= 0)
                mapping.map(body->getArgument(input->getOperandNumber()), args[position[k]]);
            }
            mapping.map(outArg, running);
            for (Operation &inner : body->without_terminator())
              if (&inner != sum)
                nb.clone(inner, mapping);
            if (!sum) {
              running = mapping.lookupOrDefault(body->getTerminator()->getOperand(0));
              continue;
            }
            Value term = mapping.lookupOrDefault(sum->getOperand(termIndex));
            total = total ? addTo(nb, total, term) : term;
          }
          if (sum)
            running = addTo(nb, running, total);
          linalg::YieldOp::create(nb, l, running);
        });
    Value groupResult = generic.getResult(0);
    if (acc && !continues) {
      Value empty = tensor::EmptyOp::create(b, loc, accType.getShape(), accType.getElementType());
      groupResult = linalg::AddOp::create(b, loc, TypeRange{accType}, ValueRange{acc, groupResult},
                                          ValueRange{empty})
                        ->getResult(0);
    }
    acc = groupResult;
    first = last;
  }
  Value result = acc;
  if (extended) {
    result = tensor::ExtractSliceOp::create(b, loc, initType, result,
                                            attrs(SmallVector<int64_t>(initType.getRank(), 0)),
                                            attrs(initType.getShape()), attrs(outStrides));
  }
  if (after) {
    Value empty = tensor::EmptyOp::create(b, loc, initType.getShape(), initType.getElementType());
    result = linalg::AddOp::create(b, loc, TypeRange{initType}, ValueRange{result, after},
                                   ValueRange{empty})
                 ->getResult(0);
  }
  op->getResult(0).replaceAllUsesWith(result);
  op->erase();
  if (pad && pad->use_empty())
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

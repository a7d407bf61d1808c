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

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/SymbolTable.h"

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
using meshvk::kAccumulatorRole;
using meshvk::kImageRole;
using meshvk::kTemplatesModule;

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

} // namespace

Operation *meshvk::sumIntoOut(linalg::LinalgOp op) {
  Block *body = op.getBlock();
  Operation *add = body->getTerminator()->getOperand(0).getDefiningOp();
  Value out = body->getArguments().back();
  if (!isa_and_nonnull<arith::AddFOp, arith::AddIOp>(add) || !out.hasOneUse() ||
      !llvm::is_contained(add->getOperands(), out) || add->getOperand(0) == add->getOperand(1))
    return nullptr;
  return add;
}

namespace {

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

/// The rewrite of one windowed op, step by step; the state the steps share.
/// Each step that can decline returns false (not a windowed op: left to
/// check-sharding) or fails after one error.
class WindowDecomposition {
public:
  WindowDecomposition(linalg::LinalgOp op, OpBuilder &b)
      : op(op), b(b), loc(op.getLoc()), ctx(op->getContext()), body(op.getBlock()) {}

  FailureOr<bool> run() {
    if (!findWindows())
      return false;
    FailureOr<bool> ok = findShiftedSource();
    if (failed(ok) || !*ok)
      return ok;
    if (failed(extendSource()))
      return failure();
    ok = buildTapOperands();
    if (failed(ok) || !*ok)
      return ok;
    if (failed(prepareAccumulator()))
      return failure();
    recordTemplate();
    replaceOp(emitTapGroups());
    return true;
  }

private:
  std::string describe() { return "'" + op->getName().getStringRef().str() + "'"; }
  SmallVector<OpFoldResult> attrs(ArrayRef<int64_t> values) {
    return getAsIndexOpFoldResult(ctx, values);
  }
  bool isTapLoop(unsigned d) {
    return llvm::any_of(windows, [&](const WindowDim &w) { return w.tapLoop == d; });
  }

  /// The one input read through a window (`image`) and its window dimensions:
  /// `out * stride + tap * dilation`, out in the output, tap a reduction;
  /// anything else (a broadcast's constant) is not a window.
  bool findWindows() {
    if (!op.hasPureTensorSemantics() || op.getNumDpsInits() != 1 || op->getNumResults() != 1)
      return false;
    maps = op.getIndexingMapsArray();
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
    outMap = maps.back();
    iterators = op.getIteratorTypesArray();
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
    ranges = op.getStaticLoopRanges();
    if (llvm::any_of(ranges, ShapedType::isDynamic))
      return false;
    for (Operation &inner : body->without_terminator())
      if (isa<linalg::IndexOp>(inner))
        return false;
    return true;
  }

  /// The tensor the windows shift (`x`): the source of a constant pad of the
  /// window dimensions (its value read outside), else the input itself.
  FailureOr<bool> findShiftedSource() {
    b.setInsertionPoint(op);
    pad = op->getOperand(image).getDefiningOp<tensor::PadOp>();
    if (!padsOnlyWindows(pad, windows))
      pad = nullptr;
    x = pad ? pad.getSource() : op->getOperand(image);
    xType = dyn_cast<RankedTensorType>(x.getType());
    if (!xType || !xType.hasStaticShape())
      return false;
    rank = xType.getRank();
    for (auto [i, expr] : llvm::enumerate(maps[image].getResults()))
      if (auto dim = dyn_cast<AffineDimExpr>(expr);
          dim && xType.getDimSize(i) != ranges[dim.getPosition()])
        return false;
    low.assign(rank, 0);
    padValue = b.getZeroAttr(xType.getElementType());
    if (pad) {
      low.assign(pad.getStaticLow().begin(), pad.getStaticLow().end());
      matchPattern(pad.getConstantPaddingValue(), m_Constant(&padValue));
    }
    source = x;
    return true;
  }

  /// Output o of a window dimension is the taps' sum at e = o * stride of
  /// the op run at stride 1 over x's extent (e + tap * dilation - low):
  /// extended outputs, of which a strided extract_slice keeps the op's.
  /// Where the padding reaches past x (o * stride beyond x's last element)
  /// x is padded further on the high side first.
  LogicalResult extendSource() {
    SmallVector<int64_t> extendHigh(rank, 0);
    for (const WindowDim &w : windows) {
      int64_t reach = (ranges[w.outLoop] - 1) * w.stride + 1;
      extendHigh[w.imageDim] = std::max<int64_t>(0, reach - xType.getDimSize(w.imageDim));
      extended = extended || w.stride != 1 || reach < xType.getDimSize(w.imageDim);
    }
    if (extended)
      for (auto [n, map] : llvm::enumerate(maps))
        if ((int64_t)n != image && n + 1 != maps.size() &&
            llvm::any_of(windows,
                         [&](const WindowDim &w) { return map.isFunctionOfDim(w.outLoop); }))
          return op->emitError()
                 << describe() << " reads operand #" << n
                 << " along its output's window dimensions; meshvk runs a strided, "
                    "dilated or size-changing window only where no operand but the "
                    "input and the output does (write the op with 'same' padding and "
                    "stride 1, then take the part you need with tensor.extract_slice)";
    for (const WindowDim &w : windows)
      taps *= ranges[w.tapLoop];
    if (taps > kMaxTaps)
      return op->emitError() << describe() << " has " << taps
                             << " taps (window positions); meshvk decomposes windows of at most "
                             << kMaxTaps;
    if (llvm::any_of(extendHigh, [](int64_t e) { return e > 0; })) {
      SmallVector<int64_t> shape(xType.getShape());
      for (int64_t i = 0; i < rank; ++i)
        shape[i] += extendHigh[i];
      Value value = arith::ConstantOp::create(b, loc, padValue);
      x = tensor::PadOp::create(b, loc, RankedTensorType::get(shape, xType.getElementType()), x,
                                attrs(SmallVector<int64_t>(rank, 0)), attrs(extendHigh), value);
      xType = cast<RankedTensorType>(x.getType());
    }
    return success();
  }

  /// The loops of the new ops (all but the taps), and per tap the operands
  /// it reads: the input's shifted window, the filters' slices.
  FailureOr<bool> buildTapOperands() {
    unsigned numLoops = op.getNumLoops();
    newLoop.assign(numLoops, -1);
    for (unsigned d = 0; d < numLoops; ++d)
      if (!isTapLoop(d)) {
        newLoop[d] = numNewLoops++;
        newIterators.push_back(iterators[d]);
      }
    inputOf.assign(taps, SmallVector<int64_t>(op.getNumDpsInputs(), -1));
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
        if ((int64_t)n == image) {
          addImageWindow(t, tap);
          continue;
        }
        if (!addFilterSlice(t, tap, input))
          return false;
      }
    }
    SmallVector<AffineExpr> outResults;
    for (AffineExpr expr : outMap.getResults())
      outResults.push_back(getAffineDimExpr(newLoop[cast<AffineDimExpr>(expr).getPosition()], ctx));
    newMaps.push_back(AffineMap::get(numNewLoops, 0, outResults, ctx));
    return true;
  }

  /// Tap `t`'s read of the input: a meshvk.window of x by the tap's shifts.
  void addImageWindow(int64_t t, ArrayRef<int64_t> tap) {
    SmallVector<int64_t> shifts(rank, 0);
    SmallVector<AffineExpr> results;
    for (auto [i, expr] : llvm::enumerate(maps[image].getResults())) {
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
      shifted = meshvk::WindowOp::create(b, loc, xType, x, b.getDenseI64ArrayAttr(shifts), padValue,
                                         nullptr, nullptr, nullptr, nullptr);
    inputOf[t][image] = inputs.size();
    inputs.push_back(shifted);
    roles.push_back(kImageRole);
    newMaps.push_back(AffineMap::get(numNewLoops, 0, results, ctx));
  }

  /// Tap `t`'s read of another input (a filter): the tap's slice when it has
  /// window loops, dropping them (rank-reducing), so the filter then reads
  /// through a projected permutation; false when such a filter is dynamic.
  bool addFilterSlice(int64_t t, ArrayRef<int64_t> tap, OpOperand *input) {
    unsigned n = input->getOperandNumber();
    AffineMap map = maps[n];
    bool hasTap =
        llvm::any_of(windows, [&](const WindowDim &w) { return map.isFunctionOfDim(w.tapLoop); });
    if (!hasTap && t > 0) {
      inputOf[t][n] = inputOf[0][n];
      return true;
    }
    auto type = dyn_cast<RankedTensorType>(input->get().getType());
    if (hasTap && (!type || !type.hasStaticShape()))
      return false;
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
      value =
          tensor::ExtractSliceOp::create(b, loc, RankedTensorType::get(kept, type.getElementType()),
                                         value, attrs(offsets), attrs(sizes), attrs(ones));
    }
    inputOf[t][n] = inputs.size();
    inputs.push_back(value);
    roles.push_back(templateArgument(n));
    newMaps.push_back(AffineMap::get(numNewLoops, 0, results, ctx));
    return true;
  }

  /// A fresh accumulator of `accType`, filled with `value` when given.
  Value filled(Value value) {
    Value empty = tensor::EmptyOp::create(b, loc, accType.getShape(), accType.getElementType());
    return value ? linalg::FillOp::create(b, loc, value, empty).getResult(0) : empty;
  }
  Value zeros() {
    return filled(arith::ConstantOp::create(b, loc, b.getZeroAttr(accType.getElementType())));
  }

  /// The accumulator, over the extended outputs where the windows extend. An
  /// accumulator that is not a fresh fill, summed into, starts from zeros and
  /// is added after (`after`).
  LogicalResult prepareAccumulator() {
    init = op.getDpsInits()[0];
    initType = cast<RankedTensorType>(init.getType());
    SmallVector<int64_t> outShape(initType.getShape());
    outStrides.assign(initType.getRank(), 1);
    for (const WindowDim &w : windows) {
      unsigned d = *outMap.getResultPosition(getAffineDimExpr(w.outLoop, ctx));
      outShape[d] = xType.getDimSize(w.imageDim);
      outStrides[d] = w.stride;
    }
    accType = RankedTensorType::get(outShape, initType.getElementType());
    bool readsInit = op.payloadUsesValueFromOperand(op.getDpsInitOperand(0));
    Operation *fresh = freshInit(init);
    sum = meshvk::sumIntoOut(op);
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
                                "result with that tensor)";
    }
    return success();
  }

  /// `acc + term` with the op's own add (its type and flags).
  Value addTo(OpBuilder &nb, Value acc, Value term) {
    Value outArg = body->getArguments().back();
    IRMapping mapping;
    mapping.map(outArg, acc);
    mapping.map(sum->getOperand(termIndex), term);
    return nb.clone(*sum, mapping)->getResult(0);
  }

  /// The taps in groups of at most kMaxOperands operands, one generic each:
  /// upstream's sharding propagation tries every combination of an op's
  /// operands' shardings, 2^operands (a 3x3 convolution as one op of 18
  /// operands took 0.9 GB, a 5x5 one ran out of memory). A group continues
  /// the previous group's result (an input read like the output), except
  /// where loops other than the taps reduce (a convolution's channels): each
  /// reduction step starts from the output, so each group then sums into
  /// zeros and the groups' sums are added (another reduction stays one op).
  /// Returns the groups' result.
  Value emitTapGroups() {
    reduces = llvm::is_contained(newIterators, utils::IteratorType::reduction);
    maxOperands = reduces && !sum ? std::numeric_limits<int64_t>::max() : kMaxOperands;
    termIndex = sum && sum->getOperand(0) == body->getArguments().back() ? 1 : 0;
    Value acc; // the groups' result so far
    for (int64_t first = 0; first < taps;)
      acc = emitTapGroup(acc, first);
    return acc;
  }

  /// One group of taps from `first` (advanced past the group) continuing or
  /// added to `acc`, the previous groups' result (null for the first group).
  Value emitTapGroup(Value acc, int64_t &first) {
    AffineMap accMap = newMaps.back();
    bool continues = acc && !reduces;
    SmallVector<Value> groupInputs;
    SmallVector<AffineMap> groupMaps;
    SmallVector<int64_t> groupRoles;
    DenseMap<int64_t, int64_t> position; // index in `inputs` -> in the group's inputs
    if (continues) {
      groupInputs.push_back(acc);
      groupMaps.push_back(accMap);
      groupRoles.push_back(kAccumulatorRole);
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
        groupRoles.push_back(roles[k]);
      }
    }
    groupMaps.push_back(accMap);
    Value out = !acc ? init : continues ? filled(Value()) : zeros();
    auto generic = linalg::GenericOp::create(
        b, loc, TypeRange{accType}, groupInputs, ValueRange{out}, groupMaps, newIterators,
        [&](OpBuilder &nb, Location l, ValueRange args) {
          Value running = continues ? args.front() : args.back();
          linalg::YieldOp::create(nb, l, applyTaps(nb, args, position, running, first, last));
        });
    if (templateRef) {
      meshvk::MeshVKDialect::WindowOpAttrHelper(ctx).setAttr(generic, templateRef);
      meshvk::MeshVKDialect::WindowRolesAttrHelper(ctx).setAttr(generic,
                                                                b.getDenseI64ArrayAttr(groupRoles));
    }
    Value groupResult = generic.getResult(0);
    if (acc && !continues) {
      Value empty = tensor::EmptyOp::create(b, loc, accType.getShape(), accType.getElementType());
      groupResult = linalg::AddOp::create(b, loc, TypeRange{accType}, ValueRange{acc, groupResult},
                                          ValueRange{empty})
                        ->getResult(0);
    }
    first = last;
    return groupResult;
  }

  /// The op's body once per tap of [first, last) in a group's generic body.
  /// A sum adds the taps' terms first and the total to `out` once, so the
  /// body stays `out + v` (the combiner partitioning recognizes when another
  /// loop, the channels, is split).
  Value applyTaps(OpBuilder &nb, ValueRange args, DenseMap<int64_t, int64_t> &position,
                  Value running, int64_t first, int64_t last) {
    Value outArg = body->getArguments().back();
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
    return running;
  }

  /// The template's argument of the op's operand `n` (an input other than
  /// the image, or the init): x is argument 0, then the other inputs in
  /// order, then the init.
  int64_t templateArgument(unsigned n) { return n < (unsigned)image ? n + 1 : n; }

  /// The op as meshvk-recompose-windows rebuilds it: a function of the
  /// nested module @meshvk_window_ops taking (x, the other inputs, the init)
  /// and returning the op's result, with the constant pad the op read. Not
  /// kept (no tags) when the op's body reads a value from outside it.
  void recordTemplate() {
    bool closed = true;
    op->getRegion(0).walk([&](Operation *inner) {
      for (Value v : inner->getOperands())
        closed &= op->getRegion(0).isAncestor(v.getParentRegion());
    });
    if (!closed)
      return;
    auto module = op->getParentOfType<ModuleOp>();
    ModuleOp templates;
    for (auto nested : module.getOps<ModuleOp>())
      if (nested.getSymName() == kTemplatesModule)
        templates = nested;
    OpBuilder::InsertionGuard guard(b);
    if (!templates) {
      b.setInsertionPointToEnd(module.getBody());
      templates = ModuleOp::create(b, loc, StringRef(kTemplatesModule));
    }
    SmallVector<Type> argTypes{source.getType()};
    for (OpOperand *input : op.getDpsInputOperands())
      if ((int64_t)input->getOperandNumber() != image)
        argTypes.push_back(input->get().getType());
    argTypes.push_back(op.getDpsInits()[0].getType());
    b.setInsertionPointToEnd(templates.getBody());
    auto fn = func::FuncOp::create(b, loc, "window_op",
                                   b.getFunctionType(argTypes, op->getResultTypes()));
    fn.setPrivate();
    SymbolTable(templates).insert(fn);
    Block *entry = fn.addEntryBlock();
    b.setInsertionPointToStart(entry);
    IRMapping mapping;
    Value image0 = entry->getArgument(0);
    if (pad) {
      Value value = arith::ConstantOp::create(b, loc, padValue);
      image0 = tensor::PadOp::create(b, loc, pad.getResultType(), image0, pad.getMixedLowPad(),
                                     pad.getMixedHighPad(), value);
    }
    for (OpOperand &operand : op->getOpOperands())
      mapping.map(operand.get(),
                  (int64_t)operand.getOperandNumber() == image
                      ? image0
                      : entry->getArgument(templateArgument(operand.getOperandNumber())));
    Operation *clone = b.clone(*op, mapping);
    func::ReturnOp::create(b, loc, clone->getResults());
    templateRef = SymbolRefAttr::get(templates.getSymNameAttr(),
                                     {FlatSymbolRefAttr::get(fn.getSymNameAttr())});
  }

  /// The op's outputs out of the groups' result (`acc`): the strided slice of
  /// the extended outputs, plus the accumulator it did not start from.
  void replaceOp(Value acc) {
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
  }

  linalg::LinalgOp op;
  OpBuilder &b;
  Location loc;
  MLIRContext *ctx;
  Block *body;
  // findWindows
  SmallVector<AffineMap> maps;
  int64_t image = -1; // operand number of the windowed input
  AffineMap outMap;
  SmallVector<utils::IteratorType> iterators;
  SmallVector<WindowDim> windows;
  SmallVector<int64_t> ranges;
  // findShiftedSource, extendSource
  tensor::PadOp pad;
  Value source; // x before extendSource pads it further
  Value x;
  RankedTensorType xType;
  int64_t rank = 0;
  SmallVector<int64_t> low;
  TypedAttr padValue;
  bool extended = false;
  int64_t taps = 1;
  // buildTapOperands
  SmallVector<int64_t> newLoop; // loop of the op -> of the new ops (-1: a tap)
  SmallVector<utils::IteratorType> newIterators;
  unsigned numNewLoops = 0;
  SmallVector<Value> inputs;
  SmallVector<int64_t> roles;     // per input: kImageRole or its template argument
  SmallVector<AffineMap> newMaps; // per input, then the accumulator's
  // Operand numbers of the op -> per tap, the new input index (-1: unused).
  SmallVector<SmallVector<int64_t>> inputOf;
  // prepareAccumulator, emitTapGroups
  Value init;
  RankedTensorType initType;
  SmallVector<int64_t> outStrides;
  RankedTensorType accType;
  Value after; // added to the result when the accumulator started at zero
  Operation *sum = nullptr;
  bool reduces = false;
  int64_t maxOperands = kMaxOperands;
  unsigned termIndex = 0;
  // recordTemplate
  SymbolRefAttr templateRef;
};

/// Rewrites `op` when it is a windowed op; success(false) when it is not one
/// (left to check-sharding), failure after an error.
FailureOr<bool> decomposeOne(linalg::LinalgOp op, OpBuilder &b) {
  return WindowDecomposition(op, b).run();
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

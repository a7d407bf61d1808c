//===- StoreInF16.cpp - f32 tensors stored as f16, computed in f32 --------===//
//
// meshvk-store-in-f16 (Passes.td): `--precision=f16`. Every f32 tensor of a
// function (its arguments and results, its constants: the weights, and every
// activation) becomes f16; the arithmetic stays f32:
//  * a linalg op's body extends each f16 operand to f32 on the load and
//    truncates what it yields into an f16 output on the store;
//  * an op with reduction loops (matmul, convolution, pooling, linalg.reduce,
//    a reducing generic) keeps its f32 accumulator (init and result), and
//    its result is truncated to f16 by a following elementwise op (which
//    fusion may fold into the op's epilogue);
//  * the element-type-preserving tensor ops (slices, reshapes, concat, pad,
//    shard annotations, ...) take the f16 types of their operands.
// A tensor.empty or linalg.fill becomes f16 only where an f16 value is needed.
// Integer and boolean tensors are untouched.
//
//===----------------------------------------------------------------------===//
#include "meshvk/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/ImplicitLocOpBuilder.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Transforms/RegionUtils.h"

using namespace mlir;

namespace meshvk {
#define GEN_PASS_DEF_STOREINF16
#include "meshvk/Transforms/Passes.h.inc"
} // namespace meshvk

namespace {

bool isF32Tensor(Type t) {
  auto r = dyn_cast<RankedTensorType>(t);
  return r && r.getElementType().isF32();
}
bool isF16Tensor(Type t) {
  auto r = dyn_cast<RankedTensorType>(t);
  return r && r.getElementType().isF16();
}
Type withElement(Type t, Type element) { return cast<RankedTensorType>(t).clone(element); }

class Converter {
public:
  explicit Converter(MLIRContext *ctx) : b(ctx), f16(b.getF16Type()), f32(b.getF32Type()) {}

  LogicalResult run(func::FuncOp func) {
    if (func.isExternal())
      return success();
    for (BlockArgument arg : func.getArguments())
      if (isF32Tensor(arg.getType()))
        arg.setType(withElement(arg.getType(), f16));
    SmallVector<Operation *> ops;
    for (Operation &op : func.getBody().front())
      ops.push_back(&op);
    for (Operation *op : ops)
      if (failed(convert(op)))
        return failure();
    Operation *ret = func.getBody().front().getTerminator();
    func.setFunctionType(FunctionType::get(
        func.getContext(), func.getBody().front().getArgumentTypes(), ret->getOperandTypes()));
    for (auto it = replaced.rbegin(); it != replaced.rend(); ++it)
      if (isOpTriviallyDead(*it))
        (*it)->erase();
    return success();
  }

private:
  LogicalResult convert(Operation *op) {
    if (auto c = dyn_cast<arith::ConstantOp>(op)) {
      if (DenseElementsAttr narrow = narrowConstant(c.getValue(), c.getType())) {
        c.setValueAttr(cast<TypedAttr>(narrow));
        c.getResult().setType(narrow.getType());
      }
      return success();
    }
    if (auto c = dyn_cast<meshvk::ConstantOp>(op)) {
      if (DenseElementsAttr narrow = narrowConstant(c.getValue(), c.getType())) {
        c.setValueAttr(cast<ElementsAttr>(narrow));
        c.getResult().setType(cast<RankedTensorType>(withElement(c.getType(), f16)));
      }
      return success();
    }
    if (isa<tensor::EmptyOp, func::ReturnOp>(op))
      return success(); // an empty tensor becomes f16 where it is needed
    if (auto linalgOp = dyn_cast<linalg::LinalgOp>(op)) {
      if (isa<linalg::FillOp>(op))
        return success(); // f16 on demand (asF16), like tensor.empty
      return convertLinalg(linalgOp);
    }
    return convertPolymorphic(op);
  }

  // Weights: their bytes halve. Rounded to nearest even (APFloat). Null
  // for anything but an f32 tensor of dense data.
  DenseElementsAttr narrowConstant(Attribute value, Type type) {
    auto attr = dyn_cast<DenseFPElementsAttr>(value);
    if (!attr || !isF32Tensor(type))
      return {};
    const llvm::fltSemantics &half = f16.getFloatSemantics();
    DenseElementsAttr narrow = attr.mapValues(f16, [&](const APFloat &v) {
      APFloat h = v;
      bool lossy = false;
      h.convert(half, APFloat::rmNearestTiesToEven, &lossy);
      return h.bitcastToAPInt();
    });
    return narrow;
  }

  // An op that keeps its operands' element type (slices, reshapes, concat,
  // pad, shard.shard, ...): once one operand is f16, all are, and so are its
  // f32 tensor results. A scalar read out of an f16 tensor is extended back
  // for its f32 users; an f32 scalar written into one is truncated.
  LogicalResult convertPolymorphic(Operation *op) {
    if (!llvm::any_of(op->getOperandTypes(), isF16Tensor))
      return success();
    if (op->getNumRegions() != 0 && !isa<tensor::PadOp>(op))
      return op->emitOpError("has regions and f16 operands: meshvk-store-in-f16 cannot convert it");
    b.setInsertionPoint(op);
    for (OpOperand &operand : op->getOpOperands()) {
      Type t = operand.get().getType();
      if (isF32Tensor(t))
        operand.set(asF16(operand.get(), op->getLoc()));
      else if (t.isF32() && !isa<tensor::PadOp>(op))
        operand.set(arith::TruncFOp::create(b, op->getLoc(), f16, operand.get()));
    }
    b.setInsertionPointAfter(op);
    for (OpResult result : op->getResults()) {
      if (isF32Tensor(result.getType())) {
        result.setType(withElement(result.getType(), f16));
      } else if (result.getType().isF32() && isa<tensor::ExtractOp>(op)) {
        result.setType(f16);
        auto wide = arith::ExtFOp::create(b, op->getLoc(), f32, result);
        result.replaceAllUsesExcept(wide, wide);
      }
    }
    if (auto window = dyn_cast<meshvk::WindowOp>(op)) {
      if (auto pad = dyn_cast<FloatAttr>(window.getPad()); pad && pad.getType().isF32())
        window.setPadAttr(FloatAttr::get(f16, pad.getValueAsDouble()));
    }
    if (auto pad = dyn_cast<tensor::PadOp>(op)) {
      Operation *yield = pad.getRegion().front().getTerminator();
      b.setInsertionPoint(yield);
      if (yield->getOperand(0).getType().isF32())
        yield->setOperand(0, arith::TruncFOp::create(b, pad.getLoc(), f16, yield->getOperand(0)));
    }
    return success();
  }

  LogicalResult convertLinalg(linalg::LinalgOp op) {
    bool reduces = op.getNumReductionLoops() > 0;
    if (!llvm::any_of(op->getOperandTypes(),
                      [](Type t) { return isF32Tensor(t) || isF16Tensor(t); }))
      return success();
    bool hasBody = isa<linalg::GenericOp, linalg::ReduceOp, linalg::MapOp>(op);
    if (!hasBody && !op.getRegionBuilder())
      return op->emitOpError("has no region builder: meshvk-store-in-f16 cannot convert it");
    b.setInsertionPoint(op);
    // Outputs: f16 for elementwise ops; reductions accumulate in f32.
    SmallVector<bool> narrowOutput;
    for (OpOperand &init : op.getDpsInitsMutable()) {
      Type t = init.get().getType();
      bool narrow = !reduces && (isF32Tensor(t) || isF16Tensor(t));
      narrowOutput.push_back(narrow);
      if (narrow)
        init.set(asF16(init.get(), op.getLoc()));
      else if (isF16Tensor(t))
        init.set(asF32(init.get(), op.getLoc()));
    }
    // Inputs of a named op without a body of its own (transpose, broadcast,
    // copy yield their input as it is): f16 with an f16 output.
    if (!hasBody && !reduces)
      for (OpOperand *input : op.getDpsInputOperands())
        if (isF32Tensor(input->get().getType()))
          input->set(asF16(input->get(), op.getLoc()));
    Operation *converted = hasBody ? retypeBody(op, narrowOutput) : rebuildNamed(op);
    if (!converted)
      return failure();
    if (reduces)
      truncateResults(converted);
    return success();
  }

  // generic / reduce / map: the body's block arguments take the operands'
  // element types (f16 extended at the top), yields into f16 are truncated.
  Operation *retypeBody(linalg::LinalgOp op, ArrayRef<bool> narrowOutput) {
    Block &body = op->getRegion(0).front();
    b.setInsertionPointToStart(&body);
    // linalg.map's body has no arguments for the init.
    for (BlockArgument arg : body.getArguments()) {
      unsigned n = arg.getArgNumber();
      if (n >= op->getNumOperands())
        break;
      Type operand = getElementTypeOrSelf(op->getOperand(n).getType());
      if (operand.isF16() && arg.getType().isF32()) {
        arg.setType(f16);
        if (arg.use_empty())
          continue;
        auto wide = arith::ExtFOp::create(b, op.getLoc(), f32, arg);
        arg.replaceAllUsesExcept(wide, wide);
      }
    }
    // A tensor read inside the body (a gather's table) that became f16.
    body.walk([&](tensor::ExtractOp read) {
      if (!read.getTensor().getType().getElementType().isF16() || !read.getType().isF32())
        return;
      b.setInsertionPointAfter(read);
      read.getResult().setType(f16);
      auto wide = arith::ExtFOp::create(b, read.getLoc(), f32, read.getResult());
      read.getResult().replaceAllUsesExcept(wide, wide);
    });
    Operation *yield = body.getTerminator();
    b.setInsertionPoint(yield);
    for (auto [i, narrow] : llvm::enumerate(narrowOutput)) {
      if (!narrow)
        continue;
      Value v = yield->getOperand(i);
      if (v.getType().isF32())
        yield->setOperand(i, arith::TruncFOp::create(b, op.getLoc(), f16, v));
      op->getResult(i).setType(op.getDpsInits()[i].getType());
    }
    return op;
  }

  // A named op (matmul, convolution, pooling, transpose, ...) built again
  // with its own region builder, which casts mixed operand types to the
  // output's element type: f16 inputs into an f32 accumulator.
  Operation *rebuildNamed(linalg::LinalgOp op) {
    b.setInsertionPoint(op);
    OperationState state(op.getLoc(), op->getName());
    state.addOperands(op->getOperands());
    state.addAttributes(op->getAttrs());
    for (Value init : op.getDpsInits())
      state.addTypes(init.getType());
    Region *region = state.addRegion();
    Block *block = new Block();
    region->push_back(block);
    for (Value operand : op->getOperands())
      block->addArgument(getElementTypeOrSelf(operand.getType()), op.getLoc());
    {
      ImplicitLocOpBuilder ib(op.getLoc(), b.getContext());
      ib.setInsertionPointToStart(block);
      op.getRegionBuilder()(ib, *block, op->getAttrs(),
                            [&]() { return op->emitOpError("region builder: "); });
    }
    Operation *rebuilt = b.create(state);
    op->replaceAllUsesWith(rebuilt->getResults());
    replaced.push_back(op);
    return rebuilt;
  }

  // A reduction's f32 results, stored as f16 for their users.
  void truncateResults(Operation *op) {
    b.setInsertionPointAfter(op);
    for (OpResult result : op->getResults()) {
      if (!isF32Tensor(result.getType()))
        continue;
      Value narrow = convertTensor(result, f16, op->getLoc());
      result.replaceAllUsesExcept(narrow, narrow.getDefiningOp());
    }
  }

  // `v` (an f32 tensor) as f16: an empty or filled tensor made f16, a
  // constant converted, anything else truncated by an elementwise op.
  Value asF16(Value v, Location loc) {
    if (!isF32Tensor(v.getType()))
      return v;
    if (Value known = narrowed.lookup(v))
      return known;
    OpBuilder::InsertionGuard guard(b);
    Operation *def = v.getDefiningOp();
    Value out;
    if (isa_and_nonnull<tensor::EmptyOp, linalg::FillOp>(def))
      replaced.push_back(def); // erased at the end where nothing else reads it
    if (auto empty = dyn_cast_or_null<tensor::EmptyOp>(def)) {
      b.setInsertionPoint(empty);
      out =
          tensor::EmptyOp::create(b, empty.getLoc(), cast<RankedTensorType>(v.getType()).getShape(),
                                  f16, empty.getDynamicSizes());
    } else if (auto fill = dyn_cast_or_null<linalg::FillOp>(def);
               fill && matchPattern(fill.getDpsInputs()[0], m_Constant())) {
      // A constant fill (a splat): the f16 constant (a scalar truncf would
      // have no sharding rule).
      b.setInsertionPoint(fill);
      Value init = asF16(fill.getDpsInits()[0], fill.getLoc());
      b.setInsertionPoint(fill);
      Value value = fill.getDpsInputs()[0];
      if (auto c = value.getDefiningOp<arith::ConstantOp>())
        if (auto f = dyn_cast<FloatAttr>(c.getValue()); f && f.getType().isF32())
          value = arith::ConstantOp::create(b, fill.getLoc(),
                                            FloatAttr::get(f16, f.getValueAsDouble()));
      out = linalg::FillOp::create(b, fill.getLoc(), value, init).getResult(0);
    } else {
      if (def)
        b.setInsertionPointAfter(def);
      else
        b.setInsertionPointToStart(cast<BlockArgument>(v).getOwner());
      out = convertTensor(v, f16, loc);
    }
    narrowed[v] = out;
    return out;
  }

  Value asF32(Value v, Location loc) {
    OpBuilder::InsertionGuard guard(b);
    if (Operation *def = v.getDefiningOp())
      b.setInsertionPointAfter(def);
    else
      b.setInsertionPointToStart(cast<BlockArgument>(v).getOwner());
    return convertTensor(v, f32, loc);
  }

  // An elementwise extf/truncf of a whole tensor at the insertion point.
  Value convertTensor(Value v, Type element, Location loc) {
    auto type = cast<RankedTensorType>(v.getType());
    SmallVector<OpFoldResult> sizes = tensor::getMixedSizes(b, loc, v);
    Value init = tensor::EmptyOp::create(b, loc, sizes, element);
    SmallVector<AffineMap> maps(2, b.getMultiDimIdentityMap(type.getRank()));
    SmallVector<utils::IteratorType> iterators(type.getRank(), utils::IteratorType::parallel);
    auto generic = linalg::GenericOp::create(
        b, loc, TypeRange{init.getType()}, ValueRange{v}, ValueRange{init}, maps, iterators,
        [&](OpBuilder &nested, Location at, ValueRange args) {
          Value r = element.isF16() ? Value(arith::TruncFOp::create(nested, at, element, args[0]))
                                    : Value(arith::ExtFOp::create(nested, at, element, args[0]));
          linalg::YieldOp::create(nested, at, r);
        });
    return generic.getResult(0);
  }

  OpBuilder b;
  FloatType f16, f32;
  DenseMap<Value, Value> narrowed;
  SmallVector<Operation *> replaced;
};

struct StoreInF16Pass : meshvk::impl::StoreInF16Base<StoreInF16Pass> {
  void runOnOperation() override {
    for (auto func : llvm::make_early_inc_range(getOperation().getOps<func::FuncOp>())) {
      Converter converter(&getContext());
      if (failed(converter.run(func)))
        return signalPassFailure();
    }
  }
};

} // namespace

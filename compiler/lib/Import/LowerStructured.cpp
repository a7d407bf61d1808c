//===- LowerStructured.cpp - ONNX ops with structure -> tosa / tensor ------===//
//
// Contractions, convolutions, pools and reductions become the TOSA ops the
// compiler already lowers and partitions (tosa.matmul, tosa.conv2d, ...; ONNX's
// NCHW is transposed to TOSA's NHWC around them); data movement becomes
// tosa.reshape/transpose/concat/tile/pad and tensor.extract_slice. Shape
// operands (Reshape's shape, Slice's starts, ...) must be known at compile
// time; they are read from the folded host tensors.
//
//===----------------------------------------------------------------------===//
#include "Importer.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Tosa/IR/TosaOps.h"

#include <map>
#include <numeric>

using namespace mlir;

namespace meshvk::onnx_import {
namespace {

using TP = onnx::TensorProto;

Value operand(Importer &im, int i, Tensor **tensor = nullptr) {
  Tensor *t = im.input(i);
  if (tensor)
    *tensor = t;
  return t ? im.valueOf(*t) : Value();
}

// Reduces `x` over `axes` with tosa.reduce_<kind> (one axis at a time, dims
// kept), then drops them unless `keep`.
Value reduce(Importer &im, Value x, std::vector<int64_t> axes, StringRef kind, bool keep) {
  std::sort(axes.begin(), axes.end());
  auto type = cast<RankedTensorType>(x.getType());
  std::vector<int64_t> shape = shapeOf(x);
  for (int64_t a : axes) {
    shape[a] = 1;
    x = tosaOp(im, ("tosa.reduce_" + kind).str(),
               RankedTensorType::get(shape, type.getElementType()), x,
               {im.b.getNamedAttr("axis", im.b.getI32IntegerAttr(a))});
  }
  if (keep)
    return x;
  std::vector<int64_t> dropped;
  for (size_t d = 0; d < shape.size(); ++d)
    if (!std::count(axes.begin(), axes.end(), static_cast<int64_t>(d)))
      dropped.push_back(shape[d]);
  return im.reshape(x, dropped);
}

Value unary(Importer &im, Value x, int32_t type,
            std::function<Value(OpBuilder &, Location, Value)> f) {
  return im.elementwise({x}, shapeOf(x), type,
                        [&](OpBuilder &b, Location at, ValueRange a) { return f(b, at, a[0]); });
}
Value binary(Importer &im, Value x, Value y, int32_t type,
             std::function<Value(OpBuilder &, Location, Value, Value)> f) {
  std::vector<int64_t> shape;
  broadcastShapes(shapeOf(x), shapeOf(y), &shape);
  return im.elementwise({x, y}, shape, type, [&](OpBuilder &b, Location at, ValueRange a) {
    return f(b, at, a[0], a[1]);
  });
}

// The reduction axes of a Reduce* node: the axes input (ReduceSum from 13) or
// attribute; none means all unless noop_with_empty_axes.
bool reductionAxes(Importer &im, int64_t rank, std::vector<int64_t> *axes, bool *noop) {
  std::vector<int64_t> given = im.attrInts("axes");
  if (im.hasInput(1) && !im.hostInts(1, &given, "axes"))
    return false;
  *noop = given.empty() && im.attrInt("noop_with_empty_axes", 0);
  if (!im.axes(given, rank, axes))
    return false;
  if (given.empty())
    for (int64_t d = 0; d < rank; ++d)
      axes->push_back(d);
  return true;
}

bool lowerReduce(Importer &im) {
  Tensor *t;
  Value x = operand(im, 0, &t);
  if (!x || !im.onlyAttributes({"axes", "keepdims", "noop_with_empty_axes"}))
    return false;
  const std::string &op = im.node->op_type();
  Kind kind = kindOf(t->onnxType);
  bool isFloat = kind == Kind::Float;
  if (kind == Kind::Bool || (!isFloat && op != "ReduceSum" && op != "ReduceMax" &&
                             op != "ReduceMin" && op != "ReduceProd"))
    return im.fail("supported for float tensors (and int Sum/Max/Min/Prod) only, not " +
                   onnxTypeName(t->onnxType));
  std::vector<int64_t> axes;
  bool noop;
  if (!reductionAxes(im, t->shape.size(), &axes, &noop))
    return false;
  if (elementCount(t->shape) == 0)
    return im.fail("reducing an empty tensor is not supported");
  if (noop)
    return im.defineValue(0, x, t->onnxType);
  bool keep = im.attrInt("keepdims", 1);
  int64_t count = 1;
  for (int64_t a : axes)
    count *= t->shape[a];
  Value r;
  if (op == "ReduceSum")
    r = reduce(im, x, axes, "sum", keep);
  else if (op == "ReduceMax")
    r = reduce(im, x, axes, "max", keep);
  else if (op == "ReduceMin")
    r = reduce(im, x, axes, "min", keep);
  else if (op == "ReduceProd")
    r = reduce(im, x, axes, "product", keep);
  else if (op == "ReduceMean") {
    r = reduce(im, x, axes, "sum", keep);
    r = unary(im, r, t->onnxType, [&](OpBuilder &b, Location at, Value v) -> Value {
      return arith::DivFOp::create(b, at, v, fconst(b, at, v.getType(), count));
    });
  } else if (op == "ReduceL1") {
    r = reduce(im,
               unary(im, x, t->onnxType,
                     [](OpBuilder &b, Location at, Value v) -> Value {
                       return math::AbsFOp::create(b, at, v);
                     }),
               axes, "sum", keep);
  } else if (op == "ReduceL2" || op == "ReduceSumSquare") {
    r = reduce(im,
               unary(im, x, t->onnxType,
                     [](OpBuilder &b, Location at, Value v) -> Value {
                       return arith::MulFOp::create(b, at, v, v);
                     }),
               axes, "sum", keep);
    if (op == "ReduceL2")
      r = unary(im, r, t->onnxType, [](OpBuilder &b, Location at, Value v) -> Value {
        return math::SqrtOp::create(b, at, v);
      });
  } else if (op == "ReduceLogSum") {
    r = unary(
        im, reduce(im, x, axes, "sum", keep), t->onnxType,
        [](OpBuilder &b, Location at, Value v) -> Value { return math::LogOp::create(b, at, v); });
  } else if (op == "ReduceLogSumExp") {
    // log(sum(exp(x - max))) + max: exp of large values stays finite.
    Value m = reduce(im, x, axes, "max", true);
    Value e =
        binary(im, x, m, t->onnxType, [](OpBuilder &b, Location at, Value v, Value mx) -> Value {
          return math::ExpOp::create(b, at, arith::SubFOp::create(b, at, v, mx));
        });
    Value s = reduce(im, e, axes, "sum", true);
    r = binary(im, s, m, t->onnxType, [](OpBuilder &b, Location at, Value v, Value mx) -> Value {
      return arith::AddFOp::create(b, at, math::LogOp::create(b, at, v), mx);
    });
    if (!keep) {
      std::vector<int64_t> dropped;
      for (size_t d = 0; d < t->shape.size(); ++d)
        if (!std::count(axes.begin(), axes.end(), static_cast<int64_t>(d)))
          dropped.push_back(t->shape[d]);
      r = im.reshape(r, dropped);
    }
  }
  return im.defineValue(0, r, t->onnxType);
}

// Softmax / LogSoftmax over one axis (opset >= 13) or the flattened trailing
// dimensions from `axis` (before 13).
bool lowerSoftmax(Importer &im) {
  Tensor *t;
  Value x = operand(im, 0, &t);
  if (!x || !im.onlyAttributes({"axis"}))
    return false;
  if (kindOf(t->onnxType) != Kind::Float)
    return im.fail("supported for float tensors only");
  int64_t rank = t->shape.size();
  int64_t axis = 0;
  if (!im.axis(im.attrInt("axis", im.opset < 13 ? 1 : -1), rank, &axis))
    return false;
  Value in = x;
  int64_t reduceAxis = axis;
  if (im.opset < 13) {
    int64_t outer = 1;
    for (int64_t d = 0; d < axis; ++d)
      outer *= t->shape[d];
    in = im.reshape(x, {outer, elementCount(t->shape) / std::max<int64_t>(outer, 1)});
    reduceAxis = 1;
  }
  bool log = im.node->op_type() == "LogSoftmax";
  Value m = reduce(im, in, {reduceAxis}, "max", true);
  Value shifted =
      binary(im, in, m, t->onnxType, [](OpBuilder &b, Location at, Value v, Value mx) -> Value {
        return arith::SubFOp::create(b, at, v, mx);
      });
  Value e = unary(im, shifted, t->onnxType, [](OpBuilder &b, Location at, Value v) -> Value {
    return math::ExpOp::create(b, at, v);
  });
  Value s = reduce(im, e, {reduceAxis}, "sum", true);
  Value r = log ? binary(im, shifted, s, t->onnxType,
                         [](OpBuilder &b, Location at, Value v, Value sum) -> Value {
                           return arith::SubFOp::create(b, at, v, math::LogOp::create(b, at, sum));
                         })
                : binary(im, e, s, t->onnxType,
                         [](OpBuilder &b, Location at, Value v, Value sum) -> Value {
                           return arith::DivFOp::create(b, at, v, sum);
                         });
  return im.defineValue(0, im.reshape(r, t->shape), t->onnxType);
}

// a [B*M, K] x b [K, N] as one linalg.matmul: a weight read as it is stored,
// with no reshape to rank 3 (which, on a sharded weight, the partitioned
// program would copy into an activation as large as the weight's shard).
Value matmul2D(Importer &im, Value a, Value b) {
  auto type = cast<RankedTensorType>(a.getType());
  std::vector<int64_t> out = {type.getDimSize(0),
                              cast<RankedTensorType>(b.getType()).getDimSize(1)};
  Type element = type.getElementType();
  Value empty = tensor::EmptyOp::create(im.b, im.loc, out, element);
  Value zero = arith::ConstantOp::create(im.b, im.loc, im.b.getFloatAttr(element, 0.0));
  Value init = linalg::FillOp::create(im.b, im.loc, zero, empty).getResult(0);
  return linalg::MatmulOp::create(im.b, im.loc, TypeRange{init.getType()}, ValueRange{a, b},
                                  ValueRange{init})
      .getResult(0);
}

// a [.., M, K] x b [.., K, N] with numpy batch broadcasting: one linalg.matmul
// for a shared (unbatched) b, else one tosa.matmul on rank-3 operands.
Value matmul(Importer &im, Value a, Value b) {
  std::vector<int64_t> as = shapeOf(a), bs = shapeOf(b);
  bool vecA = as.size() == 1, vecB = bs.size() == 1;
  if (vecA)
    a = im.reshape(a, as = {1, as[0]});
  if (vecB)
    b = im.reshape(b, bs = {bs[0], 1});
  int64_t M = as[as.size() - 2], K = as.back(), N = bs.back();
  if (bs[bs.size() - 2] != K) {
    im.fail("the product's inner dimensions differ: " + shapeText(as) + " times " + shapeText(bs) +
            " (as multiplied, after any transA/transB: the first's last dimension must equal the "
            "second's "
            "second to last)");
    return Value();
  }
  std::vector<int64_t> abatch(as.begin(), as.end() - 2), bbatch(bs.begin(), bs.end() - 2), batch;
  broadcastShapes(abatch, bbatch, &batch);
  // The product [batch.., M, N], less the dimensions of a vector operand.
  auto result = [&](Value r, std::vector<int64_t> out) {
    if (!vecA)
      out.push_back(M);
    if (!vecB)
      out.push_back(N);
    return im.reshape(r, out);
  };
  if (elementCount(bbatch) == 1) // a shared weight: the batch folds into M
    return result(matmul2D(im, im.reshape(a, {elementCount(abatch) * M, K}), im.reshape(b, {K, N})),
                  abatch);
  auto expand = [&](Value v, std::vector<int64_t> tail) {
    std::vector<int64_t> full = batch;
    full.insert(full.end(), tail.begin(), tail.end());
    if (shapeOf(v) != full)
      v = im.elementwise({v}, full, TP::FLOAT,
                         [](OpBuilder &, Location, ValueRange x) { return x[0]; });
    return v;
  };
  int64_t B = elementCount(batch);
  Value a3 = im.reshape(expand(a, {M, K}), {B, M, K});
  Value b3 = im.reshape(expand(b, {K, N}), {B, K, N});
  Type element = cast<RankedTensorType>(a.getType()).getElementType();
  Value zp = im.zeroPoint(element);
  return result(
      tosaOp(im, "tosa.matmul", RankedTensorType::get({B, M, N}, element), {a3, b3, zp, zp}),
      batch);
}

bool lowerMatMul(Importer &im) {
  Tensor *ta, *tb;
  Value a = operand(im, 0, &ta), b = operand(im, 1, &tb);
  if (!a || !b)
    return false;
  if (ta->onnxType != TP::FLOAT || tb->onnxType != TP::FLOAT)
    return im.fail("supported for FLOAT operands only, not " + onnxTypeName(ta->onnxType));
  return im.defineValue(0, matmul(im, a, b), ta->onnxType);
}

bool lowerGemm(Importer &im) {
  Tensor *ta, *tb;
  Value a = operand(im, 0, &ta), b = operand(im, 1, &tb);
  if (!a || !b || !im.onlyAttributes({"alpha", "beta", "transA", "transB", "broadcast"}))
    return false;
  if (ta->onnxType != TP::FLOAT)
    return im.fail("supported for FLOAT operands only");
  if (im.attrInt("transA", 0))
    a = im.transpose(a, {1, 0});
  if (im.attrInt("transB", 0) && !im.pretransposed.count(im.node->input(1)))
    b = im.transpose(b, {1, 0});
  Value y = matmul(im, a, b);
  if (!y)
    return false;
  float alpha = im.attrFloat("alpha", 1), beta = im.attrFloat("beta", 1);
  if (im.hasInput(2)) {
    Value c = operand(im, 2);
    if (!c)
      return false;
    y = binary(im, y, c, TP::FLOAT, [&](OpBuilder &bb, Location at, Value v, Value cv) -> Value {
      Type t = v.getType();
      return arith::AddFOp::create(bb, at,
                                   arith::MulFOp::create(bb, at, v, fconst(bb, at, t, alpha)),
                                   arith::MulFOp::create(bb, at, cv, fconst(bb, at, t, beta)));
    });
  } else if (alpha != 1) {
    y = unary(im, y, TP::FLOAT, [&](OpBuilder &bb, Location at, Value v) -> Value {
      return arith::MulFOp::create(bb, at, v, fconst(bb, at, v.getType(), alpha));
    });
  }
  return im.defineValue(0, y, TP::FLOAT);
}

} // namespace

bool lowerConvolutions(Importer &im); // LowerConvolutions.cpp
bool lowerConvTranspose(Importer &im);
bool lowerPool(Importer &im);
bool lowerGlobalPool(Importer &im);
bool lowerNormalization(Importer &im); // LowerNormalization.cpp
bool lowerMovement(Importer &im);      // LowerMovement.cpp
std::optional<Lowering> movementLowering(const std::string &op);
std::optional<Lowering> compositeLowering(const std::string &op); // LowerComposite.cpp
std::string compositeOps();
std::string movementOps();
std::string elementwiseOps();

std::optional<Lowering> structuredLowering(const std::string &op) {
  static const std::map<std::string, Lowering> ops = {
      {"ReduceSum", lowerReduce},
      {"ReduceMean", lowerReduce},
      {"ReduceMax", lowerReduce},
      {"ReduceMin", lowerReduce},
      {"ReduceProd", lowerReduce},
      {"ReduceL1", lowerReduce},
      {"ReduceL2", lowerReduce},
      {"ReduceSumSquare", lowerReduce},
      {"ReduceLogSum", lowerReduce},
      {"ReduceLogSumExp", lowerReduce},
      {"Softmax", lowerSoftmax},
      {"LogSoftmax", lowerSoftmax},
      {"MatMul", lowerMatMul},
      {"Gemm", lowerGemm},
      {"Conv", lowerConvolutions},
      {"ConvTranspose", lowerConvTranspose},
      {"MaxPool", lowerPool},
      {"AveragePool", lowerPool},
      {"GlobalAveragePool", lowerGlobalPool},
      {"GlobalMaxPool", lowerGlobalPool},
      {"BatchNormalization", lowerNormalization},
      {"LayerNormalization", lowerNormalization},
      {"InstanceNormalization", lowerNormalization}};
  auto it = ops.find(op);
  if (it != ops.end())
    return it->second;
  if (auto lowering = movementLowering(op))
    return lowering;
  return compositeLowering(op);
}

std::string supportedOps() {
  return elementwiseOps() +
         " ReduceSum ReduceMean ReduceMax ReduceMin ReduceProd ReduceL1 ReduceL2 ReduceSumSquare"
         " ReduceLogSum ReduceLogSumExp Softmax LogSoftmax MatMul Gemm Conv ConvTranspose MaxPool "
         "AveragePool"
         " GlobalAveragePool GlobalMaxPool BatchNormalization LayerNormalization"
         " InstanceNormalization " +
         movementOps() + " " + compositeOps() + " Constant Shape Size ConstantOfShape Range";
}

} // namespace meshvk::onnx_import

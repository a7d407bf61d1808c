//===- LowerComposite.cpp - ONNX ops built from several primitives ---------===//
//
// Losses (NegativeLogLikelihoodLoss, SoftmaxCrossEntropyLoss), index-pattern
// ops (Trilu, Hardmax, OneHot, EyeLike) and value-shaped sources (Range,
// ConstantOfShape). Where an op picks elements by their index, the index is a
// small iota constant broadcast against the data, so everything stays an
// elementwise linalg.generic or a tosa reduction.
//
//===----------------------------------------------------------------------===//
#include "Importer.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tosa/IR/TosaOps.h"

#include <cmath>
#include <map>

using namespace mlir;

namespace meshvk::onnx_import {
namespace {

using TP = onnx::TensorProto;

// An i32 constant 0..n-1 along dimension `dim` of a rank-`rank` tensor of
// ones elsewhere, to broadcast against data of that rank.
Value iota(Importer &im, int64_t n, int64_t dim, int64_t rank) {
  OnnxHostTensor t;
  t.shape.assign(rank, 1);
  t.shape[dim] = n;
  t.onnxType = TP::INT32;
  for (int64_t i = 0; i < n; ++i)
    t.ints.push_back(i);
  return im.constant(t);
}

// Sums `x` over `axes` (kept as size 1, or dropped).
Value sum(Importer &im, Value x, std::vector<int64_t> axes, bool keep) {
  auto type = cast<RankedTensorType>(x.getType());
  std::vector<int64_t> shape = shapeOf(x), kept;
  for (int64_t a : axes) {
    shape[a] = 1;
    OperationState state(im.loc, "tosa.reduce_sum");
    state.addOperands(x);
    state.addTypes(RankedTensorType::get(shape, type.getElementType()));
    state.addAttribute("axis", im.b.getI32IntegerAttr(a));
    x = im.b.create(state)->getResult(0);
  }
  if (keep)
    return x;
  for (size_t d = 0; d < shape.size(); ++d)
    if (!std::count(axes.begin(), axes.end(), static_cast<int64_t>(d)))
      kept.push_back(shape[d]);
  return im.reshape(x, kept);
}

Value reduceMax(Importer &im, Value x, int64_t axis) {
  auto type = cast<RankedTensorType>(x.getType());
  std::vector<int64_t> shape = shapeOf(x);
  shape[axis] = 1;
  OperationState state(im.loc, "tosa.reduce_max");
  state.addOperands(x);
  state.addTypes(RankedTensorType::get(shape, type.getElementType()));
  state.addAttribute("axis", im.b.getI32IntegerAttr(axis));
  return im.b.create(state)->getResult(0);
}

Value logSoftmax(Importer &im, Value x, int64_t axis) {
  std::vector<int64_t> shape = shapeOf(x);
  Value m = reduceMax(im, x, axis);
  Value shifted = im.elementwise({x, m}, shape, TP::FLOAT,
                                 [](OpBuilder &b, Location at, ValueRange a) -> Value {
                                   return arith::SubFOp::create(b, at, a[0], a[1]);
                                 });
  Value e = im.elementwise({shifted}, shape, TP::FLOAT,
                           [](OpBuilder &b, Location at, ValueRange a) -> Value {
                             return math::ExpOp::create(b, at, a[0]);
                           });
  Value s = sum(im, e, {axis}, true);
  return im.elementwise(
      {shifted, s}, shape, TP::FLOAT, [](OpBuilder &b, Location at, ValueRange a) -> Value {
        return arith::SubFOp::create(b, at, a[0], math::LogOp::create(b, at, a[1]));
      });
}

// loss[n, d..] = -x[n, t[n, d..], d..] * w[t] (0 where t == ignore_index),
// reduced by `reduction`; x holds log-probabilities [N, C, d..].
bool negativeLogLikelihood(Importer &im, Value x, Tensor *target, Value weight, int output) {
  std::vector<int64_t> xs = shapeOf(x);
  int64_t rank = xs.size(), classes = xs[1];
  std::string reduction = im.attrString("reduction", "mean");
  if (reduction != "none" && reduction != "sum" && reduction != "mean")
    return im.fail("reduction '" + reduction + "' is not supported");
  Value t = im.valueOf(*target);
  if (!t)
    return false;
  std::vector<int64_t> ts = target->shape;
  ts.insert(ts.begin() + 1, 1);
  t = im.reshape(t, ts);
  Value c = iota(im, classes, 1, rank);
  std::optional<int64_t> ignore;
  if (im.attr("ignore_index"))
    ignore = im.attrInt("ignore_index", 0);
  std::vector<Value> operands = {x, t, c};
  if (weight) {
    std::vector<int64_t> ws(rank, 1);
    ws[1] = classes;
    operands.push_back(im.reshape(weight, ws));
  }
  // The selected class's weight (1 without weights), 0 where ignored.
  auto picked = [&](OpBuilder &b, Location at, ValueRange a) -> Value {
    Value hit = arith::CmpIOp::create(b, at, arith::CmpIPredicate::eq, a[1], a[2]);
    if (ignore) {
      Value ig = arith::ConstantOp::create(b, at, b.getI32IntegerAttr(*ignore));
      hit = arith::AndIOp::create(b, at, hit,
                                  arith::CmpIOp::create(b, at, arith::CmpIPredicate::ne, a[1], ig));
    }
    Type f32 = b.getF32Type();
    Value w = a.size() > 3 ? a[3] : fconst(b, at, f32, 1);
    return arith::SelectOp::create(b, at, hit, w, fconst(b, at, f32, 0));
  };
  Value terms = im.elementwise(
      operands, xs, TP::FLOAT, [&](OpBuilder &b, Location at, ValueRange a) -> Value {
        return arith::MulFOp::create(b, at, arith::NegFOp::create(b, at, a[0]), picked(b, at, a));
      });
  Value loss = sum(im, terms, {1}, false);
  if (reduction == "none")
    return im.defineValue(output, loss, TP::FLOAT);
  std::vector<int64_t> all;
  for (int64_t d = 0; d < rank - 1; ++d)
    all.push_back(d);
  Value total = sum(im, loss, all, false);
  if (reduction == "mean") {
    std::vector<Value> wOperands = {x, t, c};
    if (weight)
      wOperands.push_back(operands[3]);
    Value weights = im.elementwise(wOperands, xs, TP::FLOAT, picked);
    std::vector<int64_t> every;
    for (int64_t d = 0; d < rank; ++d)
      every.push_back(d);
    Value count = sum(im, weights, every, false);
    total = im.elementwise({total, count}, {}, TP::FLOAT,
                           [](OpBuilder &b, Location at, ValueRange a) -> Value {
                             return arith::DivFOp::create(b, at, a[0], a[1]);
                           });
  }
  im.define(output, Tensor{total, {}, TP::FLOAT, std::nullopt});
  return true;
}

bool lowerLoss(Importer &im) {
  Tensor *x = im.input(0), *target = im.input(1);
  if (!x || !target || !im.onlyAttributes({"reduction", "ignore_index"}))
    return false;
  if (x->onnxType != TP::FLOAT)
    return im.fail("supported for FLOAT scores only");
  if (x->shape.size() < 2)
    return im.fail("needs scores of rank 2 or more");
  Value v = im.valueOf(*x), weight;
  if (im.hasInput(2)) {
    Tensor *w = im.input(2);
    weight = w ? im.valueOf(*w) : Value();
    if (!weight)
      return false;
  }
  if (!v)
    return false;
  if (im.node->op_type() == "SoftmaxCrossEntropyLoss") {
    v = logSoftmax(im, v, 1);
    if (im.node->output_size() > 1 && !im.node->output(1).empty())
      im.define(1, Tensor{v, x->shape, TP::FLOAT, std::nullopt});
  }
  return negativeLogLikelihood(im, v, target, weight, 0);
}

bool lowerTrilu(Importer &im) {
  Tensor *x = im.input(0);
  if (!x)
    return false;
  std::vector<int64_t> k = {0};
  if (im.hasInput(1) && !im.hostInts(1, &k, "k"))
    return false;
  int64_t rank = x->shape.size();
  if (rank < 2)
    return im.fail("needs a tensor of rank 2 or more");
  for (int64_t d : x->shape)
    if (d == 0)
      return im.fail("an empty tensor is not supported");
  bool upper = im.attrInt("upper", 1);
  Value v = im.valueOf(*x);
  if (!v)
    return false;
  Value rows = iota(im, x->shape[rank - 2], rank - 2, rank),
        cols = iota(im, x->shape[rank - 1], rank - 1, rank);
  int64_t diagonal = k.at(0);
  Value r = im.elementwise(
      {v, rows, cols}, x->shape, x->onnxType,
      [&](OpBuilder &b, Location at, ValueRange a) -> Value {
        Value d = arith::SubIOp::create(b, at, a[2], a[1]);
        Value kv = arith::ConstantOp::create(b, at, b.getI32IntegerAttr(diagonal));
        Value keep = arith::CmpIOp::create(
            b, at, upper ? arith::CmpIPredicate::sge : arith::CmpIPredicate::sle, d, kv);
        Type t = a[0].getType();
        Value zero = isa<FloatType>(t)
                         ? fconst(b, at, t, 0)
                         : Value(arith::ConstantOp::create(b, at, b.getIntegerAttr(t, 0)));
        return arith::SelectOp::create(b, at, keep, a[0], zero);
      });
  im.define(0, Tensor{r, x->shape, x->onnxType, std::nullopt});
  return true;
}

bool lowerHardmax(Importer &im) {
  Tensor *x = im.input(0);
  if (!x)
    return false;
  if (x->onnxType != TP::FLOAT)
    return im.fail("supported for FLOAT tensors only");
  int64_t rank = x->shape.size(), axis = 0;
  if (!im.axis(im.attrInt("axis", -1), rank, &axis))
    return false;
  Value v = im.valueOf(*x);
  if (!v)
    return false;
  std::vector<int64_t> reduced;
  for (int64_t d = 0; d < rank; ++d)
    if (d != axis)
      reduced.push_back(x->shape[d]);
  OperationState state(im.loc, "tosa.argmax");
  state.addOperands(v);
  state.addTypes(RankedTensorType::get(reduced, im.b.getI32Type()));
  state.addAttribute("axis", im.b.getI32IntegerAttr(axis));
  Value arg = im.b.create(state)->getResult(0);
  std::vector<int64_t> kept = x->shape;
  kept[axis] = 1;
  arg = im.reshape(arg, kept);
  Value idx = iota(im, x->shape[axis], axis, rank);
  Value r = im.elementwise(
      {arg, idx}, x->shape, TP::FLOAT, [](OpBuilder &b, Location at, ValueRange a) -> Value {
        Value hit = arith::CmpIOp::create(b, at, arith::CmpIPredicate::eq, a[0], a[1]);
        Type f32 = b.getF32Type();
        return arith::SelectOp::create(b, at, hit, fconst(b, at, f32, 1), fconst(b, at, f32, 0));
      });
  im.define(0, Tensor{r, x->shape, TP::FLOAT, std::nullopt});
  return true;
}

bool lowerOneHot(Importer &im) {
  Tensor *indices = im.input(0), *values = im.input(2);
  std::vector<double> depth, onOff;
  if (!indices || !values || !im.hostReals(1, &depth, "depth") ||
      !im.hostReals(2, &onOff, "values"))
    return false;
  int64_t depthN = static_cast<int64_t>(depth.at(0)), rank = indices->shape.size() + 1;
  int64_t axis = 0;
  if (!im.axis(im.attrInt("axis", -1), rank, &axis))
    return false;
  Value idx = im.valueOf(*indices);
  if (!idx)
    return false;
  std::vector<int64_t> shape = indices->shape, is = indices->shape;
  shape.insert(shape.begin() + axis, depthN);
  is.insert(is.begin() + axis, 1);
  idx = im.reshape(idx, is);
  Value c = iota(im, depthN, axis, rank);
  int32_t type = values->onnxType;
  Value r =
      im.elementwise({idx, c}, shape, type, [&](OpBuilder &b, Location at, ValueRange a) -> Value {
        Type i = a[0].getType();
        Value id = a[0];
        if (isa<FloatType>(i))
          id = arith::FPToSIOp::create(b, at, b.getI32Type(), id);
        // Negative indices count from the end.
        Value zero = arith::ConstantOp::create(b, at, b.getI32IntegerAttr(0));
        Value neg = arith::CmpIOp::create(b, at, arith::CmpIPredicate::slt, id, zero);
        Value wrapped = arith::AddIOp::create(
            b, at, id, arith::ConstantOp::create(b, at, b.getI32IntegerAttr(depthN)));
        id = arith::SelectOp::create(b, at, neg, wrapped, id);
        Value hit = arith::CmpIOp::create(b, at, arith::CmpIPredicate::eq, id, a[1]);
        Type t = im.elementType(type);
        auto make = [&](double v) -> Value {
          return isa<FloatType>(t) ? fconst(b, at, t, v)
                                   : Value(arith::ConstantOp::create(
                                         b, at, b.getIntegerAttr(t, static_cast<int64_t>(v))));
        };
        return arith::SelectOp::create(b, at, hit, make(onOff.at(1)), make(onOff.at(0)));
      });
  im.define(0, Tensor{r, shape, type, std::nullopt});
  return true;
}

// Sources whose values are known at compile time: a host tensor (folded
// further downstream, materialized where the device reads it).
bool defineHost(Importer &im, OnnxHostTensor t) {
  if (elementCount(t.shape) == 0)
    return im.fail("an empty result is not supported");
  std::vector<int64_t> shape = t.shape;
  int32_t type = t.onnxType;
  im.define(0, Tensor{{}, shape, type, std::move(t)});
  return true;
}

bool lowerEyeLike(Importer &im) {
  Tensor *x = im.input(0);
  if (!x)
    return false;
  if (x->shape.size() != 2)
    return im.fail("supported for 2-D inputs only");
  OnnxHostTensor t;
  t.shape = x->shape;
  t.onnxType = static_cast<int32_t>(im.attrInt("dtype", x->onnxType));
  int64_t k = im.attrInt("k", 0);
  for (int64_t i = 0; i < t.shape[0]; ++i)
    for (int64_t j = 0; j < t.shape[1]; ++j) {
      if (kindOf(t.onnxType) == Kind::Float)
        t.reals.push_back(j - i == k);
      else
        t.ints.push_back(j - i == k);
    }
  return defineHost(im, std::move(t));
}

bool lowerRange(Importer &im) {
  std::vector<double> start, limit, delta;
  Tensor *s = im.input(0);
  if (!s || !im.hostReals(0, &start, "start") || !im.hostReals(1, &limit, "limit") ||
      !im.hostReals(2, &delta, "delta"))
    return false;
  if (delta.at(0) == 0)
    return im.fail("a delta of 0 is not allowed");
  OnnxHostTensor t;
  t.onnxType = s->onnxType;
  int64_t n =
      std::max<int64_t>(0, static_cast<int64_t>(std::ceil((limit.at(0) - start.at(0)) / delta[0])));
  for (int64_t i = 0; i < n; ++i) {
    if (kindOf(t.onnxType) == Kind::Float)
      t.reals.push_back(static_cast<float>(start[0] + i * delta[0]));
    else
      t.ints.push_back(static_cast<int64_t>(start[0]) + i * static_cast<int64_t>(delta[0]));
  }
  t.shape = {n};
  return defineHost(im, std::move(t));
}

bool lowerConstantOfShape(Importer &im) {
  std::vector<int64_t> shape;
  if (!im.hostInts(0, &shape, "shape"))
    return false;
  OnnxHostTensor t;
  t.shape = shape;
  t.onnxType = TP::FLOAT;
  double value = 0;
  if (const onnx::AttributeProto *a = im.attr("value")) {
    OnnxHostTensor v;
    if (!decodeTensor(a->t(), im.directory, &v, &im.error))
      return false;
    t.onnxType = v.onnxType;
    value = kindOf(v.onnxType) == Kind::Float ? v.reals.at(0) : v.ints.at(0);
  }
  if (kindOf(t.onnxType) == Kind::Float)
    t.reals.assign(elementCount(shape), value);
  else
    t.ints.assign(elementCount(shape), static_cast<int64_t>(value));
  return defineHost(im, std::move(t));
}

} // namespace

std::optional<Lowering> compositeLowering(const std::string &op) {
  static const std::map<std::string, Lowering> ops = {{"NegativeLogLikelihoodLoss", lowerLoss},
                                                      {"SoftmaxCrossEntropyLoss", lowerLoss},
                                                      {"Trilu", lowerTrilu},
                                                      {"Hardmax", lowerHardmax},
                                                      {"OneHot", lowerOneHot},
                                                      {"EyeLike", lowerEyeLike},
                                                      {"Range", lowerRange},
                                                      {"ConstantOfShape", lowerConstantOfShape}};
  auto it = ops.find(op);
  if (it == ops.end())
    return std::nullopt;
  return it->second;
}

std::string compositeOps() {
  return "NegativeLogLikelihoodLoss SoftmaxCrossEntropyLoss Trilu Hardmax OneHot EyeLike";
}

} // namespace meshvk::onnx_import

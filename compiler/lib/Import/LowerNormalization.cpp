//===- LowerNormalization.cpp - Batch/Layer/InstanceNormalization ---------===//
//
// Inference forms: BatchNormalization from its running statistics, Layer- and
// InstanceNormalization from the data (tosa reductions, elementwise generics).
//
//===----------------------------------------------------------------------===//
#include "Importer.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tosa/IR/TosaOps.h"

using namespace mlir;

namespace meshvk::onnx_import {
namespace {

using TP = onnx::TensorProto;

Value reduceKeep(Importer &im, Value x, const std::vector<int64_t> &axes, StringRef kind) {
  std::vector<int64_t> shape = shapeOf(x);
  for (int64_t a : axes) {
    shape[a] = 1;
    x = tosaOp(im, ("tosa.reduce_" + kind).str(), RankedTensorType::get(shape, im.b.getF32Type()),
               {x}, {im.b.getNamedAttr("axis", im.b.getI32IntegerAttr(a))});
  }
  return x;
}

// (x - mean) / sqrt(var + eps) over `axes`, from the data itself; the mean
// and 1 / sqrt(var + eps) (dims kept) for LayerNormalization's extra outputs.
Value normalize(Importer &im, Value x, const std::vector<int64_t> &axes, float eps, Value *meanOut,
                Value *invStdOut) {
  std::vector<int64_t> shape = shapeOf(x);
  int64_t count = 1;
  for (int64_t a : axes)
    count *= shape[a];
  auto scaleBy = [&](Value v) {
    return im.elementwise(
        {v}, shapeOf(v), TP::FLOAT, [&](OpBuilder &b, Location at, ValueRange a) -> Value {
          return arith::DivFOp::create(b, at, a[0], fconst(b, at, a[0].getType(), count));
        });
  };
  Value mean = scaleBy(reduceKeep(im, x, axes, "sum"));
  Value centered = im.elementwise({x, mean}, shape, TP::FLOAT,
                                  [](OpBuilder &b, Location at, ValueRange a) -> Value {
                                    return arith::SubFOp::create(b, at, a[0], a[1]);
                                  });
  Value sq = im.elementwise({centered}, shape, TP::FLOAT,
                            [](OpBuilder &b, Location at, ValueRange a) -> Value {
                              return arith::MulFOp::create(b, at, a[0], a[0]);
                            });
  Value var = scaleBy(reduceKeep(im, sq, axes, "sum"));
  Value invStd = im.elementwise(
      {var}, shapeOf(var), TP::FLOAT, [&](OpBuilder &b, Location at, ValueRange a) -> Value {
        Type t = a[0].getType();
        Value d =
            math::SqrtOp::create(b, at, arith::AddFOp::create(b, at, a[0], fconst(b, at, t, eps)));
        return arith::DivFOp::create(b, at, fconst(b, at, t, 1), d);
      });
  *meanOut = mean;
  *invStdOut = invStd;
  return im.elementwise({centered, invStd}, shape, TP::FLOAT,
                        [&](OpBuilder &b, Location at, ValueRange a) -> Value {
                          return arith::MulFOp::create(b, at, a[0], a[1]);
                        });
}

} // namespace

bool lowerNormalization(Importer &im) {
  const std::string &op = im.node->op_type();
  Tensor *tx = im.input(0);
  if (!tx)
    return false;
  if (tx->onnxType != TP::FLOAT)
    return im.fail("supported for FLOAT tensors only");
  for (int i = 1; i < im.node->output_size(); ++i)
    if (!im.node->output(i).empty() && op != "LayerNormalization")
      return im.fail("only the first output is supported (inference form)");
  if (im.attrInt("stash_type", 1) != 1)
    return im.fail("stash_type other than 1 (float) is not supported");
  if (op == "BatchNormalization" && im.attrInt("training_mode", 0))
    return im.fail("training_mode = 1 is not supported");
  Value x = im.valueOf(*tx);
  if (!x)
    return false;
  int64_t rank = tx->shape.size();
  float eps = im.attrFloat("epsilon", 1e-5f);
  // The per-channel parameters broadcast as [C, 1, ...] (Batch/Instance) or
  // as the normalized trailing shape (Layer).
  auto param = [&](int i, bool channel) -> Value {
    Tensor *t = im.input(i);
    Value v = t ? im.valueOf(*t) : Value();
    if (v && channel) {
      std::vector<int64_t> s = {t->shape[0]};
      s.resize(rank - 1, 1);
      v = im.reshape(v, s);
    }
    return v;
  };
  Value y;
  if (op == "BatchNormalization") {
    Value scale = param(1, true), bias = param(2, true), mean = param(3, true),
          var = param(4, true);
    if (!scale || !bias || !mean || !var)
      return false;
    y = im.elementwise(
        {x, scale, bias, mean, var}, tx->shape, TP::FLOAT,
        [&](OpBuilder &b, Location at, ValueRange a) -> Value {
          Type t = a[0].getType();
          Value d = math::SqrtOp::create(b, at,
                                         arith::AddFOp::create(b, at, a[4], fconst(b, at, t, eps)));
          Value n = arith::DivFOp::create(b, at, arith::SubFOp::create(b, at, a[0], a[3]), d);
          return arith::AddFOp::create(b, at, arith::MulFOp::create(b, at, n, a[1]), a[2]);
        });
  } else {
    bool layer = op == "LayerNormalization";
    std::vector<int64_t> axes;
    int64_t first = layer ? im.attrInt("axis", -1) : 2;
    first = first < 0 ? first + rank : first;
    for (int64_t d = first; d < rank; ++d)
      axes.push_back(d);
    Value mean, invStd;
    Value n = normalize(im, x, axes, eps, &mean, &invStd);
    if (layer) {
      im.defineValue(1, mean, TP::FLOAT);
      im.defineValue(2, invStd, TP::FLOAT);
    }
    Value scale = param(1, !layer), bias = im.hasInput(2) ? param(2, !layer) : Value();
    if (!scale || (im.hasInput(2) && !bias))
      return false;
    std::vector<Value> operands = {n, scale};
    if (bias)
      operands.push_back(bias);
    y = im.elementwise(operands, tx->shape, TP::FLOAT,
                       [&](OpBuilder &b, Location at, ValueRange a) -> Value {
                         Value v = arith::MulFOp::create(b, at, a[0], a[1]);
                         return a.size() > 2 ? Value(arith::AddFOp::create(b, at, v, a[2])) : v;
                       });
  }
  im.define(0, Tensor{y, tx->shape, TP::FLOAT, std::nullopt});
  return true;
}

} // namespace meshvk::onnx_import

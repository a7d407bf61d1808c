//===- LowerElementwise.cpp - elementwise ONNX ops -> linalg.generic -------===//
//
// Every elementwise op becomes one linalg.generic whose body is arith/math on
// scalars; numpy broadcasting is the generic's indexing maps (a broadcast
// dimension is dropped from the operand's map), so Div, Mod, Where and the
// activations need no TOSA counterpart.
//
//===----------------------------------------------------------------------===//
#include "Importer.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"

#include <cmath>
#include <map>

using namespace mlir;

namespace meshvk::onnx_import {
namespace {

using TP = onnx::TensorProto;

Value iconst(OpBuilder &b, Location at, Type t, int64_t v) {
  return arith::ConstantOp::create(b, at, b.getIntegerAttr(t, v));
}

// A scalar op given the operands' kind (the first operand's).
using KindBody = std::function<Value(Importer &, OpBuilder &, Location, ValueRange, Kind)>;

struct ElementwiseOp {
  int arity;      // operands (-1: variadic, folded pairwise)
  bool floatOnly; // refuses integer/bool operands
  int resultKind; // -1: the operands' dtype, else this TensorProto type
  KindBody body;
};

Value sigmoid(OpBuilder &b, Location at, Value x) {
  Type t = x.getType();
  Value e = math::ExpOp::create(b, at, arith::NegFOp::create(b, at, x));
  return arith::DivFOp::create(b, at, fconst(b, at, t, 1.0),
                               arith::AddFOp::create(b, at, fconst(b, at, t, 1.0), e));
}

// x^y with C's pow semantics; Vulkan's Pow is undefined for x < 0 and for
// x = 0, y <= 0, so it only ever sees |x| > 0 and the sign, zero and NaN
// cases are selected here.
Value signedPow(OpBuilder &b, Location at, Value x, Value y) {
  Type t = x.getType();
  Value zero = fconst(b, at, t, 0), one = fconst(b, at, t, 1);
  Value ax = math::AbsFOp::create(b, at, x);
  Value safe = arith::SelectOp::create(
      b, at, arith::CmpFOp::create(b, at, arith::CmpFPredicate::OEQ, ax, zero), one, ax);
  Value r = math::PowFOp::create(b, at, safe, y);
  Value integral =
      arith::CmpFOp::create(b, at, arith::CmpFPredicate::OEQ, math::FloorOp::create(b, at, y), y);
  Value half = arith::MulFOp::create(b, at, y, fconst(b, at, t, 0.5));
  Value odd =
      arith::AndIOp::create(b, at, integral,
                            arith::CmpFOp::create(b, at, arith::CmpFPredicate::ONE,
                                                  math::FloorOp::create(b, at, half), half));
  Value negative = arith::CmpFOp::create(b, at, arith::CmpFPredicate::OLT, x, zero);
  Value signedR = arith::SelectOp::create(b, at, odd, arith::NegFOp::create(b, at, r), r);
  Value negR = arith::SelectOp::create(b, at, integral, signedR, fconst(b, at, t, NAN));
  r = arith::SelectOp::create(b, at, negative, negR, r);
  // 0^y: 0 for y > 0, 1 for y = 0, inf for y < 0 (-0 and odd y aside).
  Value isZero = arith::CmpFOp::create(b, at, arith::CmpFPredicate::OEQ, x, zero);
  Value zpos = arith::SelectOp::create(
      b, at, arith::CmpFOp::create(b, at, arith::CmpFPredicate::OGT, y, zero), zero,
      arith::SelectOp::create(b, at,
                              arith::CmpFOp::create(b, at, arith::CmpFPredicate::OEQ, y, zero), one,
                              fconst(b, at, t, INFINITY)));
  return arith::SelectOp::create(b, at, isZero, zpos, r);
}

#define FLOAT_UNARY(NAME, OP)                                                                      \
  {                                                                                                \
    NAME, {                                                                                        \
      1, true, -1, [](Importer &, OpBuilder &b, Location at, ValueRange a, Kind) -> Value {        \
        return OP::create(b, at, a[0]);                                                            \
      }                                                                                            \
    }                                                                                              \
  }

const std::map<std::string, ElementwiseOp> &table() {
  static const std::map<std::string, ElementwiseOp> ops = {
      FLOAT_UNARY("Exp", math::ExpOp), FLOAT_UNARY("Log", math::LogOp),
      FLOAT_UNARY("Sqrt", math::SqrtOp), FLOAT_UNARY("Floor", math::FloorOp),
      FLOAT_UNARY("Ceil", math::CeilOp), FLOAT_UNARY("Round", math::RoundEvenOp),
      FLOAT_UNARY("Sin", math::SinOp), FLOAT_UNARY("Cos", math::CosOp),
      FLOAT_UNARY("Tan", math::TanOp), FLOAT_UNARY("Tanh", math::TanhOp),
      FLOAT_UNARY("Erf", math::ErfOp), FLOAT_UNARY("Asin", math::AsinOp),
      FLOAT_UNARY("Acos", math::AcosOp), FLOAT_UNARY("Atan", math::AtanOp),
      FLOAT_UNARY("Sinh", math::SinhOp), FLOAT_UNARY("Cosh", math::CoshOp),
      FLOAT_UNARY("Asinh", math::AsinhOp), FLOAT_UNARY("Acosh", math::AcoshOp),
      FLOAT_UNARY("Atanh", math::AtanhOp),
      {"Abs", {1, false, -1, [](Importer &, OpBuilder &b, Location at, ValueRange a, Kind k) -> Value {
                 return k == Kind::Float ? Value(math::AbsFOp::create(b, at, a[0]))
                                         : Value(math::AbsIOp::create(b, at, a[0]));
               }}},
      {"Neg", {1, false, -1, [](Importer &, OpBuilder &b, Location at, ValueRange a, Kind k) -> Value {
                 if (k == Kind::Float)
                   return arith::NegFOp::create(b, at, a[0]);
                 return arith::SubIOp::create(b, at, iconst(b, at, a[0].getType(), 0), a[0]);
               }}},
      {"Reciprocal", {1, true, -1, [](Importer &, OpBuilder &b, Location at, ValueRange a, Kind) -> Value {
                        return arith::DivFOp::create(b, at, fconst(b, at, a[0].getType(), 1.0), a[0]);
                      }}},
      {"Sigmoid", {1, true, -1, [](Importer &, OpBuilder &b, Location at, ValueRange a, Kind) {
                     return sigmoid(b, at, a[0]);
                   }}},
      {"Relu", {1, false, -1, [](Importer &, OpBuilder &b, Location at, ValueRange a, Kind k) -> Value {
                  if (k == Kind::Float)
                    return arith::MaximumFOp::create(b, at, a[0], fconst(b, at, a[0].getType(), 0));
                  return arith::MaxSIOp::create(b, at, a[0], iconst(b, at, a[0].getType(), 0));
                }}},
      {"LeakyRelu", {1, true, -1, [](Importer &im, OpBuilder &b, Location at, ValueRange a, Kind) -> Value {
                       Type t = a[0].getType();
                       Value neg = arith::CmpFOp::create(b, at, arith::CmpFPredicate::OLT, a[0], fconst(b, at, t, 0));
                       Value scaled = arith::MulFOp::create(b, at, a[0], fconst(b, at, t, im.attrFloat("alpha", 0.01f)));
                       return arith::SelectOp::create(b, at, neg, scaled, a[0]);
                     }}},
      {"Elu", {1, true, -1, [](Importer &im, OpBuilder &b, Location at, ValueRange a, Kind) -> Value {
                 Type t = a[0].getType();
                 Value neg = arith::CmpFOp::create(b, at, arith::CmpFPredicate::OLT, a[0], fconst(b, at, t, 0));
                 Value e = arith::SubFOp::create(b, at, math::ExpOp::create(b, at, a[0]), fconst(b, at, t, 1));
                 Value scaled = arith::MulFOp::create(b, at, e, fconst(b, at, t, im.attrFloat("alpha", 1.0f)));
                 return arith::SelectOp::create(b, at, neg, scaled, a[0]);
               }}},
      {"Celu", {1, true, -1, [](Importer &im, OpBuilder &b, Location at, ValueRange a, Kind) -> Value {
                  Type t = a[0].getType();
                  Value alpha = fconst(b, at, t, im.attrFloat("alpha", 1.0f));
                  Value e = math::ExpOp::create(b, at, arith::DivFOp::create(b, at, a[0], alpha));
                  Value m = arith::MulFOp::create(b, at, alpha, arith::SubFOp::create(b, at, e, fconst(b, at, t, 1)));
                  Value lo = arith::MinimumFOp::create(b, at, fconst(b, at, t, 0), m);
                  return arith::AddFOp::create(b, at, arith::MaximumFOp::create(b, at, fconst(b, at, t, 0), a[0]), lo);
                }}},
      {"Selu", {1, true, -1, [](Importer &im, OpBuilder &b, Location at, ValueRange a, Kind) -> Value {
                  Type t = a[0].getType();
                  Value neg = arith::CmpFOp::create(b, at, arith::CmpFPredicate::OLE, a[0], fconst(b, at, t, 0));
                  Value e = arith::SubFOp::create(b, at, math::ExpOp::create(b, at, a[0]), fconst(b, at, t, 1));
                  Value lo = arith::MulFOp::create(b, at, e, fconst(b, at, t, im.attrFloat("alpha", 1.67326319217681884765625f)));
                  Value v = arith::SelectOp::create(b, at, neg, lo, a[0]);
                  return arith::MulFOp::create(b, at, v, fconst(b, at, t, im.attrFloat("gamma", 1.05070102214813232421875f)));
                }}},
      {"ThresholdedRelu", {1, true, -1, [](Importer &im, OpBuilder &b, Location at, ValueRange a, Kind) -> Value {
                             Type t = a[0].getType();
                             Value gt = arith::CmpFOp::create(b, at, arith::CmpFPredicate::OGT, a[0], fconst(b, at, t, im.attrFloat("alpha", 1.0f)));
                             return arith::SelectOp::create(b, at, gt, a[0], fconst(b, at, t, 0));
                           }}},
      {"Softplus", {1, true, -1, [](Importer &, OpBuilder &b, Location at, ValueRange a, Kind) -> Value {
                      return math::Log1pOp::create(b, at, math::ExpOp::create(b, at, a[0]));
                    }}},
      {"Softsign", {1, true, -1, [](Importer &, OpBuilder &b, Location at, ValueRange a, Kind) -> Value {
                      Type t = a[0].getType();
                      Value d = arith::AddFOp::create(b, at, fconst(b, at, t, 1), math::AbsFOp::create(b, at, a[0]));
                      return arith::DivFOp::create(b, at, a[0], d);
                    }}},
      {"HardSigmoid", {1, true, -1, [](Importer &im, OpBuilder &b, Location at, ValueRange a, Kind) -> Value {
                         Type t = a[0].getType();
                         Value v = arith::AddFOp::create(b, at, arith::MulFOp::create(b, at, a[0], fconst(b, at, t, im.attrFloat("alpha", 0.2f))),
                                                         fconst(b, at, t, im.attrFloat("beta", 0.5f)));
                         return arith::MinimumFOp::create(b, at, arith::MaximumFOp::create(b, at, v, fconst(b, at, t, 0)), fconst(b, at, t, 1));
                       }}},
      {"HardSwish", {1, true, -1, [](Importer &, OpBuilder &b, Location at, ValueRange a, Kind) -> Value {
                       Type t = a[0].getType();
                       Value v = arith::AddFOp::create(b, at, arith::MulFOp::create(b, at, a[0], fconst(b, at, t, 1.0 / 6)), fconst(b, at, t, 0.5));
                       v = arith::MinimumFOp::create(b, at, arith::MaximumFOp::create(b, at, v, fconst(b, at, t, 0)), fconst(b, at, t, 1));
                       return arith::MulFOp::create(b, at, a[0], v);
                     }}},
      {"Mish", {1, true, -1, [](Importer &, OpBuilder &b, Location at, ValueRange a, Kind) -> Value {
                  Value sp = math::Log1pOp::create(b, at, math::ExpOp::create(b, at, a[0]));
                  return arith::MulFOp::create(b, at, a[0], math::TanhOp::create(b, at, sp));
                }}},
      {"Sign", {1, false, -1, [](Importer &, OpBuilder &b, Location at, ValueRange a, Kind k) -> Value {
                  Type t = a[0].getType();
                  if (k == Kind::Float) {
                    Value pos = arith::CmpFOp::create(b, at, arith::CmpFPredicate::OGT, a[0], fconst(b, at, t, 0));
                    Value neg = arith::CmpFOp::create(b, at, arith::CmpFPredicate::OLT, a[0], fconst(b, at, t, 0));
                    Value r = arith::SelectOp::create(b, at, neg, fconst(b, at, t, -1), fconst(b, at, t, 0));
                    return arith::SelectOp::create(b, at, pos, fconst(b, at, t, 1), r);
                  }
                  Value pos = arith::CmpIOp::create(b, at, arith::CmpIPredicate::sgt, a[0], iconst(b, at, t, 0));
                  Value neg = arith::CmpIOp::create(b, at, arith::CmpIPredicate::slt, a[0], iconst(b, at, t, 0));
                  Value r = arith::SelectOp::create(b, at, neg, iconst(b, at, t, -1), iconst(b, at, t, 0));
                  return arith::SelectOp::create(b, at, pos, iconst(b, at, t, 1), r);
                }}},
      {"IsNaN", {1, true, TP::BOOL, [](Importer &, OpBuilder &b, Location at, ValueRange a, Kind) -> Value {
                   return arith::CmpFOp::create(b, at, arith::CmpFPredicate::UNO, a[0], a[0]);
                 }}},
      {"IsInf", {1, true, TP::BOOL, [](Importer &im, OpBuilder &b, Location at, ValueRange a, Kind) -> Value {
                   Type t = a[0].getType();
                   Value pos = arith::CmpFOp::create(b, at, arith::CmpFPredicate::OEQ, a[0], fconst(b, at, t, INFINITY));
                   Value neg = arith::CmpFOp::create(b, at, arith::CmpFPredicate::OEQ, a[0], fconst(b, at, t, -INFINITY));
                   bool p = im.attrInt("detect_positive", 1), n = im.attrInt("detect_negative", 1);
                   if (p && n)
                     return arith::OrIOp::create(b, at, pos, neg);
                   if (p)
                     return pos;
                   if (n)
                     return neg;
                   return arith::ConstantOp::create(b, at, b.getBoolAttr(false));
                 }}},
      {"Not", {1, false, -1, [](Importer &, OpBuilder &b, Location at, ValueRange a, Kind) -> Value {
                 return arith::XOrIOp::create(b, at, a[0], iconst(b, at, a[0].getType(), 1));
               }}},
      {"Add", {2, false, -1, [](Importer &, OpBuilder &b, Location at, ValueRange a, Kind k) -> Value {
                 return k == Kind::Float ? Value(arith::AddFOp::create(b, at, a[0], a[1]))
                                         : Value(arith::AddIOp::create(b, at, a[0], a[1]));
               }}},
      {"Sub", {2, false, -1, [](Importer &, OpBuilder &b, Location at, ValueRange a, Kind k) -> Value {
                 return k == Kind::Float ? Value(arith::SubFOp::create(b, at, a[0], a[1]))
                                         : Value(arith::SubIOp::create(b, at, a[0], a[1]));
               }}},
      {"Mul", {2, false, -1, [](Importer &, OpBuilder &b, Location at, ValueRange a, Kind k) -> Value {
                 return k == Kind::Float ? Value(arith::MulFOp::create(b, at, a[0], a[1]))
                                         : Value(arith::MulIOp::create(b, at, a[0], a[1]));
               }}},
      {"Div", {2, false, -1, [](Importer &, OpBuilder &b, Location at, ValueRange a, Kind k) -> Value {
                 return k == Kind::Float ? Value(arith::DivFOp::create(b, at, a[0], a[1]))
                                         : Value(arith::DivSIOp::create(b, at, a[0], a[1]));
               }}},
      {"Pow", {2, false, -1, [](Importer &im, OpBuilder &b, Location at, ValueRange a, Kind k) -> Value {
                 // An integer exponent or base is computed in f32 (exact for
                 // the small integer powers ONNX's int Pow is used for).
                 Type f32 = b.getF32Type();
                 Value base = k == Kind::Float ? a[0] : im.convertScalar(b, at, a[0], f32);
                 Value e = im.convertScalar(b, at, a[1], base.getType());
                 Value r = signedPow(b, at, base, e);
                 if (k == Kind::Float)
                   return r;
                 return im.convertScalar(b, at, math::RoundEvenOp::create(b, at, r), a[0].getType());
               }}},
      {"Shrink", {1, true, -1, [](Importer &im, OpBuilder &b, Location at, ValueRange a, Kind) -> Value {
                    Type t = a[0].getType();
                    float lambd = im.attrFloat("lambd", 0.5f), bias = im.attrFloat("bias", 0.0f);
                    Value lo = arith::CmpFOp::create(b, at, arith::CmpFPredicate::OLT, a[0], fconst(b, at, t, -lambd));
                    Value hi = arith::CmpFOp::create(b, at, arith::CmpFPredicate::OGT, a[0], fconst(b, at, t, lambd));
                    Value r = arith::SelectOp::create(b, at, hi, arith::SubFOp::create(b, at, a[0], fconst(b, at, t, bias)), fconst(b, at, t, 0));
                    return arith::SelectOp::create(b, at, lo, arith::AddFOp::create(b, at, a[0], fconst(b, at, t, bias)), r);
                  }}},
      {"Max", {-1, false, -1, [](Importer &, OpBuilder &b, Location at, ValueRange a, Kind k) -> Value {
                 return k == Kind::Float ? Value(arith::MaximumFOp::create(b, at, a[0], a[1]))
                                         : Value(arith::MaxSIOp::create(b, at, a[0], a[1]));
               }}},
      {"Min", {-1, false, -1, [](Importer &, OpBuilder &b, Location at, ValueRange a, Kind k) -> Value {
                 return k == Kind::Float ? Value(arith::MinimumFOp::create(b, at, a[0], a[1]))
                                         : Value(arith::MinSIOp::create(b, at, a[0], a[1]));
               }}},
      {"Sum", {-1, false, -1, [](Importer &, OpBuilder &b, Location at, ValueRange a, Kind k) -> Value {
                 return k == Kind::Float ? Value(arith::AddFOp::create(b, at, a[0], a[1]))
                                         : Value(arith::AddIOp::create(b, at, a[0], a[1]));
               }}},
      {"And", {2, false, -1, [](Importer &, OpBuilder &b, Location at, ValueRange a, Kind) -> Value {
                 return arith::AndIOp::create(b, at, a[0], a[1]);
               }}},
      {"Or", {2, false, -1, [](Importer &, OpBuilder &b, Location at, ValueRange a, Kind) -> Value {
                return arith::OrIOp::create(b, at, a[0], a[1]);
              }}},
      {"Xor", {2, false, -1, [](Importer &, OpBuilder &b, Location at, ValueRange a, Kind) -> Value {
                 return arith::XOrIOp::create(b, at, a[0], a[1]);
               }}},
      {"PRelu", {2, true, -1, [](Importer &, OpBuilder &b, Location at, ValueRange a, Kind) -> Value {
                   Value neg = arith::CmpFOp::create(b, at, arith::CmpFPredicate::OLT, a[0], fconst(b, at, a[0].getType(), 0));
                   return arith::SelectOp::create(b, at, neg, arith::MulFOp::create(b, at, a[0], a[1]), a[0]);
                 }}},
  };
  return ops;
}

Value compare(OpBuilder &b, Location at, ValueRange a, Kind k, arith::CmpFPredicate f,
              arith::CmpIPredicate i) {
  if (k == Kind::Float)
    return arith::CmpFOp::create(b, at, f, a[0], a[1]);
  return arith::CmpIOp::create(b, at, i, a[0], a[1]);
}

const std::map<std::string, std::pair<arith::CmpFPredicate, arith::CmpIPredicate>> &comparisons() {
  using F = arith::CmpFPredicate;
  using I = arith::CmpIPredicate;
  static const std::map<std::string, std::pair<F, I>> ops = {{"Equal", {F::OEQ, I::eq}},
                                                             {"Less", {F::OLT, I::slt}},
                                                             {"LessOrEqual", {F::OLE, I::sle}},
                                                             {"Greater", {F::OGT, I::sgt}},
                                                             {"GreaterOrEqual", {F::OGE, I::sge}}};
  return ops;
}

// Collects the operands' device values and their broadcast shape.
bool operands(Importer &im, int first, int count, std::vector<Value> *values,
              std::vector<int64_t> *shape, std::vector<int32_t> *types) {
  for (int i = first; i < first + count; ++i) {
    Tensor *t = im.input(i);
    if (!t)
      return false;
    Value v = im.valueOf(*t);
    if (!v)
      return false;
    if (i > first && im.node->op_type() != "Where" && !values->empty()) {
      // Legacy forms: opset < 7 `broadcast` with `axis` aligns the second
      // operand at `axis`; PRelu's per-channel slope [C] aligns at dim 1.
      std::vector<int64_t> aligned;
      int64_t axis = im.attrInt("axis", -1);
      if (im.attrInt("broadcast", 0) && axis >= 0) {
        if (!im.axis(axis, static_cast<int64_t>(shape->size()), &axis, "axis", /*pastEnd=*/true))
          return false;
        aligned = t->shape, aligned.resize(shape->size() - axis, 1);
      } else if (im.node->op_type() == "PRelu" && t->shape.size() == 1 && shape->size() > 2 &&
                 t->shape[0] == (*shape)[1] && t->shape[0] != shape->back())
        aligned = t->shape, aligned.resize(shape->size() - 1, 1);
      if (!aligned.empty()) {
        v = im.reshape(v, aligned);
        values->push_back(v);
        types->push_back(t->onnxType);
        if (!broadcastShapes(*shape, aligned, shape))
          return im.fail("its operand shapes do not broadcast");
        continue;
      }
    }
    if (i == first)
      *shape = t->shape;
    else if (!broadcastShapes(*shape, t->shape, shape))
      return im.fail("its operand shapes do not broadcast");
    values->push_back(v);
    types->push_back(t->onnxType);
  }
  return true;
}

bool lowerTableOp(Importer &im) {
  const std::string &op = im.node->op_type();
  std::vector<Value> values;
  std::vector<int64_t> shape;
  std::vector<int32_t> types;
  auto cmp = comparisons().find(op);
  const ElementwiseOp *e = nullptr;
  if (cmp == comparisons().end())
    e = &table().at(op);
  int arity = e ? e->arity : 2;
  int count = arity < 0 ? im.inputCount() : arity;
  if (!im.onlyAttributes({"alpha", "beta", "gamma", "detect_positive", "detect_negative", "lambd",
                          "bias", "broadcast", "axis"}) ||
      !operands(im, 0, count, &values, &shape, &types))
    return false;
  Kind kind = kindOf(types[0]);
  if (e && e->floatOnly && kind != Kind::Float)
    return im.fail("supported for float tensors only, not " + onnxTypeName(types[0]));
  int32_t resultType = cmp != comparisons().end() ? TP::BOOL
                       : e->resultKind >= 0       ? e->resultKind
                                                  : types[0];
  // Variadic ops: one generic over all operands, folded pairwise in the body.
  bool mean = op == "Mean";
  Value result = im.elementwise(
      values, shape, resultType, [&](OpBuilder &b, Location at, ValueRange a) -> Value {
        if (cmp != comparisons().end())
          return compare(b, at, a, kind, cmp->second.first, cmp->second.second);
        if (e->arity >= 0)
          return e->body(im, b, at, a, kind);
        Value acc = a[0];
        for (size_t i = 1; i < a.size(); ++i)
          acc = e->body(im, b, at, ValueRange{acc, a[i]}, kind);
        (void)mean;
        return acc;
      });
  im.define(0, Tensor{result, shape, resultType, std::nullopt});
  return true;
}

bool lowerMean(Importer &im) {
  std::vector<Value> values;
  std::vector<int64_t> shape;
  std::vector<int32_t> types;
  if (!operands(im, 0, im.inputCount(), &values, &shape, &types))
    return false;
  if (kindOf(types[0]) != Kind::Float)
    return im.fail("supported for float tensors only");
  Value result = im.elementwise(
      values, shape, types[0], [&](OpBuilder &b, Location at, ValueRange a) -> Value {
        Value acc = a[0];
        for (size_t i = 1; i < a.size(); ++i)
          acc = arith::AddFOp::create(b, at, acc, a[i]);
        return arith::DivFOp::create(b, at, acc, fconst(b, at, acc.getType(), a.size()));
      });
  im.define(0, Tensor{result, shape, types[0], std::nullopt});
  return true;
}

bool lowerMod(Importer &im) {
  std::vector<Value> values;
  std::vector<int64_t> shape;
  std::vector<int32_t> types;
  if (!im.onlyAttributes({"fmod"}) || !operands(im, 0, 2, &values, &shape, &types))
    return false;
  Kind kind = kindOf(types[0]);
  bool fmod = im.attrInt("fmod", 0);
  if (kind == Kind::Float && !fmod)
    return im.fail("float Mod needs fmod=1 (ONNX requires it)");
  Value result = im.elementwise(
      values, shape, types[0], [&](OpBuilder &b, Location at, ValueRange a) -> Value {
        if (kind == Kind::Float)
          return arith::RemFOp::create(b, at, a[0], a[1]);
        Value r = arith::RemSIOp::create(b, at, a[0], a[1]);
        if (fmod)
          return r;
        // Python modulo: the result takes the divisor's sign.
        Type t = r.getType();
        Value zero = iconst(b, at, t, 0);
        Value nonzero = arith::CmpIOp::create(b, at, arith::CmpIPredicate::ne, r, zero);
        Value signs = arith::XOrIOp::create(
            b, at, arith::CmpIOp::create(b, at, arith::CmpIPredicate::slt, r, zero),
            arith::CmpIOp::create(b, at, arith::CmpIPredicate::slt, a[1], zero));
        Value fix = arith::AndIOp::create(b, at, nonzero, signs);
        return arith::SelectOp::create(b, at, fix, arith::AddIOp::create(b, at, r, a[1]), r);
      });
  im.define(0, Tensor{result, shape, types[0], std::nullopt});
  return true;
}

bool lowerWhere(Importer &im) {
  std::vector<Value> values;
  std::vector<int64_t> shape;
  std::vector<int32_t> types;
  // A condition known at compile time (torch's causal mask, folded from
  // `tril(ones) == 0`) is read as 0/1 words and compared in the select's
  // body: an i1 tensor cannot be a buffer, and the broadcast reshape of the
  // mask would keep it from fusing into this kernel.
  Tensor *condition = im.input(0);
  bool words = condition && !condition->value && condition->host &&
               kindOf(condition->onnxType) == Kind::Bool;
  if (words)
    condition->value = im.boolWords(*condition->host);
  bool ok = operands(im, 0, 3, &values, &shape, &types);
  if (words)
    condition->value = Value(); // this node's operand only; other users see the mask
  if (!ok)
    return false;
  Value result = im.elementwise(
      values, shape, types[1], [&](OpBuilder &b, Location at, ValueRange a) -> Value {
        Value c = a[0];
        if (words)
          c = arith::CmpIOp::create(b, at, arith::CmpIPredicate::ne, c,
                                    arith::ConstantOp::create(b, at, b.getI32IntegerAttr(0)));
        return arith::SelectOp::create(b, at, c, a[1], a[2]);
      });
  im.define(0, Tensor{result, shape, types[1], std::nullopt});
  return true;
}

bool lowerCast(Importer &im) {
  Tensor *x = im.input(0);
  if (!x || !im.onlyAttributes({"to", "saturate"}))
    return false;
  int32_t to = static_cast<int32_t>(im.attrInt("to", 0));
  if (im.node->op_type() == "CastLike") {
    Tensor *like = im.input(1);
    if (!like)
      return false;
    to = like->onnxType;
  }
  using TP = onnx::TensorProto;
  if (to != TP::FLOAT && to != TP::FLOAT16 && to != TP::DOUBLE && to != TP::INT32 &&
      to != TP::INT64 && to != TP::BOOL)
    return im.fail("casting to " + onnxTypeName(to) +
                   " is not supported (supported: FLOAT, FLOAT16, DOUBLE, INT32, INT64, BOOL)");
  Value v = im.valueOf(*x);
  if (!v)
    return false;
  Type element = im.elementType(to);
  Value result = im.elementwise({v}, x->shape, to, [&](OpBuilder &b, Location at, ValueRange a) {
    return im.convertScalar(b, at, a[0], element);
  });
  im.define(0, Tensor{result, x->shape, to, std::nullopt});
  return true;
}

bool lowerIdentity(Importer &im) {
  Tensor *x = im.input(0);
  if (!x)
    return false;
  im.define(0, *x);
  return true;
}

bool lowerClip(Importer &im) {
  Tensor *x = im.input(0);
  if (!x)
    return false;
  Value v = im.valueOf(*x);
  if (!v)
    return false;
  Kind kind = kindOf(x->onnxType);
  // Bounds: attributes before opset 11, else optional operands (scalars,
  // broadcast like any elementwise operand).
  std::vector<Value> operands = {v};
  int lo = -1, hi = -1;
  std::optional<double> loAttr, hiAttr;
  if (im.opset < 11) {
    if (im.attr("min"))
      loAttr = im.attrFloat("min", 0);
    if (im.attr("max"))
      hiAttr = im.attrFloat("max", 0);
  }
  for (int i = 1; i <= 2; ++i) {
    if (!im.hasInput(i))
      continue;
    Tensor *t = im.input(i);
    Value bound = t ? im.valueOf(*t) : Value();
    if (!bound)
      return false;
    (i == 1 ? lo : hi) = operands.size();
    operands.push_back(bound);
  }
  Value result = im.elementwise(
      operands, x->shape, x->onnxType, [&](OpBuilder &b, Location at, ValueRange a) -> Value {
        Value r = a[0];
        Type t = r.getType();
        auto bound = [&](int index, std::optional<double> attr) -> Value {
          if (index >= 0)
            return a[index];
          if (!attr)
            return Value();
          return kind == Kind::Float ? fconst(b, at, t, *attr)
                                     : iconst(b, at, t, static_cast<int64_t>(*attr));
        };
        if (Value l = bound(lo, loAttr))
          r = kind == Kind::Float ? Value(arith::MaximumFOp::create(b, at, r, l))
                                  : Value(arith::MaxSIOp::create(b, at, r, l));
        if (Value h = bound(hi, hiAttr))
          r = kind == Kind::Float ? Value(arith::MinimumFOp::create(b, at, r, h))
                                  : Value(arith::MinSIOp::create(b, at, r, h));
        return r;
      });
  im.define(0, Tensor{result, x->shape, x->onnxType, std::nullopt});
  return true;
}

} // namespace

std::optional<Lowering> elementwiseLowering(const std::string &op) {
  if (table().count(op) || comparisons().count(op))
    return lowerTableOp;
  static const std::map<std::string, Lowering> others = {
      {"Mean", lowerMean}, {"Mod", lowerMod},       {"Where", lowerWhere},
      {"Cast", lowerCast}, {"CastLike", lowerCast}, {"Identity", lowerIdentity},
      {"Clip", lowerClip}};
  auto it = others.find(op);
  if (it == others.end())
    return std::nullopt;
  return it->second;
}

std::string elementwiseOps() {
  std::string list;
  for (const auto &[name, _] : table())
    list += name + " ";
  for (const auto &[name, _] : comparisons())
    list += name + " ";
  return list + "Mean Mod Where Cast CastLike Identity Clip";
}

} // namespace meshvk::onnx_import

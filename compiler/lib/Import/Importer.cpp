//===- Importer.cpp - ONNX graph -> func.func @main ------------------------===//
//
// The graph walk (inputs, initializers, nodes in order, outputs) and the IR
// helpers the lowerings share. Node lowerings live in LowerElementwise.cpp and
// LowerStructured.cpp; the sharding policy in Sharding.cpp.
//
//===----------------------------------------------------------------------===//
#include "Importer.h"

#include <climits>

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Shard/IR/ShardOps.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Tosa/IR/TosaOps.h"
#include "mlir/IR/Verifier.h"

using namespace mlir;

namespace meshvk::onnx_import {

bool isFloatType(int32_t t) {
  return t == onnx::TensorProto::FLOAT || t == onnx::TensorProto::DOUBLE ||
         t == onnx::TensorProto::FLOAT16;
}

Kind kindOf(int32_t t) {
  if (isFloatType(t))
    return Kind::Float;
  return t == onnx::TensorProto::BOOL ? Kind::Bool : Kind::Int;
}

// "8x1024", as the messages spell a shape.
std::string shapeText(const std::vector<int64_t> &shape) {
  std::string text;
  for (int64_t d : shape)
    text += (text.empty() ? "" : "x") + std::to_string(d);
  return text;
}

int64_t elementCount(const std::vector<int64_t> &shape) {
  int64_t n = 1;
  for (int64_t d : shape)
    n *= d;
  return n;
}

bool broadcastShapes(const std::vector<int64_t> &aIn, const std::vector<int64_t> &bIn,
                     std::vector<int64_t> *out) {
  std::vector<int64_t> a = aIn, b = bIn; // `out` may alias either
  size_t rank = std::max(a.size(), b.size());
  out->assign(rank, 1);
  for (size_t i = 0; i < rank; ++i) {
    int64_t x = i < rank - a.size() ? 1 : a[i - (rank - a.size())];
    int64_t y = i < rank - b.size() ? 1 : b[i - (rank - b.size())];
    if (x != y && x != 1 && y != 1)
      return false;
    (*out)[i] = x == 1 ? y : x;
  }
  return true;
}

Importer::Importer(MLIRContext &context, const OnnxImportOptions &options, int64_t opset,
                   std::string directory)
    : b(&context), loc(UnknownLoc::get(&context)), options(options), opset(opset),
      directory(std::move(directory)) {}

bool Importer::fail(const std::string &what) {
  if (!error.empty())
    return false;
  if (node)
    error = "node '" + node->name() + "' (" + node->op_type() + ", opset " + std::to_string(opset) +
            "): " + what;
  else
    error = what;
  return false;
}

bool Importer::axis(int64_t value, int64_t rank, int64_t *out, const char *what, bool pastEnd) {
  int64_t last = pastEnd ? rank : rank - 1;
  if (value < -rank || value > last)
    return fail(std::string(what) + " " + std::to_string(value) + " is out of range for a rank-" +
                std::to_string(rank) + " tensor (expected " + std::to_string(-rank) + ".." +
                std::to_string(last) + ")");
  *out = value < 0 ? value + rank : value;
  return true;
}

bool Importer::axes(const std::vector<int64_t> &values, int64_t rank, std::vector<int64_t> *out,
                    const char *what) {
  out->clear();
  for (int64_t v : values) {
    int64_t a = 0;
    if (!axis(v, rank, &a, what))
      return false;
    out->push_back(a);
  }
  return true;
}

const onnx::AttributeProto *findAttribute(const onnx::NodeProto &node, const std::string &name) {
  for (const auto &a : node.attribute())
    if (a.name() == name)
      return &a;
  return nullptr;
}

const onnx::AttributeProto *Importer::attr(const std::string &name) const {
  return findAttribute(*node, name);
}
int64_t Importer::attrInt(const std::string &name, int64_t otherwise) const {
  const auto *a = attr(name);
  return a ? a->i() : otherwise;
}
float Importer::attrFloat(const std::string &name, float otherwise) const {
  const auto *a = attr(name);
  return a ? a->f() : otherwise;
}
std::string Importer::attrString(const std::string &name, const std::string &otherwise) const {
  const auto *a = attr(name);
  return a ? a->s() : otherwise;
}
std::vector<int64_t> Importer::attrInts(const std::string &name) const {
  const auto *a = attr(name);
  return a ? std::vector<int64_t>(a->ints().begin(), a->ints().end()) : std::vector<int64_t>{};
}
bool Importer::onlyAttributes(std::initializer_list<const char *> known) {
  for (const auto &a : node->attribute()) {
    bool ok = false;
    std::string list;
    for (const char *k : known) {
      ok |= a.name() == k;
      list += list.empty() ? k : std::string(", ") + k;
    }
    if (!ok)
      return fail("attribute '" + a.name() + "' is not supported (supported: " +
                  (list.empty() ? std::string("none") : list) + ")");
  }
  return true;
}

int Importer::inputCount() const { return node->input_size(); }
bool Importer::hasInput(int i) const { return i < node->input_size() && !node->input(i).empty(); }
Tensor *Importer::input(int i) {
  if (!hasInput(i)) {
    fail("operand #" + std::to_string(i) + " is missing");
    return nullptr;
  }
  auto it = values.find(node->input(i));
  if (it == values.end()) {
    fail("operand '" + node->input(i) + "' is not defined before the node");
    return nullptr;
  }
  return &it->second;
}

bool Importer::hostInts(int i, std::vector<int64_t> *out, const char *what) {
  Tensor *t = input(i);
  if (!t)
    return false;
  if (!t->host || kindOf(t->onnxType) == Kind::Float)
    return fail(std::string("its ") + what + " operand '" + node->input(i) +
                "' is computed at run time; meshvk needs it at compile time (a constant, an "
                "initializer, or a shape computation over them)");
  *out = t->host->ints;
  return true;
}
bool Importer::hostReals(int i, std::vector<double> *out, const char *what) {
  Tensor *t = input(i);
  if (!t)
    return false;
  if (!t->host)
    return fail(std::string("its ") + what + " operand '" + node->input(i) +
                "' is computed at run time; meshvk needs it at compile time");
  out->clear();
  if (kindOf(t->onnxType) == Kind::Float)
    *out = t->host->reals;
  else
    out->assign(t->host->ints.begin(), t->host->ints.end());
  return true;
}

void Importer::define(int output, Tensor tensor) {
  if (output < node->output_size() && !node->output(output).empty())
    values[node->output(output)] = std::move(tensor);
}

bool Importer::defineValue(int output, Value v, int32_t onnxType) {
  if (!v)
    return false;
  define(output, Tensor{v, shapeOf(v), onnxType, std::nullopt});
  return true;
}

Type Importer::elementType(int32_t t) {
  switch (kindOf(t)) {
  case Kind::Float:
    if (t == onnx::TensorProto::FLOAT16)
      return b.getF16Type();
    return t == onnx::TensorProto::DOUBLE && options.float64 ? Type(b.getF64Type())
                                                             : Type(b.getF32Type());
  case Kind::Int:
    return b.getI32Type();
  case Kind::Bool:
    return b.getI1Type();
  }
  return {};
}

RankedTensorType Importer::tensorType(const std::vector<int64_t> &shape, int32_t t) {
  return RankedTensorType::get(shape, elementType(t));
}

Value Importer::constant(const OnnxHostTensor &host) {
  RankedTensorType type = tensorType(host.shape, host.onnxType);
  DenseElementsAttr attr;
  switch (kindOf(host.onnxType)) {
  case Kind::Float: {
    std::vector<APFloat> values;
    bool lossy = false;
    for (double v : host.reals) {
      APFloat f(v);
      f.convert(cast<FloatType>(type.getElementType()).getFloatSemantics(),
                APFloat::rmNearestTiesToEven, &lossy);
      values.push_back(f);
    }
    attr = DenseElementsAttr::get(type, values);
    break;
  }
  case Kind::Int: {
    std::vector<int32_t> values;
    for (int64_t v : host.ints) {
      if (v < INT32_MIN || v > INT32_MAX) {
        fail("a constant operand holds " + std::to_string(v) +
             ", outside int32: meshvk computes int64 tensors as int32");
        return {};
      }
      values.push_back(static_cast<int32_t>(v));
    }
    attr = DenseElementsAttr::get(type, ArrayRef<int32_t>(values));
    break;
  }
  case Kind::Bool: {
    SmallVector<bool> values;
    for (int64_t v : host.ints)
      values.push_back(v != 0);
    if (llvm::all_equal(values)) {
      attr = DenseElementsAttr::get(type, ArrayRef<bool>(values));
      break;
    }
    // The runtime stores constants of f32, f16 and i32 only: a mask whose
    // elements differ is an i32 constant compared with 0 on the device.
    return elementwise(
        {boolWords(host)}, host.shape, host.onnxType,
        [](OpBuilder &nested, Location at, ValueRange a) -> Value {
          Value zero = arith::ConstantOp::create(nested, at, nested.getI32IntegerAttr(0));
          return arith::CmpIOp::create(nested, at, arith::CmpIPredicate::ne, a[0], zero);
        });
  }
  }
  return arith::ConstantOp::create(b, loc, type, attr);
}

Value Importer::boolWords(const OnnxHostTensor &host) {
  std::vector<int32_t> words;
  for (int64_t v : host.ints)
    words.push_back(v != 0);
  auto type = RankedTensorType::get(host.shape, b.getI32Type());
  return arith::ConstantOp::create(b, loc, type,
                                   DenseElementsAttr::get(type, ArrayRef<int32_t>(words)));
}

Value Importer::valueOf(Tensor &tensor) {
  if (!tensor.value && tensor.host)
    tensor.value = constant(*tensor.host);
  return tensor.value;
}

Value Importer::shapeConstant(const std::vector<int64_t> &values) {
  auto type = RankedTensorType::get({static_cast<int64_t>(values.size())}, b.getIndexType());
  auto attr = DenseIntElementsAttr::get(type, ArrayRef<int64_t>(values));
  return tosa::ConstShapeOp::create(b, loc, tosa::shapeType::get(b.getContext(), values.size()),
                                    attr);
}

Value Importer::zeroPoint(Type element) {
  auto type = RankedTensorType::get({1}, element);
  Attribute zero = isa<FloatType>(element) ? Attribute(b.getFloatAttr(element, 0.0))
                                           : Attribute(b.getIntegerAttr(element, 0));
  return tosa::ConstOp::create(b, loc, type, DenseElementsAttr::get(type, zero));
}

Value Importer::reshape(Value value, const std::vector<int64_t> &shape) {
  auto type = cast<RankedTensorType>(value.getType());
  if (type.getShape() == ArrayRef<int64_t>(shape))
    return value;
  return tosa::ReshapeOp::create(b, loc, RankedTensorType::get(shape, type.getElementType()), value,
                                 shapeConstant(shape));
}

Value Importer::transpose(Value value, const std::vector<int64_t> &permutation) {
  auto type = cast<RankedTensorType>(value.getType());
  bool identity = true;
  std::vector<int64_t> shape;
  std::vector<int32_t> perms;
  for (size_t i = 0; i < permutation.size(); ++i) {
    identity &= permutation[i] == static_cast<int64_t>(i);
    shape.push_back(type.getDimSize(permutation[i]));
    perms.push_back(static_cast<int32_t>(permutation[i]));
  }
  if (identity)
    return value;
  return tosa::TransposeOp::create(b, loc, RankedTensorType::get(shape, type.getElementType()),
                                   value, b.getDenseI32ArrayAttr(perms));
}

Value Importer::elementwise(std::vector<Value> operands, const std::vector<int64_t> &shape,
                            int32_t onnxType, const ScalarBody &body) {
  int64_t rank = shape.size();
  std::vector<AffineMap> maps;
  for (Value &operand : operands) {
    auto type = cast<RankedTensorType>(operand.getType());
    int64_t offset = rank - type.getRank();
    // Broadcast dimensions are dropped (a reshape) and the map skips them.
    std::vector<int64_t> kept;
    SmallVector<AffineExpr> exprs;
    for (int64_t d = 0; d < type.getRank(); ++d) {
      if (type.getDimSize(d) == 1 && shape[d + offset] != 1)
        continue;
      kept.push_back(type.getDimSize(d));
      exprs.push_back(b.getAffineDimExpr(d + offset));
    }
    operand = reshape(operand, kept);
    maps.push_back(AffineMap::get(rank, 0, exprs, b.getContext()));
  }
  maps.push_back(b.getMultiDimIdentityMap(rank));
  RankedTensorType type = tensorType(shape, onnxType);
  Value init = tensor::EmptyOp::create(b, loc, shape, type.getElementType());
  SmallVector<utils::IteratorType> iterators(rank, utils::IteratorType::parallel);
  auto generic =
      linalg::GenericOp::create(b, loc, TypeRange{type}, operands, ValueRange{init}, maps,
                                iterators, [&](OpBuilder &nested, Location at, ValueRange args) {
                                  Value result = body(nested, at, args.drop_back());
                                  linalg::YieldOp::create(nested, at, result);
                                });
  return generic.getResult(0);
}

Value Importer::convertScalar(OpBuilder &nb, Location at, Value v, Type to) {
  Type from = v.getType();
  if (from == to)
    return v;
  auto fromFloat = dyn_cast<FloatType>(from), toFloat = dyn_cast<FloatType>(to);
  if (fromFloat && toFloat)
    return fromFloat.getWidth() < toFloat.getWidth()
               ? Value(arith::ExtFOp::create(nb, at, to, v))
               : Value(arith::TruncFOp::create(nb, at, to, v));
  if (to.isInteger(1)) {
    if (fromFloat) {
      Value zero = arith::ConstantOp::create(nb, at, nb.getFloatAttr(from, 0.0));
      return arith::CmpFOp::create(nb, at, arith::CmpFPredicate::UNE, v, zero);
    }
    Value zero = arith::ConstantOp::create(nb, at, nb.getIntegerAttr(from, 0));
    return arith::CmpIOp::create(nb, at, arith::CmpIPredicate::ne, v, zero);
  }
  if (from.isInteger(1))
    return toFloat ? Value(arith::UIToFPOp::create(nb, at, to, v))
                   : Value(arith::ExtUIOp::create(nb, at, to, v));
  if (fromFloat)
    return arith::FPToSIOp::create(nb, at, to, v);
  return arith::SIToFPOp::create(nb, at, to, v);
}

bool Importer::outputInfo(int output, std::vector<int64_t> *shape, int32_t *onnxType) {
  shape->clear();
  *onnxType = 0;
  auto it = valueInfo.find(node->output(output));
  if (it == valueInfo.end())
    return false;
  const auto &type = it->second->type().tensor_type();
  *onnxType = type.elem_type();
  if (!type.has_shape())
    return false;
  for (const auto &d : type.shape().dim()) {
    if (!d.has_dim_value())
      return false;
    shape->push_back(d.dim_value());
  }
  return true;
}

Value fconst(OpBuilder &b, Location at, Type t, double v) {
  return arith::ConstantOp::create(b, at, b.getFloatAttr(t, v));
}

std::vector<int64_t> shapeOf(Value v) {
  auto t = cast<RankedTensorType>(v.getType());
  return std::vector<int64_t>(t.getShape().begin(), t.getShape().end());
}

Value tosaOp(Importer &im, StringRef name, Type result, ValueRange operands,
             ArrayRef<NamedAttribute> attributes) {
  OperationState state(im.loc, name);
  state.addOperands(operands);
  state.addTypes(result);
  state.addAttributes(attributes);
  return im.b.create(state)->getResult(0);
}

} // namespace meshvk::onnx_import

//===- LowerIndexing.cpp - ONNX ops on computed indices -> tosa -----------===//
//
// Gather (tosa.gather on [outer, K, inner]), GatherElements (tosa.gather of
// the flattened data at computed flat indices), ArgMax/ArgMin (tosa.argmax).
//
//===----------------------------------------------------------------------===//
#include "Movement.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Tosa/IR/TosaOps.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"

#include <cstdint>

using namespace mlir;

namespace meshvk::onnx_import {

namespace {

using TP = onnx::TensorProto;

// Index `*i` of an axis of `k` elements, a negative one counted from the end;
// false with the error when it is out of range.
bool wrapIndex(Importer &im, int64_t k, int64_t *i) {
  if (*i < -k || *i >= k)
    return im.fail("index " + std::to_string(*i) + " is out of range for a dimension of " +
                   std::to_string(k));
  *i = *i < 0 ? *i + k : *i;
  return true;
}

// The same on the device, for an index known at run time (i32, not checked).
Value wrapIndex(OpBuilder &b, Location at, Value i, int64_t k) {
  Value zero = arith::ConstantOp::create(b, at, b.getI32IntegerAttr(0));
  Value kv = arith::ConstantOp::create(b, at, b.getI32IntegerAttr(k));
  Value neg = arith::CmpIOp::create(b, at, arith::CmpIPredicate::slt, i, zero);
  return arith::SelectOp::create(b, at, neg, arith::AddIOp::create(b, at, i, kv), i);
}

} // namespace

bool lowerGather(Importer &im) {
  Tensor *x = im.input(0), *idx = im.input(1);
  if (!x || !idx)
    return false;
  int64_t rank = x->shape.size(), axis = 0;
  if (!im.axis(im.attrInt("axis", 0), rank, &axis))
    return false;
  int64_t k = x->shape[axis];
  if (kindOf(x->onnxType) == Kind::Bool)
    return im.fail("gathering BOOL tensors is not supported");
  int64_t outer = 1, inner = 1, w = elementCount(idx->shape);
  for (int64_t d = 0; d < axis; ++d)
    outer *= x->shape[d];
  for (int64_t d = axis + 1; d < rank; ++d)
    inner *= x->shape[d];
  std::vector<int64_t> shape(x->shape.begin(), x->shape.begin() + axis);
  shape.insert(shape.end(), idx->shape.begin(), idx->shape.end());
  shape.insert(shape.end(), x->shape.begin() + axis + 1, x->shape.end());
  if (!checkNonEmpty(im, shape))
    return false;
  Value data = im.valueOf(*x);
  Value indices;
  if (idx->host && !idx->boundInput) {
    OnnxHostTensor fixed = *idx->host;
    for (int64_t &i : fixed.ints)
      if (!wrapIndex(im, k, &i))
        return false;
    fixed.onnxType = TP::INT32;
    indices = im.constant(fixed);
  } else {
    Value raw = im.valueOf(*idx);
    if (!raw)
      return false;
    // Negative indices count from the end.
    indices = im.elementwise({raw}, idx->shape, TP::INT32,
                             [&](OpBuilder &b, Location at, ValueRange a) -> Value {
                               return wrapIndex(b, at, a[0], k);
                             });
  }
  if (!data || !indices)
    return false;
  Value values = im.reshape(data, {outer, k, inner});
  indices = im.reshape(indices, {1, w});
  if (outer > 1)
    indices = im.elementwise({indices}, {outer, w}, TP::INT32,
                             [](OpBuilder &, Location, ValueRange a) { return a[0]; });
  Type element = cast<RankedTensorType>(data.getType()).getElementType();
  Value g = tosaOp(im, "tosa.gather", RankedTensorType::get({outer, w, inner}, element),
                   {values, indices});
  return im.defineValue(0, im.reshape(g, shape), x->onnxType);
}

// GatherElements: out[p] = data[p with p[axis] = indices[p]]: one tosa.gather
// of the flattened data ([1, size, 1]) at the flat indices
// base[p] + indices[p] * stride(axis), where base[p] (a constant) is the flat
// index of p with p[axis] = 0; negative indices count from the end.
bool lowerGatherElements(Importer &im) {
  Tensor *x = im.input(0), *idx = im.input(1);
  if (!x || !idx || !im.onlyAttributes({"axis"}))
    return false;
  int64_t rank = x->shape.size(), axis = 0;
  if (!im.axis(im.attrInt("axis", 0), rank, &axis))
    return false;
  if (kindOf(x->onnxType) == Kind::Bool)
    return im.fail("gathering BOOL tensors is not supported");
  if (static_cast<int64_t>(idx->shape.size()) != rank)
    return im.fail("indices of shape " + shapeText(idx->shape) + " for data of shape " +
                   shapeText(x->shape) + " (expected the same rank)");
  for (int64_t d = 0; d < rank; ++d)
    if (d != axis && idx->shape[d] > x->shape[d])
      return im.fail("indices of shape " + shapeText(idx->shape) + " exceed data of shape " +
                     shapeText(x->shape) + " along axis " + std::to_string(d));
  if (!checkNonEmpty(im, idx->shape) || !checkNonEmpty(im, x->shape))
    return false;
  int64_t k = x->shape[axis], size = elementCount(x->shape), w = elementCount(idx->shape);
  if (size > INT32_MAX)
    return im.fail("data of " + std::to_string(size) + " elements: flat indices exceed int32");
  std::vector<int64_t> stride(rank, 1);
  for (int64_t d = rank - 2; d >= 0; --d)
    stride[d] = stride[d + 1] * x->shape[d + 1];
  OnnxHostTensor base;
  base.shape = idx->shape;
  base.onnxType = TP::INT32;
  base.ints.resize(w);
  for (int64_t p = 0; p < w; ++p) {
    int64_t rest = p, flat = 0;
    for (int64_t d = rank - 1; d >= 0; --d) {
      if (d != axis)
        flat += (rest % idx->shape[d]) * stride[d];
      rest /= idx->shape[d];
    }
    base.ints[p] = flat;
  }
  Value indices;
  if (idx->host && !idx->boundInput) {
    OnnxHostTensor fixed = base;
    for (int64_t p = 0; p < w; ++p) {
      int64_t i = idx->host->ints.at(p);
      if (!wrapIndex(im, k, &i))
        return false;
      fixed.ints[p] += i * stride[axis];
    }
    indices = im.constant(fixed);
  } else {
    Value raw = im.valueOf(*idx), offsets = im.constant(base);
    if (!raw || !offsets)
      return false;
    int64_t step = stride[axis];
    indices = im.elementwise(
        {raw, offsets}, idx->shape, TP::INT32,
        [&](OpBuilder &b, Location at, ValueRange a) -> Value {
          Value i = wrapIndex(b, at, a[0], k);
          Value sv = arith::ConstantOp::create(b, at, b.getI32IntegerAttr(step));
          return arith::AddIOp::create(b, at, a[1], arith::MulIOp::create(b, at, i, sv));
        });
  }
  Value data = im.valueOf(*x);
  if (!data || !indices)
    return false;
  Type element = cast<RankedTensorType>(data.getType()).getElementType();
  Value g = tosaOp(im, "tosa.gather", RankedTensorType::get({1, w, 1}, element),
                   {im.reshape(data, {1, size, 1}), im.reshape(indices, {1, w})});
  return im.defineValue(0, im.reshape(g, idx->shape), x->onnxType);
}

bool lowerArgExtreme(Importer &im) {
  Tensor *x = im.input(0);
  if (!x || !im.onlyAttributes({"axis", "keepdims", "select_last_index"}))
    return false;
  if (kindOf(x->onnxType) != Kind::Float)
    return im.fail("supported for float tensors only");
  int64_t rank = x->shape.size(), axis = 0;
  if (!im.axis(im.attrInt("axis", 0), rank, &axis))
    return false;
  Value v = im.valueOf(*x);
  if (!v)
    return false;
  if (im.node->op_type() == "ArgMin")
    v = im.elementwise({v}, x->shape, x->onnxType,
                       [](OpBuilder &b, Location at, ValueRange a) -> Value {
                         return arith::NegFOp::create(b, at, a[0]);
                       });
  std::vector<int64_t> shape;
  for (int64_t d = 0; d < rank; ++d)
    if (d != axis)
      shape.push_back(x->shape[d]);
  // The last extreme: the first on the reversed axis, counted back.
  bool last = im.attrInt("select_last_index", 0);
  if (last)
    v = reverseAxis(im, v, axis);
  Value r = tosaOp(im, "tosa.argmax", RankedTensorType::get(shape, im.b.getI32Type()), {v},
                   {im.b.getNamedAttr("axis", im.b.getI32IntegerAttr(axis))});
  if (last) {
    int64_t top = x->shape[axis] - 1;
    r = im.elementwise(
        {r}, shape, TP::INT32, [&](OpBuilder &b, Location at, ValueRange a) -> Value {
          return arith::SubIOp::create(
              b, at, arith::ConstantOp::create(b, at, b.getI32IntegerAttr(top)), a[0]);
        });
  }
  if (im.attrInt("keepdims", 1)) {
    shape.insert(shape.begin() + axis, 1);
    r = im.reshape(r, shape);
  }
  return im.defineValue(0, r, TP::INT64);
}

} // namespace meshvk::onnx_import

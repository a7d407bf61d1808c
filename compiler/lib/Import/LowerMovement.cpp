//===- LowerMovement.cpp - ONNX data movement -> tosa / tensor -------------===//
//
// Reshape, Flatten, Squeeze, Unsqueeze (tosa.reshape), Transpose, Concat,
// Slice and Split (tensor.extract_slice, strided; negative steps through
// tosa.reverse), Gather (tosa.gather on [outer, K, inner]), GatherElements
// (tosa.gather of the flattened data at computed flat indices), CumSum (a
// log-step prefix sum of shifted slices), Expand (a
// broadcasting copy), Tile, Pad (constant: tosa.pad; reflect/edge: slices, reversed or tiled,
// concatenated; negative pads crop), ArgMax/ArgMin, Dropout
// (inference: identity), DepthToSpace/SpaceToDepth (reshape + transpose).
//
//===----------------------------------------------------------------------===//
#include "Importer.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Tosa/IR/TosaOps.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"

#include <cstdint>
#include <map>
#include <set>

using namespace mlir;

namespace meshvk::onnx_import {
namespace {

using TP = onnx::TensorProto;

bool define(Importer &im, Value v, int32_t onnxType, int output = 0) {
  if (!v)
    return false;
  im.define(output, Tensor{v, shapeOf(v), onnxType, std::nullopt});
  return true;
}

bool checkNonEmpty(Importer &im, const std::vector<int64_t> &shape) {
  for (int64_t d : shape)
    if (d <= 0)
      return im.fail("an empty result (a zero-sized dimension) is not supported");
  return true;
}

// The new shape of a reshape-like node: the shape inferred by ONNX when it is
// static, else computed here.
bool reshapeTo(Importer &im, Tensor &x, std::vector<int64_t> shape) {
  if (elementCount(shape) != elementCount(x.shape))
    return im.fail("the new shape does not hold the input's elements");
  if (!checkNonEmpty(im, shape))
    return false;
  Value v = im.valueOf(x);
  if (!v)
    return false;
  if (x.host) { // stays foldable downstream
    Tensor t = x;
    t.value = im.reshape(v, shape);
    t.shape = shape;
    t.host->shape = shape;
    im.define(0, std::move(t));
    return true;
  }
  return define(im, im.reshape(v, shape), x.onnxType);
}

bool lowerReshape(Importer &im) {
  Tensor *x = im.input(0);
  std::vector<int64_t> target;
  if (!x || !im.hostInts(1, &target, "shape"))
    return false;
  bool allowZero = im.attrInt("allowzero", 0);
  int64_t known = 1, infer = -1;
  for (size_t i = 0; i < target.size(); ++i) {
    if (target[i] == 0 && !allowZero)
      target[i] = i < x->shape.size() ? x->shape[i] : 0;
    if (target[i] == -1)
      infer = i;
    else
      known *= target[i];
  }
  if (infer >= 0)
    target[infer] = known ? elementCount(x->shape) / known : 0;
  return reshapeTo(im, *x, target);
}

bool lowerFlatten(Importer &im) {
  Tensor *x = im.input(0);
  if (!x)
    return false;
  int64_t rank = x->shape.size(), axis = 0, outer = 1;
  if (!im.axis(im.attrInt("axis", 1), rank, &axis, "axis", /*pastEnd=*/true))
    return false;
  for (int64_t d = 0; d < axis; ++d)
    outer *= x->shape[d];
  return reshapeTo(im, *x, {outer, outer ? elementCount(x->shape) / outer : 0});
}

bool lowerSqueezeLike(Importer &im) {
  Tensor *x = im.input(0);
  if (!x)
    return false;
  bool unsqueeze = im.node->op_type() == "Unsqueeze";
  std::vector<int64_t> axes = im.attrInts("axes");
  if (im.hasInput(1) && !im.hostInts(1, &axes, "axes"))
    return false;
  std::vector<int64_t> shape;
  int64_t rank = x->shape.size();
  // Unsqueeze's axes name dimensions of its output, Squeeze's of its input.
  int64_t axesRank = unsqueeze ? rank + static_cast<int64_t>(axes.size()) : rank;
  std::vector<int64_t> normalized;
  if (!im.axes(axes, axesRank, &normalized))
    return false;
  std::vector<bool> named(axesRank, false);
  for (int64_t a : normalized) {
    if (named[a])
      return im.fail("axes name dimension " + std::to_string(a) + " twice");
    named[a] = true;
  }
  if (unsqueeze) {
    for (int64_t d = 0, k = 0; d < axesRank; ++d)
      shape.push_back(named[d] ? 1 : x->shape[k++]);
  } else {
    for (int64_t d = 0; d < rank; ++d) {
      bool drop = axes.empty() ? x->shape[d] == 1 : named[d];
      if (!drop)
        shape.push_back(x->shape[d]);
    }
  }
  return reshapeTo(im, *x, shape);
}

bool lowerTranspose(Importer &im) {
  Tensor *x = im.input(0);
  if (!x)
    return false;
  std::vector<int64_t> perm = im.attrInts("perm");
  if (perm.empty())
    for (int64_t d = x->shape.size() - 1; d >= 0; --d)
      perm.push_back(d);
  Value v = im.valueOf(*x);
  return v && define(im, im.transpose(v, perm), x->onnxType);
}

bool lowerConcat(Importer &im) {
  std::vector<Value> parts;
  int32_t type = 0;
  int64_t rank = 0;
  std::vector<int64_t> shape;
  for (int i = 0; i < im.inputCount(); ++i) {
    Tensor *t = im.input(i);
    if (!t)
      return false;
    type = t->onnxType;
    rank = t->shape.size();
    if (elementCount(t->shape) == 0)
      continue; // an empty operand adds nothing
    Value v = im.valueOf(*t);
    if (!v)
      return false;
    parts.push_back(v);
  }
  if (parts.empty())
    return im.fail("all operands are empty");
  int64_t axis = 0;
  if (!im.axis(im.attrInt("axis", 0), rank, &axis))
    return false;
  shape = shapeOf(parts[0]);
  shape[axis] = 0;
  for (Value p : parts)
    shape[axis] += shapeOf(p)[axis];
  auto resultType =
      RankedTensorType::get(shape, cast<RankedTensorType>(parts[0].getType()).getElementType());
  Value r = parts.size() == 1 ? parts[0]
                              : tosaOp(im, "tosa.concat", resultType, parts,
                                       {im.b.getNamedAttr("axis", im.b.getI32IntegerAttr(axis))});
  return define(im, r, type);
}

Value reverse(Importer &im, Value v, int64_t axis) {
  return tosaOp(im, "tosa.reverse", v.getType(), {v},
                {im.b.getNamedAttr("axis", im.b.getI32IntegerAttr(axis))});
}

// x[starts : starts + sizes * steps : steps] with positive steps.
Value slice(Importer &im, Value v, const std::vector<int64_t> &offsets,
            const std::vector<int64_t> &sizes, const std::vector<int64_t> &steps) {
  if (offsets == std::vector<int64_t>(offsets.size(), 0) && sizes == shapeOf(v))
    return v;
  return tensor::ExtractSliceOp::create(
      im.b, im.loc, v, getAsIndexOpFoldResult(im.b.getContext(), ArrayRef<int64_t>(offsets)),
      getAsIndexOpFoldResult(im.b.getContext(), ArrayRef<int64_t>(sizes)),
      getAsIndexOpFoldResult(im.b.getContext(), ArrayRef<int64_t>(steps)));
}

bool lowerSlice(Importer &im) {
  Tensor *x = im.input(0);
  if (!x)
    return false;
  std::vector<int64_t> starts, ends, axes, steps;
  if (im.opset < 10) {
    starts = im.attrInts("starts");
    ends = im.attrInts("ends");
    axes = im.attrInts("axes");
  } else if (!im.hostInts(1, &starts, "starts") || !im.hostInts(2, &ends, "ends") ||
             (im.hasInput(3) && !im.hostInts(3, &axes, "axes")) ||
             (im.hasInput(4) && !im.hostInts(4, &steps, "steps"))) {
    return false;
  }
  int64_t rank = x->shape.size();
  if (ends.size() != starts.size() || (!axes.empty() && axes.size() != starts.size()) ||
      (!steps.empty() && steps.size() != starts.size()))
    return im.fail("starts, ends, axes and steps differ in length");
  if (axes.empty())
    for (size_t k = 0; k < starts.size(); ++k)
      axes.push_back(static_cast<int64_t>(k));
  std::vector<int64_t> given = axes;
  if (!im.axes(given, rank, &axes))
    return false;
  std::vector<int64_t> offsets(rank, 0), sizes = x->shape, strides(rank, 1);
  std::vector<int64_t> reversed;
  for (size_t k = 0; k < starts.size(); ++k) {
    int64_t a = axes[k], dim = x->shape[a];
    int64_t step = steps.empty() ? 1 : steps[k], b = starts[k], e = ends[k];
    if (step == 0)
      return im.fail("a step of 0 is not allowed");
    b = b < 0 ? b + dim : b;
    e = e < 0 ? e + dim : e;
    if (step > 0) {
      b = std::clamp<int64_t>(b, 0, dim);
      e = std::clamp<int64_t>(e, 0, dim);
      sizes[a] = std::max<int64_t>(0, (e - b + step - 1) / step);
      offsets[a] = b;
    } else {
      // On the reversed axis, element i is dim - 1 - i.
      b = std::clamp<int64_t>(b, 0, dim - 1);
      e = std::clamp<int64_t>(e, -1, dim - 1);
      sizes[a] = std::max<int64_t>(0, (b - e - step - 1) / -step);
      offsets[a] = dim - 1 - b;
      reversed.push_back(a);
    }
    strides[a] = std::abs(step);
  }
  if (!checkNonEmpty(im, sizes))
    return false;
  Value v = im.valueOf(*x);
  if (!v)
    return false;
  for (int64_t a : reversed)
    v = reverse(im, v, a);
  return define(im, slice(im, v, offsets, sizes, strides), x->onnxType);
}

bool lowerSplit(Importer &im) {
  Tensor *x = im.input(0);
  if (!x)
    return false;
  int64_t rank = x->shape.size(), axis = 0;
  if (!im.axis(im.attrInt("axis", 0), rank, &axis))
    return false;
  std::vector<int64_t> sizes = im.attrInts("split");
  if (im.hasInput(1) && !im.hostInts(1, &sizes, "split"))
    return false;
  int64_t outputs = im.node->output_size(), dim = x->shape[axis];
  if (sizes.empty()) {
    int64_t each = (dim + outputs - 1) / outputs;
    for (int64_t i = 0; i < outputs; ++i)
      sizes.push_back(std::min(each, dim - i * each));
  }
  Value v = im.valueOf(*x);
  if (!v)
    return false;
  int64_t offset = 0;
  for (int64_t i = 0; i < outputs; ++i) {
    std::vector<int64_t> offsets(rank, 0), shape = x->shape, steps(rank, 1);
    offsets[axis] = offset;
    shape[axis] = sizes.at(i);
    offset += sizes[i];
    if (!checkNonEmpty(im, shape) ||
        !define(im, slice(im, v, offsets, shape, steps), x->onnxType, i))
      return false;
  }
  return true;
}

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
    for (int64_t &i : fixed.ints) {
      if (i < -k || i >= k)
        return im.fail("index " + std::to_string(i) + " is out of range for a dimension of " +
                       std::to_string(k));
      i = i < 0 ? i + k : i;
    }
    fixed.onnxType = TP::INT32;
    indices = im.constant(fixed);
  } else {
    Value raw = im.valueOf(*idx);
    if (!raw)
      return false;
    // Negative indices count from the end.
    indices = im.elementwise(
        {raw}, idx->shape, TP::INT32, [&](OpBuilder &b, Location at, ValueRange a) -> Value {
          Value zero = arith::ConstantOp::create(b, at, b.getI32IntegerAttr(0));
          Value kv = arith::ConstantOp::create(b, at, b.getI32IntegerAttr(k));
          Value neg = arith::CmpIOp::create(b, at, arith::CmpIPredicate::slt, a[0], zero);
          return arith::SelectOp::create(b, at, neg, arith::AddIOp::create(b, at, a[0], kv), a[0]);
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
  return define(im, im.reshape(g, shape), x->onnxType);
}

bool lowerExpand(Importer &im) {
  Tensor *x = im.input(0);
  std::vector<int64_t> target, shape;
  if (!x || !im.hostInts(1, &target, "shape"))
    return false;
  if (!broadcastShapes(x->shape, target, &shape))
    return im.fail("the shape does not broadcast with the input");
  Value v = im.valueOf(*x);
  if (!v || !checkNonEmpty(im, shape))
    return false;
  return define(im,
                im.elementwise({v}, shape, x->onnxType,
                               [](OpBuilder &, Location, ValueRange a) { return a[0]; }),
                x->onnxType);
}

bool lowerTile(Importer &im) {
  Tensor *x = im.input(0);
  std::vector<int64_t> repeats;
  if (!x || !im.hostInts(1, &repeats, "repeats"))
    return false;
  std::vector<int64_t> shape = x->shape;
  for (size_t d = 0; d < shape.size(); ++d)
    shape[d] *= repeats.at(d);
  Value v = im.valueOf(*x);
  if (!v || !checkNonEmpty(im, shape))
    return false;
  auto type = RankedTensorType::get(shape, cast<RankedTensorType>(v.getType()).getElementType());
  return define(im, tosaOp(im, "tosa.tile", type, {v, im.shapeConstant(repeats)}), x->onnxType);
}

// `v`'s elements [offset, offset + size) along `axis`.
Value sliceAxis(Importer &im, Value v, int64_t axis, int64_t offset, int64_t size) {
  std::vector<int64_t> shape = shapeOf(v), offsets(shape.size(), 0), ones(shape.size(), 1);
  offsets[axis] = offset;
  shape[axis] = size;
  MLIRContext *ctx = im.b.getContext();
  return tensor::ExtractSliceOp::create(im.b, im.loc, v,
                                        getAsIndexOpFoldResult(ctx, ArrayRef<int64_t>(offsets)),
                                        getAsIndexOpFoldResult(ctx, ArrayRef<int64_t>(shape)),
                                        getAsIndexOpFoldResult(ctx, ArrayRef<int64_t>(ones)));
}

Value concatAxis(Importer &im, ArrayRef<Value> parts, int64_t axis) {
  if (parts.size() == 1)
    return parts[0];
  std::vector<int64_t> shape = shapeOf(parts[0]);
  shape[axis] = 0;
  for (Value p : parts)
    shape[axis] += shapeOf(p)[axis];
  auto type =
      RankedTensorType::get(shape, cast<RankedTensorType>(parts[0].getType()).getElementType());
  return tosaOp(im, "tosa.concat", type, parts,
                {im.b.getNamedAttr("axis", im.b.getI32IntegerAttr(axis))});
}

Value reverseAxis(Importer &im, Value v, int64_t axis) {
  if (shapeOf(v)[axis] == 1)
    return v;
  return tosaOp(im, "tosa.reverse", v.getType(), {v},
                {im.b.getNamedAttr("axis", im.b.getI32IntegerAttr(axis))});
}

// `v` padded by [begin, end] (not negative) along `axis` in mode 'edge' (the
// first/last element repeated: a slice tiled) or 'reflect' (the elements
// next to the edge mirrored, the edge itself not repeated: a reversed slice;
// pads past the axis's length repeat the reflection on the padded tensor,
// as numpy's pad does).
Value padAxis(Importer &im, Value v, int64_t axis, int64_t begin, int64_t end, bool edge) {
  while (begin > 0 || end > 0) {
    int64_t n = shapeOf(v)[axis];
    SmallVector<Value> parts;
    if (edge) {
      auto tiled = [&](int64_t at, int64_t count) {
        Value one = sliceAxis(im, v, axis, at, 1);
        if (count == 1)
          return one;
        std::vector<int64_t> multiples(shapeOf(v).size(), 1), shape = shapeOf(one);
        multiples[axis] = count;
        shape[axis] = count;
        auto type =
            RankedTensorType::get(shape, cast<RankedTensorType>(v.getType()).getElementType());
        return tosaOp(im, "tosa.tile", type, {one, im.shapeConstant(multiples)});
      };
      if (begin > 0)
        parts.push_back(tiled(0, begin));
      parts.push_back(v);
      if (end > 0)
        parts.push_back(tiled(n - 1, end));
      begin = end = 0;
    } else {
      int64_t b = std::min(begin, n - 1), e = std::min(end, n - 1);
      if (b > 0)
        parts.push_back(reverseAxis(im, sliceAxis(im, v, axis, 1, b), axis));
      parts.push_back(v);
      if (e > 0)
        parts.push_back(reverseAxis(im, sliceAxis(im, v, axis, n - 1 - e, e), axis));
      begin -= b;
      end -= e;
    }
    v = concatAxis(im, parts, axis);
  }
  return v;
}

// Pad: negative pads crop first (every mode), then 'constant' is tosa.pad
// and 'edge'/'reflect' are slices (reversed for 'reflect', tiled for
// 'edge') concatenated around the input, one axis after the other.
bool lowerPad(Importer &im) {
  Tensor *x = im.input(0);
  if (!x || !im.onlyAttributes({"mode", "pads", "value"}))
    return false;
  std::string mode = im.attrString("mode", "constant");
  if (mode != "constant" && mode != "reflect" && mode != "edge")
    return im.fail("mode '" + mode + "' is not supported (supported: constant, reflect, edge)");
  std::vector<int64_t> pads = im.attrInts("pads"), axes;
  std::vector<double> value = {im.attrFloat("value", 0)};
  if (im.hasInput(1) && !im.hostInts(1, &pads, "pads"))
    return false;
  if (im.hasInput(2) && mode == "constant" && !im.hostReals(2, &value, "constant_value"))
    return false;
  if (im.hasInput(3) && !im.hostInts(3, &axes, "axes"))
    return false;
  int64_t rank = x->shape.size();
  if (axes.empty())
    for (int64_t d = 0; d < rank; ++d)
      axes.push_back(d);
  std::vector<int64_t> given = axes;
  if (!im.axes(given, rank, &axes))
    return false;
  int64_t n = axes.size();
  if (pads.size() != static_cast<size_t>(2 * n))
    return im.fail("pads has " + std::to_string(pads.size()) + " values for " + std::to_string(n) +
                   " axes (expected " + std::to_string(2 * n) + ": begins, then ends)");
  std::vector<int64_t> begin(rank, 0), end(rank, 0);
  for (int64_t k = 0; k < n; ++k) {
    if (std::set<int64_t>(axes.begin(), axes.begin() + k).count(axes[k]))
      return im.fail("axis " + std::to_string(axes[k]) + " is named twice in axes");
    begin[axes[k]] = pads[k];
    end[axes[k]] = pads[k + n];
  }
  Value v = im.valueOf(*x);
  if (!v)
    return false;
  // Negative pads: crop.
  for (int64_t a = 0; a < rank; ++a) {
    int64_t cropBegin = std::max<int64_t>(0, -begin[a]), cropEnd = std::max<int64_t>(0, -end[a]);
    if (!cropBegin && !cropEnd)
      continue;
    int64_t size = x->shape[a] - cropBegin - cropEnd;
    if (size <= 0)
      return im.fail("pads " + std::to_string(begin[a]) + ", " + std::to_string(end[a]) +
                     " remove all " + std::to_string(x->shape[a]) + " elements of axis " +
                     std::to_string(a));
    v = sliceAxis(im, v, a, cropBegin, size);
  }
  std::vector<int64_t> padding(2 * rank, 0), shape = shapeOf(v);
  bool any = false;
  for (int64_t a = 0; a < rank; ++a) {
    padding[2 * a] = std::max<int64_t>(0, begin[a]);
    padding[2 * a + 1] = std::max<int64_t>(0, end[a]);
    shape[a] += padding[2 * a] + padding[2 * a + 1];
    any = any || padding[2 * a] || padding[2 * a + 1];
    if (mode == "reflect" && (padding[2 * a] || padding[2 * a + 1]) && shapeOf(v)[a] < 2)
      return im.fail("mode 'reflect' pads axis " + std::to_string(a) + " of " +
                     std::to_string(shapeOf(v)[a]) +
                     " element (reflect needs at least 2 to mirror)");
  }
  if (!any)
    return define(im, v, x->onnxType);
  if (mode != "constant") {
    for (int64_t a = 0; a < rank; ++a)
      if (padding[2 * a] || padding[2 * a + 1])
        v = padAxis(im, v, a, padding[2 * a], padding[2 * a + 1], mode == "edge");
    return define(im, v, x->onnxType);
  }
  OnnxHostTensor fill;
  fill.shape = {1};
  fill.onnxType = x->onnxType;
  if (kindOf(x->onnxType) == Kind::Float)
    fill.reals = {value.empty() ? 0.0 : value[0]};
  else
    fill.ints = {static_cast<int64_t>(value.empty() ? 0 : value[0])};
  Value padConst = im.constant(fill);
  auto type = RankedTensorType::get(shape, cast<RankedTensorType>(v.getType()).getElementType());
  return define(im, tosaOp(im, "tosa.pad", type, {v, im.shapeConstant(padding), padConst}),
                x->onnxType);
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
      if (i < -k || i >= k)
        return im.fail("index " + std::to_string(i) + " is out of range for a dimension of " +
                       std::to_string(k));
      fixed.ints[p] += (i < 0 ? i + k : i) * stride[axis];
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
          Value zero = arith::ConstantOp::create(b, at, b.getI32IntegerAttr(0));
          Value kv = arith::ConstantOp::create(b, at, b.getI32IntegerAttr(k));
          Value sv = arith::ConstantOp::create(b, at, b.getI32IntegerAttr(step));
          Value neg = arith::CmpIOp::create(b, at, arith::CmpIPredicate::slt, a[0], zero);
          Value i =
              arith::SelectOp::create(b, at, neg, arith::AddIOp::create(b, at, a[0], kv), a[0]);
          return arith::AddIOp::create(b, at, a[1], arith::MulIOp::create(b, at, i, sv));
        });
  }
  Value data = im.valueOf(*x);
  if (!data || !indices)
    return false;
  Type element = cast<RankedTensorType>(data.getType()).getElementType();
  Value g = tosaOp(im, "tosa.gather", RankedTensorType::get({1, w, 1}, element),
                   {im.reshape(data, {1, size, 1}), im.reshape(indices, {1, w})});
  return define(im, im.reshape(g, idx->shape), x->onnxType);
}

// CumSum: a prefix sum along the axis in log2(n) steps (Hillis-Steele: add
// the tensor shifted by 1, 2, 4, ... with zeros shifted in); `exclusive`
// shifts by one first, `reverse` sums from the end (reversed around it).
bool lowerCumSum(Importer &im) {
  Tensor *x = im.input(0);
  std::vector<int64_t> axisValue;
  if (!x || !im.onlyAttributes({"exclusive", "reverse"}) || !im.hostInts(1, &axisValue, "axis"))
    return false;
  if (axisValue.size() != 1)
    return im.fail("axis has " + std::to_string(axisValue.size()) +
                   " values (expected one: a scalar)");
  int64_t rank = x->shape.size(), axis = 0;
  if (!im.axis(axisValue[0], rank, &axis))
    return false;
  if (kindOf(x->onnxType) == Kind::Bool)
    return im.fail("supported for numeric tensors only (not BOOL)");
  if (!checkNonEmpty(im, x->shape))
    return false;
  Value v = im.valueOf(*x);
  if (!v)
    return false;
  bool exclusive = im.attrInt("exclusive", 0), reverse = im.attrInt("reverse", 0);
  int64_t n = x->shape[axis];
  auto shifted = [&](Value t, int64_t by) -> Value {
    std::vector<int64_t> zshape = shapeOf(t);
    zshape[axis] = std::min(by, n);
    auto type = RankedTensorType::get(zshape, cast<RankedTensorType>(t.getType()).getElementType());
    Value zeros = arith::ConstantOp::create(
        im.b, im.loc, type, DenseElementsAttr::get(type, im.b.getZeroAttr(type.getElementType())));
    if (by >= n)
      return zeros;
    return concatAxis(im, {zeros, sliceAxis(im, t, axis, 0, n - by)}, axis);
  };
  if (reverse)
    v = reverseAxis(im, v, axis);
  if (exclusive)
    v = shifted(v, 1);
  for (int64_t by = 1; by < n; by *= 2)
    v = tosaOp(im, "tosa.add", v.getType(), {v, shifted(v, by)});
  if (reverse)
    v = reverseAxis(im, v, axis);
  return define(im, v, x->onnxType);
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
    v = reverse(im, v, axis);
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
  return define(im, r, TP::INT64);
}

bool lowerDropout(Importer &im) {
  Tensor *x = im.input(0);
  if (!x)
    return false;
  std::vector<int64_t> training;
  if (im.hasInput(2) &&
      (!im.hostInts(2, &training, "training_mode") || (!training.empty() && training[0])))
    return im.error.empty() ? im.fail("training_mode = true is not supported") : false;
  im.define(0, *x);
  if (im.node->output_size() > 1 && !im.node->output(1).empty()) {
    // Inference keeps every element: the mask is all true.
    OnnxHostTensor mask;
    mask.shape = x->shape;
    mask.onnxType = TP::BOOL;
    mask.ints.assign(elementCount(x->shape), 1);
    im.define(1, Tensor{{}, x->shape, TP::BOOL, mask});
  }
  return true;
}

// DepthToSpace (DCR / CRD) and SpaceToDepth: a reshape to 6-D, a transpose,
// and a reshape back.
bool lowerDepthSpace(Importer &im) {
  Tensor *x = im.input(0);
  if (!x)
    return false;
  if (x->shape.size() != 4)
    return im.fail("supported for 4-D inputs only");
  int64_t bs = im.attrInt("blocksize", 1), n = x->shape[0], c = x->shape[1], h = x->shape[2],
          w = x->shape[3];
  Value v = im.valueOf(*x);
  if (!v)
    return false;
  Value r;
  if (im.node->op_type() == "DepthToSpace") {
    bool crd = im.attrString("mode", "DCR") == "CRD";
    int64_t oc = c / (bs * bs);
    if (crd) {
      r = im.transpose(im.reshape(v, {n, oc, bs, bs, h, w}), {0, 1, 4, 2, 5, 3});
    } else {
      r = im.transpose(im.reshape(v, {n, bs, bs, oc, h, w}), {0, 3, 4, 1, 5, 2});
    }
    r = im.reshape(r, {n, oc, h * bs, w * bs});
  } else {
    r = im.transpose(im.reshape(v, {n, c, h / bs, bs, w / bs, bs}), {0, 3, 5, 1, 2, 4});
    r = im.reshape(r, {n, c * bs * bs, h / bs, w / bs});
  }
  return define(im, r, x->onnxType);
}

} // namespace

std::optional<Lowering> movementLowering(const std::string &op) {
  static const std::map<std::string, Lowering> ops = {{"Reshape", lowerReshape},
                                                      {"Flatten", lowerFlatten},
                                                      {"Squeeze", lowerSqueezeLike},
                                                      {"Unsqueeze", lowerSqueezeLike},
                                                      {"Transpose", lowerTranspose},
                                                      {"Concat", lowerConcat},
                                                      {"Slice", lowerSlice},
                                                      {"Split", lowerSplit},
                                                      {"Gather", lowerGather},
                                                      {"GatherElements", lowerGatherElements},
                                                      {"CumSum", lowerCumSum},
                                                      {"Expand", lowerExpand},
                                                      {"Tile", lowerTile},
                                                      {"Pad", lowerPad},
                                                      {"ArgMax", lowerArgExtreme},
                                                      {"ArgMin", lowerArgExtreme},
                                                      {"Dropout", lowerDropout},
                                                      {"DepthToSpace", lowerDepthSpace},
                                                      {"SpaceToDepth", lowerDepthSpace}};
  auto it = ops.find(op);
  if (it == ops.end())
    return std::nullopt;
  return it->second;
}

std::string movementOps() {
  return "Reshape Flatten Squeeze Unsqueeze Transpose Concat Slice Split Gather GatherElements "
         "CumSum Expand Tile Pad "
         "ArgMax ArgMin Dropout DepthToSpace SpaceToDepth";
}

} // namespace meshvk::onnx_import

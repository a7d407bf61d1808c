//===- LowerSlicing.cpp - ONNX slices and concatenations -> tensor / tosa --===//
//
// Concat (tosa.concat), Slice and Split (tensor.extract_slice, strided;
// negative steps through tosa.reverse), Pad (constant: tosa.pad;
// reflect/edge: slices, reversed or tiled, concatenated; negative pads crop),
// CumSum (a log-step prefix sum of shifted slices).
//
//===----------------------------------------------------------------------===//
#include "Movement.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Tosa/IR/TosaOps.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"

#include <cstdint>
#include <set>

using namespace mlir;

namespace meshvk::onnx_import {
namespace {

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

} // namespace

SliceRange sliceRange(int64_t dim, int64_t start, int64_t end, int64_t step) {
  int64_t b = start < 0 ? start + dim : start, e = end < 0 ? end + dim : end;
  if (step > 0) {
    b = std::clamp<int64_t>(b, 0, dim);
    e = std::clamp<int64_t>(e, 0, dim);
    return {b, std::max<int64_t>(0, (e - b + step - 1) / step)};
  }
  b = std::clamp<int64_t>(b, 0, dim - 1);
  e = std::clamp<int64_t>(e, -1, dim - 1);
  return {b, std::max<int64_t>(0, (b - e - step - 1) / -step)};
}

bool lowerConcat(Importer &im) {
  std::vector<Value> parts;
  int32_t type = 0;
  int64_t rank = 0;
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
  return im.defineValue(0, concatAxis(im, parts, axis), type);
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
    int64_t step = steps.empty() ? 1 : steps[k];
    if (step == 0)
      return im.fail("a step of 0 is not allowed");
    SliceRange range = sliceRange(dim, starts[k], ends[k], step);
    sizes[a] = range.count;
    // On the reversed axis, element i is dim - 1 - i.
    offsets[a] = step > 0 ? range.first : dim - 1 - range.first;
    if (step < 0)
      reversed.push_back(a);
    strides[a] = std::abs(step);
  }
  if (!checkNonEmpty(im, sizes))
    return false;
  Value v = im.valueOf(*x);
  if (!v)
    return false;
  for (int64_t a : reversed)
    v = reverseAxis(im, v, a);
  return im.defineValue(0, slice(im, v, offsets, sizes, strides), x->onnxType);
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
        !im.defineValue(i, slice(im, v, offsets, shape, steps), x->onnxType))
      return false;
  }
  return true;
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
    return im.defineValue(0, v, x->onnxType);
  if (mode != "constant") {
    for (int64_t a = 0; a < rank; ++a)
      if (padding[2 * a] || padding[2 * a + 1])
        v = padAxis(im, v, a, padding[2 * a], padding[2 * a + 1], mode == "edge");
    return im.defineValue(0, v, x->onnxType);
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
  return im.defineValue(0, tosaOp(im, "tosa.pad", type, {v, im.shapeConstant(padding), padConst}),
                        x->onnxType);
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
  return im.defineValue(0, v, x->onnxType);
}

} // namespace meshvk::onnx_import

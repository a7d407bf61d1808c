//===- LowerMovement.cpp - ONNX shape and layout changes -> tosa ----------===//
//
// Reshape, Flatten, Squeeze, Unsqueeze (tosa.reshape), Transpose, Expand (a
// broadcasting copy), Tile, Dropout (inference: identity),
// DepthToSpace/SpaceToDepth (reshape + transpose); the IR helpers the
// data-movement files share and their one table (see Movement.h).
//
//===----------------------------------------------------------------------===//
#include "Movement.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Tosa/IR/TosaOps.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"

#include <cstdint>
#include <map>

using namespace mlir;

namespace meshvk::onnx_import {

bool checkNonEmpty(Importer &im, const std::vector<int64_t> &shape) {
  for (int64_t d : shape)
    if (d <= 0)
      return im.fail("an empty result (a zero-sized dimension) is not supported");
  return true;
}

Value slice(Importer &im, Value v, const std::vector<int64_t> &offsets,
            const std::vector<int64_t> &sizes, const std::vector<int64_t> &steps) {
  if (offsets == std::vector<int64_t>(offsets.size(), 0) && sizes == shapeOf(v))
    return v;
  return tensor::ExtractSliceOp::create(
      im.b, im.loc, v, getAsIndexOpFoldResult(im.b.getContext(), ArrayRef<int64_t>(offsets)),
      getAsIndexOpFoldResult(im.b.getContext(), ArrayRef<int64_t>(sizes)),
      getAsIndexOpFoldResult(im.b.getContext(), ArrayRef<int64_t>(steps)));
}

Value sliceAxis(Importer &im, Value v, int64_t axis, int64_t offset, int64_t size) {
  std::vector<int64_t> shape = shapeOf(v), offsets(shape.size(), 0), ones(shape.size(), 1);
  offsets[axis] = offset;
  shape[axis] = size;
  return slice(im, v, offsets, shape, ones);
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

namespace {

using TP = onnx::TensorProto;

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
  return im.defineValue(0, im.reshape(v, shape), x.onnxType);
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
  return v && im.defineValue(0, im.transpose(v, perm), x->onnxType);
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
  return im.defineValue(0,
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
  return im.defineValue(0, tosaOp(im, "tosa.tile", type, {v, im.shapeConstant(repeats)}),
                        x->onnxType);
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
  return im.defineValue(0, r, x->onnxType);
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

//===- LowerPools.cpp - MaxPool, AveragePool, their global forms ----------===//
//
// TOSA's pools are NHWC: the lowering transposes around them (as for Conv,
// ConvolutionWindows.h). 1-D pools are 2-D of height 1; a 3-D pool is two
// separable 2-D pools (over H, W, then over D); a dilated MaxPool (TOSA's
// pools have no dilation) is maxima of shifted slices by doubling, then a
// strided slice.
//
//===----------------------------------------------------------------------===//
#include "ConvolutionWindows.h"
#include "Importer.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Tosa/IR/TosaOps.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"

#include <limits>

using namespace mlir;

namespace meshvk::onnx_import {
namespace {
using TP = onnx::TensorProto;
} // namespace

namespace {

// The max over `kernel` taps `dilation` apart along `axis` at every start
// position of `v`: by doubling (windows of 1, 2, 4, ... taps, each the max of
// two of the previous ones) and one last max of two overlapping windows, so
// log2(kernel) + 1 elementwise maxima of shifted slices, whatever the window.
Value windowMax(Importer &im, Value v, int64_t axis, int64_t kernel, int64_t dilation) {
  auto shifted = [&](Value m, int64_t by) {
    std::vector<int64_t> s = shapeOf(m), offsets(s.size(), 0);
    s[axis] -= by;
    offsets[axis] = by;
    std::vector<int64_t> zeros(s.size(), 0);
    Value a = sliceOf(im, m, zeros, s), b = sliceOf(im, m, offsets, s);
    return tosaOp(im, "tosa.maximum", a.getType(), {a, b});
  };
  int64_t span = 1;
  for (; 2 * span <= kernel; span *= 2)
    v = shifted(v, span * dilation);
  if (span < kernel)
    v = shifted(v, (kernel - span) * dilation);
  return v;
}

// A max pool of `xin` (NHWC) with dilations, which TOSA's max_pool2d does
// not have: the input padded with f32's lowest value (as TOSA's own lowering
// pads it), the window's max at stride 1 one axis after the other (a max is
// separable; windowMax), then every stride-th output kept (a strided slice).
Value dilatedMaxPool(Importer &im, Value xin, const Window &win, RankedTensorType outType) {
  Type f32 = im.b.getF32Type();
  std::vector<int64_t> s = shapeOf(xin);
  if (win.pad[0] || win.pad[1] || win.pad[2] || win.pad[3]) {
    std::vector<int64_t> padding = {0, 0, win.pad[0], win.pad[1], win.pad[2], win.pad[3], 0, 0};
    std::vector<int64_t> padded = {s[0], s[1] + win.pad[0] + win.pad[1],
                                   s[2] + win.pad[2] + win.pad[3], s[3]};
    auto type = RankedTensorType::get({1}, f32);
    Value low = tosa::ConstOp::create(
        im.b, im.loc, type, DenseElementsAttr::get(type, -std::numeric_limits<float>::max()));
    xin = tosaOp(im, "tosa.pad", RankedTensorType::get(padded, f32),
                 {xin, im.shapeConstant(padding), low}, {});
  }
  for (int d = 0; d < 2; ++d)
    xin = windowMax(im, xin, 1 + d, win.kernel[d], win.dilation[d]);
  if (win.stride[0] == 1 && win.stride[1] == 1)
    return xin;
  MLIRContext *ctx = im.b.getContext();
  std::vector<int64_t> offsets(4, 0), strides = {1, win.stride[0], win.stride[1], 1};
  return tensor::ExtractSliceOp::create(im.b, im.loc, outType, xin,
                                        getAsIndexOpFoldResult(ctx, ArrayRef<int64_t>(offsets)),
                                        getAsIndexOpFoldResult(ctx, outType.getShape()),
                                        getAsIndexOpFoldResult(ctx, ArrayRef<int64_t>(strides)));
}

// A 2-D pool of `xin` (NHWC, the window's input crop already applied) into
// NHWC: tosa.max_pool2d / tosa.avg_pool2d, zeros padded explicitly when
// count_include_pad counts them in the mean.
Value pool2D(Importer &im, Value xin, Window win, bool isMax, bool includePad) {
  Type f32 = im.b.getF32Type();
  std::vector<int64_t> s = shapeOf(xin);
  auto outType = RankedTensorType::get({s[0], win.out[0], win.out[1], s[3]}, f32);
  if (isMax && (win.dilation[0] != 1 || win.dilation[1] != 1))
    return dilatedMaxPool(im, xin, win, outType);
  if (!isMax && includePad && (win.pad[0] || win.pad[1] || win.pad[2] || win.pad[3])) {
    // Zeros counted in the mean: pad explicitly, then pool without padding.
    std::vector<int64_t> padding = {0, 0, win.pad[0], win.pad[1], win.pad[2], win.pad[3], 0, 0};
    std::vector<int64_t> padded = {s[0], s[1] + win.pad[0] + win.pad[1],
                                   s[2] + win.pad[2] + win.pad[3], s[3]};
    auto type = RankedTensorType::get({1}, f32);
    Value zero = tosa::ConstOp::create(im.b, im.loc, type, DenseElementsAttr::get(type, 0.0f));
    xin = tosaOp(im, "tosa.pad", RankedTensorType::get(padded, f32),
                 {xin, im.shapeConstant(padding), zero}, {});
    for (int64_t &p : win.pad)
      p = 0;
  }
  std::vector<NamedAttribute> attrs = {i64s(im, "kernel", win.kernel),
                                       i64s(im, "stride", win.stride), i64s(im, "pad", win.pad)};
  if (isMax)
    return tosaOp(im, "tosa.max_pool2d", outType, {xin}, attrs);
  attrs.push_back(im.b.getNamedAttr("acc_type", TypeAttr::get(f32)));
  Value zp = im.zeroPoint(f32);
  return tosaOp(im, "tosa.avg_pool2d", outType, {xin, zp, zp}, attrs);
}

// A 3-D pool [N, C, D, H, W] as two 2-D ones, the window being separable: a
// pool over (H, W) with the depths as images ([N*D, H, W, C]), then one over
// D ([N, D, OH*OW, C], window D x 1). The max of a box is the max over D of
// the maxes over (H, W); its mean is the mean over D of the means over
// (H, W), also where padding is not counted: the count of a window's real
// elements is the product of its counts per axis.
Value pool3D(Importer &im, Value x, const std::vector<WindowAxis> &axes, bool isMax,
             bool includePad) {
  std::vector<int64_t> s = shapeOf(x);
  if (axes[0].crop || axes[1].crop || axes[2].crop)
    x = sliceOf(im, x, {0, 0, 0, 0, 0},
                {s[0], s[1], s[2] - axes[0].crop, s[3] - axes[1].crop, s[4] - axes[2].crop});
  s = shapeOf(x);
  int64_t n = s[0], c = s[1], d = s[2];
  x = im.transpose(x, {0, 2, 3, 4, 1}); // NDHWC
  x = im.reshape(x, {n * d, s[3], s[4], c});
  Window hw = window2D(axes[1], axes[2]);
  hw.cropInput[0] = hw.cropInput[1] = 0;
  Value y = pool2D(im, x, hw, isMax, includePad);
  int64_t oh = hw.out[0], ow = hw.out[1];
  y = im.reshape(y, {n, d, oh * ow, c});
  WindowAxis flat;
  flat.in = flat.out = oh * ow;
  Window depth = window2D(axes[0], flat);
  depth.cropInput[0] = 0;
  y = pool2D(im, y, depth, isMax, includePad);
  int64_t od = depth.out[0];
  y = im.reshape(y, {n, od, oh, ow, c});
  return im.transpose(y, {0, 4, 1, 2, 3});
}

} // namespace

bool lowerPool(Importer &im) {
  Tensor *tx = im.input(0);
  bool isMax = im.node->op_type() == "MaxPool";
  if (!tx || !im.onlyAttributes({"auto_pad", "ceil_mode", "count_include_pad", "dilations",
                                 "kernel_shape", "pads", "storage_order", "strides"}))
    return false;
  if (tx->onnxType != TP::FLOAT)
    return im.fail("supported for FLOAT tensors only");
  if (im.node->output_size() > 1 && !im.node->output(1).empty())
    return im.fail("the Indices output is not supported");
  size_t rank = tx->shape.size();
  if (rank < 3 || rank > 5)
    return im.fail("supported for 1-D, 2-D and 3-D pools only (input rank " + std::to_string(rank) +
                   ")");
  std::vector<int64_t> spatial(tx->shape.begin() + 2, tx->shape.end());
  if (!isMax)
    for (int64_t d : im.attrInts("dilations"))
      if (d != 1)
        return im.fail("dilations other than 1 are supported for MaxPool only");
  bool ceil = im.attrInt("ceil_mode", 0);
  if (!isMax && ceil)
    return im.fail("ceil_mode = 1 is supported for MaxPool only");
  std::vector<WindowAxis> axes;
  if (!windowAxes(im, spatial, im.attrInts("kernel_shape"), ceil, &axes))
    return false;
  Value x = im.valueOf(*tx);
  if (!x)
    return false;
  bool includePad = im.attrInt("count_include_pad", 0);
  Value r;
  if (rank == 5) {
    r = pool3D(im, x, axes, isMax, includePad);
  } else {
    if (axes.size() == 1) // 1-D: the height is the added unit dimension
      axes.insert(axes.begin(), WindowAxis{});
    Window win = window2D(axes[0], axes[1]);
    Value y = pool2D(im, toNHWC(im, x, win), win, isMax, includePad);
    r = fromNHWC(im, y, rank);
  }
  return im.defineValue(0, r, TP::FLOAT);
}

bool lowerGlobalPool(Importer &im) {
  Tensor *tx = im.input(0);
  if (!tx)
    return false;
  if (tx->onnxType != TP::FLOAT)
    return im.fail("supported for FLOAT tensors only");
  Value x = im.valueOf(*tx);
  if (!x)
    return false;
  bool isMax = im.node->op_type() == "GlobalMaxPool";
  std::vector<int64_t> shape = tx->shape;
  int64_t count = 1;
  for (size_t d = 2; d < shape.size(); ++d) {
    count *= shape[d];
    shape[d] = 1;
    x = tosaOp(im, isMax ? "tosa.reduce_max" : "tosa.reduce_sum",
               RankedTensorType::get(shape, im.b.getF32Type()), {x},
               {im.b.getNamedAttr("axis", im.b.getI32IntegerAttr(d))});
  }
  if (!isMax)
    x = im.elementwise(
        {x}, shape, TP::FLOAT, [&](OpBuilder &b, Location at, ValueRange a) -> Value {
          return arith::DivFOp::create(b, at, a[0], fconst(b, at, a[0].getType(), count));
        });
  im.define(0, Tensor{x, shape, TP::FLOAT, std::nullopt});
  return true;
}

} // namespace meshvk::onnx_import

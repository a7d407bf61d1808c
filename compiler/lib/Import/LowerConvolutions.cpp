//===- LowerConvolutions.cpp - Conv, ConvTranspose, their windows ---------===//
//
// ONNX is NCHW (OIHW weights); TOSA's conv2d and pools are NHWC (OHWI): the
// lowering transposes around them and the compiler's canonicalization folds
// transposes that meet. 1-D windows are 2-D windows of height 1. TOSA wants
// (in + pads - window) divisible by the stride: a remainder is taken off the
// trailing pad (those rows are never read) or sliced off the input.
// 3-D windows: a Conv is the sum over its depth taps of 2-D convolutions
// (the depths as images). The pools (LowerPools.cpp) share the windows
// (ConvolutionWindows.h).
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

// The window's axes of a node with `spatial` input dims and `kernel`.
bool windowAxes(Importer &im, const std::vector<int64_t> &spatial,
                const std::vector<int64_t> &kernel, bool ceil, std::vector<WindowAxis> *axes) {
  size_t n = spatial.size();
  std::vector<int64_t> strides = im.attrInts("strides"), dilations = im.attrInts("dilations"),
                       pads = im.attrInts("pads");
  auto count = [&](const char *name, const std::vector<int64_t> &v, size_t want) {
    if (v.empty() || v.size() == want)
      return true;
    return im.fail(std::string(name) + " has " + std::to_string(v.size()) + " values, expected " +
                   std::to_string(want) + " (" + (want == 2 * n ? "begins, then ends, " : "") +
                   "one per spatial axis)");
  };
  if (kernel.size() != n)
    return im.fail("kernel_shape has " + std::to_string(kernel.size()) + " values, expected " +
                   std::to_string(n) + " (one per spatial axis)");
  if (!count("strides", strides, n) || !count("dilations", dilations, n) ||
      !count("pads", pads, 2 * n))
    return false;
  std::string autoPad = im.attrString("auto_pad", "NOTSET");
  if (autoPad != "NOTSET" && autoPad != "VALID" && autoPad != "SAME_UPPER" &&
      autoPad != "SAME_LOWER")
    return im.fail("auto_pad '" + autoPad + "' is not supported");
  for (size_t i = 0; i < n; ++i) {
    WindowAxis a;
    a.in = spatial[i];
    a.kernel = kernel[i];
    a.stride = strides.empty() ? 1 : strides[i];
    a.dilation = dilations.empty() ? 1 : dilations[i];
    if (a.kernel < 1 || a.stride < 1 || a.dilation < 1)
      return im.fail("kernel, strides and dilations must be positive (spatial axis " +
                     std::to_string(i) + ")");
    int64_t eff = (a.kernel - 1) * a.dilation + 1;
    if (autoPad == "SAME_UPPER" || autoPad == "SAME_LOWER") {
      int64_t outSize = (a.in + a.stride - 1) / a.stride;
      int64_t total = std::max<int64_t>(0, (outSize - 1) * a.stride + eff - a.in);
      a.begin = autoPad == "SAME_UPPER" ? total / 2 : total - total / 2;
      a.end = total - a.begin;
    } else if (autoPad == "NOTSET" && !pads.empty()) {
      a.begin = pads[i];
      a.end = pads[i + n];
      if (a.begin < 0 || a.end < 0)
        return im.fail("negative pads are not supported (spatial axis " + std::to_string(i) + ")");
    }
    int64_t span = a.in + a.begin + a.end - eff;
    if (span < 0)
      return im.fail("the window is larger than the padded input");
    int64_t rem = span % a.stride;
    if (ceil && rem) { // one more output: pad up to it
      a.end += a.stride - rem;
      rem = 0;
    }
    if (rem <= a.end) {
      a.end -= rem;
    } else {
      a.crop = rem - a.end;
      a.end = 0;
    }
    a.out = (a.in - a.crop + a.begin + a.end - eff) / a.stride + 1;
    axes->push_back(a);
  }
  return true;
}

// The 2-D window of axes `h` and `w` (a default axis for a missing one).
Window window2D(const WindowAxis &h, const WindowAxis &w) {
  Window win;
  const WindowAxis *axes[2] = {&h, &w};
  for (int d = 0; d < 2; ++d) {
    win.kernel[d] = axes[d]->kernel;
    win.stride[d] = axes[d]->stride;
    win.dilation[d] = axes[d]->dilation;
    win.pad[2 * d] = axes[d]->begin;
    win.pad[2 * d + 1] = axes[d]->end;
    win.out[d] = axes[d]->out;
    win.cropInput[d] = axes[d]->crop;
  }
  return win;
}

bool window(Importer &im, const std::vector<int64_t> &spatial, const std::vector<int64_t> &kernel,
            bool ceil, Window *w) {
  std::vector<WindowAxis> axes;
  if (!windowAxes(im, spatial, kernel, ceil, &axes))
    return false;
  if (axes.size() == 1) // 1-D: the height is the added unit dimension
    axes.insert(axes.begin(), WindowAxis{});
  *w = window2D(axes[0], axes[1]);
  return true;
}

// x [N, C, (H,) W] -> NHWC with the window's input crop.
Value toNHWC(Importer &im, Value x, const Window &w) {
  std::vector<int64_t> s = shapeOf(x);
  if (s.size() == 3)
    x = im.reshape(x, s = {s[0], s[1], 1, s[2]});
  if (w.cropInput[0] || w.cropInput[1]) {
    SmallVector<int64_t> offsets(4, 0), sizes(s.begin(), s.end()), strides(4, 1);
    sizes[2] -= w.cropInput[0];
    sizes[3] -= w.cropInput[1];
    x = tensor::ExtractSliceOp::create(
        im.b, im.loc, x, getAsIndexOpFoldResult(im.b.getContext(), ArrayRef<int64_t>(offsets)),
        getAsIndexOpFoldResult(im.b.getContext(), ArrayRef<int64_t>(sizes)),
        getAsIndexOpFoldResult(im.b.getContext(), ArrayRef<int64_t>(strides)));
  }
  return im.transpose(x, {0, 2, 3, 1});
}

Value fromNHWC(Importer &im, Value y, size_t rank) {
  y = im.transpose(y, {0, 3, 1, 2});
  std::vector<int64_t> s = shapeOf(y);
  if (rank == 3)
    y = im.reshape(y, {s[0], s[1], s[3]});
  return y;
}

NamedAttribute i64s(Importer &im, StringRef name, ArrayRef<int64_t> v) {
  return im.b.getNamedAttr(name, im.b.getDenseI64ArrayAttr(v));
}

Value sliceOf(Importer &im, Value v, const std::vector<int64_t> &offsets,
              const std::vector<int64_t> &sizes) {
  std::vector<int64_t> ones(sizes.size(), 1);
  return tensor::ExtractSliceOp::create(
      im.b, im.loc, v, getAsIndexOpFoldResult(im.b.getContext(), ArrayRef<int64_t>(offsets)),
      getAsIndexOpFoldResult(im.b.getContext(), ArrayRef<int64_t>(sizes)),
      getAsIndexOpFoldResult(im.b.getContext(), ArrayRef<int64_t>(ones)));
}

namespace {

// The bias operand (input 2) of a Conv/ConvTranspose, or zeros.
Value biasOf(Importer &im, int64_t cout) {
  if (im.hasInput(2)) {
    Tensor *tb = im.input(2);
    return tb ? im.valueOf(*tb) : Value();
  }
  auto type = RankedTensorType::get({cout}, im.b.getF32Type());
  return arith::ConstantOp::create(im.b, im.loc, type, DenseElementsAttr::get(type, 0.0f));
}

// conv(xin, w) + bias: xin NHWC, w OIHW with I = C / group (or OHWI when
// `ohwi`: stored so at import, group 1 only), bias [O];
// an NHWC result. Depthwise convolutions are tosa.depthwise_conv2d, other
// groups one tosa.conv2d per group concatenated.
Value convNHWC(Importer &im, Value xin, Value w, Value bias, const Window &win, int64_t group,
               bool ohwi) {
  std::vector<int64_t> xs = shapeOf(xin), ws = shapeOf(w);
  int64_t n = xs[0], cin = xs[3], cout = ws[0];
  Type f32 = im.b.getF32Type();
  auto outType = RankedTensorType::get({n, win.out[0], win.out[1], cout}, f32);
  Value zp = im.zeroPoint(f32);
  std::vector<NamedAttribute> attrs = {i64s(im, "pad", win.pad), i64s(im, "stride", win.stride),
                                       i64s(im, "dilation", win.dilation),
                                       im.b.getNamedAttr("acc_type", TypeAttr::get(f32))};
  if (group == 1) {
    Value wt = ohwi ? w : im.transpose(w, {0, 2, 3, 1}); // OIHW -> OHWI
    return tosaOp(im, "tosa.conv2d", outType, {xin, wt, bias, zp, zp}, attrs);
  }
  if (group == cin && ws[1] == 1) {
    // Depthwise: OIHW with I = 1, O = C * M -> HWCM.
    int64_t m = cout / cin;
    Value wt = im.reshape(w, {cin, m, ws[2], ws[3]});
    wt = im.transpose(wt, {2, 3, 0, 1});
    return tosaOp(im, "tosa.depthwise_conv2d", outType, {xin, wt, bias, zp, zp}, attrs);
  }
  int64_t gin = cin / group, gout = cout / group;
  Value wt = im.transpose(w, {0, 2, 3, 1});
  std::vector<int64_t> wts = shapeOf(wt);
  SmallVector<Value> parts;
  auto partType = RankedTensorType::get({n, win.out[0], win.out[1], gout}, f32);
  for (int64_t g = 0; g < group; ++g) {
    Value xg = sliceOf(im, xin, {0, 0, 0, g * gin}, {xs[0], xs[1], xs[2], gin});
    Value wg = sliceOf(im, wt, {g * gout, 0, 0, 0}, {gout, wts[1], wts[2], wts[3]});
    Value bg = sliceOf(im, bias, {g * gout}, {gout});
    parts.push_back(tosaOp(im, "tosa.conv2d", partType, {xg, wg, bg, zp, zp}, attrs));
  }
  return tosaOp(im, "tosa.concat", outType, parts,
                {im.b.getNamedAttr("axis", im.b.getI32IntegerAttr(3))});
}

// The weight's shape as OIHW (the model's layout, or ConvTranspose's once
// rearranged), whether it is stored OHWI (Importer::ohwiStored).
std::vector<int64_t> oihwShape(Importer &im, const Tensor &w, bool *ohwi) {
  *ohwi = im.ohwiStored.count(im.node->input(1)) > 0;
  std::vector<int64_t> s = w.shape;
  if (!*ohwi)
    return s;
  std::vector<int64_t> oihw = {s[0], s.back()};
  oihw.insert(oihw.end(), s.begin() + 1, s.end() - 1);
  return oihw;
}

// A 1-D window's weight as a 2-D one of height 1, in its stored layout.
Value weight2D(Importer &im, Value w, bool ohwi) {
  std::vector<int64_t> s = shapeOf(w);
  if (s.size() == 4)
    return w;
  return im.reshape(w, ohwi ? std::vector<int64_t>{s[0], 1, s[1], s[2]}
                            : std::vector<int64_t>{s[0], s[1], 1, s[2]});
}

// A 3-D convolution [N, C, D, H, W] as the sum over its depth taps of 2-D
// ones: tap t reads depths od * stride + t * dilation of the depth-padded
// input (a strided slice), the depths as images ([N*OD, H, W, C]), with the
// weight's slice [O, I, t] (convNHWC: groups and depthwise as in 2-D); the
// bias is added by tap 0 only.
Value conv3D(Importer &im, Value x, Value w, Value bias, const std::vector<WindowAxis> &axes,
             int64_t group) {
  Type f32 = im.b.getF32Type();
  std::vector<int64_t> s = shapeOf(x), ws = shapeOf(w);
  if (axes[0].crop || axes[1].crop || axes[2].crop)
    x = sliceOf(im, x, {0, 0, 0, 0, 0},
                {s[0], s[1], s[2] - axes[0].crop, s[3] - axes[1].crop, s[4] - axes[2].crop});
  s = shapeOf(x);
  const WindowAxis &depth = axes[0];
  if (depth.begin || depth.end) {
    std::vector<int64_t> padding = {0, 0, 0, 0, depth.begin, depth.end, 0, 0, 0, 0};
    std::vector<int64_t> padded = s;
    padded[2] += depth.begin + depth.end;
    auto type = RankedTensorType::get({1}, f32);
    Value zero = tosa::ConstOp::create(im.b, im.loc, type, DenseElementsAttr::get(type, 0.0f));
    x = tosaOp(im, "tosa.pad", RankedTensorType::get(padded, f32),
               {x, im.shapeConstant(padding), zero}, {});
    s = padded;
  }
  x = im.transpose(x, {0, 2, 3, 4, 1}); // NDHWC
  int64_t n = s[0], c = s[1], od = depth.out, cout = ws[0];
  Window hw = window2D(axes[1], axes[2]);
  hw.cropInput[0] = hw.cropInput[1] = 0;
  auto zeros = RankedTensorType::get({cout}, f32);
  Value noBias =
      arith::ConstantOp::create(im.b, im.loc, zeros, DenseElementsAttr::get(zeros, 0.0f));
  MLIRContext *ctx = im.b.getContext();
  Value sum;
  for (int64_t t = 0; t < depth.kernel; ++t) {
    std::vector<int64_t> offsets = {0, t * depth.dilation, 0, 0, 0}, sizes = {n, od, s[3], s[4], c},
                         strides = {1, depth.stride, 1, 1, 1};
    auto type = RankedTensorType::get(sizes, f32);
    Value xt = tensor::ExtractSliceOp::create(
        im.b, im.loc, type, x, getAsIndexOpFoldResult(ctx, ArrayRef<int64_t>(offsets)),
        getAsIndexOpFoldResult(ctx, ArrayRef<int64_t>(sizes)),
        getAsIndexOpFoldResult(ctx, ArrayRef<int64_t>(strides)));
    xt = im.reshape(xt, {n * od, s[3], s[4], c});
    Value wt = sliceOf(im, w, {0, 0, t, 0, 0}, {ws[0], ws[1], 1, ws[3], ws[4]});
    wt = im.reshape(wt, {ws[0], ws[1], ws[3], ws[4]});
    Value y = convNHWC(im, xt, wt, t == 0 ? bias : noBias, hw, group, false);
    sum = sum ? tosaOp(im, "tosa.add", y.getType(), {sum, y}) : y;
  }
  sum = im.reshape(sum, {n, od, hw.out[0], hw.out[1], cout});
  return im.transpose(sum, {0, 4, 1, 2, 3});
}

} // namespace

bool lowerConvolutions(Importer &im) {
  Tensor *tx = im.input(0), *tw = im.input(1);
  if (!tx || !tw ||
      !im.onlyAttributes({"auto_pad", "dilations", "group", "kernel_shape", "pads", "strides"}))
    return false;
  if (tx->onnxType != TP::FLOAT)
    return im.fail("supported for FLOAT tensors only");
  size_t rank = tx->shape.size();
  if (rank < 3 || rank > 5)
    return im.fail("supported for 1-D, 2-D and 3-D convolutions only (input rank " +
                   std::to_string(rank) + ")");
  Value x = im.valueOf(*tx), w = im.valueOf(*tw);
  if (!x || !w)
    return false;
  bool ohwi = false;
  std::vector<int64_t> ws = oihwShape(im, *tw, &ohwi);
  if (ws.size() != rank)
    return im.fail("a weight of rank " + std::to_string(ws.size()) + " for an input of rank " +
                   std::to_string(rank) + " (expected OUT x IN/group x KERNEL)");
  std::vector<int64_t> spatial(tx->shape.begin() + 2, tx->shape.end()),
      kernel(ws.begin() + 2, ws.end());
  std::vector<int64_t> kernelShape = im.attrInts("kernel_shape");
  if (!kernelShape.empty() && kernelShape != kernel)
    return im.fail("kernel_shape " + shapeText(kernelShape) + " differs from the weight's window " +
                   shapeText(kernel));
  int64_t group = im.attrInt("group", 1), cin = tx->shape[1], cout = ws[0];
  if (group < 1 || cin % group != 0 || cout % group != 0 || ws[1] != cin / group)
    return im.fail("group = " + std::to_string(group) + " does not divide the channels evenly");
  Value bias = biasOf(im, cout);
  if (!bias)
    return false;
  if (rank == 5) {
    std::vector<WindowAxis> axes;
    if (!windowAxes(im, spatial, kernel, false, &axes))
      return false;
    Value r = conv3D(im, x, w, bias, axes, group);
    return im.defineValue(0, r, TP::FLOAT);
  }
  Window win;
  if (!window(im, spatial, kernel, false, &win))
    return false;
  Value y = convNHWC(im, toNHWC(im, x, win), weight2D(im, w, ohwi), bias, win, group, ohwi);
  Value r = fromNHWC(im, y, rank);
  return im.defineValue(0, r, TP::FLOAT);
}

void convTransposeWeightAsConv(OnnxHostTensor &t, int64_t group) {
  const int64_t cin = t.shape[0], outPerGroup = t.shape[1], inPerGroup = cin / group;
  int64_t window = 1;
  for (size_t d = 2; d < t.shape.size(); ++d)
    window *= t.shape[d];
  auto rearrange = [&](auto &data) {
    if (data.size() != static_cast<size_t>(cin * outPerGroup * window))
      return;
    auto out = data;
    for (int64_t c = 0; c < cin; ++c)
      for (int64_t o = 0; o < outPerGroup; ++o)
        for (int64_t k = 0; k < window; ++k) {
          int64_t g = c / inPerGroup, i = c % inPerGroup;
          // Flipping every spatial axis reverses the flattened window.
          out[((g * outPerGroup + o) * inPerGroup + i) * window + (window - 1 - k)] =
              data[(c * outPerGroup + o) * window + k];
        }
    data = std::move(out);
  };
  rearrange(t.reals);
  rearrange(t.ints);
  t.shape[0] = group * outPerGroup;
  t.shape[1] = inPerGroup;
}

namespace {

// The same rearrangement on the device, for a weight computed at run time:
// w [C, O/g, kh, kw] -> [O, C/g, kh, kw], the window reversed.
Value convTransposeWeightOnDevice(Importer &im, Value w, int64_t group) {
  std::vector<int64_t> ws = shapeOf(w);
  int64_t inPerGroup = ws[0] / group;
  w = im.reshape(w, {group, inPerGroup, ws[1], ws[2], ws[3]});
  w = im.transpose(w, {0, 2, 1, 3, 4});
  w = im.reshape(w, {group * ws[1], inPerGroup, ws[2], ws[3]});
  for (int64_t axis : {2, 3})
    if (ws[axis] > 1)
      w = tosaOp(im, "tosa.reverse", w.getType(), {w},
                 {im.b.getNamedAttr("axis", im.b.getI32IntegerAttr(axis))});
  return w;
}

int64_t floorHalf(int64_t v) { return v >= 0 ? v / 2 : -((-v + 1) / 2); }

// One spatial axis of a ConvTranspose: the output size and the zero padding
// [lo, hi] of the stride-dilated input ((in - 1) * stride + 1 elements) that
// a stride-1 convolution with the flipped window reads. Negative: cropped.
struct TransposedAxis {
  int64_t in = 1, kernel = 1, stride = 1, dilation = 1, lo = 0, hi = 0, out = 1;
};

// The attribute `name` with one value per spatial axis (`count` of them,
// `fill` when absent); false with the error otherwise.
bool perAxis(Importer &im, const char *name, size_t count, int64_t fill,
             std::vector<int64_t> *out) {
  *out = im.attrInts(name);
  if (out->empty() && !im.attr(name))
    out->assign(count, fill);
  if (out->size() != count)
    return im.fail(
        std::string(name) + " has " + std::to_string(out->size()) + " values, expected " +
        std::to_string(count) + " (one per spatial axis" +
        (count == 2 * (count / 2) && std::string(name) == "pads" ? ", begins then ends" : "") +
        ")");
  return true;
}

bool transposedAxes(Importer &im, const std::vector<int64_t> &spatial,
                    const std::vector<int64_t> &kernel, std::vector<TransposedAxis> *axes) {
  size_t n = spatial.size();
  std::vector<int64_t> strides, dilations, outputPadding, pads,
      outputShape = im.attrInts("output_shape");
  if (!perAxis(im, "strides", n, 1, &strides) || !perAxis(im, "dilations", n, 1, &dilations) ||
      !perAxis(im, "output_padding", n, 0, &outputPadding) || !perAxis(im, "pads", 2 * n, 0, &pads))
    return false;
  if (outputShape.size() == n + 2) // the whole output shape: its spatial part
    outputShape.erase(outputShape.begin(), outputShape.begin() + 2);
  if (!outputShape.empty() && outputShape.size() != n)
    return im.fail("output_shape has " + std::to_string(outputShape.size()) + " values, expected " +
                   std::to_string(n) + " (one per spatial axis)");
  std::string autoPad = im.attrString("auto_pad", "NOTSET");
  if (autoPad != "NOTSET" && autoPad != "VALID" && autoPad != "SAME_UPPER" &&
      autoPad != "SAME_LOWER")
    return im.fail("auto_pad '" + autoPad +
                   "' is not supported (NOTSET, VALID, SAME_UPPER, SAME_LOWER)");
  for (size_t i = 0; i < n; ++i) {
    TransposedAxis a;
    a.in = spatial[i], a.kernel = kernel[i], a.stride = strides[i], a.dilation = dilations[i];
    if (a.stride < 1 || a.dilation < 1 || outputPadding[i] < 0)
      return im.fail("strides and dilations must be positive and output_padding not negative "
                     "(spatial axis " +
                     std::to_string(i) + ")");
    int64_t eff = (a.kernel - 1) * a.dilation + 1;
    int64_t natural = a.stride * (a.in - 1) + outputPadding[i] + eff;
    int64_t begin = 0, end = 0;
    bool same = autoPad == "SAME_UPPER" || autoPad == "SAME_LOWER";
    if (!outputShape.empty() || same) {
      // The ONNX spec: total = natural - output; SAME_UPPER puts the smaller
      // half first, every other mode the smaller half last.
      int64_t total = natural - (outputShape.empty() ? a.in * a.stride : outputShape[i]);
      if (autoPad == "SAME_UPPER") {
        begin = floorHalf(total);
        end = total - begin;
      } else {
        end = floorHalf(total);
        begin = total - end;
      }
    } else if (autoPad == "NOTSET") {
      begin = pads[i];
      end = pads[i + n];
    }
    a.out = natural - begin - end;
    if (a.out < 1)
      return im.fail("the output has " + std::to_string(a.out) + " elements along spatial axis " +
                     std::to_string(i) +
                     " (pads remove more than the transposed convolution makes)");
    a.lo = eff - 1 - begin;
    a.hi = eff - 1 - end + outputPadding[i];
    axes->push_back(a);
  }
  return true;
}

// x [N, C, H, W] with (stride - 1) zeros between its pixels, then padded by
// [lo, hi] (negative: cropped); NHWC.
Value dilateAndPad(Importer &im, Value x, TransposedAxis axes[2]) {
  std::vector<int64_t> s = shapeOf(x);
  int64_t sh = axes[0].stride, sw = axes[1].stride;
  int64_t hi[2] = {axes[0].hi, axes[1].hi};
  if (sh > 1 || sw > 1) {
    x = im.reshape(x, {s[0], s[1], s[2], 1, s[3], 1});
    std::vector<int64_t> padding = {0, 0, 0, 0, 0, 0, 0, sh - 1, 0, 0, 0, sw - 1};
    auto type = RankedTensorType::get({1}, im.b.getF32Type());
    Value zero = tosa::ConstOp::create(im.b, im.loc, type, DenseElementsAttr::get(type, 0.0f));
    x = tosaOp(im, "tosa.pad",
               RankedTensorType::get({s[0], s[1], s[2], sh, s[3], sw}, im.b.getF32Type()),
               {x, im.shapeConstant(padding), zero}, {});
    x = im.reshape(x, s = {s[0], s[1], s[2] * sh, s[3] * sw});
    hi[0] -= sh - 1; // the trailing zeros of the last pixel are padding
    hi[1] -= sw - 1;
  }
  std::vector<int64_t> offsets = {0, 0, std::max<int64_t>(0, -axes[0].lo),
                                  std::max<int64_t>(0, -axes[1].lo)};
  std::vector<int64_t> sizes = {s[0], s[1], s[2] - offsets[2] - std::max<int64_t>(0, -hi[0]),
                                s[3] - offsets[3] - std::max<int64_t>(0, -hi[1])};
  if (sizes != s)
    x = sliceOf(im, x, offsets, sizes);
  for (int d = 0; d < 2; ++d) {
    axes[d].lo = std::max<int64_t>(0, axes[d].lo);
    axes[d].hi = std::max<int64_t>(0, hi[d]);
  }
  return im.transpose(x, {0, 2, 3, 1});
}

} // namespace

// ConvTranspose as the convolution it is the gradient of: the input
// dilated by the strides (zeros between pixels) and padded by
// dilation * (kernel - 1) - pads (+ output_padding at the end), convolved
// at stride 1 with the window flipped and the channel roles swapped per group.
bool lowerConvTranspose(Importer &im) {
  Tensor *tx = im.input(0), *tw = im.input(1);
  if (!tx || !tw ||
      !im.onlyAttributes({"auto_pad", "dilations", "group", "kernel_shape", "output_padding",
                          "output_shape", "pads", "strides"}))
    return false;
  if (tx->onnxType != TP::FLOAT)
    return im.fail("supported for FLOAT tensors only");
  size_t rank = tx->shape.size();
  if (rank != 3 && rank != 4)
    return im.fail("supported for 1-D and 2-D transposed convolutions only (input rank " +
                   std::to_string(rank) + ")");
  bool stored = im.convTransposeStored.count(im.node->input(1)), ohwi = false;
  int64_t group = im.attrInt("group", 1), cin = tx->shape[1];
  std::vector<int64_t> ws = oihwShape(im, *tw, &ohwi);
  int64_t weightIn = ws.size() == rank ? (stored ? ws[1] * group : ws[0]) : -1;
  if (group < 1 || cin % group != 0 || weightIn != cin) {
    std::vector<int64_t> asStored = ws; // the model's layout [C, O/group, k...]
    if (stored)
      asStored[0] = ws[1] * group, asStored[1] = ws[0] / group;
    return im.fail("a weight of shape " + shapeText(asStored) + " does not fit an input of " +
                   std::to_string(cin) + " channels with group = " + std::to_string(group) +
                   " (expected " + std::to_string(cin) + "x(OUT/group)xKERNEL)");
  }
  int64_t cout = stored ? ws[0] : ws[1] * group;
  std::vector<int64_t> spatial(tx->shape.begin() + 2, tx->shape.end()),
      kernel(ws.begin() + 2, ws.end());
  std::vector<int64_t> kernelShape = im.attrInts("kernel_shape");
  if (!kernelShape.empty() && kernelShape != kernel)
    return im.fail("kernel_shape " + shapeText(kernelShape) + " differs from the weight's window " +
                   shapeText(kernel));
  std::vector<TransposedAxis> axes;
  if (!transposedAxes(im, spatial, kernel, &axes))
    return false;
  if (rank == 3)
    axes.insert(axes.begin(), TransposedAxis{});
  Value x = im.valueOf(*tx), w = im.valueOf(*tw), bias = biasOf(im, cout);
  if (!x || !w || !bias)
    return false;
  if (rank == 3)
    x = im.reshape(x, {tx->shape[0], cin, 1, tx->shape[2]});
  w = weight2D(im, w, ohwi);
  if (!stored)
    w = convTransposeWeightOnDevice(im, w, group);
  Value xin = dilateAndPad(im, x, axes.data());
  Window win;
  for (int d = 0; d < 2; ++d) {
    win.kernel[d] = axes[d].kernel;
    win.dilation[d] = axes[d].dilation;
    win.pad[2 * d] = axes[d].lo;
    win.pad[2 * d + 1] = axes[d].hi;
    win.out[d] = axes[d].out;
  }
  Value y = convNHWC(im, xin, w, bias, win, group, ohwi);
  Value r = fromNHWC(im, y, rank);
  return im.defineValue(0, r, TP::FLOAT);
}

} // namespace meshvk::onnx_import

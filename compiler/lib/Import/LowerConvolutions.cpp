//===- LowerConvolutions.cpp - Conv, pools, normalizations -----------------===//
//
// ONNX is NCHW (OIHW weights); TOSA's conv2d and pools are NHWC (OHWI): the
// lowering transposes around them and the compiler's canonicalization folds
// transposes that meet. 1-D windows are 2-D windows of height 1. TOSA wants
// (in + pads - window) divisible by the stride: a remainder is taken off the
// trailing pad (those rows are never read) or sliced off the input.
//
//===----------------------------------------------------------------------===//
#include "Importer.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Tosa/IR/TosaOps.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"

using namespace mlir;

namespace meshvk::onnx_import {
namespace {

using TP = onnx::TensorProto;

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

// The 2-D window of a Conv/Pool node: kernel, strides, dilations and TOSA
// pads [top, bottom, left, right], with auto_pad and ceil_mode applied.
struct Window {
  int64_t kernel[2] = {1, 1}, stride[2] = {1, 1}, dilation[2] = {1, 1};
  int64_t pad[4] = {0, 0, 0, 0};
  int64_t out[2] = {1, 1};
  int64_t cropInput[2] = {0, 0}; // trailing rows/cols sliced off the input
};

bool window(Importer &im, const std::vector<int64_t> &spatial, const std::vector<int64_t> &kernel,
            bool ceil, Window *w) {
  size_t n = spatial.size();
  std::vector<int64_t> strides = im.attrInts("strides"), dilations = im.attrInts("dilations"),
                       pads = im.attrInts("pads");
  std::string autoPad = im.attrString("auto_pad", "NOTSET");
  size_t off = 2 - n; // 1-D: the height is the added unit dimension
  for (size_t i = 0; i < n; ++i) {
    w->kernel[off + i] = kernel[i];
    w->stride[off + i] = strides.empty() ? 1 : strides[i];
    w->dilation[off + i] = dilations.empty() ? 1 : dilations[i];
  }
  int64_t in[2] = {1, 1};
  for (size_t i = 0; i < n; ++i)
    in[off + i] = spatial[i];
  for (int d = 0; d < 2; ++d) {
    int64_t eff = (w->kernel[d] - 1) * w->dilation[d] + 1;
    int64_t begin = 0, end = 0;
    if (autoPad == "SAME_UPPER" || autoPad == "SAME_LOWER") {
      int64_t outSize = (in[d] + w->stride[d] - 1) / w->stride[d];
      int64_t total = std::max<int64_t>(0, (outSize - 1) * w->stride[d] + eff - in[d]);
      begin = autoPad == "SAME_UPPER" ? total / 2 : total - total / 2;
      end = total - begin;
    } else if (autoPad == "NOTSET" && d >= static_cast<int>(off) && !pads.empty()) {
      begin = pads[d - off];
      end = pads[d - off + n];
    } else if (autoPad != "NOTSET" && autoPad != "VALID") {
      return im.fail("auto_pad '" + autoPad + "' is not supported");
    }
    int64_t span = in[d] + begin + end - eff;
    if (span < 0)
      return im.fail("the window is larger than the padded input");
    int64_t rem = span % w->stride[d];
    if (ceil && rem) { // one more output: pad up to it
      end += w->stride[d] - rem;
      rem = 0;
    }
    if (rem <= end) {
      end -= rem;
    } else {
      w->cropInput[d] = rem - end;
      end = 0;
    }
    w->pad[2 * d] = begin;
    w->pad[2 * d + 1] = end;
    w->out[d] = (in[d] - w->cropInput[d] + begin + end - eff) / w->stride[d] + 1;
  }
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

} // namespace

bool lowerConvolutions(Importer &im) {
  Tensor *tx = im.input(0), *tw = im.input(1);
  if (!tx || !tw ||
      !im.onlyAttributes({"auto_pad", "dilations", "group", "kernel_shape", "pads", "strides"}))
    return false;
  if (tx->onnxType != TP::FLOAT)
    return im.fail("supported for FLOAT tensors only");
  size_t rank = tx->shape.size();
  if (rank != 3 && rank != 4)
    return im.fail("supported for 1-D and 2-D convolutions only (input rank " +
                   std::to_string(rank) + ")");
  Value x = im.valueOf(*tx), w = im.valueOf(*tw);
  if (!x || !w)
    return false;
  std::vector<int64_t> ws = tw->shape;
  std::vector<int64_t> spatial(tx->shape.begin() + 2, tx->shape.end()),
      kernel(ws.begin() + 2, ws.end());
  Window win;
  if (!window(im, spatial, kernel, false, &win))
    return false;
  int64_t group = im.attrInt("group", 1), cin = tx->shape[1], cout = ws[0];
  Type f32 = im.b.getF32Type();
  Value bias;
  if (im.hasInput(2)) {
    Tensor *tb = im.input(2);
    bias = tb ? im.valueOf(*tb) : Value();
    if (!bias)
      return false;
  } else {
    auto type = RankedTensorType::get({cout}, f32);
    bias = arith::ConstantOp::create(im.b, im.loc, type, DenseElementsAttr::get(type, 0.0f));
  }
  if (rank == 3)
    w = im.reshape(w, ws = {ws[0], ws[1], 1, ws[2]});
  Value xin = toNHWC(im, x, win);
  int64_t n = tx->shape[0];
  auto outType = RankedTensorType::get({n, win.out[0], win.out[1], cout}, f32);
  Value zp = im.zeroPoint(f32);
  std::vector<NamedAttribute> attrs = {i64s(im, "pad", win.pad), i64s(im, "stride", win.stride),
                                       i64s(im, "dilation", win.dilation),
                                       im.b.getNamedAttr("acc_type", TypeAttr::get(f32))};
  Value y;
  if (group == 1) {
    Value wt = im.transpose(w, {0, 2, 3, 1}); // OIHW -> OHWI
    y = tosaOp(im, "tosa.conv2d", outType, {xin, wt, bias, zp, zp}, attrs);
  } else if (group == cin && ws[1] == 1) {
    // Depthwise: OIHW with I = 1, O = C * M -> HWCM.
    int64_t m = cout / cin;
    Value wt = im.reshape(w, {cin, m, ws[2], ws[3]});
    wt = im.transpose(wt, {2, 3, 0, 1});
    y = tosaOp(im, "tosa.depthwise_conv2d", outType, {xin, wt, bias, zp, zp}, attrs);
  } else if (cin % group == 0 && cout % group == 0 && ws[1] == cin / group) {
    // Grouped: one conv2d per group on its channel slices, concatenated.
    int64_t gin = cin / group, gout = cout / group;
    std::vector<int64_t> xs = shapeOf(xin);
    Value wt = im.transpose(w, {0, 2, 3, 1});
    std::vector<int64_t> wts = shapeOf(wt);
    auto sliceOf = [&](Value v, std::vector<int64_t> offsets, std::vector<int64_t> sizes) -> Value {
      std::vector<int64_t> ones(sizes.size(), 1);
      return tensor::ExtractSliceOp::create(
          im.b, im.loc, v, getAsIndexOpFoldResult(im.b.getContext(), ArrayRef<int64_t>(offsets)),
          getAsIndexOpFoldResult(im.b.getContext(), ArrayRef<int64_t>(sizes)),
          getAsIndexOpFoldResult(im.b.getContext(), ArrayRef<int64_t>(ones)));
    };
    SmallVector<Value> parts;
    auto partType = RankedTensorType::get({n, win.out[0], win.out[1], gout}, f32);
    for (int64_t g = 0; g < group; ++g) {
      Value xg = sliceOf(xin, {0, 0, 0, g * gin}, {xs[0], xs[1], xs[2], gin});
      Value wg = sliceOf(wt, {g * gout, 0, 0, 0}, {gout, wts[1], wts[2], wts[3]});
      Value bg = sliceOf(bias, {g * gout}, {gout});
      parts.push_back(tosaOp(im, "tosa.conv2d", partType, {xg, wg, bg, zp, zp}, attrs));
    }
    y = tosaOp(im, "tosa.concat", outType, parts,
               {im.b.getNamedAttr("axis", im.b.getI32IntegerAttr(3))});
  } else {
    return im.fail("group = " + std::to_string(group) + " does not divide the channels evenly");
  }
  Value r = fromNHWC(im, y, rank);
  im.define(0, Tensor{r, shapeOf(r), TP::FLOAT, std::nullopt});
  return true;
}

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
  if (rank != 3 && rank != 4)
    return im.fail("supported for 1-D and 2-D pools only");
  for (int64_t d : im.attrInts("dilations"))
    if (d != 1)
      return im.fail("dilations other than 1 are not supported");
  std::vector<int64_t> spatial(tx->shape.begin() + 2, tx->shape.end());
  Window win;
  bool ceil = im.attrInt("ceil_mode", 0);
  if (!isMax && ceil)
    return im.fail("ceil_mode = 1 is supported for MaxPool only");
  if (!window(im, spatial, im.attrInts("kernel_shape"), ceil, &win))
    return false;
  Value x = im.valueOf(*tx);
  if (!x)
    return false;
  Value xin = toNHWC(im, x, win);
  Type f32 = im.b.getF32Type();
  bool includePad = im.attrInt("count_include_pad", 0);
  if (!isMax && includePad && (win.pad[0] || win.pad[1] || win.pad[2] || win.pad[3])) {
    // Zeros counted in the mean: pad explicitly, then pool without padding.
    std::vector<int64_t> s = shapeOf(xin);
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
  auto outType = RankedTensorType::get({tx->shape[0], win.out[0], win.out[1], tx->shape[1]}, f32);
  std::vector<NamedAttribute> attrs = {i64s(im, "kernel", win.kernel),
                                       i64s(im, "stride", win.stride), i64s(im, "pad", win.pad)};
  Value y;
  if (isMax) {
    y = tosaOp(im, "tosa.max_pool2d", outType, {xin}, attrs);
  } else {
    attrs.push_back(im.b.getNamedAttr("acc_type", TypeAttr::get(f32)));
    Value zp = im.zeroPoint(f32);
    y = tosaOp(im, "tosa.avg_pool2d", outType, {xin, zp, zp}, attrs);
  }
  Value r = fromNHWC(im, y, rank);
  im.define(0, Tensor{r, shapeOf(r), TP::FLOAT, std::nullopt});
  return true;
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

namespace {

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
      im.define(1, Tensor{mean, shapeOf(mean), TP::FLOAT, std::nullopt});
      im.define(2, Tensor{invStd, shapeOf(invStd), TP::FLOAT, std::nullopt});
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

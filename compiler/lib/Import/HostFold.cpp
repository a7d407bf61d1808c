//===- HostFold.cpp - shape subgraphs evaluated at import ------------------===//
//
// What torch.onnx.export emits for .view/.flatten/.expand (Shape, Gather,
// Concat, Unsqueeze, ConstantOfShape, Range, Expand, integer arithmetic on
// them) is computed here on the host when every operand is known, so the
// device program sees static shapes. Float tensors are only moved (reshaped,
// sliced, concatenated), never computed on, so no result depends on host
// floating-point arithmetic.
//
//===----------------------------------------------------------------------===//
#include "Importer.h"
#include "Movement.h"

#include <cmath>
#include <set>

namespace meshvk::onnx_import {
namespace {

using TP = onnx::TensorProto;
constexpr int64_t kMaxFoldElements = 1 << 16;

std::vector<int64_t> strides(const std::vector<int64_t> &shape) {
  std::vector<int64_t> s(shape.size(), 1);
  for (int64_t i = static_cast<int64_t>(shape.size()) - 2; i >= 0; --i)
    s[i] = s[i + 1] * shape[i + 1];
  return s;
}

// The flat index into a tensor of `shape` (right-aligned, broadcast) of the
// output multi-index `index`.
int64_t broadcastOffset(const std::vector<int64_t> &shape, const std::vector<int64_t> &index) {
  std::vector<int64_t> st = strides(shape);
  size_t offset = index.size() - shape.size();
  int64_t flat = 0;
  for (size_t d = 0; d < shape.size(); ++d)
    if (shape[d] != 1)
      flat += index[d + offset] * st[d];
  return flat;
}

void unflatten(int64_t flat, const std::vector<int64_t> &shape, std::vector<int64_t> *index) {
  index->assign(shape.size(), 0);
  for (int64_t d = static_cast<int64_t>(shape.size()) - 1; d >= 0; --d) {
    (*index)[d] = flat % shape[d];
    flat /= shape[d];
  }
}

bool isFloat(const OnnxHostTensor &t) { return kindOf(t.onnxType) == Kind::Float; }

// Shape's start/end: clamped to 0..rank by the op's definition, never refused.
int64_t clampedAxis(int64_t axis, int64_t rank) { return axis < 0 ? axis + rank : axis; }
double real(const OnnxHostTensor &t, int64_t i) { return isFloat(t) ? t.reals[i] : t.ints[i]; }

// Moves elements: out[i] = in[source(i)] for the output's flat indices.
OnnxHostTensor gatherElements(const OnnxHostTensor &in, const std::vector<int64_t> &shape,
                              const std::function<int64_t(const std::vector<int64_t> &)> &source) {
  OnnxHostTensor out;
  out.shape = shape;
  out.onnxType = in.onnxType;
  std::vector<int64_t> index;
  for (int64_t i = 0, n = elementCount(shape); i < n; ++i) {
    unflatten(i, shape, &index);
    int64_t s = source(index);
    if (isFloat(in))
      out.reals.push_back(in.reals[s]);
    else
      out.ints.push_back(in.ints[s]);
  }
  return out;
}

// Integer (and bool) elementwise ops, numpy-broadcast.
bool foldIntegerElementwise(Importer &im, const std::string &op,
                            const std::vector<const OnnxHostTensor *> &in, OnnxHostTensor *out) {
  static const std::set<std::string> binary = {
      "Add", "Sub", "Mul", "Div", "Equal", "Less", "Greater", "LessOrEqual", "GreaterOrEqual",
      "Max", "Min", "And", "Or",  "Mod"};
  static const std::set<std::string> unary = {"Neg", "Abs", "Not", "Identity"};
  bool isWhere = op == "Where";
  if (!(binary.count(op) && in.size() == 2) && !(unary.count(op) && in.size() == 1) &&
      !(isWhere && in.size() == 3))
    return false;
  for (size_t k = isWhere ? 1 : 0; k < in.size(); ++k)
    if (isFloat(*in[k]))
      return false;
  std::vector<int64_t> shape = in[0]->shape;
  for (size_t k = 1; k < in.size(); ++k)
    if (!broadcastShapes(shape, in[k]->shape, &shape))
      return false;
  bool compare = op == "Equal" || op == "Less" || op == "Greater" || op == "LessOrEqual" ||
                 op == "GreaterOrEqual";
  out->shape = shape;
  out->onnxType = compare ? TP::BOOL : in[isWhere ? 1 : 0]->onnxType;
  std::vector<int64_t> index;
  for (int64_t i = 0, n = elementCount(shape); i < n; ++i) {
    unflatten(i, shape, &index);
    std::vector<int64_t> v;
    for (const OnnxHostTensor *t : in)
      v.push_back(t->ints[broadcastOffset(t->shape, index)]);
    int64_t r = 0;
    if (op == "Add")
      r = v[0] + v[1];
    else if (op == "Sub")
      r = v[0] - v[1];
    else if (op == "Mul")
      r = v[0] * v[1];
    else if (op == "Div") {
      if (!v[1])
        return false;
      r = v[0] / v[1];
    } else if (op == "Mod") {
      if (!v[1])
        return false;
      r = v[0] % v[1];
      if (r && ((r < 0) != (v[1] < 0)))
        r += v[1];
    } else if (op == "Equal")
      r = v[0] == v[1];
    else if (op == "Less")
      r = v[0] < v[1];
    else if (op == "Greater")
      r = v[0] > v[1];
    else if (op == "LessOrEqual")
      r = v[0] <= v[1];
    else if (op == "GreaterOrEqual")
      r = v[0] >= v[1];
    else if (op == "Max")
      r = std::max(v[0], v[1]);
    else if (op == "Min")
      r = std::min(v[0], v[1]);
    else if (op == "And")
      r = v[0] && v[1];
    else if (op == "Or")
      r = v[0] || v[1];
    else if (op == "Neg")
      r = -v[0];
    else if (op == "Abs")
      r = std::abs(v[0]);
    else if (op == "Not")
      r = !v[0];
    else if (op == "Identity")
      r = v[0];
    else if (isWhere)
      r = v[0] ? v[1] : v[2];
    out->ints.push_back(r);
  }
  if (op == "Mod" && im.attrInt("fmod", 0))
    return false;
  return true;
}

bool foldStructural(Importer &im, const std::string &op,
                    const std::vector<const OnnxHostTensor *> &in,
                    const std::vector<int64_t> &declared, OnnxHostTensor *out) {
  const OnnxHostTensor &x = *in[0];
  int64_t rank = x.shape.size();
  if (op == "Identity" || op == "Reshape" || op == "Flatten" || op == "Squeeze" ||
      op == "Unsqueeze") {
    if (elementCount(declared) != elementCount(x.shape))
      return false;
    *out = x;
    out->shape = declared;
    return true;
  }
  if (op == "Cast") {
    int32_t to = static_cast<int32_t>(im.attrInt("to", 0));
    out->shape = x.shape;
    out->onnxType = to;
    if (kindOf(to) == Kind::Float) {
      for (int64_t i = 0, n = elementCount(x.shape); i < n; ++i)
        out->reals.push_back(real(x, i));
    } else {
      if (isFloat(x))
        return false; // float -> int rounding stays on the device
      out->ints = x.ints;
      if (to == TP::BOOL)
        for (int64_t &v : out->ints)
          v = v != 0;
    }
    return true;
  }
  if (op == "Concat") {
    int64_t axis = 0;
    if (!im.axis(im.attrInt("axis", 0), rank, &axis))
      return false;
    out->onnxType = x.onnxType;
    out->shape = x.shape;
    out->shape[axis] = 0;
    for (const OnnxHostTensor *t : in)
      out->shape[axis] += t->shape[axis];
    int64_t outer = 1;
    for (int64_t d = 0; d < axis; ++d)
      outer *= x.shape[d];
    for (int64_t o = 0; o < outer; ++o)
      for (const OnnxHostTensor *t : in) {
        int64_t chunk = elementCount(t->shape) / std::max<int64_t>(outer, 1);
        for (int64_t k = 0; k < chunk; ++k) {
          if (isFloat(*t))
            out->reals.push_back(t->reals[o * chunk + k]);
          else
            out->ints.push_back(t->ints[o * chunk + k]);
        }
      }
    return true;
  }
  if (op == "Gather" && in.size() == 2 && !isFloat(*in[1])) {
    int64_t axis = 0;
    if (!im.axis(im.attrInt("axis", 0), rank, &axis))
      return false;
    const OnnxHostTensor &idx = *in[1];
    std::vector<int64_t> shape(x.shape.begin(), x.shape.begin() + axis);
    shape.insert(shape.end(), idx.shape.begin(), idx.shape.end());
    shape.insert(shape.end(), x.shape.begin() + axis + 1, x.shape.end());
    std::vector<int64_t> st = strides(x.shape), ist = strides(idx.shape);
    int64_t ir = idx.shape.size();
    for (int64_t v : idx.ints)
      if (v < -x.shape[axis] || v >= x.shape[axis])
        return false;
    *out = gatherElements(x, shape, [&](const std::vector<int64_t> &o) {
      int64_t flat = 0, iflat = 0;
      for (int64_t d = 0; d < axis; ++d)
        flat += o[d] * st[d];
      for (int64_t d = 0; d < ir; ++d)
        iflat += o[axis + d] * ist[d];
      int64_t k = idx.ints[iflat];
      flat += (k < 0 ? k + x.shape[axis] : k) * st[axis];
      for (int64_t d = axis + 1; d < rank; ++d)
        flat += o[d - 1 + ir] * st[d];
      return flat;
    });
    return true;
  }
  if (op == "Slice" && in.size() >= 3) {
    std::vector<int64_t> starts(rank, 0), steps(rank, 1), shape = x.shape;
    std::vector<int64_t> axes;
    for (size_t k = 0; k < in[1]->ints.size(); ++k) {
      int64_t a = static_cast<int64_t>(k);
      if (in.size() > 3 && (k >= in[3]->ints.size() || !im.axis(in[3]->ints[k], rank, &a)))
        return im.fail("its axes do not match its starts");
      axes.push_back(a);
    }
    for (size_t k = 0; k < axes.size(); ++k) {
      int64_t dim = x.shape[axes[k]], step = in.size() > 4 ? in[4]->ints.at(k) : 1;
      int64_t b = in[1]->ints[k], e = in[2]->ints.at(k);
      if (step == 0)
        return false;
      SliceRange range = sliceRange(dim, b, e, step);
      shape[axes[k]] = range.count;
      starts[axes[k]] = range.first;
      steps[axes[k]] = step;
    }
    std::vector<int64_t> st = strides(x.shape);
    *out = gatherElements(x, shape, [&](const std::vector<int64_t> &o) {
      int64_t flat = 0;
      for (int64_t d = 0; d < rank; ++d)
        flat += (starts[d] + o[d] * steps[d]) * st[d];
      return flat;
    });
    return true;
  }
  if (op == "Expand" && in.size() == 2) {
    if (declared.empty() && elementCount(x.shape) != 1)
      return false;
    *out = gatherElements(
        x, declared, [&](const std::vector<int64_t> &o) { return broadcastOffset(x.shape, o); });
    return true;
  }
  return false;
}

bool foldSources(Importer &im, const std::string &op, OnnxHostTensor *out, bool *failed) {
  if (op == "Constant") {
    const onnx::AttributeProto *a = im.attr("value");
    if (a && a->type() == onnx::AttributeProto::TENSOR) {
      if (!decodeTensor(a->t(), im.directory, out, &im.error))
        return *failed = true, false;
      return true;
    }
    out->shape.clear();
    if ((a = im.attr("value_float"))) {
      out->onnxType = TP::FLOAT;
      out->reals = {a->f()};
    } else if ((a = im.attr("value_int"))) {
      out->onnxType = TP::INT64;
      out->ints = {a->i()};
    } else if ((a = im.attr("value_floats"))) {
      out->onnxType = TP::FLOAT;
      out->shape = {a->floats_size()};
      out->reals.assign(a->floats().begin(), a->floats().end());
    } else if ((a = im.attr("value_ints"))) {
      out->onnxType = TP::INT64;
      out->shape = {a->ints_size()};
      out->ints.assign(a->ints().begin(), a->ints().end());
    } else {
      im.fail("only value, value_float(s) and value_int(s) constants are supported");
      return *failed = true, false;
    }
    return true;
  }
  if (op == "Shape" || op == "Size") {
    Tensor *x = im.input(0);
    if (!x)
      return *failed = true, false;
    out->onnxType = TP::INT64;
    if (op == "Size") {
      out->ints = {elementCount(x->shape)};
      return true;
    }
    int64_t rank = x->shape.size();
    int64_t start = std::clamp<int64_t>(clampedAxis(im.attrInt("start", 0), rank), 0, rank);
    int64_t end = std::clamp<int64_t>(clampedAxis(im.attrInt("end", rank), rank), 0, rank);
    for (int64_t d = start; d < end; ++d)
      out->ints.push_back(x->shape[d]);
    out->shape = {static_cast<int64_t>(out->ints.size())};
    return true;
  }
  return false;
}

} // namespace

bool foldOnHost(Importer &im, bool *failed) {
  const std::string &op = im.node->op_type();
  OnnxHostTensor out;
  if (foldSources(im, op, &out, failed)) {
    Tensor t{{}, out.shape, out.onnxType, out};
    im.define(0, std::move(t));
    return true;
  }
  if (*failed)
    return false;
  std::vector<const OnnxHostTensor *> in;
  for (int i = 0; i < im.inputCount(); ++i) {
    if (!im.hasInput(i))
      return false;
    auto it = im.values.find(im.node->input(i));
    if (it == im.values.end() || !it->second.host || it->second.boundInput ||
        elementCount(it->second.shape) > kMaxFoldElements)
      return false;
    in.push_back(&*it->second.host);
  }
  if (in.empty() || im.node->output_size() != 1)
    return false;
  std::vector<int64_t> declared;
  int32_t declaredType = 0;
  bool known = im.outputInfo(0, &declared, &declaredType);
  if (op == "ConstantOfShape") {
    out.shape = in[0]->ints;
    out.onnxType = TP::FLOAT;
    double value = 0;
    if (const onnx::AttributeProto *a = im.attr("value")) {
      OnnxHostTensor v;
      if (!decodeTensor(a->t(), im.directory, &v, &im.error))
        return *failed = true, false;
      out.onnxType = v.onnxType;
      value = isFloat(v) ? v.reals.at(0) : v.ints.at(0);
    }
    if (elementCount(out.shape) > kMaxFoldElements)
      return false;
    if (isFloat(out))
      out.reals.assign(elementCount(out.shape), value);
    else
      out.ints.assign(elementCount(out.shape), static_cast<int64_t>(value));
  } else if (op == "Range" && in.size() == 3 && !isFloat(*in[0])) {
    int64_t start = in[0]->ints.at(0), limit = in[1]->ints.at(0), delta = in[2]->ints.at(0);
    if (delta == 0)
      return false;
    out.onnxType = in[0]->onnxType;
    for (int64_t v = start; delta > 0 ? v < limit : v > limit; v += delta)
      out.ints.push_back(v);
    out.shape = {static_cast<int64_t>(out.ints.size())};
  } else if (foldIntegerElementwise(im, op, in, &out)) {
  } else if (!(known || op == "Concat" || op == "Gather" || op == "Cast" || op == "Slice") ||
             !foldStructural(im, op, in, declared, &out)) {
    *failed = !im.error.empty(); // refused (an axis out of range), not just left to the device
    return false;
  }
  Tensor t{{}, out.shape, out.onnxType, out};
  im.define(0, std::move(t));
  return true;
}

} // namespace meshvk::onnx_import

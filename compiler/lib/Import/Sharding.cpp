//===- Sharding.cpp - none | data | tensor | spec.json ---------------------===//
//
// The policies only choose split axes for named ONNX tensors; the importer
// writes them as shard.shard annotations and the compiler's propagation
// decides everything in between (as for a hand-annotated program).
//
//===----------------------------------------------------------------------===//
#include "Sharding.h"

#include <fstream>
#include <set>
#include <sstream>

#include "llvm/Support/JSON.h"

namespace meshvk::onnx_import {
namespace {

std::vector<std::vector<int64_t>> splitDim(size_t rank, size_t dim) {
  std::vector<std::vector<int64_t>> axes(dim + 1);
  axes[dim] = {0};
  (void)rank;
  return axes;
}

void planData(Importer &im, const onnx::GraphProto &graph, const std::set<std::string> &inits) {
  for (const auto &input : graph.input()) {
    if (inits.count(input.name()))
      continue;
    const auto &type = input.type().tensor_type();
    if (type.shape().dim_size() == 0)
      continue;
    const auto &d0 = type.shape().dim(0);
    if (d0.has_dim_value() && d0.dim_value() < im.options.devices)
      continue; // fewer rows than processes: left replicated
    im.splits[input.name()] = splitDim(type.shape().dim_size(), 0);
    im.splitReasons[input.name()] = "data: leading dimension";
  }
}

// Megatron: a weight pair (W1 then W2 read by the next MatMul/Gemm) is split
// by columns then rows, so the hidden activation stays split and the pair
// costs one all_reduce; Conv and ConvTranspose weights by output channel.
void planTensor(Importer &im, const onnx::GraphProto &graph, const std::set<std::string> &inits) {
  bool secondOfPair = false;
  for (const auto &node : graph.node()) {
    const std::string &op = node.op_type();
    if ((op == "MatMul" || op == "Gemm") && node.input_size() >= 2 && inits.count(node.input(1))) {
      const auto *transBAttr = findAttribute(node, "transB");
      bool transB = transBAttr && transBAttr->i() != 0;
      const std::string &w = node.input(1);
      auto it = im.values.find(w);
      if (it == im.values.end() || it->second.shape.size() != 2)
        continue;
      // Columns of W (its output features) first, rows (input features) second.
      size_t dim = secondOfPair ? (transB ? 1 : 0) : (transB ? 0 : 1);
      if (it->second.shape[dim] % im.options.devices != 0)
        continue;
      im.splits[w] = splitDim(2, dim);
      im.splitReasons[w] = secondOfPair ? "tensor: second of a MatMul pair, rows"
                                        : "tensor: first of a MatMul pair, columns";
      if (!secondOfPair && op == "Gemm" && node.input_size() > 2 && inits.count(node.input(2))) {
        im.splits[node.input(2)] = splitDim(1, 0);
        im.splitReasons[node.input(2)] = "tensor: bias of a column-split Gemm";
      }
      secondOfPair = !secondOfPair;
    } else if (op == "Conv" && node.input_size() >= 2 && inits.count(node.input(1))) {
      auto it = im.values.find(node.input(1));
      if (it == im.values.end() || it->second.shape[0] % im.options.devices != 0)
        continue;
      im.splits[node.input(1)] = splitDim(4, 0);
      im.splitReasons[node.input(1)] = "tensor: convolution output channels";
    } else if (op == "ConvTranspose" && node.input_size() >= 2 && inits.count(node.input(1))) {
      // [C, OUT/group, k...]: output channels are dimension 1 (one group).
      const auto *groupAttr = findAttribute(node, "group");
      auto it = im.values.find(node.input(1));
      if ((groupAttr && groupAttr->i() != 1) || it == im.values.end() ||
          it->second.shape.size() < 3 || it->second.shape[1] % im.options.devices != 0)
        continue;
      im.splits[node.input(1)] = splitDim(it->second.shape.size(), 1);
      im.splitReasons[node.input(1)] = "tensor: transposed-convolution output channels";
    }
  }
}

bool planSpec(Importer &im, const onnx::GraphProto &graph, std::string *error) {
  std::ifstream in(im.options.specPath);
  if (!in) {
    *error = im.options.specPath + ": cannot read the sharding spec";
    return false;
  }
  std::ostringstream text;
  text << in.rdbuf();
  llvm::Expected<llvm::json::Value> json = llvm::json::parse(text.str());
  const llvm::json::Object *object = json ? json->getAsObject() : nullptr;
  const llvm::json::Object *tensors = object ? object->getObject("tensors") : nullptr;
  if (!tensors) {
    if (!json)
      llvm::consumeError(json.takeError());
    *error =
        im.options.specPath +
        ": not a sharding spec (expected {\"grid\": [N], \"tensors\": {\"name\": [[axes], ...]}})";
    return false;
  }
  std::set<std::string> names;
  for (const auto &v : graph.input())
    names.insert(v.name());
  for (const auto &v : graph.initializer())
    names.insert(v.name());
  for (const auto &n : graph.node())
    for (const auto &o : n.output())
      names.insert(o);
  for (const auto &[key, value] : *tensors) {
    std::string name = key.str();
    if (!names.count(name)) {
      *error = im.options.specPath + ": tensor '" + name + "' is not in the model";
      return false;
    }
    const llvm::json::Array *dims = value.getAsArray();
    std::vector<std::vector<int64_t>> axes;
    for (size_t d = 0; dims && d < dims->size(); ++d) {
      axes.emplace_back();
      const llvm::json::Array *grid = (*dims)[d].getAsArray();
      for (size_t k = 0; grid && k < grid->size(); ++k)
        if (auto a = (*grid)[k].getAsInteger())
          axes.back().push_back(*a);
    }
    if (!dims) {
      *error = im.options.specPath + ": tensor '" + name + "': expected a list of axis lists";
      return false;
    }
    im.splits[name] = axes;
    im.splitReasons[name] = "spec";
  }
  return true;
}

} // namespace

std::vector<int64_t> gridShape(const Importer &im) {
  if (im.options.shard == OnnxShardPolicy::Spec) {
    std::ifstream in(im.options.specPath);
    std::ostringstream text;
    text << in.rdbuf();
    llvm::Expected<llvm::json::Value> json = llvm::json::parse(text.str());
    if (!json) {
      llvm::consumeError(json.takeError());
    } else if (const auto *object = json->getAsObject()) {
      if (const auto *grid = object->getArray("grid")) {
        std::vector<int64_t> shape;
        for (const auto &v : *grid)
          shape.push_back(v.getAsInteger().value_or(1));
        return shape;
      }
    }
  }
  return {im.options.devices};
}

bool planSharding(Importer &im, const onnx::GraphProto &graph, OnnxSignature *) {
  std::set<std::string> inits;
  for (const auto &init : graph.initializer())
    inits.insert(init.name());
  switch (im.options.shard) {
  case OnnxShardPolicy::None:
    return true;
  case OnnxShardPolicy::Data:
    planData(im, graph, inits);
    return true;
  case OnnxShardPolicy::Tensor:
    planTensor(im, graph, inits);
    return true;
  case OnnxShardPolicy::Spec:
    return planSpec(im, graph, &im.error);
  }
  return true;
}

} // namespace meshvk::onnx_import

namespace meshvk {

bool parseOnnxShardPolicy(llvm::StringRef text, OnnxImportOptions *options, std::string *error) {
  if (text == "none")
    options->shard = OnnxShardPolicy::None;
  else if (text == "data")
    options->shard = OnnxShardPolicy::Data;
  else if (text == "tensor")
    options->shard = OnnxShardPolicy::Tensor;
  else if (text.ends_with(".json")) {
    options->shard = OnnxShardPolicy::Spec;
    options->specPath = text.str();
  } else {
    *error = "--shard=" + text.str() + ": expected none, data, tensor or a SPEC.json path";
    return false;
  }
  return true;
}

} // namespace meshvk

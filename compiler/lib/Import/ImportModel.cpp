//===- ImportModel.cpp - the ONNX import entry points and graph walk -------===//
//
// Builds `func.func @main` from the graph: the inputs that are not
// initializers become arguments (int64/bool as i32: the runtime's buffers are
// f32, f16 and i32), initializers become constants where the device reads
// them, each node is folded on the host or lowered, and the graph outputs are
// returned. The sharding plan (Sharding.cpp) adds shard.shard annotations as
// tensors get their device values.
//
//===----------------------------------------------------------------------===//
#include "Importer.h"
#include "Sharding.h"

#include <algorithm>
#include <fstream>
#include <set>
#include <sstream>

#include "meshvk/Support/CompileStage.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Shard/IR/ShardDialect.h"
#include "mlir/Dialect/Shard/IR/ShardOps.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Tosa/IR/TosaOps.h"
#include "mlir/IR/Verifier.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;

namespace meshvk {
namespace onnx_import {
namespace {

bool boundaryType(int32_t t) {
  using TP = onnx::TensorProto;
  return t == TP::FLOAT || t == TP::FLOAT16 || t == TP::DOUBLE || t == TP::INT32 ||
         t == TP::INT64 || t == TP::BOOL;
}
constexpr const char *kBoundaryTypes =
    "FLOAT, FLOAT16, DOUBLE (f64; f32 without shaderFloat64), INT32, INT64 (as i32), BOOL";

// Whether `hint` (the shape of the data the caller will pass) can stand for
// the model's declared shape `type`: same rank, every static dimension equal.
bool hintFits(const onnx::TypeProto::Tensor &type, const std::vector<int64_t> *hint) {
  if (!hint || !type.has_shape() || static_cast<int>(hint->size()) != type.shape().dim_size())
    return false;
  for (int i = 0; i < type.shape().dim_size(); ++i)
    if (type.shape().dim(i).has_dim_value() && type.shape().dim(i).dim_value() != (*hint)[i])
      return false;
  return true;
}

// The static shape of graph input `info`, dynamic dimensions fixed from the
// options (inputShapes, else `hint` when it fits); false with a line naming
// the input and the dimension.
bool inputShape(const onnx::ValueInfoProto &info, const OnnxImportOptions &options,
                const std::vector<int64_t> *hint, std::vector<int64_t> *shape, std::string *error) {
  auto fixed = options.inputShapes.find(info.name());
  const auto &type = info.type().tensor_type();
  if (fixed != options.inputShapes.end()) {
    if (type.has_shape() && type.shape().dim_size() != static_cast<int>(fixed->second.size())) {
      *error = "input '" + info.name() + "': the given shape has rank " +
               std::to_string(fixed->second.size()) + ", the model's has " +
               std::to_string(type.shape().dim_size());
      return false;
    }
    *shape = fixed->second;
    return true;
  }
  if (hintFits(type, hint)) {
    *shape = *hint;
    return true;
  }
  if (hint && !hint->empty() && type.has_shape()) {
    std::string declared;
    for (int i = 0; i < type.shape().dim_size(); ++i)
      declared += (i ? "x" : "") + (type.shape().dim(i).has_dim_value()
                                        ? std::to_string(type.shape().dim(i).dim_value())
                                        : type.shape().dim(i).dim_param());
    *error = "input '" + info.name() + "': the data given is " + shapeText(*hint) +
             ", the model's input is " + declared +
             " (the rank and the static dimensions must agree)";
    return false;
  }
  if (!type.has_shape()) {
    *error = "input '" + info.name() + "' has no shape in the model (give it with --input-shape)";
    return false;
  }
  shape->clear();
  for (int i = 0; i < type.shape().dim_size(); ++i) {
    const auto &d = type.shape().dim(i);
    if (!d.has_dim_value()) {
      *error = "input '" + info.name() + "': dimension " + std::to_string(i) + " ('" +
               d.dim_param() + "') is dynamic (give the shape with --input-shape=" + info.name() +
               "=DIMS, input_shapes= in Python, or an input of that shape to mesh-vk-run)";
      return false;
    }
    shape->push_back(d.dim_value());
  }
  return true;
}

} // namespace

Value Importer::annotate(const std::string &name, Value value, bool forUsers) {
  auto it = splits.find(name);
  if (it == splits.end() || !value)
    return value;
  std::vector<shard::GridAxesAttr> axes;
  for (const auto &dim : it->second) {
    std::vector<int16_t> a(dim.begin(), dim.end());
    axes.push_back(shard::GridAxesAttr::get(b.getContext(), a));
  }
  Value sharding = shard::ShardingOp::create(b, loc, "grid", axes);
  Value annotated = shard::ShardOp::create(b, loc, value, sharding, forUsers);
  if (plan) {
    std::string text = name + ": split_axes = [";
    for (size_t d = 0; d < it->second.size(); ++d) {
      text += d ? ", [" : "[";
      for (size_t k = 0; k < it->second[d].size(); ++k)
        text += (k ? ", " : "") + std::to_string(it->second[d][k]);
      text += "]";
    }
    plan->push_back(text + "] (" + splitReasons[name] + ")");
  }
  splits.erase(it); // annotated once, where it first gets a device value
  return annotated;
}

namespace {

class GraphImport {
public:
  GraphImport(Importer &im, const onnx::GraphProto &graph, OnnxSignature *signature)
      : im(im), graph(graph), signature(signature) {}

  bool run(ModuleOp module) {
    for (const auto &v : graph.input())
      im.valueInfo[v.name()] = &v;
    for (const auto &v : graph.value_info())
      im.valueInfo[v.name()] = &v;
    for (const auto &v : graph.output())
      im.valueInfo[v.name()] = &v;
    std::vector<int64_t> grid;
    if (!initializers() || !givenInputsExist() || !planSharding(im, graph, signature, &grid))
      return false;
    pretransposeGemmWeights();
    storeConvTransposeWeights();
    storeConvWeightsOHWI();
    im.b.setInsertionPointToEnd(module.getBody());
    if (im.options.shard != OnnxShardPolicy::None)
      shard::GridOp::create(im.b, im.loc, "grid", grid);
    std::vector<Type> argumentTypes;
    std::vector<const onnx::ValueInfoProto *> arguments;
    std::vector<std::vector<int64_t>> shapes;
    size_t positional = 0; // the next positional shape hint
    for (const auto &info : graph.input()) {
      if (initializerNames.count(info.name()))
        continue; // IR < 4: initializers are listed as inputs too
      int32_t type = info.type().tensor_type().elem_type();
      if (!info.type().has_tensor_type() || !boundaryType(type))
        return im.fail("input '" + info.name() + "' has dtype " + onnxTypeName(type) +
                       " (supported: " + kBoundaryTypes + ")");
      const std::vector<int64_t> *hint = nullptr;
      if (auto named = im.options.inputShapeHintsByName.find(info.name());
          named != im.options.inputShapeHintsByName.end())
        hint = &named->second;
      else if (positional < im.options.inputShapeHintsByPosition.size())
        hint = &im.options.inputShapeHintsByPosition[positional++];
      std::vector<int64_t> shape;
      if (!inputShape(info, im.options, hint, &shape, &im.error))
        return false;
      Type element = kindOf(type) == Kind::Bool ? im.b.getI32Type() : im.elementType(type);
      argumentTypes.push_back(RankedTensorType::get(shape, element));
      arguments.push_back(&info);
      shapes.push_back(shape);
    }
    auto func = func::FuncOp::create(im.b, im.loc, "main", im.b.getFunctionType(argumentTypes, {}));
    Block *entry = func.addEntryBlock();
    im.b.setInsertionPointToStart(entry);
    for (size_t i = 0; i < arguments.size(); ++i) {
      const auto &info = *arguments[i];
      int32_t type = info.type().tensor_type().elem_type();
      Tensor t{entry->getArgument(i), shapes[i], type, std::nullopt};
      if (kindOf(type) == Kind::Bool) // i32 at the boundary, i1 inside
        t.value = im.elementwise({t.value}, shapes[i], type,
                                 [&](OpBuilder &nb, Location at, ValueRange a) {
                                   return im.convertScalar(nb, at, a[0], nb.getI1Type());
                                 });
      t.value = im.annotate(info.name(), t.value, /*forUsers=*/true);
      auto bound = im.options.shapeInputValues.find(info.name());
      if (bound != im.options.shapeInputValues.end()) {
        t.host = bound->second;
        t.boundInput = true;
      }
      im.values[info.name()] = t;
    }
    // Split initializers get their device value (and annotation) up front.
    for (const std::string &name : initializerNames) {
      Tensor &t = im.values[name];
      if (im.splits.count(name) && kindOf(t.onnxType) == Kind::Float) {
        Value v = im.valueOf(t);
        if (!v)
          return false;
        t.value = im.annotate(name, v, /*forUsers=*/true);
      }
    }
    for (const auto &node : graph.node())
      if (!importNode(node))
        return false;
    im.node = nullptr;
    return finish(func, arguments);
  }

private:
  Importer &im;
  const onnx::GraphProto &graph;
  OnnxSignature *signature;
  std::set<std::string> initializerNames;

  bool initializers() {
    for (const auto &init : graph.initializer()) {
      Tensor t;
      OnnxHostTensor host;
      if (!decodeTensor(init, im.directory, &host, &im.error))
        return false;
      t.shape = host.shape;
      t.onnxType = host.onnxType;
      t.host = std::move(host);
      im.values[init.name()] = std::move(t);
      initializerNames.insert(init.name());
    }
    return true;
  }

  // See Importer::pretransposed. After the sharding plan, which chose split
  // dimensions of the weights as the model stores them: those move with the data.
  void pretransposeGemmWeights() {
    std::map<std::string, bool> onlyTransposedB; // initializer -> every use is a Gemm's transB B
    for (const auto &node : graph.node()) {
      const auto *transBAttr = findAttribute(node, "transB");
      bool transB = transBAttr && transBAttr->i() != 0;
      for (int i = 0; i < node.input_size(); ++i) {
        if (!initializerNames.count(node.input(i)))
          continue;
        bool asB = node.op_type() == "Gemm" && transB && i == 1;
        auto [it, fresh] = onlyTransposedB.try_emplace(node.input(i), asB);
        if (!fresh)
          it->second = it->second && asB;
      }
    }
    for (const auto &out : graph.output())
      onlyTransposedB[out.name()] = false;
    for (const auto &[name, only] : onlyTransposedB) {
      auto found = im.values.find(name);
      if (!only || found == im.values.end() || found->second.shape.size() != 2 ||
          !found->second.host)
        continue;
      transpose2D(*found->second.host);
      found->second.shape = found->second.host->shape;
      auto split = im.splits.find(name);
      if (split != im.splits.end()) {
        split->second.resize(2);
        std::swap(split->second[0], split->second[1]);
        im.splitReasons[name] += ", stored transposed for Gemm transB";
      }
      im.pretransposed.insert(name);
    }
  }

  // See Importer::convTransposeStored: initializers every use of which is
  // the weight of a ConvTranspose with one group count. A tensor-policy
  // split of the output channels (dimension 1 as the model stores them,
  // group 1 only) moves to dimension 0 with the data.
  void storeConvTransposeWeights() {
    std::map<std::string, int64_t> groups; // initializer -> group, or 0: another use
    for (const auto &node : graph.node())
      for (int i = 0; i < node.input_size(); ++i) {
        if (!initializerNames.count(node.input(i)))
          continue;
        const auto *groupAttr = findAttribute(node, "group");
        int64_t group =
            node.op_type() == "ConvTranspose" && i == 1 ? (groupAttr ? groupAttr->i() : 1) : 0;
        auto [it, fresh] = groups.try_emplace(node.input(i), group);
        if (!fresh && it->second != group)
          it->second = 0;
      }
    for (const auto &out : graph.output())
      groups[out.name()] = 0;
    for (const auto &[name, group] : groups) {
      auto found = im.values.find(name);
      if (group < 1 || found == im.values.end() || !found->second.host ||
          found->second.onnxType != onnx::TensorProto::FLOAT)
        continue;
      const std::vector<int64_t> &shape = found->second.shape;
      if ((shape.size() != 3 && shape.size() != 4) || shape[0] % group != 0)
        continue; // the lowering refuses it with the node's name
      convTransposeWeightAsConv(*found->second.host, group);
      found->second.shape = found->second.host->shape;
      auto split = im.splits.find(name);
      if (split != im.splits.end() && split->second.size() >= 2) {
        std::swap(split->second[0], split->second[1]);
        im.splitReasons[name] += ", stored as the equivalent Conv weight";
      }
      im.convTransposeStored.insert(name);
    }
  }

  // See Importer::ohwiStored. A split of dimension 0 (output channels)
  // stays; the others move with their dimensions.
  void storeConvWeightsOHWI() {
    std::map<std::string, bool> only; // initializer -> every use is a group-1 Conv weight
    for (const auto &node : graph.node())
      for (int i = 0; i < node.input_size(); ++i) {
        const std::string &name = node.input(i);
        if (!initializerNames.count(name))
          continue;
        const auto *groupAttr = findAttribute(node, "group");
        bool conv = node.op_type() == "Conv" ||
                    (node.op_type() == "ConvTranspose" && im.convTransposeStored.count(name));
        bool asWeight = conv && i == 1 && (!groupAttr || groupAttr->i() == 1);
        auto [it, fresh] = only.try_emplace(name, asWeight);
        if (!fresh)
          it->second = it->second && asWeight;
      }
    for (const auto &out : graph.output())
      only[out.name()] = false;
    for (const auto &[name, ok] : only) {
      auto found = im.values.find(name);
      if (!ok || found == im.values.end() || !found->second.host ||
          found->second.onnxType != onnx::TensorProto::FLOAT ||
          (found->second.shape.size() != 3 && found->second.shape.size() != 4))
        continue;
      OnnxHostTensor &host = *found->second.host;
      const int64_t out = host.shape[0], in = host.shape[1];
      const int64_t window = elementCount(host.shape) / std::max<int64_t>(1, out * in);
      if (host.reals.size() != static_cast<size_t>(out * in * window))
        continue;
      std::vector<double> data(host.reals.size());
      for (int64_t o = 0; o < out; ++o)
        for (int64_t c = 0; c < in; ++c)
          for (int64_t k = 0; k < window; ++k)
            data[(o * window + k) * in + c] = host.reals[(o * in + c) * window + k];
      host.reals = std::move(data);
      std::vector<int64_t> shape = {out};
      shape.insert(shape.end(), host.shape.begin() + 2, host.shape.end());
      shape.push_back(in);
      host.shape = shape;
      found->second.shape = shape;
      auto split = im.splits.find(name);
      if (split != im.splits.end()) {
        split->second.resize(shape.size());
        std::rotate(split->second.begin() + 1, split->second.begin() + 2, split->second.end());
        im.splitReasons[name] += ", stored OHWI";
      }
      im.ohwiStored.insert(name);
    }
  }

  static void transpose2D(OnnxHostTensor &t) {
    const int64_t rows = t.shape[0], cols = t.shape[1];
    // One of reals/ints holds the values (decodeTensor checked their count);
    // the other is empty.
    auto flip = [&](auto &data) {
      if (data.size() != static_cast<size_t>(rows * cols))
        return;
      auto out = data;
      for (int64_t r = 0; r < rows; ++r)
        for (int64_t c = 0; c < cols; ++c)
          out[c * rows + r] = data[r * cols + c];
      data = std::move(out);
    };
    flip(t.reals);
    flip(t.ints);
    t.shape = {cols, rows};
  }

  // A shape or a value given for a name the model has no input of is a typo
  // the user must hear about (it would otherwise be ignored).
  bool givenInputsExist() {
    std::set<std::string> inputs;
    std::string names;
    for (const auto &info : graph.input())
      if (!initializerNames.count(info.name()) && inputs.insert(info.name()).second)
        names += (names.empty() ? "" : ", ") + info.name();
    auto check = [&](const std::string &name, const char *what) {
      if (inputs.count(name))
        return true;
      im.error =
          std::string(what) + " given for '" + name +
          "', which is not an input of the model (its inputs: " + (names.empty() ? "none" : names) +
          ")";
      return false;
    };
    for (const auto &[name, shape] : im.options.inputShapes)
      if (!check(name, "a shape"))
        return false;
    for (const auto &[name, value] : im.options.shapeInputValues)
      if (!check(name, "a value"))
        return false;
    return true;
  }

  bool importNode(const onnx::NodeProto &node) {
    im.node = &node;
    setCompileStage("importing ONNX node '" + node.name() + "' (" + node.op_type() + ")");
    if (!node.domain().empty() && node.domain() != "ai.onnx")
      return im.fail("domain '" + node.domain() + "' is not supported (only ai.onnx)");
    for (const auto &a : node.attribute())
      if (a.type() == onnx::AttributeProto::GRAPH || a.type() == onnx::AttributeProto::GRAPHS)
        return im.fail("subgraphs (If/Loop/Scan bodies) are not supported");
    bool failed = false;
    if (foldOnHost(im, &failed))
      return true;
    if (failed)
      return false;
    std::optional<Lowering> lowering = elementwiseLowering(node.op_type());
    if (!lowering)
      lowering = structuredLowering(node.op_type());
    if (!lowering)
      return im.fail("the op is not supported (supported: " + supportedOps() + ")");
    if (!(*lowering)(im))
      return false;
    for (int i = 0; i < node.output_size(); ++i) {
      auto it = im.values.find(node.output(i));
      if (it != im.values.end() && it->second.value)
        it->second.value = im.annotate(node.output(i), it->second.value, /*forUsers=*/false);
    }
    return true;
  }

  bool finish(func::FuncOp func, const std::vector<const onnx::ValueInfoProto *> &arguments) {
    std::vector<Value> results;
    std::vector<Type> resultTypes;
    for (const auto &out : graph.output()) {
      auto it = im.values.find(out.name());
      if (it == im.values.end())
        return im.fail("graph output '" + out.name() + "' is not computed by any node");
      Tensor &t = it->second;
      if (!boundaryType(t.onnxType))
        return im.fail("output '" + out.name() + "' has dtype " + onnxTypeName(t.onnxType) +
                       " (supported: " + kBoundaryTypes + ")");
      Value v = im.valueOf(t);
      if (!v)
        return false;
      if (kindOf(t.onnxType) == Kind::Bool)
        v = im.elementwise({v}, t.shape, onnx::TensorProto::INT32,
                           [&](OpBuilder &nb, Location at, ValueRange a) {
                             return im.convertScalar(nb, at, a[0], nb.getI32Type());
                           });
      results.push_back(v);
      resultTypes.push_back(v.getType());
      signature->resultNames.push_back(out.name());
      signature->resultTypes.push_back(t.onnxType);
    }
    func::ReturnOp::create(im.b, im.loc, results);
    // Inputs bound at compile time and not read as data leave the signature.
    Block &entry = func.getBody().front();
    llvm::BitVector erase(entry.getNumArguments());
    for (size_t i = 0; i < arguments.size(); ++i) {
      const std::string &name = arguments[i]->name();
      bool bound = im.options.shapeInputValues.count(name);
      if (bound && entry.getArgument(i).use_empty()) {
        erase.set(i);
        signature->boundInputs.push_back(name);
        continue;
      }
      signature->argumentNames.push_back(name);
      signature->argumentTypes.push_back(arguments[i]->type().tensor_type().elem_type());
    }
    std::vector<Type> kept;
    for (size_t i = 0; i < arguments.size(); ++i)
      if (!erase.test(i))
        kept.push_back(entry.getArgument(i).getType());
    entry.eraseArguments(erase);
    func.setFunctionType(im.b.getFunctionType(kept, resultTypes));
    if (!im.splits.empty())
      return im.fail("the sharding names tensor '" + im.splits.begin()->first +
                     "', which the imported program never computes on the device");
    return true;
  }
};

FailureOr<OwningOpRef<ModuleOp>> importModel(const std::string &bytes, const std::string &name,
                                             const std::string &path, const std::string &directory,
                                             const OnnxImportOptions &options, MLIRContext &context,
                                             OnnxSignature *signature, std::string *error) {
  onnx::ModelProto model;
  int64_t opset = 0;
  if (!loadModel(bytes, name, path, &model, &opset, error))
    return failure();
  loadOnnxImportDialects(context);
  OnnxSignature local;
  if (!signature)
    signature = &local;
  *signature = OnnxSignature();
  Importer im(context, options, opset, directory);
  im.plan = &signature->plan;
  OwningOpRef<ModuleOp> module = ModuleOp::create(im.loc);
  if (!rewriteAttentionForSharding(im, *model.mutable_graph(), signature)) {
    *error = name + ": " + im.error;
    return failure();
  }
  GraphImport graph(im, model.graph(), signature);
  // A diagnostic from a builder (an op the verifier refuses) becomes the line.
  std::string diagnostic;
  ScopedDiagnosticHandler handler(&context, [&](Diagnostic &d) {
    if (diagnostic.empty())
      diagnostic = d.str();
    return success();
  });
  if (!graph.run(*module)) {
    *error = name + ": " + im.error;
    return failure();
  }
  if (failed(verify(*module))) {
    *error = name + ": the imported program does not verify: " + diagnostic;
    return failure();
  }
  return module;
}

} // namespace
} // namespace onnx_import

void loadOnnxImportDialects(MLIRContext &context) {
  context.loadDialect<func::FuncDialect, tosa::TosaDialect, linalg::LinalgDialect,
                      tensor::TensorDialect, arith::ArithDialect, math::MathDialect,
                      shard::ShardDialect>();
}

FailureOr<OwningOpRef<ModuleOp>> importOnnxBytes(StringRef bytes, StringRef name,
                                                 const OnnxImportOptions &options,
                                                 MLIRContext &context, OnnxSignature *signature,
                                                 std::string *error) {
  return onnx_import::importModel(bytes.str(), name.str(), /*path=*/"", ".", options, context,
                                  signature, error);
}

FailureOr<OwningOpRef<ModuleOp>> importOnnxFile(StringRef path, const OnnxImportOptions &options,
                                                MLIRContext &context, OnnxSignature *signature,
                                                std::string *error) {
  std::ifstream in(path.str(), std::ios::binary);
  if (!in) {
    *error = path.str() + ": cannot read: " + std::strerror(errno);
    return failure();
  }
  std::ostringstream bytes;
  bytes << in.rdbuf();
  std::string directory = path.str();
  size_t slash = directory.rfind('/');
  directory = slash == std::string::npos ? "." : directory.substr(0, slash);
  return onnx_import::importModel(bytes.str(), path.str(), path.str(), directory, options, context,
                                  signature, error);
}

} // namespace meshvk

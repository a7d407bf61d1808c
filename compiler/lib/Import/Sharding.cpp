//===- Sharding.cpp - none | data | tensor | data,tensor | spec.json -------===//
//
// The policies only choose split axes for named ONNX tensors; the importer
// writes them as shard.shard annotations and the compiler's propagation
// decides everything in between (as for a hand-annotated program).
//
// tensor (Megatron-LM's layout, found by data flow): the first MatMul/Gemm by
// a weight that no earlier split decided is split by columns (output
// features); its output is followed through elementwise ops, reshapes,
// transposes, Softmax and matmuls between activations (attention), and every
// MatMul/Gemm by a weight it reaches is split by rows (input features), so the
// activation between them stays split and the pair costs one all_reduce.
// Attention: Q/K/V projections split by columns put whole heads on each
// process (a fused QKV weight is cut into its Q, K and V blocks first, see
// unfuseProjections) and computed heads-major (headMajorAttention), the
// output projection by rows. A token embedding (Gather from an initializer
// [V, H] by run-time ids) becomes a vocabulary-parallel one-hot lookup, the
// table split by rows (vocabularyParallelEmbeddings): no table moves.
//
//===----------------------------------------------------------------------===//
#include "Sharding.h"
#include "ShardingGraph.h"

#include <fstream>
#include <optional>
#include <set>
#include <sstream>

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/JSON.h"

namespace meshvk::onnx_import {
namespace {

void replicated(Importer &im, const std::string &name, const std::string &why,
                OnnxSignature *signature) {
  if (signature)
    signature->plan.push_back(name + ": replicated (" + why + ")");
}

void planData(Importer &im, const onnx::GraphProto &graph, const DataFlow &flow, int64_t axis,
              int64_t processes, OnnxSignature *signature) {
  for (const auto &input : graph.input()) {
    if (flow.isInitializer(input.name()))
      continue;
    const auto &type = input.type().tensor_type();
    if (type.shape().dim_size() == 0) {
      replicated(im, input.name(), "data: a scalar has no leading dimension", signature);
      continue;
    }
    const auto &d0 = type.shape().dim(0);
    if (d0.has_dim_value() && d0.dim_value() < processes) {
      replicated(im, input.name(),
                 "data: its leading dimension " + std::to_string(d0.dim_value()) +
                     " is smaller than the " + count(processes, "process"),
                 signature);
      continue;
    }
    im.splits[input.name()] = splitDim(type.shape().dim_size(), 0, axis);
    im.splitReasons[input.name()] = "data: leading dimension";
  }
}

// The Megatron policy over grid axis `axis` of `processes` processes.
class TensorPlan {
public:
  TensorPlan(Importer &im, const onnx::GraphProto &graph, const DataFlow &flow, int64_t axis,
             int64_t processes, OnnxSignature *signature)
      : im(im), graph(graph), flow(flow), axis(axis), processes(processes), signature(signature) {}

  void run() {
    for (int i = 0; i < graph.node_size(); ++i) {
      const auto &node = graph.node(i);
      const std::string &op = node.op_type();
      if (isWeightMatMul(node) && !decided.count(i))
        columnsThenRows(i);
      else if (op == "Gather")
        embedding(node);
      else if (op == "Conv")
        convolution(node, 0, "tensor: convolution output channels");
      else if (op == "ConvTranspose")
        convolution(node, 1, "tensor: transposed-convolution output channels");
    }
  }

private:
  Importer &im;
  const onnx::GraphProto &graph;
  const DataFlow &flow;
  int64_t axis, processes;
  OnnxSignature *signature;
  std::set<int> decided;              // MatMul/Gemm nodes whose weight is decided
  std::set<std::string> weightsSplit; // each weight once

  bool isWeightMatMul(const onnx::NodeProto &node) const {
    const std::string &op = node.op_type();
    return (op == "MatMul" || op == "Gemm") && node.input_size() >= 2 &&
           flow.isInitializer(node.input(1)) && !flow.isInitializer(node.input(0)) &&
           flow.shape(node.input(1)).size() == 2;
  }
  static bool transB(const onnx::NodeProto &node) {
    const auto *a = findAttribute(node, "transB");
    return node.op_type() == "Gemm" && a && a->i() != 0;
  }
  // Ops a split activation passes through on its way to the next weight.
  static bool passesSplit(const onnx::NodeProto &node) {
    static const std::set<std::string> ops = {
        "Add",       "Sub",      "Mul",       "Div",     "Pow",        "Relu",    "LeakyRelu",
        "Gelu",      "Erf",      "Tanh",      "Sigmoid", "Sqrt",       "Exp",     "Neg",
        "Abs",       "Cast",     "Identity",  "Where",   "Clip",       "Dropout", "HardSigmoid",
        "HardSwish", "Softplus", "Elu",       "Selu",    "Reciprocal", "Reshape", "Transpose",
        "Softmax",   "Squeeze",  "Unsqueeze", "MatMul",  "Split"};
    return ops.count(node.op_type());
  }

  void split(const std::string &name, size_t rank, size_t dim, const std::string &why) {
    im.splits[name] = splitDim(rank, dim, axis);
    im.splitReasons[name] = why;
    weightsSplit.insert(name);
  }

  // The bias of a column-split MatMul/Gemm (Gemm's C, or an Add of a vector
  // of the output features) is split with it.
  void splitBias(const onnx::NodeProto &node, int64_t features, const std::string &weight) {
    std::string bias;
    if (node.op_type() == "Gemm" && node.input_size() > 2 && isBias(flow, node.input(2), features))
      bias = node.input(2);
    int c = flow.onlyConsumer(node.output(0));
    if (node.op_type() == "MatMul" && c >= 0 && graph.node(c).op_type() == "Add") {
      const auto &add = graph.node(c);
      const std::string &other = add.input(0) == node.output(0) ? add.input(1) : add.input(0);
      if (isBias(flow, other, features))
        bias = other;
    }
    if (!bias.empty() && !weightsSplit.count(bias))
      split(bias, 1, 0, "tensor: bias of the column-split '" + weight + "'");
  }

  // Node `i` by columns, the weights its output reaches by rows.
  void columnsThenRows(int i) {
    const auto &node = graph.node(i);
    const std::string &w = node.input(1);
    std::vector<int64_t> shape = flow.shape(w);
    size_t dim = transB(node) ? 0 : 1;
    int64_t features = shape[dim];
    decided.insert(i);
    std::string why;
    if (auto r = im.replicatedReasons.find(w); r != im.replicatedReasons.end())
      why = r->second;
    else if (weightsSplit.count(w) || im.splits.count(w))
      return; // decided already (a vocabulary-parallel lookup's table)
    else if (features % processes != 0)
      why = "tensor: its " + count(features, "output feature") + " do not divide over " +
            count(processes, "process");
    else if (int64_t heads = headsAfter(graph, flow, node.output(0), features);
             heads && heads % processes != 0)
      why = "tensor: attention projection of " + count(heads, "head") +
            ", which do not divide over " + count(processes, "process");
    if (!why.empty()) {
      replicated(im, w, why, signature);
      followToRows(node.output(0), w, /*split=*/false);
      return;
    }
    int64_t heads = headsAfter(graph, flow, node.output(0), features);
    split(w, 2, dim,
          heads ? "tensor: attention projection, columns: " + count(heads / processes, "head") +
                      " per process"
                : "tensor: first of a MatMul pair, columns");
    splitBias(node, features, w);
    if (followToRows(node.output(0), w, /*split=*/true) == 0 && !heads)
      im.splitReasons[w] = "tensor: columns (output features); no weight reads its output, "
                           "which is gathered where it is used whole";
  }

  // Follows `value` (the output of weight `from`'s MatMul) to the next
  // MatMul/Gemm by a weight: rows when `from` was split, else replicated.
  // Returns how many weights it reached.
  int followToRows(const std::string &value, const std::string &from, bool isSplit) {
    int reached = 0;
    std::vector<std::string> work = {value};
    std::set<std::string> seen;
    while (!work.empty()) {
      std::string v = work.back();
      work.pop_back();
      if (!seen.insert(v).second)
        continue;
      auto it = flow.consumers.find(v);
      if (it == flow.consumers.end())
        continue;
      for (int c : it->second) {
        const auto &node = graph.node(c);
        if (isWeightMatMul(node) && node.input(0) == v) {
          rows(c, from, isSplit);
          ++reached;
        } else if (passesSplit(node)) {
          for (const auto &o : node.output())
            work.push_back(o);
        }
      }
    }
    return reached;
  }

  void rows(int i, const std::string &from, bool isSplit) {
    if (decided.count(i))
      return;
    decided.insert(i);
    const auto &node = graph.node(i);
    const std::string &w = node.input(1);
    if (weightsSplit.count(w))
      return;
    if (!isSplit) {
      replicated(im, w, "tensor: its input comes from '" + from + "', which is not split",
                 signature);
      return;
    }
    size_t dim = transB(node) ? 1 : 0;
    int64_t features = flow.shape(w)[dim];
    if (features % processes != 0) {
      replicated(im, w,
                 "tensor: fed by the column split of '" + from + "', but its " +
                     count(features, "input feature") + " do not divide over " +
                     count(processes, "process"),
                 signature);
      return;
    }
    split(w, 2, dim, "tensor: rows, fed by the column split of '" + from + "'");
  }

  // A Gather from a table [V, H] that vocabularyParallelEmbeddings left as a
  // Gather: replicated, with the reason.
  void embedding(const onnx::NodeProto &node) {
    const auto *axisAttr = findAttribute(node, "axis");
    const std::string &table = node.input(0);
    std::vector<int64_t> shape = flow.shape(table);
    if (!flow.isInitializer(table) || shape.size() != 2 || (axisAttr && axisAttr->i() != 0) ||
        weightsSplit.count(table) || im.splits.count(table) ||
        !isFloatType(flow.initializers.at(table)->data_type()))
      return;
    if (auto r = im.replicatedReasons.find(table); r != im.replicatedReasons.end()) {
      replicated(im, table, r->second, signature);
      return;
    }
    auto producer = flow.producer.find(node.input(1));
    if (flow.isInitializer(node.input(1)) ||
        (producer != flow.producer.end() && graph.node(producer->second).op_type() == "Constant")) {
      replicated(im, table,
                 "tensor: embedding table read at constant positions (the lookup folds at "
                 "import; a split would only add a copy)",
                 signature);
      return;
    }
    // Not made a vocabulary-parallel lookup (read by other nodes too, not
    // f32): a Gather reads its table whole on every process, so a split of
    // either dimension would be all-gathered on every call.
    replicated(im, table,
               "tensor: embedding table read by other nodes too or not f32: its Gather reads "
               "it whole on every process, so a split would all-gather it on every call",
               signature);
  }

  void convolution(const onnx::NodeProto &node, size_t dim, const char *why) {
    if (node.input_size() < 2 || !flow.isInitializer(node.input(1)))
      return;
    const std::string &w = node.input(1);
    std::vector<int64_t> shape = flow.shape(w);
    const auto *groupAttr = findAttribute(node, "group");
    int64_t group = groupAttr ? groupAttr->i() : 1;
    if (shape.size() < 3 || weightsSplit.count(w))
      return;
    if (dim == 1 && group != 1) {
      replicated(im, w, "tensor: a grouped transposed convolution", signature);
      return;
    }
    if (shape[dim] % processes != 0) {
      replicated(im, w,
                 std::string(why) + ": " + count(shape[dim], "channel") + " do not divide over " +
                     count(processes, "process"),
                 signature);
      return;
    }
    split(w, shape.size(), dim, why);
  }
};

// A sharding spec as read from its file: {"grid": [N, ...], "tensors":
// {"name": [[axes], ...], ...}}, the tensors in the file's order.
struct ShardSpec {
  std::optional<std::vector<int64_t>> grid; // absent: the policy's grid
  struct Entry {
    std::string name;
    bool axisLists = false; // the value is a list (of axis lists)
    std::vector<std::vector<int64_t>> axes;
  };
  std::vector<Entry> tensors;
};

// The spec file at `path`, parsed once; false with the error when it cannot
// be read or is not a spec (no "tensors" object).
bool readShardSpec(const std::string &path, ShardSpec *spec, std::string *error) {
  std::ifstream in(path);
  if (!in) {
    *error = path + ": cannot read the sharding spec";
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
    *error = path + ": not a sharding spec (expected {\"grid\": [N], \"tensors\": {\"name\": "
                    "[[axes], ...]}})";
    return false;
  }
  if (const llvm::json::Array *grid = object->getArray("grid")) {
    spec->grid.emplace();
    for (const auto &v : *grid)
      spec->grid->push_back(v.getAsInteger().value_or(1));
  }
  for (const auto &[key, value] : *tensors) {
    ShardSpec::Entry &entry = spec->tensors.emplace_back();
    entry.name = key.str();
    const llvm::json::Array *dims = value.getAsArray();
    entry.axisLists = dims != nullptr;
    for (size_t d = 0; dims && d < dims->size(); ++d) {
      entry.axes.emplace_back();
      const llvm::json::Array *grid = (*dims)[d].getAsArray();
      for (size_t k = 0; grid && k < grid->size(); ++k)
        if (auto a = (*grid)[k].getAsInteger())
          entry.axes.back().push_back(*a);
    }
  }
  return true;
}

// The spec's splits on the model's tensors; false with the error for a name
// the model lacks or a value that is not a list of axis lists.
bool planSpec(Importer &im, const onnx::GraphProto &graph, const ShardSpec &spec,
              std::string *error) {
  std::set<std::string> names;
  for (const auto &v : graph.input())
    names.insert(v.name());
  for (const auto &v : graph.initializer())
    names.insert(v.name());
  for (const auto &n : graph.node())
    for (const auto &o : n.output())
      names.insert(o);
  for (const ShardSpec::Entry &entry : spec.tensors) {
    if (!names.count(entry.name)) {
      *error = im.options.specPath + ": tensor '" + entry.name + "' is not in the model";
      return false;
    }
    if (!entry.axisLists) {
      *error = im.options.specPath + ": tensor '" + entry.name + "': expected a list of axis lists";
      return false;
    }
    im.splits[entry.name] = entry.axes;
    im.splitReasons[entry.name] = "spec";
  }
  return true;
}

const char *policyName(OnnxShardPolicy p) {
  switch (p) {
  case OnnxShardPolicy::None:
    return "none";
  case OnnxShardPolicy::Data:
    return "data";
  case OnnxShardPolicy::Tensor:
    return "tensor";
  case OnnxShardPolicy::Spec:
    return "SPEC.json";
  case OnnxShardPolicy::Grid:
    return "grid";
  }
  return "?";
}

std::string policyText(const OnnxImportOptions &options) {
  if (options.shard != OnnxShardPolicy::Grid)
    return policyName(options.shard);
  std::string text;
  for (size_t a = 0; a < options.axisPolicies.size(); ++a)
    text += (a ? "," : "") + std::string(policyName(options.axisPolicies[a]));
  return text;
}

std::string gridText(const std::vector<int64_t> &grid) {
  std::string text;
  for (size_t a = 0; a < grid.size(); ++a)
    text += (a ? "x" : "") + std::to_string(grid[a]);
  return text;
}

// One copy of the grid check (checkOnnxShardGrid and the importer).
bool checkGrid(const OnnxImportOptions &options, const std::vector<int64_t> &grid,
               std::string *error) {
  if (options.shard == OnnxShardPolicy::None || options.shard == OnnxShardPolicy::Spec)
    return true;
  size_t rank = options.shard == OnnxShardPolicy::Grid ? options.axisPolicies.size() : 1;
  if (grid.size() == rank || (grid.empty() && rank == 1))
    return true;
  if (grid.empty())
    *error = "--shard=" + policyText(options) + " needs a grid of " + std::to_string(rank) +
             " axes, one per policy: give --grid-shape (e.g. --grid-shape=2x2)";
  else if (rank == 1)
    *error = "--shard=" + policyText(options) + " splits over a 1-D grid, got the grid " +
             gridText(grid) + " (give --shard=data,tensor for a 2-D grid)";
  else
    *error = "--shard=" + policyText(options) + " needs a grid of " + std::to_string(rank) +
             " axes, one per policy (e.g. --grid-shape=2x2), got the grid " + gridText(grid);
  return false;
}

} // namespace

bool planSharding(Importer &im, const onnx::GraphProto &graph, OnnxSignature *signature,
                  std::vector<int64_t> *grid) {
  if (im.options.shard == OnnxShardPolicy::Spec) {
    ShardSpec spec;
    if (!readShardSpec(im.options.specPath, &spec, &im.error) ||
        !planSpec(im, graph, spec, &im.error))
      return false;
    *grid = spec.grid ? *spec.grid : policyGrid(im.options);
    return true;
  }
  *grid = policyGrid(im.options);
  if (!checkGrid(im.options, *grid, &im.error))
    return false;
  DataFlow flow(graph);
  if (int64_t axis = policyAxis(im.options, OnnxShardPolicy::Data); axis >= 0)
    planData(im, graph, flow, axis, (*grid)[axis], signature);
  if (int64_t axis = policyAxis(im.options, OnnxShardPolicy::Tensor); axis >= 0)
    TensorPlan(im, graph, flow, axis, (*grid)[axis], signature).run();
  return true;
}

} // namespace meshvk::onnx_import

namespace meshvk {

bool parseOnnxShardPolicy(llvm::StringRef text, OnnxImportOptions *options, std::string *error) {
  options->axisPolicies.clear();
  if (text == "none")
    options->shard = OnnxShardPolicy::None;
  else if (text == "data")
    options->shard = OnnxShardPolicy::Data;
  else if (text == "tensor")
    options->shard = OnnxShardPolicy::Tensor;
  else if (text.contains(',')) {
    llvm::SmallVector<llvm::StringRef> names;
    text.split(names, ',');
    for (llvm::StringRef name : names) {
      OnnxShardPolicy p = name == "data"     ? OnnxShardPolicy::Data
                          : name == "tensor" ? OnnxShardPolicy::Tensor
                                             : OnnxShardPolicy::None;
      if (p == OnnxShardPolicy::None) {
        *error = "--shard=" + text.str() + ": '" + name.str() +
                 "' cannot be in a policy list (expected one policy per grid axis: "
                 "data,tensor or tensor,data)";
        return false;
      }
      if (llvm::is_contained(options->axisPolicies, p)) {
        *error = "--shard=" + text.str() + ": '" + name.str() +
                 "' is listed twice (expected each policy once: data,tensor or tensor,data)";
        return false;
      }
      options->axisPolicies.push_back(p);
    }
    options->shard = OnnxShardPolicy::Grid;
  } else if (text.ends_with(".json")) {
    options->shard = OnnxShardPolicy::Spec;
    options->specPath = text.str();
  } else {
    *error =
        "--shard=" + text.str() + ": expected none, data, tensor, data,tensor or a SPEC.json path";
    return false;
  }
  return true;
}

bool checkOnnxShardGrid(llvm::StringRef policy, const std::vector<int64_t> &grid,
                        std::string *error) {
  OnnxImportOptions options;
  if (!parseOnnxShardPolicy(policy, &options, error))
    return false;
  return onnx_import::checkGrid(options, grid, error);
}

} // namespace meshvk

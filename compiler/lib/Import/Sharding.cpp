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

#include <fstream>
#include <set>
#include <sstream>

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/JSON.h"

namespace meshvk::onnx_import {
namespace {

// Split axes of a rank-`rank` tensor: dimension `dim` over grid axis `axis`.
std::vector<std::vector<int64_t>> splitDim(size_t rank, size_t dim, int64_t axis) {
  std::vector<std::vector<int64_t>> axes(dim + 1);
  axes[dim] = {axis};
  (void)rank;
  return axes;
}

// The grid axis a policy splits over (-1: the policy is not in use).
int64_t policyAxis(const OnnxImportOptions &options, OnnxShardPolicy policy) {
  if (options.shard == policy)
    return 0;
  if (options.shard != OnnxShardPolicy::Grid)
    return -1;
  for (size_t a = 0; a < options.axisPolicies.size(); ++a)
    if (options.axisPolicies[a] == policy)
      return static_cast<int64_t>(a);
  return -1;
}

std::vector<int64_t> policyGrid(const OnnxImportOptions &options) {
  return options.gridShape.empty() ? std::vector<int64_t>{options.devices} : options.gridShape;
}

// Producers and consumers of a graph's values, and the declared shapes.
struct DataFlow {
  std::map<std::string, int> producer;
  std::map<std::string, std::vector<int>> consumers;
  std::map<std::string, const onnx::TensorProto *> initializers;
  std::map<std::string, std::vector<int64_t>> shapes; // -1: an unknown dimension

  explicit DataFlow(const onnx::GraphProto &graph) {
    for (const auto &init : graph.initializer()) {
      initializers[init.name()] = &init;
      shapes[init.name()] = std::vector<int64_t>(init.dims().begin(), init.dims().end());
    }
    auto info = [&](const onnx::ValueInfoProto &v) {
      if (!v.type().tensor_type().has_shape() || shapes.count(v.name()))
        return;
      std::vector<int64_t> shape;
      for (const auto &d : v.type().tensor_type().shape().dim())
        shape.push_back(d.has_dim_value() ? d.dim_value() : -1);
      shapes[v.name()] = shape;
    };
    for (const auto &v : graph.input())
      info(v);
    for (const auto &v : graph.value_info())
      info(v);
    for (const auto &v : graph.output())
      info(v);
    for (int i = 0; i < graph.node_size(); ++i) {
      const auto &node = graph.node(i);
      for (const auto &o : node.output())
        producer[o] = i;
      for (const auto &in : node.input())
        if (!in.empty())
          consumers[in].push_back(i);
    }
  }
  bool isInitializer(const std::string &name) const { return initializers.count(name); }
  std::vector<int64_t> shape(const std::string &name) const {
    auto it = shapes.find(name);
    return it == shapes.end() ? std::vector<int64_t>{} : it->second;
  }
  size_t uses(const std::string &name) const {
    auto it = consumers.find(name);
    return it == consumers.end() ? 0 : it->second.size();
  }
  // The only consumer of `name`, or -1.
  int onlyConsumer(const std::string &name) const {
    auto it = consumers.find(name);
    return it == consumers.end() || it->second.size() != 1 ? -1 : it->second[0];
  }
};

bool isBias(const DataFlow &flow, const std::string &name, int64_t features) {
  std::vector<int64_t> shape = flow.shape(name);
  return flow.isInitializer(name) && shape.size() == 1 && shape[0] == features;
}

// The head count of a projection output [.., N] reshaped (after an optional
// bias Add) to [.., H, N/H]; 0 when no such Reshape reads it.
int64_t headsAfter(const onnx::GraphProto &graph, const DataFlow &flow, const std::string &value,
                   int64_t features) {
  int c = flow.onlyConsumer(value);
  if (c < 0)
    return 0;
  const auto &node = graph.node(c);
  if (node.op_type() == "Add" && node.input_size() == 2) {
    const std::string &other = node.input(0) == value ? node.input(1) : node.input(0);
    if (isBias(flow, other, features))
      return headsAfter(graph, flow, node.output(0), features);
    return 0;
  }
  if (node.op_type() != "Reshape" || node.input(0) != value)
    return 0;
  std::vector<int64_t> in = flow.shape(value), out = flow.shape(node.output(0));
  if (in.empty() || out.size() != in.size() + 1 || out.back() <= 0 || out[out.size() - 2] <= 0 ||
      out.back() * out[out.size() - 2] != features)
    return 0;
  return out[out.size() - 2];
}

std::string count(int64_t n, const std::string &what) {
  bool es = !what.empty() && what.back() == 's';
  return std::to_string(n) + " " + what + (n == 1 ? "" : es ? "es" : "s");
}

// One fused projection: MatMul(x, W) [+ Add(bias)] -> Split(last axis, n equal parts).
struct FusedProjection {
  int matmul = -1, add = -1, split = -1;
  std::string weight, bias;
  int64_t rows = 0, columns = 0, parts = 0, heads = 0;
};

// The fused projection whose Split is node `s`, or why it is not one ("": not
// a projection at all, nothing to say).
bool findFusedProjection(const onnx::GraphProto &graph, const DataFlow &flow, int s,
                         FusedProjection *f, std::string *why) {
  const auto &split = graph.node(s);
  if (split.op_type() != "Split" || split.output_size() < 2)
    return false;
  const std::string &a = split.input(0);
  std::vector<int64_t> shape = flow.shape(a);
  const auto *axisAttr = findAttribute(split, "axis");
  int64_t axis = axisAttr ? axisAttr->i() : 0;
  if (shape.size() < 2 || (axis != -1 && axis != static_cast<int64_t>(shape.size()) - 1))
    return false;
  auto producer = flow.producer.find(a);
  if (producer == flow.producer.end())
    return false;
  std::string m = a;
  const auto &p = graph.node(producer->second);
  if (p.op_type() == "Add" && p.input_size() == 2) {
    bool first = flow.isInitializer(p.input(0));
    f->bias = first ? p.input(0) : p.input(1);
    m = first ? p.input(1) : p.input(0);
    f->add = producer->second;
    auto mp = flow.producer.find(m);
    if (mp == flow.producer.end())
      return false;
    f->matmul = mp->second;
  } else {
    f->matmul = producer->second;
  }
  const auto &mm = graph.node(f->matmul);
  if (mm.op_type() != "MatMul" || !flow.isInitializer(mm.input(1)) ||
      flow.isInitializer(mm.input(0)))
    return false;
  f->weight = mm.input(1);
  std::vector<int64_t> w = flow.shape(f->weight);
  if (w.size() != 2)
    return false;
  f->rows = w[0], f->columns = w[1], f->parts = split.output_size();
  if (f->columns % f->parts != 0)
    return false;
  int64_t part = f->columns / f->parts;
  for (const auto &o : split.output()) {
    std::vector<int64_t> os = flow.shape(o);
    if (os.empty() || os.back() != part)
      return false; // unequal parts
    int64_t heads = headsAfter(graph, flow, o, part);
    if (heads == 0 || (f->heads && heads != f->heads))
      return false; // not an attention projection
    f->heads = heads;
  }
  if (!f->bias.empty() && !isBias(flow, f->bias, f->columns)) {
    *why = "its bias '" + f->bias + "' is not a vector of " + std::to_string(f->columns);
    return true;
  }
  if (flow.uses(f->weight) != 1 || (!f->bias.empty() && flow.uses(f->bias) != 1) ||
      flow.uses(mm.output(0)) != 1 || (f->add >= 0 && flow.uses(a) != 1)) {
    *why = "the weight, its bias or its output is read by other nodes too";
    return true;
  }
  if (flow.initializers.at(f->weight)->data_type() != onnx::TensorProto::FLOAT ||
      (!f->bias.empty() &&
       flow.initializers.at(f->bias)->data_type() != onnx::TensorProto::FLOAT)) {
    *why = "the weight is not f32";
    return true;
  }
  return true;
}

onnx::TensorProto columnBlock(const std::string &name, const OnnxHostTensor &host, int64_t rows,
                              int64_t columns, int64_t begin, int64_t width) {
  onnx::TensorProto t;
  t.set_name(name);
  t.set_data_type(onnx::TensorProto::FLOAT);
  if (rows > 0)
    t.add_dims(rows);
  t.add_dims(width);
  for (int64_t r = 0; r < std::max<int64_t>(rows, 1); ++r)
    for (int64_t c = begin; c < begin + width; ++c)
      t.add_float_data(static_cast<float>(host.reals[r * columns + c]));
  return t;
}

bool decodeInitializer(Importer &im, const DataFlow &flow, const std::string &name,
                       OnnxHostTensor *host) {
  if (!decodeTensor(*flow.initializers.at(name), im.directory, host, &im.error))
    return false;
  return true;
}

// Rewrites one fused projection into `parts` MatMuls (+ bias Adds) writing
// the Split's outputs; the nodes go into *added, the blocks into *blocks.
bool unfuse(Importer &im, const onnx::GraphProto &graph, const DataFlow &flow,
            const FusedProjection &f, std::vector<onnx::NodeProto> *added,
            std::vector<onnx::TensorProto> *blocks, std::vector<onnx::ValueInfoProto> *infos) {
  OnnxHostTensor w, b;
  if (!decodeInitializer(im, flow, f.weight, &w) ||
      (!f.bias.empty() && !decodeInitializer(im, flow, f.bias, &b)))
    return false;
  const auto &mm = graph.node(f.matmul);
  const auto &split = graph.node(f.split);
  int64_t width = f.columns / f.parts;
  bool biasFirst = f.add >= 0 && graph.node(f.add).input(0) == f.bias;
  for (int64_t i = 0; i < f.parts; ++i) {
    std::string range = std::to_string(i * width) + ":" + std::to_string((i + 1) * width);
    std::string wName = f.weight + "[:, " + range + "]";
    blocks->push_back(columnBlock(wName, w, f.rows, f.columns, i * width, width));
    onnx::NodeProto matmul;
    matmul.set_op_type("MatMul");
    matmul.set_name(mm.name() + "[" + range + "]");
    matmul.add_input(mm.input(0));
    matmul.add_input(wName);
    std::string product = f.add >= 0 ? mm.output(0) + "[" + range + "]" : split.output(i);
    matmul.add_output(product);
    added->push_back(matmul);
    if (f.add < 0)
      continue;
    std::string bName = f.bias + "[" + range + "]";
    blocks->push_back(columnBlock(bName, b, 0, f.columns, i * width, width));
    onnx::NodeProto add;
    add.set_op_type("Add");
    add.set_name(graph.node(f.add).name() + "[" + range + "]");
    add.add_input(biasFirst ? bName : product);
    add.add_input(biasFirst ? product : bName);
    add.add_output(split.output(i));
    added->push_back(add);
    // The product's type: the MatMul's with the block's width.
    onnx::ValueInfoProto info;
    info.set_name(product);
    auto *type = info.mutable_type()->mutable_tensor_type();
    type->set_elem_type(onnx::TensorProto::FLOAT);
    for (int64_t d : flow.shape(mm.output(0)))
      type->mutable_shape()->add_dim()->set_dim_value(d);
    int last = type->shape().dim_size() - 1;
    if (last >= 0)
      type->mutable_shape()->mutable_dim(last)->set_dim_value(width);
    infos->push_back(info);
  }
  return true;
}

std::vector<int64_t> permutationOf(const onnx::NodeProto &node) {
  const auto *perm = findAttribute(node, "perm");
  return perm ? std::vector<int64_t>(perm->ints().begin(), perm->ints().end())
              : std::vector<int64_t>{};
}

void setPermutation(onnx::NodeProto *node, const std::vector<int64_t> &perm) {
  for (auto &a : *node->mutable_attribute())
    if (a.name() == "perm") {
      a.clear_ints();
      for (int64_t p : perm)
        a.add_ints(p);
    }
}

// The Transpose node that writes `value` with permutation `perm` for its only
// reader, or -1.
int transposeInto(const onnx::GraphProto &graph, const DataFlow &flow, const std::string &value,
                  const std::vector<int64_t> &perm) {
  auto p = flow.producer.find(value);
  if (p == flow.producer.end() || flow.uses(value) != 1)
    return -1;
  const auto &node = graph.node(p->second);
  return node.op_type() == "Transpose" && permutationOf(node) == perm ? p->second : -1;
}

// One attention: scores = MatMul(Transpose(q), Transpose(k)), elementwise ops
// and Softmax, context = MatMul(., Transpose(v)), Transpose back.
struct Attention {
  int q = -1, k = -1, v = -1, out = -1, scores = -1, context = -1;
  std::vector<int> between;
};

bool findAttention(const onnx::GraphProto &graph, const DataFlow &flow, int s, Attention *a) {
  const auto &scores = graph.node(s);
  if (scores.op_type() != "MatMul" || flow.isInitializer(scores.input(0)) ||
      flow.isInitializer(scores.input(1)))
    return false;
  a->scores = s;
  a->q = transposeInto(graph, flow, scores.input(0), {0, 2, 1, 3});
  a->k = transposeInto(graph, flow, scores.input(1), {0, 2, 3, 1});
  if (a->q < 0 || a->k < 0)
    return false;
  std::string value = scores.output(0);
  static const std::set<std::string> elementwise = {"Mul", "Div", "Add", "Sub", "Where", "Softmax"};
  for (;;) {
    int c = flow.onlyConsumer(value);
    if (c < 0)
      return false;
    const auto &node = graph.node(c);
    if (node.op_type() == "MatMul" && node.input(0) == value) {
      a->context = c;
      break;
    }
    if (!elementwise.count(node.op_type()))
      return false;
    if (node.op_type() == "Softmax") {
      const auto *axis = findAttribute(node, "axis");
      if (axis && axis->i() != -1 && axis->i() != 3)
        return false;
    }
    // Other operands must broadcast over the two leading dimensions alike.
    for (const auto &in : node.input()) {
      std::vector<int64_t> shape = flow.shape(in);
      if (in != value && shape.size() >= 3 &&
          !(shape.size() == 4 && shape[0] == 1 && shape[1] == 1))
        return false;
    }
    a->between.push_back(c);
    value = node.output(0);
  }
  const auto &context = graph.node(a->context);
  a->v = transposeInto(graph, flow, context.input(1), {0, 2, 1, 3});
  int reader = flow.onlyConsumer(context.output(0));
  if (a->v < 0 || reader < 0 || graph.node(reader).op_type() != "Transpose" ||
      permutationOf(graph.node(reader)) != std::vector<int64_t>{0, 2, 1, 3})
    return false;
  a->out = reader;
  return true;
}

// Attention in the layout torch exports, [B, H, T, D], feeds its batched
// matmuls a B*H batch whose split H is not the leading dimension: the
// compiler cannot keep that split through the merge and gathers the heads.
// The same attention in [H, B, T, D] (the head Transposes permuted, the
// output Transpose undoing it) merges a leading split dimension, which stays
// split: no collective inside attention.
onnx::NodeProto makeNode(const std::string &op, const std::string &name,
                         std::vector<std::string> inputs, const std::string &output) {
  onnx::NodeProto node;
  node.set_op_type(op);
  node.set_name(name);
  for (auto &in : inputs)
    node.add_input(in);
  node.add_output(output);
  return node;
}

onnx::TensorProto int64Vector(const std::string &name, const std::vector<int64_t> &values) {
  onnx::TensorProto t;
  t.set_name(name);
  t.set_data_type(onnx::TensorProto::INT64);
  t.add_dims(static_cast<int64_t>(values.size()));
  for (int64_t v : values)
    t.add_int64_data(v);
  return t;
}

// A token embedding (Gather from an f32 table [V, H] by run-time ids) as
// Megatron's vocabulary-parallel lookup: one_hot(ids) [.., V] @ table, the
// table split by rows (vocabulary). Each process compares the ids with its
// own rows and multiplies by its rows; the partial sums meet in one
// all_reduce of the [.., H] result. The lookup itself (tosa.gather) would
// read its table whole on every process, so any split of the table would be
// all-gathered on every call. Negative ids count from the end, as in Gather.
void vocabularyParallelEmbeddings(Importer &im, onnx::GraphProto &graph, OnnxSignature *signature,
                                  int64_t axis, int64_t processes) {
  DataFlow flow(graph);
  google::protobuf::RepeatedPtrField<onnx::NodeProto> nodes;
  bool changed = false;
  for (int i = 0; i < graph.node_size(); ++i) {
    const auto &g = graph.node(i);
    std::vector<int64_t> shape =
        g.op_type() == "Gather" ? flow.shape(g.input(0)) : std::vector<int64_t>{};
    const auto *axisAttr = findAttribute(g, "axis");
    bool runTimeIds = g.input_size() == 2 && !flow.isInitializer(g.input(1)) &&
                      !(flow.producer.count(g.input(1)) &&
                        graph.node(flow.producer.at(g.input(1))).op_type() == "Constant");
    if (shape.size() != 2 || (axisAttr && axisAttr->i() != 0) || !flow.isInitializer(g.input(0)) ||
        flow.initializers.at(g.input(0))->data_type() != onnx::TensorProto::FLOAT || !runTimeIds ||
        flow.uses(g.input(0)) != 1) {
      *nodes.Add() = g;
      continue;
    }
    const std::string &table = g.input(0), &ids = g.input(1);
    int64_t vocabulary = shape[0];
    if (vocabulary % processes != 0) {
      im.replicatedReasons[table] = "tensor: embedding table of " + count(vocabulary, "row") +
                                    ", which do not divide over " + count(processes, "process");
      *nodes.Add() = g;
      continue;
    }
    std::string base = g.name().empty() ? table : g.name();
    std::vector<int64_t> rows(vocabulary), fromEnd(vocabulary);
    for (int64_t v = 0; v < vocabulary; ++v)
      rows[v] = v, fromEnd[v] = v - vocabulary;
    *graph.add_initializer() = int64Vector(base + "/last_axis", {-1});
    *graph.add_initializer() = int64Vector(base + "/rows", rows);
    *graph.add_initializer() = int64Vector(base + "/rows_from_end", fromEnd);
    *nodes.Add() = makeNode("Unsqueeze", base + "/ids", {ids, base + "/last_axis"}, base + "/ids");
    *nodes.Add() =
        makeNode("Equal", base + "/is_row", {base + "/ids", base + "/rows"}, base + "/is_row");
    *nodes.Add() = makeNode("Equal", base + "/is_row_from_end",
                            {base + "/ids", base + "/rows_from_end"}, base + "/is_row_from_end");
    *nodes.Add() =
        makeNode("Or", base + "/hit", {base + "/is_row", base + "/is_row_from_end"}, base + "/hit");
    onnx::NodeProto cast = makeNode("Cast", base + "/one_hot", {base + "/hit"}, base + "/one_hot");
    auto *to = cast.add_attribute();
    to->set_name("to");
    to->set_type(onnx::AttributeProto::INT);
    to->set_i(onnx::TensorProto::FLOAT);
    *nodes.Add() = cast;
    *nodes.Add() = makeNode("MatMul", base + "/lookup", {base + "/one_hot", table}, g.output(0));
    im.splits[table] = splitDim(2, 0, axis);
    im.splitReasons[table] = "tensor: embedding table, vocabulary rows (one-hot lookup, one "
                             "all_reduce of its result)";
    signature->plan.push_back("lookup '" + g.name() + "' of '" + table +
                              "': vocabulary-parallel, one_hot(ids) @ table (tensor: a Gather "
                              "would read the split table whole on every process)");
    changed = true;
  }
  if (changed)
    graph.mutable_node()->Swap(&nodes);
}

void headMajorAttention(onnx::GraphProto &graph, OnnxSignature *signature) {
  DataFlow flow(graph);
  std::set<std::string> swapped; // tensors now [H, B, ...]
  for (int s = 0; s < graph.node_size(); ++s) {
    Attention a;
    if (!findAttention(graph, flow, s, &a))
      continue;
    setPermutation(graph.mutable_node(a.q), {2, 0, 1, 3});
    setPermutation(graph.mutable_node(a.k), {2, 0, 3, 1});
    setPermutation(graph.mutable_node(a.v), {2, 0, 1, 3});
    setPermutation(graph.mutable_node(a.out), {1, 2, 0, 3});
    for (int n : {a.q, a.k, a.v, a.scores, a.context})
      swapped.insert(graph.node(n).output(0));
    for (int n : a.between)
      swapped.insert(graph.node(n).output(0));
    signature->plan.push_back("attention '" + graph.node(s).name() +
                              "': computed heads-major, [H, B, T, D] (tensor: its batched "
                              "matmuls keep the head split)");
  }
  for (auto &info : *graph.mutable_value_info()) {
    if (!swapped.count(info.name()))
      continue;
    auto *shape = info.mutable_type()->mutable_tensor_type()->mutable_shape();
    if (shape->dim_size() >= 2)
      shape->mutable_dim()->SwapElements(0, 1);
  }
}

bool unfuseProjections(Importer &im, onnx::GraphProto &graph, OnnxSignature *signature,
                       int64_t axis) {
  std::vector<int64_t> grid = policyGrid(im.options);
  int64_t processes = axis < static_cast<int64_t>(grid.size()) ? grid[axis] : 1;
  DataFlow flow(graph);
  std::vector<FusedProjection> fused;
  for (int s = 0; s < graph.node_size(); ++s) {
    FusedProjection f;
    f.split = s;
    std::string why;
    if (!findFusedProjection(graph, flow, s, &f, &why))
      continue;
    std::string what = "tensor: fused projection of " + count(f.heads, "head") + " x " +
                       std::to_string(f.parts) + " (Split '" + graph.node(s).name() + "')";
    if (why.empty() && f.heads % processes != 0)
      why = count(f.heads, "head") + " do not divide over " + count(processes, "process") +
            "; left replicated";
    if (!why.empty()) {
      im.replicatedReasons[f.weight] = what + ": " + why;
      continue;
    }
    fused.push_back(f);
  }
  if (fused.empty())
    return true;
  std::map<int, const FusedProjection *> at; // the MatMul's index -> its rewrite
  std::set<int> removed;
  std::set<std::string> removedInits;
  for (const auto &f : fused) {
    at[f.matmul] = &f;
    removed.insert({f.matmul, f.add, f.split});
    removedInits.insert(f.weight);
    if (!f.bias.empty())
      removedInits.insert(f.bias);
  }
  google::protobuf::RepeatedPtrField<onnx::NodeProto> nodes;
  std::vector<onnx::TensorProto> blocks;
  std::vector<onnx::ValueInfoProto> infos;
  for (int i = 0; i < graph.node_size(); ++i) {
    if (auto it = at.find(i); it != at.end()) {
      std::vector<onnx::NodeProto> added;
      if (!unfuse(im, graph, flow, *it->second, &added, &blocks, &infos))
        return false;
      for (auto &n : added)
        *nodes.Add() = std::move(n);
    }
    if (!removed.count(i))
      *nodes.Add() = graph.node(i);
  }
  for (const auto &f : fused)
    signature->plan.push_back(f.weight + ": cut into " + std::to_string(f.parts) +
                              " column blocks (tensor: fused projection of " +
                              count(f.heads, "head") + " x " + std::to_string(f.parts) +
                              " read by Split '" + graph.node(f.split).name() +
                              "': whole heads per process)");
  graph.mutable_node()->Swap(&nodes);
  google::protobuf::RepeatedPtrField<onnx::TensorProto> inits;
  for (const auto &init : graph.initializer())
    if (!removedInits.count(init.name()))
      *inits.Add() = init;
  for (auto &t : blocks)
    *inits.Add() = std::move(t);
  graph.mutable_initializer()->Swap(&inits);
  google::protobuf::RepeatedPtrField<onnx::ValueInfoProto> inputs;
  for (const auto &v : graph.input())
    if (!removedInits.count(v.name()))
      *inputs.Add() = v; // IR < 4 lists initializers as inputs too
  graph.mutable_input()->Swap(&inputs);
  for (auto &v : infos)
    *graph.add_value_info() = std::move(v);
  return true;
}

} // namespace

bool rewriteAttentionForSharding(Importer &im, onnx::GraphProto &graph, OnnxSignature *signature) {
  int64_t axis = policyAxis(im.options, OnnxShardPolicy::Tensor);
  if (axis < 0)
    return true;
  if (!unfuseProjections(im, graph, signature, axis))
    return false;
  headMajorAttention(graph, signature);
  std::vector<int64_t> grid = policyGrid(im.options);
  vocabularyParallelEmbeddings(im, graph, signature, axis,
                               axis < static_cast<int64_t>(grid.size()) ? grid[axis] : 1);
  return true;
}

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
  return policyGrid(im.options);
}

bool planSharding(Importer &im, const onnx::GraphProto &graph, OnnxSignature *signature) {
  if (im.options.shard == OnnxShardPolicy::Spec)
    return planSpec(im, graph, &im.error);
  std::vector<int64_t> grid = policyGrid(im.options);
  if (!checkGrid(im.options, grid, &im.error))
    return false;
  DataFlow flow(graph);
  if (int64_t axis = policyAxis(im.options, OnnxShardPolicy::Data); axis >= 0)
    planData(im, graph, flow, axis, grid[axis], signature);
  if (int64_t axis = policyAxis(im.options, OnnxShardPolicy::Tensor); axis >= 0)
    TensorPlan(im, graph, flow, axis, grid[axis], signature).run();
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

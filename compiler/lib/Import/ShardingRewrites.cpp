//===- ShardingRewrites.cpp - graph rewrites that keep tensor splits ------===//
//
// Under the tensor policy, before the import (rewriteAttentionForSharding):
// fused attention projections cut into whole-head column blocks, attention
// computed heads-major, token embeddings as vocabulary-parallel lookups.
//
//===----------------------------------------------------------------------===//
#include "OnnxModel.h"
#include "Sharding.h"
#include "ShardingGraph.h"

#include <set>

namespace meshvk::onnx_import {
namespace {

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
} // namespace meshvk::onnx_import

//===- ShardingGraph.h - the graph facts the sharding policies read ------===//
//
// Internal to the ONNX importer: producers, consumers and declared shapes of
// a graph's values, and the small helpers Sharding.cpp (the policies) and
// ShardingRewrites.cpp (the graph rewrites before them) share.
//
//===----------------------------------------------------------------------===//
#ifndef MESHVK_LIB_IMPORT_SHARDINGGRAPH_H_
#define MESHVK_LIB_IMPORT_SHARDINGGRAPH_H_

#include <map>
#include <string>
#include <vector>

#include "Importer.h"

namespace meshvk::onnx_import {

// Split axes of a rank-`rank` tensor: dimension `dim` over grid axis `axis`.
inline std::vector<std::vector<int64_t>> splitDim(size_t rank, size_t dim, int64_t axis) {
  std::vector<std::vector<int64_t>> axes(dim + 1);
  axes[dim] = {axis};
  (void)rank;
  return axes;
}

// The grid axis a policy splits over (-1: the policy is not in use).
inline int64_t policyAxis(const OnnxImportOptions &options, OnnxShardPolicy policy) {
  if (options.shard == policy)
    return 0;
  if (options.shard != OnnxShardPolicy::Grid)
    return -1;
  for (size_t a = 0; a < options.axisPolicies.size(); ++a)
    if (options.axisPolicies[a] == policy)
      return static_cast<int64_t>(a);
  return -1;
}

inline std::vector<int64_t> policyGrid(const OnnxImportOptions &options) {
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

inline bool isBias(const DataFlow &flow, const std::string &name, int64_t features) {
  std::vector<int64_t> shape = flow.shape(name);
  return flow.isInitializer(name) && shape.size() == 1 && shape[0] == features;
}

// The head count of a projection output [.., N] reshaped (after an optional
// bias Add) to [.., H, N/H]; 0 when no such Reshape reads it.
inline int64_t headsAfter(const onnx::GraphProto &graph, const DataFlow &flow,
                          const std::string &value, int64_t features) {
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

inline std::string count(int64_t n, const std::string &what) {
  bool es = !what.empty() && what.back() == 's';
  return std::to_string(n) + " " + what + (n == 1 ? "" : es ? "es" : "s");
}

} // namespace meshvk::onnx_import

#endif // MESHVK_LIB_IMPORT_SHARDINGGRAPH_H_

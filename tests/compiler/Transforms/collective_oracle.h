// The oracle of the collective lowering tests: a small interpreter of the
// plan ops (meshvk.empty / copy, tensor.empty, the elementwise reduction
// kernels) on per-process host data, the collectives' definitions' building
// blocks (groups, slices, concatenation, reductions), and runCase, which
// lowers one collective through meshvk-unroll-grid and
// meshvk-lower-collectives, executes the plan and compares each process's
// result and pulled bytes with the definition and the algorithm's minimum.
#ifndef MESHVK_TESTS_COMPILER_TRANSFORMS_COLLECTIVE_ORACLE_H_
#define MESHVK_TESTS_COMPILER_TRANSFORMS_COLLECTIVE_ORACLE_H_

#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "meshvk/Dialect/MeshVKDialect.h"
#include "meshvk/Transforms/Passes.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Shard/IR/ShardDialect.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"

namespace collective_oracle {

using Shape = std::vector<int64_t>;

struct Tensor {
  Shape shape;
  std::vector<double> data;
  int64_t size() const {
    int64_t n = 1;
    for (int64_t s : shape) n *= s;
    return n;
  }
};

inline int64_t product(const Shape& s) {
  int64_t n = 1;
  for (int64_t v : s) n *= v;
  return n;
}

inline Shape multiIndex(const Shape& grid, int64_t p) {
  Shape m(grid.size());
  for (int64_t a = (int64_t)grid.size() - 1; a >= 0; --a) {
    m[a] = p % grid[a];
    p /= grid[a];
  }
  return m;
}

inline int64_t linear(const Shape& grid, const Shape& m) {
  int64_t p = 0;
  for (size_t a = 0; a < grid.size(); ++a) p = p * grid[a] + m[a];
  return p;
}

/// Group members of process p over `axes` (first listed axis most
/// significant) and p's index in the group.
inline std::pair<std::vector<int64_t>, int64_t> group(const Shape& grid, const Shape& axes, int64_t p) {
  Shape m = multiIndex(grid, p);
  int64_t n = 1;
  for (int64_t a : axes) n *= grid[a];
  std::vector<int64_t> members;
  int64_t rank = -1;
  for (int64_t k = 0; k < n; ++k) {
    Shape q = m;
    int64_t rest = k;
    for (int64_t i = (int64_t)axes.size() - 1; i >= 0; --i) {
      q[axes[i]] = rest % grid[axes[i]];
      rest /= grid[axes[i]];
    }
    members.push_back(linear(grid, q));
    if (members.back() == p) rank = k;
  }
  return {members, rank};
}

// Row-major box copy between host tensors.
inline void copyBox(const Tensor& src, const Shape& srcOff, Tensor& dst, const Shape& dstOff, const Shape& sizes) {
  int64_t n = product(sizes);
  size_t rank = sizes.size();
  for (int64_t i = 0; i < n; ++i) {
    Shape idx(rank);
    int64_t rest = i;
    for (int64_t d = (int64_t)rank - 1; d >= 0; --d) {
      idx[d] = rest % sizes[d];
      rest /= sizes[d];
    }
    int64_t s = 0, t = 0;
    for (size_t d = 0; d < rank; ++d) {
      s = s * src.shape[d] + srcOff[d] + idx[d];
      t = t * dst.shape[d] + dstOff[d] + idx[d];
    }
    dst.data[t] = src.data[s];
  }
}

inline Tensor slice(const Tensor& t, int64_t dim, int64_t offset, int64_t size) {
  Tensor out{t.shape, {}};
  out.shape[dim] = size;
  out.data.assign(out.size(), 0);
  Shape from(t.shape.size(), 0), to(t.shape.size(), 0);
  from[dim] = offset;
  copyBox(t, from, out, to, out.shape);
  return out;
}

inline Tensor concat(const std::vector<Tensor>& parts, int64_t dim) {
  Tensor out{parts[0].shape, {}};
  out.shape[dim] = 0;
  for (const Tensor& p : parts) out.shape[dim] += p.shape[dim];
  out.data.assign(out.size(), 0);
  int64_t at = 0;
  for (const Tensor& p : parts) {
    Shape from(p.shape.size(), 0), to(p.shape.size(), 0);
    to[dim] = at;
    copyBox(p, from, out, to, p.shape);
    at += p.shape[dim];
  }
  return out;
}

enum class Kind { Sum, Max, Min, Product };

inline double combine(Kind k, double a, double b) {
  switch (k) {
    case Kind::Sum:
      return a + b;
    case Kind::Max:
      return std::max(a, b);
    case Kind::Min:
      return std::min(a, b);
    case Kind::Product:
      return a * b;
  }
  return 0;
}

inline Tensor reduceAll(const std::vector<Tensor>& parts, Kind k) {
  Tensor out = parts[0];
  for (size_t i = 1; i < parts.size(); ++i)
    for (size_t e = 0; e < out.data.size(); ++e) out.data[e] = combine(k, out.data[e], parts[i].data[e]);
  return out;
}

/// Interprets a lowered plan: meshvk.empty/copy, tensor.empty, and the
/// elementwise linalg.generic reduction kernels. Records pulled bytes.
struct Interpreter {
  llvm::DenseMap<mlir::Value, Tensor> values;
  llvm::DenseMap<mlir::Value, int64_t> processOf;
  std::vector<int64_t> pulled;
  std::string error;

  static Tensor fresh(mlir::Type type) {
    auto t = mlir::cast<mlir::RankedTensorType>(type);
    Tensor out{Shape(t.getShape().begin(), t.getShape().end()), {}};
    out.data.assign(out.size(), NAN);  // unwritten elements stay NaN
    return out;
  }

  double scalar(mlir::Operation& op, llvm::DenseMap<mlir::Value, double>& env) {
    auto get = [&](unsigned i) { return env.at(op.getOperand(i)); };
    if (mlir::isa<mlir::arith::AddFOp, mlir::arith::AddIOp>(op)) return get(0) + get(1);
    if (mlir::isa<mlir::arith::MulFOp, mlir::arith::MulIOp>(op)) return get(0) * get(1);
    if (mlir::isa<mlir::arith::MaxNumFOp>(op)) return std::fmax(get(0), get(1));  // NaN ignored
    if (mlir::isa<mlir::arith::MinNumFOp>(op)) return std::fmin(get(0), get(1));
    if (mlir::isa<mlir::arith::MaximumFOp, mlir::arith::MinimumFOp>(op) && (std::isnan(get(0)) || std::isnan(get(1))))
      return NAN;  // NaN propagated
    if (mlir::isa<mlir::arith::MaximumFOp, mlir::arith::MaxSIOp>(op)) return std::max(get(0), get(1));
    if (mlir::isa<mlir::arith::MinimumFOp, mlir::arith::MinSIOp>(op)) return std::min(get(0), get(1));
    error = "unexpected op in a reduction kernel: " + op.getName().getStringRef().str();
    return 0;
  }

  bool run(mlir::func::FuncOp plan, int64_t processes, const std::vector<Tensor>& inputs,
           std::vector<Tensor>& results) {
    pulled.assign(processes, 0);
    for (auto arg : plan.getArguments()) {
      values[arg] = inputs[arg.getArgNumber()];
      processOf[arg] = arg.getArgNumber() % processes;
    }
    for (mlir::Operation& op : plan.getBody().front()) {
      if (auto empty = mlir::dyn_cast<meshvk::EmptyOp>(op)) {
        values[empty] = fresh(empty.getType());
        processOf[empty] = empty.getProcess();
      } else if (auto empty = mlir::dyn_cast<mlir::tensor::EmptyOp>(op)) {
        values[empty] = fresh(empty.getType());
      } else if (auto copy = mlir::dyn_cast<meshvk::CopyOp>(op)) {
        if (processOf.at(copy.getSource()) != copy.getSourceProcess() ||
            processOf.at(copy.getDest()) != copy.getDestProcess()) {
          error = "copy names the wrong process of its source or dest";
          return false;
        }
        Tensor dest = values.at(copy.getDest());
        copyBox(values.at(copy.getSource()), Shape(copy.getSourceOffsets().begin(), copy.getSourceOffsets().end()),
                dest, Shape(copy.getDestOffsets().begin(), copy.getDestOffsets().end()),
                Shape(copy.getSizes().begin(), copy.getSizes().end()));
        if (copy.getSourceProcess() != copy.getDestProcess())
          pulled[copy.getDestProcess()] += product(Shape(copy.getSizes().begin(), copy.getSizes().end())) * 4;
        values[copy] = dest;
        processOf[copy] = copy.getDestProcess();
      } else if (auto generic = mlir::dyn_cast<mlir::linalg::GenericOp>(op)) {
        int64_t p = meshvk::getProcess(&op);
        Tensor out = fresh(generic.getResult(0).getType());
        mlir::Block& body = generic.getRegion().front();
        for (int64_t e = 0; e < out.size(); ++e) {
          llvm::DenseMap<mlir::Value, double> env;
          for (auto [i, input] : llvm::enumerate(generic.getInputs())) {
            if (processOf.at(input) != p) {
              error = "a kernel reads another process's tensor";
              return false;
            }
            env[body.getArgument(i)] = values.at(input).data[e];
          }
          for (mlir::Operation& inner : body.without_terminator()) env[inner.getResult(0)] = scalar(inner, env);
          out.data[e] = env.at(body.getTerminator()->getOperand(0));
        }
        values[generic.getResult(0)] = out;
        processOf[generic.getResult(0)] = p;
      } else if (auto ret = mlir::dyn_cast<mlir::func::ReturnOp>(op)) {
        for (auto [i, v] : llvm::enumerate(ret.getOperands())) {
          if (processOf.at(v) != (int64_t)i % processes) {
            error = "a result is computed on the wrong process";
            return false;
          }
          results.push_back(values.at(v));
        }
      } else if (!mlir::isa<mlir::arith::ConstantOp>(op)) {
        error = "unexpected plan op " + op.getName().getStringRef().str();
        return false;
      }
      if (!error.empty()) return false;
    }
    return true;
  }
};

inline std::string shapeText(const Shape& s) {
  std::string text;
  for (int64_t v : s) text += std::to_string(v) + "x";
  return text;
}

inline std::string axesText(const Shape& axes) {
  std::string text = "[";
  for (size_t i = 0; i < axes.size(); ++i) text += (i ? ", " : "") + std::to_string(axes[i]);
  return text + "]";
}

struct Case {
  std::string name;
  Shape grid;
  Shape axes;
  std::string op;  // the collective, `%x` in, result type given by outShape
  Shape inShape, outShape;
  /// Process p's expected result, from the definition.
  std::function<Tensor(const std::vector<Tensor>&, int64_t)> expected;
  /// Minimum bytes process p pulls.
  std::function<int64_t(int64_t)> minPulled;
  int64_t directAllReduceMaxBytes = 65536;
  bool functionalType = false;  // `: (in) -> out` (broadcast's syntax)
  bool resultTypeOnly = false;  // `: out` (update_halo's syntax)
  /// Elements to compare (default: all).
  std::function<bool(int64_t p, int64_t element)> defined = nullptr;
};

inline void runCase(const Case& c) {
  SCOPED_TRACE(c.name);
  std::string text = "shard.grid @g(shape = " + shapeText(c.grid).substr(0, shapeText(c.grid).size() - 1) +
                     ")\nfunc.func @f(%x: tensor<" + shapeText(c.inShape) + "f32>) -> tensor<" + shapeText(c.outShape) +
                     "f32> attributes {meshvk.abi = #meshvk.abi<grid = @g, grid_shape = [";
  for (size_t i = 0; i < c.grid.size(); ++i) text += (i ? ", " : "") + std::to_string(c.grid[i]);
  std::string in = "tensor<" + shapeText(c.inShape) + "f32>";
  std::string out = "tensor<" + shapeText(c.outShape) + "f32>";
  text += "], args = [], results = []>} {\n  %0 = " + c.op + " : " +
          (c.resultTypeOnly   ? out
           : c.functionalType ? "(" + in + ") -> " + out
                              : in + " -> " + out) +
          "\n  return %0 : " + out + "\n}\n";

  mlir::DialectRegistry registry;
  registry
      .insert<mlir::func::FuncDialect, mlir::arith::ArithDialect, mlir::linalg::LinalgDialect,
              mlir::tensor::TensorDialect, mlir::scf::SCFDialect, mlir::shard::ShardDialect, meshvk::MeshVKDialect>();
  mlir::MLIRContext ctx(registry);
  ctx.loadAllAvailableDialects();
  mlir::OwningOpRef<mlir::ModuleOp> module = mlir::parseSourceString<mlir::ModuleOp>(text, &ctx);
  ASSERT_TRUE(module) << text;
  mlir::PassManager pm(&ctx);
  pm.addPass(meshvk::createUnrollGrid());
  meshvk::LowerCollectivesOptions options;
  options.directAllReduceMaxBytes = c.directAllReduceMaxBytes;
  pm.addPass(meshvk::createLowerCollectives(options));
  ASSERT_TRUE(mlir::succeeded(pm.run(*module))) << text;

  auto plan = *module->getOps<mlir::func::FuncOp>().begin();
  int64_t processes = product(c.grid);
  std::vector<Tensor> inputs;
  uint32_t seed = 12345;
  for (int64_t p = 0; p < processes; ++p) {
    Tensor t{c.inShape, {}};
    for (int64_t e = 0; e < t.size(); ++e) {
      seed = seed * 1664525u + 1013904223u;
      t.data.push_back((double)((seed >> 16) % 9) - 4.0);  // exact in f32
    }
    inputs.push_back(t);
  }
  Interpreter interp;
  std::vector<Tensor> results;
  ASSERT_TRUE(interp.run(plan, processes, inputs, results)) << interp.error;
  ASSERT_EQ((int64_t)results.size(), processes);

  mlir::ArrayAttr report = meshvk::MeshVKDialect::CollectivesAttrHelper(&ctx).getAttr(plan);
  ASSERT_TRUE(report && report.size() == 1);
  mlir::DenseI64ArrayAttr reported = mlir::cast<meshvk::CollectiveAttr>(report[0]).getPulledBytes();
  for (int64_t p = 0; p < processes; ++p) {
    SCOPED_TRACE("process " + std::to_string(p));
    Tensor want = c.expected(inputs, p);
    ASSERT_EQ(results[p].shape, want.shape);
    for (int64_t e = 0; e < want.size(); ++e)
      if (!c.defined || c.defined(p, e)) ASSERT_EQ(results[p].data[e], want.data[e]) << "element " << e;
    EXPECT_EQ(interp.pulled[p], c.minPulled(p));
    EXPECT_EQ(reported[p], interp.pulled[p]);
  }
}

inline int64_t groupSize(const Shape& grid, const Shape& axes) {
  int64_t n = 1;
  for (int64_t a : axes) n *= grid[a];
  return n;
}

// The grids and axis sets every collective is checked on.
inline const std::vector<std::pair<Shape, Shape>> kTopologies = {
    {{2}, {0}},       {{3}, {0}},    {{4}, {0}},       {{2, 2}, {0}},    {{2, 2}, {1}},
    {{2, 2}, {0, 1}}, {{2, 3}, {1}}, {{2, 3}, {0, 1}}, {{3, 2}, {1, 0}},
};

inline const Shape kIn = {12, 6};  // divisible by every group size used (2, 3, 4, 6)
constexpr int64_t kInBytes = 12 * 6 * 4;

inline std::string name(const std::string& what, const Shape& grid, const Shape& axes) {
  return what + " grid " + shapeText(grid) + " axes " + axesText(axes);
}

}  // namespace collective_oracle

#endif  // MESHVK_TESTS_COMPILER_TRANSFORMS_COLLECTIVE_ORACLE_H_

// Checks meshvk-lower-collectives against an independent oracle: every lowered
// collective (on 1-D and 2-D grids, over one or two axes, every algorithm) is
// EXECUTED by a small interpreter of the plan ops on per-process data, and each
// process's result is compared with the collective's definition evaluated here
// on the host. The bytes each process pulls from peers (counted by the
// interpreter from the copies it runs) must equal the algorithm's minimum,
// computed here from the shapes; the plan's own report must agree.
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

namespace {

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

int64_t product(const Shape& s) {
  int64_t n = 1;
  for (int64_t v : s) n *= v;
  return n;
}

Shape multiIndex(const Shape& grid, int64_t p) {
  Shape m(grid.size());
  for (int64_t a = (int64_t)grid.size() - 1; a >= 0; --a) {
    m[a] = p % grid[a];
    p /= grid[a];
  }
  return m;
}

int64_t linear(const Shape& grid, const Shape& m) {
  int64_t p = 0;
  for (size_t a = 0; a < grid.size(); ++a) p = p * grid[a] + m[a];
  return p;
}

/// Group members of process p over `axes` (first listed axis most
/// significant) and p's index in the group.
std::pair<std::vector<int64_t>, int64_t> group(const Shape& grid, const Shape& axes, int64_t p) {
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
void copyBox(const Tensor& src, const Shape& srcOff, Tensor& dst, const Shape& dstOff, const Shape& sizes) {
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

Tensor slice(const Tensor& t, int64_t dim, int64_t offset, int64_t size) {
  Tensor out{t.shape, {}};
  out.shape[dim] = size;
  out.data.assign(out.size(), 0);
  Shape from(t.shape.size(), 0), to(t.shape.size(), 0);
  from[dim] = offset;
  copyBox(t, from, out, to, out.shape);
  return out;
}

Tensor concat(const std::vector<Tensor>& parts, int64_t dim) {
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

double combine(Kind k, double a, double b) {
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

Tensor reduceAll(const std::vector<Tensor>& parts, Kind k) {
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

std::string shapeText(const Shape& s) {
  std::string text;
  for (int64_t v : s) text += std::to_string(v) + "x";
  return text;
}

std::string axesText(const Shape& axes) {
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

void runCase(const Case& c) {
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

int64_t groupSize(const Shape& grid, const Shape& axes) {
  int64_t n = 1;
  for (int64_t a : axes) n *= grid[a];
  return n;
}

// The grids and axis sets every collective is checked on.
const std::vector<std::pair<Shape, Shape>> kTopologies = {
    {{2}, {0}},       {{3}, {0}},    {{4}, {0}},       {{2, 2}, {0}},    {{2, 2}, {1}},
    {{2, 2}, {0, 1}}, {{2, 3}, {1}}, {{2, 3}, {0, 1}}, {{3, 2}, {1, 0}},
};

const Shape kIn = {12, 6};  // divisible by every group size used (2, 3, 4, 6)
constexpr int64_t kInBytes = 12 * 6 * 4;

std::string name(const std::string& what, const Shape& grid, const Shape& axes) {
  return what + " grid " + shapeText(grid) + " axes " + axesText(axes);
}

TEST(CollectiveLowering, AllGather) {
  for (auto& [grid, axes] : kTopologies) {
    int64_t n = groupSize(grid, axes);
    Shape gridCopy = grid, axesCopy = axes;
    runCase({name("all_gather", grid, axes),
             grid,
             axes,
             "shard.all_gather %x on @g grid_axes = " + axesText(axes) + " gather_axis = 1",
             kIn,
             {12, 6 * n},
             [=](const std::vector<Tensor>& in, int64_t p) {
               std::vector<Tensor> parts;
               for (int64_t q : group(gridCopy, axesCopy, p).first) parts.push_back(in[q]);
               return concat(parts, 1);
             },
             [=](int64_t) { return (n - 1) * kInBytes; }});
  }
}

TEST(CollectiveLowering, AllSlice) {
  for (auto& [grid, axes] : kTopologies) {
    int64_t n = groupSize(grid, axes);
    Shape gridCopy = grid, axesCopy = axes;
    runCase({name("all_slice", grid, axes),
             grid,
             axes,
             "shard.all_slice %x on @g grid_axes = " + axesText(axes) + " slice_axis = 0",
             kIn,
             {12 / n, 6},
             [=](const std::vector<Tensor>& in, int64_t p) {
               int64_t r = group(gridCopy, axesCopy, p).second;
               return slice(in[p], 0, r * (12 / n), 12 / n);
             },
             [=](int64_t) { return int64_t(0); }});
  }
}

TEST(CollectiveLowering, AllToAll) {
  for (auto& [grid, axes] : kTopologies) {
    int64_t n = groupSize(grid, axes);
    Shape gridCopy = grid, axesCopy = axes;
    // Split the 12 rows, concatenate along the 6 columns.
    runCase({name("all_to_all", grid, axes),
             grid,
             axes,
             "shard.all_to_all %x on @g grid_axes = " + axesText(axes) + " split_axis = 0 concat_axis = 1",
             kIn,
             {12 / n, 6 * n},
             [=](const std::vector<Tensor>& in, int64_t p) {
               auto [members, r] = group(gridCopy, axesCopy, p);
               std::vector<Tensor> parts;
               for (int64_t q : members) parts.push_back(slice(in[q], 0, r * (12 / n), 12 / n));
               return concat(parts, 1);
             },
             [=](int64_t) { return (n - 1) * kInBytes / n; }});
  }
}

TEST(CollectiveLowering, AllReduceDirectAndReduceScatterAllGather) {
  const std::vector<std::pair<std::string, Kind>> kinds = {
      {"sum", Kind::Sum}, {"max", Kind::Max}, {"min", Kind::Min}, {"product", Kind::Product}};
  for (auto& [grid, axes] : kTopologies)
    for (auto& [kindName, kind] : kinds)
      for (int64_t threshold : {int64_t(65536), int64_t(0)}) {
        int64_t n = groupSize(grid, axes);
        Shape gridCopy = grid, axesCopy = axes;
        Kind k = kind;
        // Reduce-scatter + all-gather is chosen above the threshold when the
        // group has more than 2 processes (12 rows divide by every n here).
        bool twoPhase = threshold == 0 && n > 2;
        Case c{name("all_reduce " + kindName + (twoPhase ? " rs+ag" : " direct"), grid, axes),
               grid,
               axes,
               "shard.all_reduce %x on @g grid_axes = " + axesText(axes) + " reduction = " + kindName,
               kIn,
               kIn,
               [=](const std::vector<Tensor>& in, int64_t p) {
                 std::vector<Tensor> parts;
                 for (int64_t q : group(gridCopy, axesCopy, p).first) parts.push_back(in[q]);
                 return reduceAll(parts, k);
               },
               [=](int64_t) { return twoPhase ? 2 * (n - 1) * kInBytes / n : (n - 1) * kInBytes; },
               threshold};
        runCase(c);
      }
}

TEST(CollectiveLowering, ReduceScatter) {
  for (auto& [grid, axes] : kTopologies) {
    int64_t n = groupSize(grid, axes);
    Shape gridCopy = grid, axesCopy = axes;
    runCase({name("reduce_scatter", grid, axes),
             grid,
             axes,
             "shard.reduce_scatter %x on @g grid_axes = " + axesText(axes) + " scatter_axis = 0",
             kIn,
             {12 / n, 6},
             [=](const std::vector<Tensor>& in, int64_t p) {
               auto [members, r] = group(gridCopy, axesCopy, p);
               std::vector<Tensor> parts;
               for (int64_t q : members) parts.push_back(in[q]);
               return slice(reduceAll(parts, Kind::Sum), 0, r * (12 / n), 12 / n);
             },
             [=](int64_t) { return (n - 1) * kInBytes / n; }});
  }
}

TEST(CollectiveLowering, Broadcast) {
  for (auto& [grid, axes] : kTopologies) {
    Shape gridCopy = grid, axesCopy = axes;
    // Root: the last process of each group (in-group multi-index = sizes-1).
    std::string root = "[";
    for (size_t i = 0; i < axes.size(); ++i) root += (i ? ", " : "") + std::to_string(grid[axes[i]] - 1);
    root += "]";
    int64_t rootRank = groupSize(grid, axes) - 1;
    runCase({name("broadcast", grid, axes), grid, axes,
             "shard.broadcast %x on @g grid_axes = " + axesText(axes) + " root = " + root, kIn, kIn,
             [=](const std::vector<Tensor>& in, int64_t p) { return in[group(gridCopy, axesCopy, p).first[rootRank]]; },
             [=](int64_t p) { return group(gridCopy, axesCopy, p).second == rootRank ? int64_t(0) : kInBytes; }, 65536,
             /*functionalType=*/true});
  }
}

TEST(CollectiveLowering, Shift) {
  for (auto& [grid, axes] : kTopologies) {
    if (axes.size() != 1) continue;
    int64_t axis = axes[0];
    Shape gridCopy = grid;
    for (bool rotate : {true, false})
      for (int64_t offset : {int64_t(1), int64_t(-1)}) {
        // Result on p: the input of the process `offset` positions before it
        // along `axis`; without rotation, no source leaves p's own input.
        auto source = [=](int64_t p) -> int64_t {
          Shape m = multiIndex(gridCopy, p);
          int64_t size = gridCopy[axis];
          int64_t c = m[axis] - offset;
          if (rotate) c = ((c % size) + size) % size;
          if (c < 0 || c >= size) return -1;
          m[axis] = c;
          return linear(gridCopy, m);
        };
        runCase({name(std::string("shift ") + (rotate ? "rotate " : "") + std::to_string(offset), grid, axes), grid,
                 axes,
                 "shard.shift %x on @g grid_axes = " + axesText(axes) + " shift_axis = " + std::to_string(axis) +
                     " offset = " + std::to_string(offset) + (rotate ? " rotate" : ""),
                 kIn, kIn,
                 [=](const std::vector<Tensor>& in, int64_t p) {
                   int64_t q = source(p);
                   return in[q < 0 ? p : q];
                 },
                 [=](int64_t p) {
                   int64_t q = source(p);
                   return q < 0 || q == p ? int64_t(0) : kInBytes;
                 }});
      }
  }
}

// Rooted collectives, root = the last member of each group: gather and reduce
// define the result on the root only (elsewhere undefined, not compared);
// scatter hands member k the k-th block of the root's input.
TEST(CollectiveLowering, GatherReduceScatter) {
  for (auto& [grid, axes] : kTopologies) {
    int64_t n = groupSize(grid, axes);
    Shape gridCopy = grid, axesCopy = axes;
    std::string root = "[";
    for (size_t i = 0; i < axes.size(); ++i) root += (i ? ", " : "") + std::to_string(grid[axes[i]] - 1);
    root += "]";
    int64_t rootRank = n - 1;
    auto isRoot = [=](int64_t p) { return group(gridCopy, axesCopy, p).second == rootRank; };
    Case gather{name("gather", grid, axes),
                grid,
                axes,
                "shard.gather %x on @g grid_axes = " + axesText(axes) + " gather_axis = 1 root = " + root,
                kIn,
                {12, 6 * n},
                [=](const std::vector<Tensor>& in, int64_t p) {
                  std::vector<Tensor> parts;
                  for (int64_t q : group(gridCopy, axesCopy, p).first) parts.push_back(in[q]);
                  return concat(parts, 1);
                },
                [=](int64_t p) { return isRoot(p) ? (n - 1) * kInBytes : int64_t(0); },
                65536,
                /*functionalType=*/true};
    gather.defined = [=](int64_t p, int64_t) { return isRoot(p); };
    runCase(gather);
    Case reduce{name("reduce", grid, axes),
                grid,
                axes,
                "shard.reduce %x on @g grid_axes = " + axesText(axes) + " reduction = max root = " + root,
                kIn,
                kIn,
                [=](const std::vector<Tensor>& in, int64_t p) {
                  std::vector<Tensor> parts;
                  for (int64_t q : group(gridCopy, axesCopy, p).first) parts.push_back(in[q]);
                  return reduceAll(parts, Kind::Max);
                },
                [=](int64_t p) { return isRoot(p) ? (n - 1) * kInBytes : int64_t(0); },
                65536,
                /*functionalType=*/true};
    reduce.defined = [=](int64_t p, int64_t) { return isRoot(p); };
    runCase(reduce);
    runCase({name("scatter", grid, axes),
             grid,
             axes,
             "shard.scatter %x on @g grid_axes = " + axesText(axes) + " scatter_axis = 0 root = " + root,
             kIn,
             {12 / n, 6},
             [=](const std::vector<Tensor>& in, int64_t p) {
               auto [members, r] = group(gridCopy, axesCopy, p);
               return slice(in[members[rootRank]], 0, r * (12 / n), 12 / n);
             },
             [=](int64_t p) { return isRoot(p) ? int64_t(0) : kInBytes / n; },
             65536,
             /*functionalType=*/true});
  }
}

// update_halo, from its meaning rather than its algorithm: every process's
// interior (the local tensor without its halos) is its block of one global
// tensor; after the update, a halo element whose global coordinate lies inside
// the global tensor holds that element (from whichever process owns it,
// diagonal neighbours included). Halo elements outside the global tensor have
// no neighbour to come from and are not compared.
struct HaloCase {
  Shape grid;
  std::vector<Shape> split;  // grid axes per tensor dimension
  Shape halo;                // lower, upper per split dimension
};

TEST(CollectiveLowering, UpdateHalo) {
  const std::vector<HaloCase> cases = {
      {{4}, {{0}}, {1, 2}},                // rows, unequal halos
      {{3}, {{0}}, {0, 2}},                // upper halo only
      {{2, 2}, {{0}, {1}}, {1, 1, 2, 1}},  // 2-D blocks: corners through two steps
      {{2, 2}, {{}, {1}}, {0, 0, 1, 1}},   // columns over axis 1, axis 0 replicated
      {{2, 3}, {{0, 1}}, {2, 1}},          // one dimension over two axes
      {{2, 2}, {{1}, {0}}, {1, 2, 1, 1}},  // axes swapped
  };
  for (const HaloCase& hc : cases) {
    Shape grid = hc.grid;
    std::vector<Shape> split = hc.split;
    Shape halo = hc.halo;
    int64_t rank = 2;
    auto lo = [=](int64_t d) { return d < (int64_t)split.size() ? halo[2 * d] : int64_t(0); };
    auto hi = [=](int64_t d) { return d < (int64_t)split.size() ? halo[2 * d + 1] : int64_t(0); };
    auto axesOf = [=](int64_t d) { return d < (int64_t)split.size() ? split[d] : Shape{}; };
    // Block index of process p along dimension d and the block count.
    auto block = [=](int64_t p, int64_t d) {
      Shape m = multiIndex(grid, p);
      int64_t b = 0;
      for (int64_t a : axesOf(d)) b = b * grid[a] + m[a];
      return b;
    };
    auto blocks = [=](int64_t d) { return groupSize(grid, axesOf(d)); };
    // The process with block `b[d]` along every split dimension, p's
    // coordinates on the other grid axes.
    auto owner = [=](int64_t p, const Shape& b) {
      Shape m = multiIndex(grid, p);
      for (int64_t d = 0; d < rank; ++d) {
        int64_t rest = b[d];
        Shape axes = axesOf(d);
        for (int64_t i = (int64_t)axes.size() - 1; i >= 0; --i) {
          m[axes[i]] = rest % grid[axes[i]];
          rest /= grid[axes[i]];
        }
      }
      return linear(grid, m);
    };
    const Shape local = kIn;
    auto interior = [=](int64_t d) { return local[d] - lo(d) - hi(d); };
    // Where process p's element (i0, i1) lives in the global tensor: the
    // owner and its local index, or -1 outside the global tensor.
    auto source = [=](int64_t p, int64_t e, Shape* index) -> int64_t {
      Shape idx = {e / local[1], e % local[1]}, b(rank);
      for (int64_t d = 0; d < rank; ++d) {
        int64_t global = block(p, d) * interior(d) + idx[d] - lo(d);
        if (global < 0 || global >= blocks(d) * interior(d)) return -1;
        b[d] = global / interior(d);
        (*index)[d] = global % interior(d) + lo(d);
      }
      return owner(p, b);
    };
    std::string splitText = "[";
    for (size_t d = 0; d < split.size(); ++d) splitText += (d ? ", " : "") + axesText(split[d]);
    splitText += "]";
    std::string haloText;
    for (size_t i = 0; i < halo.size(); ++i) haloText += (i ? ", " : "") + std::to_string(halo[i]);
    Shape allAxes;
    for (const Shape& axes : split) allAxes.insert(allAxes.end(), axes.begin(), axes.end());
    Case c{name("update_halo " + splitText + " halo [" + haloText + "]", grid, allAxes),
           grid,
           allAxes,
           "shard.update_halo %x on @g split_axes = " + splitText + " halo_sizes = [" + haloText + "]",
           local,
           local,
           [=](const std::vector<Tensor>& in, int64_t p) {
             Tensor out = in[p];
             for (int64_t e = 0; e < out.size(); ++e) {
               Shape index(rank);
               int64_t q = source(p, e, &index);
               if (q >= 0) out.data[e] = in[q].data[index[0] * local[1] + index[1]];
             }
             return out;
           },
           [=](int64_t p) {
             // One slab per existing neighbour, last split dimension first:
             // the interior of the dimensions still to come, the whole of
             // those already done.
             int64_t bytes = 0;
             for (int64_t d = rank - 1; d >= 0; --d) {
               if (axesOf(d).empty()) continue;
               int64_t other = 1;
               for (int64_t e = 0; e < rank; ++e)
                 if (e != d) other *= e < d ? interior(e) : local[e];
               if (block(p, d) > 0) bytes += lo(d) * other * 4;
               if (block(p, d) + 1 < blocks(d)) bytes += hi(d) * other * 4;
             }
             return bytes;
           }};
    c.resultTypeOnly = true;
    c.defined = [=](int64_t p, int64_t e) {
      Shape index(rank);
      return source(p, e, &index) >= 0;
    };
    runCase(c);
  }
}

}  // namespace

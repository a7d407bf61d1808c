//===- BatchContractions.cpp - batched matmuls read their operands in place ===//
//
// Attention multiplies heads: Q, K and V are [B, T, H, D] views of one
// projection, the model transposes each to [B, H, T, D] (K to [B, H, D, T])
// and the importer multiplies them as one tosa.matmul over a collapsed batch
// B*H. Each transpose was then a kernel writing a whole tensor only for the
// batch matmul to read it, and the transpose of the result back to
// [B, T, H, D] read it through the expand of B*H, so it did not fuse either
// (4 of a GPT decoder layer's dispatches). Two steps remove them:
//   * a contraction's batch loop (a parallel loop of its output other than
//     the last two, which codegen tiles as rows and columns) that is read
//     through collapse_shapes or written through an expand_shape iterates the
//     expanded loops instead: the contraction becomes a linalg.generic over
//     [B, H, ...] that reads the collapses' sources and writes the expanded
//     result, so the transpose back reads it directly and
//     meshvk-fuse-kernels makes it the contraction's epilogue;
//   * an input of a contraction that a pure permutation or broadcast of the
//     same process produces (linalg.transpose, linalg.broadcast, a generic
//     that yields its input: LinalgPatterns.h) is read at its source through
//     the composed map: the tiled contraction reads the heads where the
//     projection wrote them.
// Every op created is tagged with the contraction's process (the plan's ops
// carry theirs, meshvk-unroll-grid). Reshapes left unused are dropped by
// meshvk-fold-unit-reshapes, which runs this.
//
//===----------------------------------------------------------------------===//
#include "BatchContractions.h"
#include "LinalgPatterns.h"
#include "meshvk/Dialect/MeshVKDialect.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/PatternMatch.h"

using namespace mlir;

namespace meshvk {

namespace {

/// A contraction codegen tiles as one (TileKernel.cpp, planTiles): pure
/// tensors, static shapes, one init, reduction loops, every operand read
/// through a projected permutation (not a convolution's windows) and no
/// linalg.index in its body.
bool isPlainContraction(linalg::LinalgOp op) {
  return op.hasPureTensorSemantics() && !op.hasDynamicShape() && op.getNumDpsInits() == 1 &&
         op.getNumReductionLoops() > 0 && !op.hasIndexSemantics() &&
         llvm::all_of(op.getIndexingMapsArray(),
                      [](AffineMap m) { return m.isProjectedPermutation(); }) &&
         getProcess(op) >= 0;
}

/// For each loop of `op`, the extents it expands into: a batch loop read
/// through a collapse_shape group of several dims, or written through an
/// expand_shape group, with every such group agreeing. Empty for the others.
SmallVector<SmallVector<int64_t>> batchExpansions(linalg::LinalgOp op) {
  unsigned loops = op.getNumLoops();
  SmallVector<SmallVector<int64_t>> expansions(loops);
  SmallVector<bool> batch(loops, false), conflict(loops, false);
  AffineMap out = op.getMatchingIndexingMap(op.getDpsInitOperand(0));
  for (unsigned i = 0; i + 2 < out.getNumResults(); ++i)
    batch[out.getDimPosition(i)] = true;
  auto consider = [&](AffineMap map, ArrayRef<ReassociationIndices> groups,
                      ArrayRef<int64_t> expandedShape) {
    for (auto [position, group] : llvm::enumerate(groups)) {
      unsigned loop = map.getDimPosition(position);
      if (group.size() < 2 || !batch[loop])
        continue;
      SmallVector<int64_t> extents;
      for (int64_t d : group)
        extents.push_back(expandedShape[d]);
      if (expansions[loop].empty())
        expansions[loop] = extents;
      else if (expansions[loop] != extents)
        conflict[loop] = true;
    }
  };
  int64_t process = getProcess(op);
  for (OpOperand *input : op.getDpsInputOperands())
    if (auto collapse = input->get().getDefiningOp<tensor::CollapseShapeOp>();
        collapse && getProcess(collapse) == process && collapse.getSrcType().hasStaticShape())
      consider(op.getMatchingIndexingMap(input), collapse.getReassociationIndices(),
               collapse.getSrcType().getShape());
  for (Operation *user : op->getResult(0).getUsers())
    if (auto expand = dyn_cast<tensor::ExpandShapeOp>(user);
        expand && getProcess(expand) == process && expand.getResultType().hasStaticShape())
      consider(out, expand.getReassociationIndices(), expand.getResultType().getShape());
  for (unsigned loop = 0; loop < loops; ++loop)
    if (conflict[loop])
      expansions[loop].clear();
  return expansions;
}

/// How an operand of the contraction reads the expanded loops: its new map,
/// the groups of its new dims per old dim and its expanded shape.
struct ExpandedOperand {
  AffineMap map;
  SmallVector<ReassociationIndices> groups;
  SmallVector<int64_t> shape;
  bool expanded = false;
};

ExpandedOperand expandOperand(AffineMap map, ArrayRef<int64_t> shape,
                              ArrayRef<SmallVector<int64_t>> newLoops,
                              ArrayRef<SmallVector<int64_t>> expansions, unsigned numNewLoops,
                              MLIRContext *ctx) {
  ExpandedOperand e;
  SmallVector<AffineExpr> results;
  for (unsigned i = 0; i < map.getNumResults(); ++i) {
    unsigned loop = map.getDimPosition(i);
    ReassociationIndices group;
    for (auto [k, newLoop] : llvm::enumerate(newLoops[loop])) {
      group.push_back(results.size());
      results.push_back(getAffineDimExpr(newLoop, ctx));
      e.shape.push_back(expansions[loop].empty() ? shape[i] : expansions[loop][k]);
    }
    e.expanded |= group.size() > 1;
    e.groups.push_back(group);
  }
  e.map = AffineMap::get(numNewLoops, 0, results, ctx);
  return e;
}

/// `value` in the expanded shape: the source of the collapse it is, a fresh
/// fill of the same value when it is a filled tensor.empty (an init), else an
/// expand_shape of it (a view once planned).
Value expandedValue(RewriterBase &rw, Location loc, Value value, const ExpandedOperand &e,
                    int64_t process) {
  auto type = cast<RankedTensorType>(value.getType());
  auto expandedType = RankedTensorType::get(e.shape, type.getElementType());
  if (auto collapse = value.getDefiningOp<tensor::CollapseShapeOp>();
      collapse && collapse.getSrcType() == expandedType &&
      collapse.getReassociationIndices() == e.groups)
    return collapse.getSrc();
  if (auto fill = value.getDefiningOp<linalg::FillOp>();
      fill && fill.getOutputs()[0].getDefiningOp<tensor::EmptyOp>()) {
    auto empty = tensor::EmptyOp::create(rw, loc, e.shape, type.getElementType());
    auto newFill = linalg::FillOp::create(rw, loc, fill.getInputs(), ValueRange{empty});
    setProcess(empty, process);
    setProcess(newFill, process);
    return newFill.getResult(0);
  }
  auto expand = tensor::ExpandShapeOp::create(rw, loc, expandedType, value, e.groups);
  setProcess(expand, process);
  return expand.getResult();
}

/// `op` as a linalg.generic (generalized in place if it is a named op), with
/// its process.
FailureOr<linalg::GenericOp> asGeneric(RewriterBase &rw, linalg::LinalgOp op) {
  if (auto generic = dyn_cast<linalg::GenericOp>(op.getOperation()))
    return generic;
  int64_t process = getProcess(op);
  rw.setInsertionPoint(op);
  FailureOr<linalg::GenericOp> generalized = linalg::generalizeNamedOp(rw, op);
  if (succeeded(generalized))
    setProcess(*generalized, process);
  return generalized;
}

/// `op` as a linalg.generic over its batch loops split as `expansions` say;
/// its users read the new result through a collapse_shape, or directly where
/// they expanded it the same way.
void expandBatchLoops(RewriterBase &rw, linalg::LinalgOp op,
                      ArrayRef<SmallVector<int64_t>> expansions) {
  MLIRContext *ctx = rw.getContext();
  FailureOr<linalg::GenericOp> generalized = asGeneric(rw, op);
  if (failed(generalized))
    return;
  // `op` may be erased now: read the generic only.
  linalg::GenericOp generic = *generalized;
  int64_t process = getProcess(generic);
  Location loc = generic.getLoc();
  rw.setInsertionPoint(generic);
  SmallVector<SmallVector<int64_t>> newLoops;
  SmallVector<utils::IteratorType> iterators;
  for (auto [loop, iterator] : llvm::enumerate(generic.getIteratorTypesArray())) {
    newLoops.emplace_back();
    for (size_t k = 0; k < std::max<size_t>(1, expansions[loop].size()); ++k) {
      newLoops.back().push_back(iterators.size());
      iterators.push_back(iterator);
    }
  }
  SmallVector<Value> inputs, inits;
  SmallVector<AffineMap> maps;
  ExpandedOperand result;
  for (OpOperand &operand : generic->getOpOperands()) {
    auto shape = cast<RankedTensorType>(operand.get().getType()).getShape();
    ExpandedOperand e = expandOperand(generic.getMatchingIndexingMap(&operand), shape, newLoops,
                                      expansions, iterators.size(), ctx);
    Value value = e.expanded ? expandedValue(rw, loc, operand.get(), e, process) : operand.get();
    maps.push_back(e.map);
    if (generic.isDpsInit(&operand)) {
      inits.push_back(value);
      result = e;
    } else {
      inputs.push_back(value);
    }
  }
  auto expandedOp = linalg::GenericOp::create(rw, loc, TypeRange{inits[0].getType()}, inputs, inits,
                                              maps, iterators);
  setProcess(expandedOp, process);
  rw.inlineRegionBefore(generic.getRegion(), expandedOp.getRegion(), expandedOp.getRegion().end());
  Value newResult = expandedOp.getResult(0);
  auto collapse = tensor::CollapseShapeOp::create(rw, loc, newResult, result.groups);
  setProcess(collapse, process);
  rw.replaceOp(generic, collapse.getResult());
  for (Operation *user : llvm::make_early_inc_range(collapse->getUsers()))
    if (auto expand = dyn_cast<tensor::ExpandShapeOp>(user);
        expand && expand.getResultType() == newResult.getType() &&
        expand.getReassociationIndices() == result.groups)
      rw.replaceOp(expand, newResult);
}

/// The map through which `producer` reads its one input when it only moves
/// elements (a permutation or broadcast: out[i] = in[map(i)]), on the same
/// process as the contraction; nullopt otherwise.
std::optional<AffineMap> movementMap(Operation *producer, int64_t process) {
  bool moves = isa_and_nonnull<linalg::TransposeOp, linalg::BroadcastOp, linalg::CopyOp>(producer)
                   ? cast<linalg::LinalgOp>(producer).hasPureTensorSemantics()
                   : yieldsItsInput(producer);
  if (!moves || getProcess(producer) != process)
    return std::nullopt;
  auto op = cast<linalg::LinalgOp>(producer);
  AffineMap in = op.getMatchingIndexingMap(op.getDpsInputOperand(0));
  if (!op.getMatchingIndexingMap(op.getDpsInitOperand(0)).isIdentity() ||
      !in.isProjectedPermutation())
    return std::nullopt;
  return in;
}

/// Reads each input of `op` that a movement produces at its source; whether
/// any was. `op` is a linalg.generic (the maps are its attribute).
bool readMovedInputsAtSource(linalg::GenericOp op) {
  SmallVector<AffineMap> maps = op.getIndexingMapsArray();
  bool changed = false;
  for (OpOperand *input : op.getDpsInputOperands()) {
    Operation *producer = input->get().getDefiningOp();
    std::optional<AffineMap> movement = movementMap(producer, getProcess(op));
    if (!movement)
      continue;
    unsigned index = input->getOperandNumber();
    maps[index] = movement->compose(maps[index]);
    input->set(cast<linalg::LinalgOp>(producer).getDpsInputOperand(0)->get());
    changed = true;
  }
  if (changed)
    op.setIndexingMapsAttr(Builder(op.getContext()).getAffineMapArrayAttr(maps));
  return changed;
}

} // namespace

void expandBatchContractions(func::FuncOp plan) {
  IRRewriter rewriter(plan.getContext());
  SmallVector<linalg::LinalgOp> contractions;
  plan.getBody().front().walk([&](linalg::LinalgOp op) {
    if (isPlainContraction(op))
      contractions.push_back(op);
  });
  for (linalg::LinalgOp op : contractions) {
    SmallVector<SmallVector<int64_t>> expansions = batchExpansions(op);
    if (llvm::any_of(expansions, [](const SmallVector<int64_t> &e) { return !e.empty(); }))
      expandBatchLoops(rewriter, op, expansions);
  }
  // Contractions again: the expanded ones are new generics.
  contractions.clear();
  plan.getBody().front().walk([&](linalg::LinalgOp op) {
    if (isPlainContraction(op) && llvm::any_of(op.getDpsInputs(), [&](Value v) {
          return movementMap(v.getDefiningOp(), getProcess(op)).has_value();
        }))
      contractions.push_back(op);
  });
  for (linalg::LinalgOp op : contractions) {
    FailureOr<linalg::GenericOp> generic = asGeneric(rewriter, op);
    if (failed(generic))
      continue;
    while (readMovedInputsAtSource(*generic)) {
    }
  }
}

} // namespace meshvk

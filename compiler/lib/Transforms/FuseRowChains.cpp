//===- FuseRowChains.cpp - row reductions with the work that reads them ---===//
//
// Softmax, LayerNorm and the attention chain reduce each row (max, sum, mean,
// variance) and broadcast the reduced value back over the row. Outlined,
// each reduction and each broadcast read is a kernel of its own and every
// reduced row value goes through memory; meshvk-fuse-kernels never merges a
// broadcast read (an element tile would recompute its producer). This pass
// merges a launch into the launch that consumes its results when, besides
// what every merge needs (KernelMerger::mayMerge: same process, no
// collective, no data movement between, other uses later),
//   * the two kernels iterate one row space: every linalg op's first r loops
//     are parallel, of the same static extents (r the smallest output rank
//     among them), and every operand is read with those r loops as its
//     leading indices (rows stay rows: no transpose, no other row's data);
//   * an operand read otherwise (a LayerNorm weight without the rows, a
//     causal mask [t, t] under rows [b, h, t]) is a kernel input other than
//     the producer's results, a constant or a fill, read through a projected
//     permutation: what crosses the two kernels is always read row by row;
//   * loops after the rows are either all parallel (elementwise work on the
//     row), or all reductions whose output is exactly the row (a row
//     reduction; a reduction over a leading or split dimension, a
//     convolution never fuse here), or parallel loops then reductions with
//     the output indexed by the rows and those parallel loops (a contraction
//     computing whole rows: attention's scores before their softmax); at
//     least one op is a row reduction;
//   * a row has at most kMaxRowTileElements elements (what a row tile holds).
// Codegen gives such kernels row tiles (compiler/lib/Codegen/RowTiles.cpp):
// an invocation computes a row's reductions once and keeps them private.
//
//===----------------------------------------------------------------------===//
#include "KernelMerger.h"
#include "meshvk/Codegen/TargetDescription.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Utils/Utils.h"

using namespace mlir;

namespace meshvk {
#define GEN_PASS_DEF_FUSEROWCHAINS
#include "meshvk/Transforms/Passes.h.inc"
} // namespace meshvk

using meshvk::KernelMerger;

namespace {

/// `map`'s first `rows` results are the first `rows` loops, in order, and no
/// later result uses them.
bool readsRowPrefix(AffineMap map, unsigned rows) {
  if (map.getNumResults() < rows)
    return false;
  for (auto [k, e] : llvm::enumerate(map.getResults())) {
    if (k < rows) {
      auto d = dyn_cast<AffineDimExpr>(e);
      if (!d || d.getPosition() != k)
        return false;
      continue;
    }
    for (unsigned r = 0; r < rows; ++r)
      if (e.isFunctionOfDim(r))
        return false;
  }
  return true;
}

bool usesRowLoops(AffineMap map, unsigned rows) {
  for (unsigned r = 0; r < rows; ++r)
    if (map.isFunctionOfDim(r))
      return true;
  return false;
}

/// `op`'s body reads a tensor from above (a gather's tensor.extract): an
/// access its indexing maps do not show, so no row rule can vouch for it.
bool readsTensorFromAbove(linalg::LinalgOp op) {
  Region &body = op->getRegion(0);
  WalkResult found = body.walk([&](Operation *inner) {
    for (Value v : inner->getOperands())
      if (isa<TensorType>(v.getType()) && !body.isAncestor(v.getParentRegion()))
        return WalkResult::interrupt();
    return WalkResult::advance();
  });
  return found.wasInterrupted();
}

/// The linalg ops of a kernel, or failure when it holds anything else than
/// those, constants and empties, or an op that reads a tensor from above.
FailureOr<SmallVector<linalg::LinalgOp>> linalgOpsOf(func::FuncOp kernel) {
  SmallVector<linalg::LinalgOp> ops;
  for (Operation &op : kernel.getBody().front().without_terminator()) {
    if (op.hasTrait<OpTrait::ConstantLike>() || isa<tensor::EmptyOp>(op))
      continue;
    auto linalgOp = dyn_cast<linalg::LinalgOp>(op);
    if (!linalgOp || !linalgOp.hasPureTensorSemantics() || readsTensorFromAbove(linalgOp))
      return failure();
    ops.push_back(linalgOp);
  }
  return ops;
}

unsigned outputRank(linalg::LinalgOp op) {
  return op.getMatchingIndexingMap(op.getDpsInitOperand(0)).getNumResults();
}

/// The row space two kernels share and what may be read without the rows.
struct Rows {
  unsigned rank = 0;
  SmallVector<int64_t> extents;
  llvm::DenseSet<Value> invariantOk; // kernel inputs not produced by the pair
};

/// A contraction that computes whole rows: after the row loops, parallel
/// loops then reductions, its output indexed by the rows then those parallel
/// loops (attention's scores [b, h, m, n] = q . k over d under rows
/// [b, h, m]). Fused into a row chain, each row tile computes its row's dot
/// products and the softmax reads them from private memory.
bool isRowContraction(linalg::LinalgOp op, unsigned rows) {
  if (op.getNumDpsInits() != 1 || op.getNumParallelLoops() <= rows)
    return false;
  auto iters = op.getIteratorTypesArray();
  for (unsigned d = 0; d < iters.size(); ++d)
    if (linalg::isParallelIterator(iters[d]) != (d < op.getNumParallelLoops()))
      return false;
  AffineMap out = op.getMatchingIndexingMap(op.getDpsInitOperand(0));
  return out.getNumResults() == op.getNumParallelLoops() && out.isProjectedPermutation() &&
         readsRowPrefix(out, rows);
}

/// One op keeps to the rows (the conditions in the header).
bool keepsRows(linalg::LinalgOp op, const Rows &rows, bool *reduces) {
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  auto iters = op.getIteratorTypesArray();
  if (ranges.size() < rows.rank)
    return false;
  int64_t rowElements = 1;
  for (unsigned d = 0; d < ranges.size(); ++d) {
    if (ShapedType::isDynamic(ranges[d]))
      return false;
    if (d < rows.rank && (ranges[d] != rows.extents[d] || !linalg::isParallelIterator(iters[d])))
      return false;
    if (d >= rows.rank)
      rowElements *= ranges[d];
  }
  if (rowElements > meshvk::codegen::kMaxRowTileElements)
    return false;
  if (op.getNumReductionLoops() > 0 && !isRowContraction(op, rows.rank)) {
    *reduces = true;
    if (op.getNumParallelLoops() != rows.rank || op.getNumDpsInits() != 1 ||
        op.getMatchingIndexingMap(op.getDpsInitOperand(0)).getNumResults() != rows.rank)
      return false;
  }
  for (OpOperand &operand : op->getOpOperands()) {
    AffineMap map = op.getMatchingIndexingMap(&operand);
    if (readsRowPrefix(map, rows.rank))
      continue;
    Operation *def = operand.get().getDefiningOp();
    // A fill reads no tensor: every element is the same value.
    bool invariant = rows.invariantOk.contains(operand.get()) ||
                     (def && (def->hasTrait<OpTrait::ConstantLike>() || isa<linalg::FillOp>(def)));
    // From outside the pair it is in memory before the kernel starts: any
    // row may read any of it (a causal mask [t, t] under rows [b, h, t]).
    // Mixed dims (a window's d0 + d1) stay out: row tiles slice by dims.
    if (op.isDpsInit(&operand) || !invariant ||
        (usesRowLoops(map, rows.rank) && !map.isProjectedPermutation()))
      return false;
  }
  return true;
}

/// The producer's and consumer's kernels share one row space and keep to it.
bool rowChain(KernelMerger &merger, meshvk::LaunchOp producer, meshvk::LaunchOp consumer) {
  func::FuncOp pk = merger.kernelOf(producer), ck = merger.kernelOf(consumer);
  if (!pk || !ck)
    return false;
  FailureOr<SmallVector<linalg::LinalgOp>> pOps = linalgOpsOf(pk), cOps = linalgOpsOf(ck);
  if (failed(pOps) || failed(cOps))
    return false;
  SmallVector<linalg::LinalgOp> ops(*pOps);
  ops.append(cOps->begin(), cOps->end());
  // The rows: the leading loops of the op with the smallest output.
  Rows rows;
  linalg::LinalgOp smallest;
  for (linalg::LinalgOp op : ops)
    if (!isa<linalg::FillOp>(op) && (!smallest || outputRank(op) < outputRank(smallest)))
      smallest = op;
  if (!smallest || outputRank(smallest) == 0)
    return false;
  rows.rank = outputRank(smallest);
  rows.extents = llvm::to_vector(ArrayRef(smallest.getStaticLoopRanges()).take_front(rows.rank));
  for (BlockArgument arg : pk.getArguments())
    rows.invariantOk.insert(arg);
  for (auto [arg, v] : llvm::zip(ck.getArguments(), consumer.getInputs()))
    if (v.getDefiningOp() != producer.getOperation())
      rows.invariantOk.insert(arg);
  // Fills are checked where they are used: an init must be read as the
  // rows, an input is invariant (LayerNorm's weight of ones, the mask's -inf).
  bool reduces = false;
  return llvm::all_of(ops,
                      [&](linalg::LinalgOp op) {
                        return isa<linalg::FillOp>(op) || keepsRows(op, rows, &reduces);
                      }) &&
         reduces;
}

meshvk::LaunchOp rowProducer(KernelMerger &merger, meshvk::LaunchOp consumer) {
  for (Value input : consumer.getInputs()) {
    auto producer = input.getDefiningOp<meshvk::LaunchOp>();
    if (producer && KernelMerger::mayMerge(producer, consumer) &&
        rowChain(merger, producer, consumer))
      return producer;
  }
  return {};
}

struct FuseRowChainsPass : meshvk::impl::FuseRowChainsBase<FuseRowChainsPass> {
  void runOnOperation() override { KernelMerger(getOperation()).fuseAll(rowProducer); }
};

} // namespace

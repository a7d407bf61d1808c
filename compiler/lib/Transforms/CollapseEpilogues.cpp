//===- CollapseEpilogues.cpp - epilogues iterate their contraction's space ===//
//
// A MatMul of an [B, M, K] activation by a [K, N] weight is imported as a
// collapse to [B*M, K], a 2-D matmul and an expand of its result back to
// [B, M, N]; its bias add or activation then iterates [B, M, N] and reads the
// matmul through the expand. meshvk-fuse-kernels merges an elementwise
// consumer into a contraction only when it reads the contraction's result
// elementwise, so the bias stayed a kernel of its own (3 a layer in the
// decoder). Here such an elementwise linalg.generic is collapsed to the
// contraction's iteration space instead (upstream
// linalg::collapseOpIterationDims): it reads the matmul's result directly,
// the expand moves after it (a view once planned, ReshapeViews.h), and its
// other operands are collapsed the same way (views too).
//
//===----------------------------------------------------------------------===//
#include "CollapseEpilogues.h"
#include "meshvk/Dialect/MeshVKDialect.h"
#include "meshvk/Transforms/Passes.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/PatternMatch.h"

using namespace mlir;

namespace meshvk {

namespace {

/// Whether every input of `op` reads the collapsed space as plainly: a whole
/// tensor of the iteration space (identity: a residual, collapsed with it),
/// or a broadcast that reads none of `groups`' dims (a bias over the last).
/// Anything else, such as a LayerNorm's row means read by (d0, d1) or
/// (d0, d1, 0), stays as it is: row chains keep their row space.
bool othersCollapse(linalg::GenericOp op, ArrayRef<ReassociationIndices> groups) {
  llvm::SmallDenseSet<unsigned> collapsed;
  for (const ReassociationIndices &group : groups)
    collapsed.insert(group.begin(), group.end());
  return llvm::all_of(op.getDpsInputOperands(), [&](OpOperand *input) {
    AffineMap map = op.getMatchingIndexingMap(input);
    if (map.isIdentity())
      return true;
    return map.isProjectedPermutation() && llvm::none_of(map.getResults(), [&](AffineExpr e) {
             return collapsed.contains(cast<AffineDimExpr>(e).getPosition());
           });
  });
}

/// The dims of `op`'s iteration space to collapse so that it reads a
/// contraction's result (or an `epilogues` op's, collapsed before: an
/// activation after the bias add) instead of an expand of it: the expand's
/// groups, when `op` is elementwise (identity maps for the expand's read and
/// the result, no linalg.index), runs where the contraction runs, and its
/// other inputs collapse plainly. Empty when there is nothing to do.
SmallVector<ReassociationIndices> epilogueGroups(linalg::GenericOp op,
                                                 const DenseSet<Operation *> &epilogues) {
  if (!op.hasPureTensorSemantics() || op.getNumLoops() != op.getNumParallelLoops() ||
      op.hasIndexSemantics() || op.getNumDpsInits() != 1 || getProcess(op) < 0 ||
      !op.getMatchingIndexingMap(op.getDpsInitOperand(0)).isIdentity())
    return {};
  for (OpOperand *input : op.getDpsInputOperands()) {
    auto expand = input->get().getDefiningOp<tensor::ExpandShapeOp>();
    auto contraction =
        expand ? expand.getSrc().getDefiningOp<linalg::LinalgOp>() : linalg::LinalgOp();
    if (!contraction ||
        (contraction.getNumReductionLoops() == 0 && !epilogues.contains(contraction)) ||
        getProcess(contraction) != getProcess(op) || !op.getMatchingIndexingMap(input).isIdentity())
      continue;
    SmallVector<ReassociationIndices> groups;
    for (ReassociationIndices group : expand.getReassociationIndices())
      if (group.size() > 1)
        groups.push_back(group);
    if (!groups.empty() && othersCollapse(op, groups))
      return groups;
  }
  return {};
}

/// What collapseOpIterationDims leaves around `collapsed`'s operands, made
/// plan-ready: a collapse of the expand it reads through is the expand's
/// source, a collapse of a tensor.empty (the init) is an empty of the
/// collapsed type (a kernel would otherwise read the undefined init).
void tidyOperands(RewriterBase &rewriter, linalg::LinalgOp collapsed) {
  for (OpOperand &operand : collapsed->getOpOperands()) {
    auto collapse = operand.get().getDefiningOp<tensor::CollapseShapeOp>();
    if (!collapse)
      continue;
    if (auto expand = collapse.getSrc().getDefiningOp<tensor::ExpandShapeOp>();
        expand && expand.getSrcType() == collapse.getResultType() &&
        expand.getReassociationIndices() == collapse.getReassociationIndices()) {
      operand.set(expand.getSrc());
    } else if (collapse.getSrc().getDefiningOp<tensor::EmptyOp>()) {
      rewriter.setInsertionPoint(collapsed);
      operand.set(tensor::EmptyOp::create(rewriter, collapse.getLoc(),
                                          collapse.getResultType().getShape(),
                                          collapse.getResultType().getElementType()));
    }
    if (collapse->use_empty())
      rewriter.eraseOp(collapse);
  }
}

} // namespace

void collapseContractionEpilogues(func::FuncOp plan) {
  IRRewriter rewriter(plan.getContext());
  Block &body = plan.getBody().front();
  DenseSet<Operation *> epilogues;
  for (auto op : llvm::make_early_inc_range(body.getOps<linalg::GenericOp>())) {
    SmallVector<ReassociationIndices> groups = epilogueGroups(op, epilogues);
    if (groups.empty())
      continue;
    int64_t process = getProcess(op);
    Operation *before = op->getPrevNode(), *after = op->getNextNode();
    rewriter.setInsertionPoint(op);
    FailureOr<linalg::CollapseResult> result =
        linalg::collapseOpIterationDims(op, groups, rewriter);
    if (failed(result))
      continue;
    rewriter.replaceOp(op, result->results);
    // The plan's ops carry their process (meshvk-unroll-grid): so do these.
    // Tagged before tidying, which may erase `before` (an older reshape).
    for (Operation *o = before ? before->getNextNode() : &body.front(); o != after;
         o = o->getNextNode())
      if (getProcess(o) < 0)
        setProcess(o, process);
    tidyOperands(rewriter, result->collapsedOp);
    epilogues.insert(result->collapsedOp);
  }
}

} // namespace meshvk

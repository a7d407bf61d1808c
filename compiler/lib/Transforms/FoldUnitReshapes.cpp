//===- FoldUnitReshapes.cpp - unit-dim reshapes into their readers' maps --===//
//
// Reductions kept with their dims (tosa.reduce_*: linalg.reduce then an
// expand_shape adding the unit dim) and broadcasts of them (the importer
// collapses the unit dim away before a broadcast read) leave reshapes that
// only add or drop dims of extent 1 between a row reduction and its readers.
// Outlined, each is a copy kernel of its own, and it splits the row chain
// meshvk-fuse-row-chains would merge. Such a reshape moves no element: a
// linalg.generic reading it can read its source instead, with the unit
// dims' indices dropped (an expand) or read as 0 (a collapse). This pass does
// that, on plan functions before outlining, for the inputs of linalg.generic
// (named ops keep their maps, inits keep the result's shape), and drops
// reshapes left unused; these folds create no op. Then batched contractions
// iterate the batch dims their operands were collapsed from and read
// transposed inputs at their source (BatchContractions.cpp), and a
// contraction's elementwise readers through an expand are collapsed to its
// iteration space (CollapseEpilogues.cpp), so that they fuse into it; both
// tag the ops they create with their process.
//
//===----------------------------------------------------------------------===//
#include "BatchContractions.h"
#include "CollapseEpilogues.h"
#include "meshvk/Dialect/MeshVKDialect.h"
#include "meshvk/Transforms/Passes.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

using namespace mlir;

namespace meshvk {
#define GEN_PASS_DEF_FOLDUNITRESHAPES
#include "meshvk/Transforms/Passes.h.inc"
} // namespace meshvk

namespace {

/// For a reshape between the expanded shape `big` and the collapsed shape
/// `small` (groups over `big`), the dim of `small` each dim of `big` carries,
/// or -1 for a unit dim the reshape adds or drops; nullopt when a group
/// splits a dim for real (two dims of extent > 1) or a shape is dynamic.
std::optional<SmallVector<int64_t>> carriedDims(ArrayRef<int64_t> big, ArrayRef<int64_t> small,
                                                ArrayRef<ReassociationIndices> groups) {
  if (ShapedType::isDynamicShape(big) || ShapedType::isDynamicShape(small))
    return std::nullopt;
  SmallVector<int64_t> carried(big.size(), -1);
  for (auto [i, group] : llvm::enumerate(groups)) {
    SmallVector<int64_t> wide;
    for (int64_t k : group)
      if (big[k] != 1)
        wide.push_back(k);
    if (wide.size() > 1)
      return std::nullopt;
    // All of extent 1: the first carries the (unit) dim of `small`.
    carried[wide.empty() ? group.front() : wide.front()] = i;
  }
  return carried;
}

/// Reads `operand` through its source when it is a unit-dim reshape; the new
/// map for that read, or a null map.
AffineMap lookThrough(OpOperand &operand, AffineMap map) {
  Operation *def = operand.get().getDefiningOp();
  SmallVector<AffineExpr> exprs;
  if (auto expand = dyn_cast_or_null<tensor::ExpandShapeOp>(def)) {
    auto carried = carriedDims(expand.getResultType().getShape(), expand.getSrcType().getShape(),
                               expand.getReassociationIndices());
    if (!carried)
      return {};
    // Only the dims the source has: an added unit dim is always index 0.
    for (auto [k, e] : llvm::enumerate(map.getResults()))
      if ((*carried)[k] >= 0)
        exprs.push_back(e);
    operand.set(expand.getSrc());
  } else if (auto collapse = dyn_cast_or_null<tensor::CollapseShapeOp>(def)) {
    auto carried =
        carriedDims(collapse.getSrcType().getShape(), collapse.getResultType().getShape(),
                    collapse.getReassociationIndices());
    if (!carried)
      return {};
    // The source's dropped unit dims are read at 0.
    for (int64_t c : *carried)
      exprs.push_back(c >= 0 ? map.getResult(c) : getAffineConstantExpr(0, map.getContext()));
    operand.set(collapse.getSrc());
  } else {
    return {};
  }
  return AffineMap::get(map.getNumDims(), map.getNumSymbols(), exprs, map.getContext());
}

/// Every loop still appears as a plain index of some operand (what makes
/// the loop ranges derivable: linalg's invertibility rule). A loop of extent
/// 1 only the reshape's result was indexed by (a reduction over the added
/// dim) would be left unbound.
bool loopsBound(ArrayRef<AffineMap> maps) {
  return static_cast<bool>(inversePermutation(concatAffineMaps(maps, maps.front().getContext())));
}

/// Folds the unit-dim reshapes `op`'s inputs read (chains of them, too).
void foldInputs(linalg::GenericOp op) {
  SmallVector<AffineMap> maps = op.getIndexingMapsArray();
  bool changed = false;
  for (OpOperand *operand : op.getDpsInputOperands()) {
    unsigned i = operand->getOperandNumber();
    Value original = operand->get();
    AffineMap originalMap = maps[i];
    while (AffineMap folded = lookThrough(*operand, maps[i]))
      maps[i] = folded;
    if (!loopsBound(maps)) {
      operand->set(original);
      maps[i] = originalMap;
    }
    changed |= operand->get() != original;
  }
  if (changed)
    op.setIndexingMapsAttr(Builder(op).getAffineMapArrayAttr(maps));
}

struct FoldUnitReshapesPass : meshvk::impl::FoldUnitReshapesBase<FoldUnitReshapesPass> {
  void runOnOperation() override {
    for (auto plan : getOperation().getOps<func::FuncOp>()) {
      if (!meshvk::getPlan(plan))
        continue;
      plan.walk([](linalg::GenericOp op) { foldInputs(op); });
      meshvk::expandBatchContractions(plan);
      meshvk::collapseContractionEpilogues(plan);
      // Reshapes nothing reads any more, and the transposes and inits the
      // batch contractions no longer read (outlined, each would be a kernel).
      Block &body = plan.getBody().front();
      for (Operation &op : llvm::make_early_inc_range(llvm::reverse(body)))
        if (op.use_empty() &&
            isa<tensor::ExpandShapeOp, tensor::CollapseShapeOp, tensor::EmptyOp, linalg::LinalgOp>(
                op) &&
            isOpTriviallyDead(&op))
          op.erase();
    }
  }
};

} // namespace

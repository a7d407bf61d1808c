//===- FuseKernels.cpp - elementwise work into its producer's kernel ------===//
//
// meshvk-outline-kernels makes one kernel per compute op; a matmul's bias and
// activation, a convolution's tap sums, bias, activation and residual add,
// and every step of an elementwise chain then write and re-read whole
// tensors. This pass merges a launch into the launch that consumes its
// results when
//   * both run on the same process and neither is a collective's kernel;
//   * the consumer reads each result of the producer it takes once, and
//     inside its body by one linalg op that reads it through a permutation
//     (no broadcast: a broadcast read would recompute the producer per
//     repeated element); a result that other ops read too (after the
//     consumer) stays a result of the merged kernel;
//   * the consumer reads it in an elementwise op (every linalg op of an
//     elementwise kernel is all-parallel), the producer is elementwise or a
//     contraction kernel (matmul, batch matmul, a window sum of a
//     convolution, with elementwise work around it), and the merged kernel
//     holds at most one contraction;
//   * no copy, collective or other non-launch plan op lies between the two:
//     fusion moves the producer's work down to the consumer and never across
//     data movement (the plans are per-process after partitioning).
// The merged kernel is deduplicated like outlined ones; kernels left without
// launches are erased (KernelMerger.cpp, shared with meshvk-fuse-row-chains).
// Codegen (meshvk-tile-and-distribute) tiles such a kernel by its contraction
// and computes the elementwise work per tile.
//
//===----------------------------------------------------------------------===//
#include "KernelMerger.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"

using namespace mlir;

namespace meshvk {
#define GEN_PASS_DEF_FUSEKERNELS
#include "meshvk/Transforms/Passes.h.inc"
} // namespace meshvk

namespace {

enum class KernelKind { Elementwise, Contraction, Other };

bool isElementwise(linalg::LinalgOp op) {
  return op.getNumLoops() == op.getNumParallelLoops() &&
         llvm::all_of(op.getDpsInitsMutable(), [&](OpOperand &init) {
           return op.getMatchingIndexingMap(&init).isPermutation();
         });
}

/// What codegen tiles as a contraction (TileKernel.cpp, planTiles): reduction
/// loops and at least two parallel loops in the one output.
bool isContraction(linalg::LinalgOp op) {
  if (op.getNumReductionLoops() == 0 || op.getNumDpsInits() != 1)
    return false;
  AffineMap out = op.getMatchingIndexingMap(op.getDpsInitOperand(0));
  return out.isProjectedPermutation() && out.getNumResults() >= 2;
}

KernelKind classify(func::FuncOp kernel, int *contractionCount = nullptr) {
  int contractions = 0;
  for (Operation &op : kernel.getBody().front().without_terminator()) {
    if (op.hasTrait<OpTrait::ConstantLike>() || isa<tensor::EmptyOp>(op))
      continue;
    auto linalgOp = dyn_cast<linalg::LinalgOp>(op);
    if (!linalgOp || !linalgOp.hasPureTensorSemantics())
      return KernelKind::Other;
    if (isa<linalg::FillOp>(op) || isElementwise(linalgOp))
      continue;
    if (!isContraction(linalgOp))
      return KernelKind::Other;
    ++contractions;
  }
  if (contractionCount)
    *contractionCount = contractions;
  return contractions ? KernelKind::Contraction : KernelKind::Elementwise;
}

/// Argument `index` of `kernel` is read by one elementwise linalg op, through
/// a permutation (never by a contraction: no prologues yet).
bool readOnceElementwise(func::FuncOp kernel, unsigned index) {
  Value arg = kernel.getArgument(index);
  if (!arg.hasOneUse())
    return false;
  OpOperand &use = *arg.getUses().begin();
  auto user = dyn_cast<linalg::LinalgOp>(use.getOwner());
  return user && isElementwise(user) && user.getMatchingIndexingMap(&use).isPermutation();
}

/// Each producer result the consumer takes is read there once, elementwise,
/// through a permutation (a result also used elsewhere stays a result of the
/// merged kernel: KernelMerger::mayMerge checks those uses come later).
bool resultsReadOnceElementwise(meshvk::LaunchOp producer, meshvk::LaunchOp consumer,
                                func::FuncOp consumerKernel) {
  return llvm::all_of(producer.getResults(), [&](Value r) {
    int reads = 0;
    for (OpOperand &use : r.getUses())
      if (use.getOwner() == consumer.getOperation() &&
          (++reads > 1 || !readOnceElementwise(consumerKernel, use.getOperandNumber())))
        return false;
    return true;
  });
}

meshvk::LaunchOp fusibleProducer(meshvk::KernelMerger &merger, meshvk::LaunchOp consumer) {
  func::FuncOp consumerKernel = merger.kernelOf(consumer);
  int consumerContractions = 0;
  if (!consumerKernel || classify(consumerKernel, &consumerContractions) == KernelKind::Other)
    return {};
  for (Value input : consumer.getInputs()) {
    auto producer = input.getDefiningOp<meshvk::LaunchOp>();
    if (!producer || !meshvk::KernelMerger::mayMerge(producer, consumer))
      continue;
    func::FuncOp producerKernel = merger.kernelOf(producer);
    int producerContractions = 0;
    if (!producerKernel || classify(producerKernel, &producerContractions) == KernelKind::Other)
      continue;
    // One contraction per kernel: a second one (a convolution's other tap
    // sums) would be computed per tile into invocation-private temporaries,
    // which measured 2.3x slower than apart on ragged channel tiles
    // (pytorch-operator test_operator_conv, 13 output channels).
    if (consumerContractions + producerContractions > 1)
      continue;
    if (resultsReadOnceElementwise(producer, consumer, consumerKernel))
      return producer;
  }
  return {};
}

struct FuseKernelsPass : meshvk::impl::FuseKernelsBase<FuseKernelsPass> {
  void runOnOperation() override { meshvk::KernelMerger(getOperation()).fuseAll(fusibleProducer); }
};

} // namespace

//===- Pipelines.cpp - meshvk's named pass pipelines ----------------------===//
#include "meshvk/Transforms/Passes.h"

#include "mlir/Conversion/TosaToArith/TosaToArith.h"
#include "mlir/Conversion/TosaToLinalg/TosaToLinalg.h"
#include "mlir/Conversion/TosaToSCF/TosaToSCF.h"
#include "mlir/Conversion/TosaToTensor/TosaToTensor.h"
#include "mlir/Dialect/Linalg/Passes.h"
#include "mlir/Dialect/Shard/Transforms/Passes.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Transforms/Passes.h"

using namespace mlir;

namespace {

struct PartitionOptions : PassPipelineOptions<PartitionOptions> {
  // `forward` is not offered: it crashes inside shard-partition.
  Option<shard::TraversalOrder> traversal{
      *this, "traversal",
      llvm::cl::desc("sharding-propagation traversal (default forward-backward: "
                     "keeps elementwise chains after a split matmul sharded)"),
      llvm::cl::init(shard::TraversalOrder::ForwardBackward),
      llvm::cl::values(clEnumValN(shard::TraversalOrder::ForwardBackward, "forward-backward",
                                  "forward then backward"),
                       clEnumValN(shard::TraversalOrder::BackwardForward, "backward-forward",
                                  "upstream's default"),
                       clEnumValN(shard::TraversalOrder::Backward, "backward", "backward only"))};
};

/// Programs as people write them: tosa ops and arith/math ops on whole
/// tensors become linalg (what the sharding interfaces and the kernel
/// generator take); meshvk-normalize-input gives a function without
/// annotations a grid of one and fixes what propagation trips over.
void addInputPasses(OpPassManager &pm) {
  pm.addPass(meshvk::createCheckTensorTypes());
  // On the program as written: every tensor.empty from here on is one the
  // compiler made (tosa-to-linalg, pad/concat decomposition, read-init
  // rewrites), and those are filled or fully written.
  pm.addPass(meshvk::createCheckInitialized());
  // Helper functions people factor out (`func.call @gelu`) are inlined and
  // the private ones then dropped: a plan is one function, and the sharding
  // interfaces have no rule for calls. No cleanup pipeline runs on the
  // inlined bodies (canonicalize would fold annotations before partition);
  // recursive calls stay and are refused by name in check-sharding.
  pm.addPass(
      createInlinerPass(/*opPipelines=*/{}, /*defaultPipelineBuilder=*/[](OpPassManager &) {}));
  pm.addPass(createSymbolDCEPass());
  OpPassManager &func = pm.nest<func::FuncOp>();
  // First: tosa-to-linalg fails on the tosa.yield of cond_if / while_loop.
  func.addPass(createTosaToSCFPass());
  // Before tosa-to-linalg, whose argmax has two outputs (GenericRewrites.cpp).
  func.addPass(meshvk::createLowerArgmax());
  func.addPass(meshvk::createDecomposeTosa());
  func.addPass(tosa::createTosaToLinalgNamed());
  func.addPass(tosa::createTosaToLinalg());
  func.addPass(createTosaToArithPass());
  func.addPass(createTosaToTensorPass());
  func.addPass(createConvertElementwiseToLinalgPass());
  pm.addPass(meshvk::createNormalizeInput());
  pm.addPass(meshvk::createPrepareGenerics());
}

void addPartitionPasses(OpPassManager &pm, shard::TraversalOrder traversal,
                        bool storeInF16 = false) {
  addInputPasses(pm);
  if (storeInF16)
    pm.addPass(meshvk::createStoreInF16());
  pm.addPass(meshvk::createCheckSharding());
  // forward-backward by default: upstream's default (backward-forward)
  // all-gathers right after a row-split matmul and then runs the elementwise
  // chain on the whole tensor on every process; forward-backward keeps the
  // chain sharded for the same bytes moved; `forward` crashes in
  // shard-partition (tests/compiler/meshvk-partition.mlir measures this).
  // Propagation, completion and decomposition of reshards, on every function
  // of the global program (SPMD functions have nothing to propagate).
  // Afterwards every reshard is an explicit annotation pair, and every
  // argument carries the sharding shard-partition will give it.
  meshvk::PropagateShardingsOptions propagation;
  propagation.traversal = traversal;
  pm.addPass(meshvk::createPropagateShardings(propagation));
  // Uneven splits get explicit offsets and their reshards a meshvk.reshard
  // (upstream asserts on the former and cannot partition the latter).
  pm.addNestedPass<func::FuncOp>(meshvk::createUnevenShards());
  pm.addPass(meshvk::createRecordAbi());
  pm.addNestedPass<func::FuncOp>(shard::createPartition());
  pm.addPass(createCanonicalizerPass());
  pm.addPass(meshvk::createVerifyAbi());
}

} // namespace

void meshvk::buildPartitionPipeline(OpPassManager &pm, bool storeInF16) {
  addPartitionPasses(pm, shard::TraversalOrder::ForwardBackward, storeInF16);
}

void meshvk::buildPlanPipeline(OpPassManager &pm) {
  // On the SPMD functions, before unrolling clones each op per process:
  // convolutions and poolings whose windows stayed local become one op again.
  pm.addPass(createRecomposeWindows());
  // No canonicalize/CSE between these: CSE would merge identical ops of
  // different processes, and rewrites could drop the meshvk.process tags.
  pm.addPass(createUnrollGrid());
  pm.addPass(createLowerCollectives());
  // Before outlining: each piece of a split reduction is a kernel of its own.
  pm.addPass(createSplitReductions());
  // Unit-dim reshapes (kept reduction dims) would be copy kernels that split
  // row chains: their readers read the sources.
  pm.addPass(createFoldUnitReshapes());
  pm.addPass(createOutlineKernels());
  // On launches (per process, after partitioning and collective lowering):
  // merges never cross a copy or collective.
  pm.addPass(createFuseKernels());
  // Softmax / LayerNorm rows: reductions with their broadcast readers.
  pm.addPass(createFuseRowChains());
  pm.addPass(createPlanAllocations());
}

void meshvk::registerMeshVKPipelines() {
  PassPipelineRegistration<PartitionOptions>(
      "meshvk-partition", "Check shardings, record the ABI, partition with upstream Shard passes",
      [](OpPassManager &pm, const PartitionOptions &options) {
        addPartitionPasses(pm, options.traversal);
      });
  PassPipelineRegistration<>("meshvk-plan", "Partitioned SPMD functions -> per-process plans",
                             buildPlanPipeline);
  PassPipelineRegistration<PartitionOptions>(
      "meshvk-compile-plan", "meshvk-partition followed by meshvk-plan",
      [](OpPassManager &pm, const PartitionOptions &options) {
        addPartitionPasses(pm, options.traversal);
        buildPlanPipeline(pm);
      });
}

//===- Pipelines.cpp - meshvk's named pass pipelines ----------------------===//
#include "meshvk/Passes.h"

#include "mlir/Dialect/Shard/Transforms/Passes.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Transforms/Passes.h"

using namespace mlir;

void meshvk::buildPartitionPipeline(OpPassManager &pm) {
  pm.addPass(createCheckSharding());
  // forward-backward, not the default: the default traversal all-gathers early
  // in matmul -> elementwise chains, and `forward` crashes in shard-partition
  // (see tests/compiler/meshvk-partition.mlir, which measures both).
  shard::ShardingPropagationOptions propagation;
  propagation.traversal = shard::TraversalOrder::ForwardBackward;
  pm.addNestedPass<func::FuncOp>(shard::createShardingPropagation(propagation));
  // After propagation every reshard is an explicit annotation pair, and every
  // argument carries the sharding shard-partition will give it.
  pm.addNestedPass<func::FuncOp>(createDecomposeReshards());
  pm.addPass(createRecordAbi());
  pm.addNestedPass<func::FuncOp>(shard::createPartition());
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createVerifyAbi());
}

void meshvk::buildPlanPipeline(OpPassManager &pm) {
  pm.addPass(createUnrollGrid());
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createLowerCollectives());
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());
  pm.addPass(createOutlineKernels());
  pm.addPass(createPlanAllocations());
}

void meshvk::registerMeshVKPipelines() {
  PassPipelineRegistration<>(
      "meshvk-partition",
      "Check shardings, record the ABI, partition with upstream Shard passes",
      buildPartitionPipeline);
  PassPipelineRegistration<>(
      "meshvk-plan", "Partitioned SPMD functions -> per-process plans",
      buildPlanPipeline);
  PassPipelineRegistration<>(
      "meshvk-compile-plan", "meshvk-partition followed by meshvk-plan",
      [](OpPassManager &pm) {
        buildPartitionPipeline(pm);
        buildPlanPipeline(pm);
      });
}

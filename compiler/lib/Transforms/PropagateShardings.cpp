//===- PropagateShardings.cpp - propagation on the global program only ----===//
//
// Upstream sharding-propagation visits every op of every function and
// refuses ops without the sharding interface; the shard collectives and
// update_halo of SPMD functions (SpmdFunctions.h) are such ops, and there is
// nothing to propagate in per-process code. This pass runs the propagation
// steps on the other functions only, as one nested pipeline per function.
//
//===----------------------------------------------------------------------===//
#include "SpmdFunctions.h"
#include "ReshapeSharding.h"
#include "SliceSharding.h"
#include "meshvk/Transforms/Passes.h"

#include "mlir/Pass/PassManager.h"

using namespace mlir;

namespace meshvk {
#define GEN_PASS_DEF_PROPAGATESHARDINGS
#include "meshvk/Transforms/Passes.h.inc"
} // namespace meshvk

namespace {

struct PropagateShardingsPass : meshvk::impl::PropagateShardingsBase<PropagateShardingsPass> {
  using PropagateShardingsBase::PropagateShardingsBase;

  void getDependentDialects(DialectRegistry &registry) const override {
    PropagateShardingsBase::getDependentDialects(registry);
    pipeline().getDependentDialects(registry);
    // The pass manager applies every pass's registry before the first pass
    // runs: check-sharding already sees the reshape and slice sharding rules.
    meshvk::registerReshapeShardingModels(registry);
    meshvk::registerSliceShardingModels(registry);
  }

  OpPassManager pipeline() const {
    OpPassManager pm(func::FuncOp::getOperationName());
    shard::ShardingPropagationOptions options;
    options.traversal = traversal;
    pm.addPass(shard::createShardingPropagation(options));
    // Ops propagation could not shard consistently run replicated (else
    // shard-partition segfaults on them); then every reshard becomes steps
    // upstream partitions correctly.
    pm.addPass(meshvk::createCompleteShardings());
    pm.addPass(meshvk::createDecomposeReshards());
    return pm;
  }

  void runOnOperation() override {
    OpPassManager pm = pipeline();
    for (auto func : llvm::to_vector(getOperation().getOps<func::FuncOp>())) {
      if (func.isExternal() || meshvk::isSpmdFunction(func))
        continue;
      if (failed(runPipeline(pm, func)))
        return signalPassFailure();
    }
  }
};

} // namespace

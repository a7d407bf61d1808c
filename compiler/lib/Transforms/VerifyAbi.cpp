//===- VerifyAbi.cpp - partitioning kept every global signature -----------===//
//
// meshvk-verify-abi runs after shard-partition and checks each partitioned
// signature against the `#meshvk.abi` that meshvk-record-abi wrote before it:
// upstream can silently drop a resharding step and change a result's shape.
//
//===----------------------------------------------------------------------===//
#include "meshvk/Transforms/Passes.h"

using namespace mlir;

namespace meshvk {
#define GEN_PASS_DEF_VERIFYABI
#include "meshvk/Transforms/Passes.h.inc"
} // namespace meshvk

namespace {

struct VerifyAbiPass : meshvk::impl::VerifyAbiBase<VerifyAbiPass> {
  void runOnOperation() override {
    bool failed = false;
    for (auto func : getOperation().getOps<func::FuncOp>()) {
      meshvk::AbiAttr abi = meshvk::getAbi(func);
      if (!abi)
        continue;
      FunctionType type = func.getFunctionType();
      if (abi.getArgs().size() != type.getNumInputs() ||
          abi.getResults().size() != type.getNumResults()) {
        func.emitError() << "partitioning changed the number of arguments or "
                            "results of @"
                         << func.getSymName();
        failed = true;
        continue;
      }
      auto check = [&](ArrayAttr entries, TypeRange actual, StringRef what) {
        for (auto [i, entry] : llvm::enumerate(entries)) {
          auto tensor = cast<meshvk::ValueAbiAttr>(entry);
          Type expected = tensor.getShardType();
          if (expected == actual[i])
            continue;
          func.emitError() << "partitioning broke the signature of @" << func.getSymName() << ": "
                           << what << " #" << i << " should be the local shard " << expected
                           << " of the global " << TypeAttr::get(tensor.getType()) << " split "
                           << tensor.getSplitAxes() << " but is " << actual[i]
                           << " (upstream shard-partition did not partition it as "
                              "annotated: a dropped resharding step, or an op it cannot "
                              "partition)";
          failed = true;
        }
      };
      check(abi.getArgs(), type.getInputs(), "argument");
      check(abi.getResults(), type.getResults(), "result");
    }
    if (failed)
      signalPassFailure();
  }
};

} // namespace

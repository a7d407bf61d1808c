//===- LinalgPatterns.cpp - linalg op shapes several passes recognize -----===//
#include "LinalgPatterns.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"

using namespace mlir;

namespace meshvk {

bool yieldsItsInput(Operation *op) {
  auto generic = dyn_cast_or_null<linalg::GenericOp>(op);
  if (!generic || !generic.hasPureTensorSemantics() ||
      generic.getNumLoops() != generic.getNumParallelLoops() || generic.getNumDpsInits() != 1 ||
      generic.getNumDpsInputs() != 1)
    return false;
  auto yield = cast<linalg::YieldOp>(generic.getBody()->getTerminator());
  return &generic.getBody()->front() == yield.getOperation() &&
         yield.getOperand(0) == generic.getBody()->getArgument(0);
}

bool isBroadcast(Operation *op) {
  if (!yieldsItsInput(op))
    return false;
  auto generic = cast<linalg::GenericOp>(op);
  return generic.getMatchingIndexingMap(generic.getDpsInputOperand(0)).getNumResults() <
         generic.getNumLoops();
}

} // namespace meshvk

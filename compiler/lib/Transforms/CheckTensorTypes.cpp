//===- CheckTensorTypes.cpp - ranked tensors of integers and floats ------===//
//
// meshvk-check-tensor-types (Passes.td): the first input pass refuses an
// unranked tensor, or one of complex numbers, quantized values or vectors,
// before anything else looks at it.
//
//===----------------------------------------------------------------------===//
#include "meshvk/Transforms/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"

using namespace mlir;

namespace meshvk {
#define GEN_PASS_DEF_CHECKTENSORTYPES
#include "meshvk/Transforms/Passes.h.inc"
} // namespace meshvk

namespace {

bool computable(Type type) {
  auto tensor = dyn_cast<TensorType>(type);
  return !tensor ||
         (tensor.hasRank() && isa<IntegerType, FloatType, IndexType>(tensor.getElementType()));
}

constexpr const char *kOnly = ": meshvk computes ranked tensors of integers and floats only";

struct CheckTensorTypesPass : meshvk::impl::CheckTensorTypesBase<CheckTensorTypesPass> {
  void runOnOperation() override {
    for (auto func : getOperation().getOps<func::FuncOp>()) {
      for (auto [i, type] : llvm::enumerate(func.getArgumentTypes()))
        if (!computable(type)) {
          func.emitError() << "argument #" << i << " of @" << func.getSymName() << " has type "
                           << type << kOnly;
          return signalPassFailure();
        }
      WalkResult walk = func.walk([&](Operation *op) {
        for (Type type : op->getResultTypes())
          if (!computable(type)) {
            op->emitError() << "result of type " << type << kOnly;
            return WalkResult::interrupt();
          }
        return WalkResult::advance();
      });
      if (walk.wasInterrupted())
        return signalPassFailure();
    }
  }
};

} // namespace

//===- ReshapeViews.cpp - reshape kernels become views of their operand ---===//
//
// See ReshapeViews.h. The buffer plan (PlanAllocations.cpp) gives a view its
// operand's buffer and extends that buffer's lifetime over the view's uses;
// the artifact emitter records no command for it.
//
//===----------------------------------------------------------------------===//
#include "ReshapeViews.h"

#include "meshvk/Transforms/Passes.h"

#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/SymbolTable.h"

using namespace mlir;

namespace meshvk {

bool isView(Operation *op) {
  if (!op || !isa<tensor::CollapseShapeOp, tensor::ExpandShapeOp>(op))
    return false;
  auto func = op->getParentOfType<func::FuncOp>();
  return func && getPlan(func);
}

Value viewedValue(Value value) {
  while (isView(value.getDefiningOp()))
    value = value.getDefiningOp()->getOperand(0);
  return value;
}

namespace {

/// The reshape that is `kernel`'s whole body (one static collapse or expand
/// of its one argument, returned), or null.
Operation *reshapeBody(func::FuncOp kernel) {
  if (!kernel || kernel.getNumArguments() != 1 || kernel.getNumResults() != 1)
    return nullptr;
  Block &body = kernel.getBody().front();
  if (body.getOperations().size() != 2)
    return nullptr;
  Operation *reshape = &body.front();
  auto ret = dyn_cast<func::ReturnOp>(body.getTerminator());
  if (!isa<tensor::CollapseShapeOp, tensor::ExpandShapeOp>(reshape) ||
      reshape->getNumOperands() != 1 || reshape->getOperand(0) != body.getArgument(0) || !ret ||
      ret.getOperand(0) != reshape->getResult(0))
    return nullptr;
  return reshape;
}

/// Whether a copy writes `value`'s buffer in place after `value` was made
/// (a copy whose destination is `value`: the chain of copies into one
/// meshvk.empty, see PlanAllocations.cpp).
bool writtenInPlaceLater(Value value) {
  return llvm::any_of(value.getUsers(), [&](Operation *user) {
    auto copy = dyn_cast<CopyOp>(user);
    return copy && copy.getDest() == value;
  });
}

/// Whether the launch's result may be its operand's bytes: nothing writes
/// the operand's buffer, through any view of it, after the operand was
/// made, and nothing writes into the result.
bool mayView(LaunchOp launch) {
  if (writtenInPlaceLater(launch->getResult(0)))
    return false;
  for (Value v = launch->getOperand(0);; v = v.getDefiningOp()->getOperand(0)) {
    if (writtenInPlaceLater(v))
      return false;
    if (!isView(v.getDefiningOp()))
      return true;
  }
}

} // namespace

void viewReshapeLaunches(ModuleOp module) {
  SymbolTable symbols(module);
  bool replaced = false;
  for (auto plan : module.getOps<func::FuncOp>()) {
    if (!getPlan(plan))
      continue;
    for (auto launch : llvm::make_early_inc_range(plan.getOps<LaunchOp>())) {
      Operation *reshape = reshapeBody(symbols.lookup<func::FuncOp>(launch.getKernel()));
      if (!reshape || launch->getNumOperands() != 1 || !mayView(launch))
        continue;
      OpBuilder b(launch);
      IRMapping map;
      map.map(reshape->getOperand(0), launch->getOperand(0));
      Operation *view = b.clone(*reshape, map);
      setProcess(view, launch.getProcess());
      launch->replaceAllUsesWith(view);
      launch->erase();
      replaced = true;
    }
  }
  if (!replaced)
    return;
  for (auto kernel : llvm::make_early_inc_range(module.getOps<func::FuncOp>()))
    if (isKernel(kernel) && SymbolTable::symbolKnownUseEmpty(kernel, module))
      kernel->erase();
}

} // namespace meshvk
